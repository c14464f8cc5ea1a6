/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef WR_SETUP_VPORT_H
#define WR_SETUP_VPORT_H

#include <stdint.h>

#include "base/error.h"
#include "config/config.h"
#include "port.h"

/* net_memif's ring buffer size when bsize= is not given (its default). */
#define WR_VPORT_MEMIF_BSIZE 2048u

/*
 * True when p is a net_memif port: it checks no MTU (its rte_eth_dev_info
 * says 1518 bytes, and configuring a larger MTU fails), so its ethdev
 * MTU is left at the default. This function can't fail.
 */
bool wr_vport_memif(const struct wr_port *p);

/*
 * Check that cfg's largest frame (less its FCS) fits one buffer of a
 * net_memif port p's ring (its bsize= argument, 2048 by default): a
 * frame spread over several buffers arrives split, late and duplicated
 * (measured with DPDK 22.11: 20000 frames of 9018 bytes sent, 14275
 * counted as sent). A net_virtio_user port that receives with
 * mrg_rxbuf=0 gets a note: a frame must fit one of its RX buffers.
 * Other ports: 0. Returns 0 (a note on p says what
 * the ring holds) or -EINVAL (usage: the message names bsize= and the
 * value to add to both ends' --vdev).
 */
int wr_vport_check(struct wr_port *p, const struct wr_config *cfg,
		struct wr_error *err);

#endif
