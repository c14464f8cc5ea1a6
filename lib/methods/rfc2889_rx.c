/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>

#include "rfc2889_rx.h"

#define RX_BURST 32u
/* Polls of a drain: what a queue held, and what arrived meanwhile. */
#define RX_DRAIN_POLLS 8u

/* Poll every queue once; count: hand each frame to rx's count. */
static void
poll(const struct wr_r2889_rx *rx, bool count)
{
	struct rte_mbuf *b[RX_BURST];
	unsigned int r, i;
	uint64_t now;
	uint16_t q, n;

	for (r = 0; r < rx->nb_ports; r++) {
		for (q = 0; q < rx->nb_rxq[r]; q++) {
			n = rte_eth_rx_burst(rx->port_id[r], q, b, RX_BURST);
			now = n ? rte_rdtsc() : 0;
			for (i = 0; i < n; i++) {
				if (count && rx->count != NULL)
					rx->count(rx->arg, r, b[i], now);
				rte_pktmbuf_free(b[i]);
			}
		}
	}
}

void
wr_r2889_rx_poll(const struct wr_r2889_rx *rx)
{
	poll(rx, true);
}

void
wr_r2889_rx_drain(const struct wr_r2889_rx *rx)
{
	unsigned int i;

	for (i = 0; i < RX_DRAIN_POLLS; i++)
		poll(rx, false);
}

int
wr_r2889_rx_settle(const struct wr_r2889_rx *rx, uint64_t ms)
{
	uint64_t end = rte_rdtsc() + ms * rx->tsc_hz / 1000;

	do {
		if (rx->signals != NULL && *rx->signals != 0)
			return -EINTR;
		poll(rx, true);
	} while (rte_rdtsc() < end);
	return 0;
}
