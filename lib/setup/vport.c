/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_devargs.h>
#include <rte_ether.h>

#include "base/units.h"
#include "config/stream.h"
#include "vport.h"

bool
wr_vport_memif(const struct wr_port *p)
{
	return strcmp(p->driver, "net_memif") == 0;
}

/* Value of key= in p's --vdev arguments (EAL's list), or -1. */
static long
vdev_arg(const struct wr_port *p, const char *key)
{
	struct rte_devargs *da;
	size_t klen = strlen(key);
	const char *s;

	RTE_EAL_DEVARGS_FOREACH("vdev", da) {
		if (strcmp(da->name, p->name) != 0 || da->args == NULL)
			continue;
		for (s = da->args; s != NULL && *s != '\0'; s = strchr(s, ',')) {
			if (*s == ',')
				s++;
			if (strncmp(s, key, klen) == 0 && s[klen] == '=')
				return strtol(s + klen + 1, NULL, 0);
		}
	}
	return -1;
}

/*
 * virtio-user receives a frame larger than one RX buffer over several
 * (chained mbufs, counted whole) only with mergeable buffers, its
 * default; with mrg_rxbuf=0 a frame must fit one buffer, and vhost holds
 * a larger one in its TX ring. The buffers follow --size: a note says
 * how large a frame they take.
 */
static int
vport_virtio_user(struct wr_port *p)
{
	if (p->rx && vdev_arg(p, "mrg_rxbuf") == 0)
		wr_port_note(p, "net_virtio_user with mrg_rxbuf=0: a received "
			"frame must fit one RX buffer of %u bytes (sized from "
			"--size); the peer holds a larger one", p->rx_mbuf_room);
	return 0;
}

int
wr_vport_check(struct wr_port *p, const struct wr_config *cfg, struct wr_error *err)
{
	uint32_t bsize, frame_len = cfg->frame_size - WR_UNITS_FCS_BYTES;
	char origin[64];
	long given;

	if (strcmp(p->driver, "net_virtio_user") == 0)
		return vport_virtio_user(p);
	if (!wr_vport_memif(p))
		return 0;
	given = vdev_arg(p, "bsize");
	bsize = given > 0 ? (uint32_t)given : WR_VPORT_MEMIF_BSIZE;
	if (frame_len <= bsize) {
		if (frame_len > RTE_ETHER_MAX_LEN - RTE_ETHER_CRC_LEN)
			wr_port_note(p, "net_memif: ethdev MTU left at its default (the "
				"PMD checks none); frames of %u bytes fit its %u-byte "
				"buffers", frame_len, bsize);
		return 0;
	}
	return wr_err_usage(err, -EINVAL, "port %u (net_memif): frame size %u "
		"(%s) does not fit one buffer of its ring (bsize=%u%s; a frame "
		"over several arrives split): add bsize=%u to the --vdev of both "
		"ends", p->port_id, cfg->frame_size,
		wr_stream_size_origin(cfg, origin, sizeof(origin)), bsize,
		given > 0 ? "" : ", the default", rte_align32pow2(frame_len));
}
