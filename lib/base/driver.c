/* SPDX-License-Identifier: BSD-3-Clause */
/* What a PMD's name says of its port (driver.h). */
#include <string.h>

#include "base/driver.h"

static bool
in_list(const char *driver, const char *const *list, size_t n)
{
	size_t i;

	for (i = 0; driver != NULL && i < n; i++)
		if (strcmp(driver, list[i]) == 0)
			return true;
	return false;
}

bool
wr_driver_speed_is_label(const char *driver)
{
	static const char *const virt[] = {
		"net_vmxnet3", "net_e1000_em", "net_virtio", "net_virtio_user",
		"net_vhost", "net_ring", "net_null", "net_memif", "net_tap",
		"net_af_packet", "net_af_xdp", "net_pcap",
	};

	return in_list(driver, virt, sizeof(virt) / sizeof(virt[0]));
}

bool
wr_driver_no_wire(const char *driver)
{
	static const char *const mem[] = {
		"net_ring", "net_null", "net_memif", "net_vhost", "net_virtio_user",
	};

	return in_list(driver, mem, sizeof(mem) / sizeof(mem[0]));
}
