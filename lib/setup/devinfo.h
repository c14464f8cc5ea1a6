/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Which device is behind a port, for the result's environment
 * fingerprint: its bus and bus name (PCI address or vdev name), the PCI
 * ids from sysfs, and the vmxnet3 hardware version where the PMD's limits
 * tell it. Read once at probe time, while the device is attached.
 */
#ifndef WR_DEVINFO_H
#define WR_DEVINFO_H

#include <stddef.h>
#include <stdint.h>

#include <rte_ethdev.h>

struct wr_devinfo {
	char bus[16];             /* "pci", "vdev", ...; "" unknown */
	char device[64];          /* the bus's name: PCI address, vdev name */
	char pci_id[16];          /* "15ad:07b0" vendor:device; "" off PCI */
	char pci_subsys[16];      /* subsystem vendor:device; "" unknown */
	int pci_revision;         /* -1 unknown */
	char vmxnet3_version[8];  /* ">=6" or "<6"; "" unless vmxnet3 */
};

/*
 * Fill out for port_id: bus and device name from rte_dev_bus() /
 * rte_dev_name() of info->device, PCI ids from sysfs_root (normally
 * "/sys"; tests pass a fixture) when the bus is PCI, and the vmxnet3
 * version from info when driver is net_vmxnet3. Fields it cannot learn
 * stay empty. This function can't fail.
 */
void wr_devinfo_read(const struct rte_eth_dev_info *info, const char *driver,
		const char *sysfs_root, struct wr_devinfo *out);

/*
 * Read vendor, device, subsystem ids and revision of the PCI device addr
 * ("0000:0b:00.0") under sysfs_root/bus/pci/devices. Returns 0 or -errno
 * when the device's files cannot be read (out keeps what was read).
 */
int wr_devinfo_pci(const char *sysfs_root, const char *addr,
		struct wr_devinfo *out);

/*
 * vmxnet3 hardware version class from the PMD's limits: version 6
 * devices offer MTU 9190 and 32 queues, earlier ones MTU 9000 and at most
 * 8 TX / 16 RX queues. Returns ">=6" or "<6".
 */
const char *wr_devinfo_vmxnet3_version(uint16_t max_mtu, uint16_t max_rx_queues,
		uint16_t max_tx_queues);

#endif /* WR_DEVINFO_H */
