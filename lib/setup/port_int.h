/* SPDX-License-Identifier: BSD-3-Clause */
/* Shared by port.c (probe, queues, pools of RX) and port_tx.c (the TX
 * frame templates and their pools): internal to setup/. */
#ifndef WR_SETUP_PORT_INT_H
#define WR_SETUP_PORT_INT_H

#include <stdint.h>

#define WR_PORT_POOL_CACHE 128u

/*
 * Per-lcore cache of a pool of n mbufs: none for the tiny pools of
 * --pool-mbufs, where cached mbufs would hide the exhaustion under test
 * (the mempool also refuses a cache above n / 1.5).
 */
static inline unsigned int
wr_port_pool_cache(uint32_t n)
{
	return n >= 3u * WR_PORT_POOL_CACHE ? WR_PORT_POOL_CACHE : 0;
}

#endif /* WR_SETUP_PORT_INT_H */
