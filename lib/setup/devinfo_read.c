/* SPDX-License-Identifier: BSD-3-Clause */
/* The device fingerprint from what the running EAL knows (devinfo.h). */
#include <stdio.h>
#include <string.h>

#include <rte_bus.h>
#include <rte_dev.h>

#include "devinfo.h"

void
wr_devinfo_read(const struct rte_eth_dev_info *info, const char *driver,
		const char *sysfs_root, struct wr_devinfo *out)
{
	const struct rte_bus *bus;

	memset(out, 0, sizeof(*out));
	out->pci_revision = -1;
	if (info->device != NULL) {
		bus = rte_dev_bus(info->device);
		if (bus != NULL)
			snprintf(out->bus, sizeof(out->bus), "%s", rte_bus_name(bus));
		snprintf(out->device, sizeof(out->device), "%s",
			rte_dev_name(info->device));
	}
	if (strcmp(out->bus, "pci") == 0)
		(void)wr_devinfo_pci(sysfs_root, out->device, out);
	if (strcmp(driver, "net_vmxnet3") == 0)
		snprintf(out->vmxnet3_version, sizeof(out->vmxnet3_version), "%s",
			wr_devinfo_vmxnet3_version(info->max_mtu, info->max_rx_queues,
			info->max_tx_queues));
}
