/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devinfo.h"

#define VMXNET3_V6_MAX_MTU 9190u      /* 9000 before hardware version 6 */
#define VMXNET3_PRE_V6_MAX_RXQ 16u
#define VMXNET3_PRE_V6_MAX_TXQ 8u

const char *
wr_devinfo_vmxnet3_version(uint16_t max_mtu, uint16_t max_rx_queues,
		uint16_t max_tx_queues)
{
	if (max_mtu >= VMXNET3_V6_MAX_MTU || max_rx_queues > VMXNET3_PRE_V6_MAX_RXQ ||
			max_tx_queues > VMXNET3_PRE_V6_MAX_TXQ)
		return ">=6";
	return "<6";
}

/* Read a sysfs hex attribute such as "0x15ad\n". */
static int
read_hex(const char *root, const char *addr, const char *attr, unsigned long *v)
{
	char path[PATH_MAX], buf[32], *end;
	FILE *f;
	int rc = 0;

	snprintf(path, sizeof(path), "%s/bus/pci/devices/%s/%s", root, addr, attr);
	f = fopen(path, "r");
	if (f == NULL)
		return -errno;
	if (fgets(buf, sizeof(buf), f) == NULL)
		rc = -EIO;
	fclose(f);
	if (rc != 0)
		return rc;
	*v = strtoul(buf, &end, 16);
	return end == buf ? -EINVAL : 0;
}

int
wr_devinfo_pci(const char *sysfs_root, const char *addr, struct wr_devinfo *out)
{
	unsigned long ven, dev, sven, sdev, rev;
	int rc;

	rc = read_hex(sysfs_root, addr, "vendor", &ven);
	if (rc == 0)
		rc = read_hex(sysfs_root, addr, "device", &dev);
	if (rc != 0)
		return rc;
	snprintf(out->pci_id, sizeof(out->pci_id), "%04lx:%04lx", ven & 0xffff,
		dev & 0xffff);
	if (read_hex(sysfs_root, addr, "subsystem_vendor", &sven) == 0 &&
			read_hex(sysfs_root, addr, "subsystem_device", &sdev) == 0)
		snprintf(out->pci_subsys, sizeof(out->pci_subsys), "%04lx:%04lx",
			sven & 0xffff, sdev & 0xffff);
	if (read_hex(sysfs_root, addr, "revision", &rev) == 0)
		out->pci_revision = (int)(rev & 0xff);
	return 0;
}
