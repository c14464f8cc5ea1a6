/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The receive side the RFC 2889 trials share (rfc2889_io.h, the address
 * trials; rfc2889_meshio.h, the meshed ones), driven from the main lcore:
 * every receive queue of their ports polled, each frame handed to the
 * trial's count with the TSC of its burst, then freed; a settle wait
 * that polls; a drain that drops. Nothing here prints.
 */
#ifndef WR_RFC2889_RX_H
#define WR_RFC2889_RX_H

#include <stdint.h>

#include <rte_mbuf.h>

/* A trial's count of frame m received at its port r, at TSC now. */
typedef void (*wr_r2889_count_fn)(void *arg, unsigned int r,
		const struct rte_mbuf *m, uint64_t now);

/* The ports polled, and what counts their frames. */
struct wr_r2889_rx {
	unsigned int nb_ports;
	const uint16_t *port_id;	/* nb_ports DPDK port ids */
	const uint16_t *nb_rxq;		/* each one's receive queues */
	uint64_t tsc_hz;
	const volatile int *signals;	/* non-zero: stop */
	wr_r2889_count_fn count;	/* NULL: drop */
	void *arg;
};

/* Poll every receive queue of rx once. This function can't fail. */
void wr_r2889_rx_poll(const struct wr_r2889_rx *rx);

/* Drop whatever waits in rx's queues (its count unused). Can't fail. */
void wr_r2889_rx_drain(const struct wr_r2889_rx *rx);

/* Poll rx for ms. Returns 0 or -EINTR on a signal. */
int wr_r2889_rx_settle(const struct wr_r2889_rx *rx, uint64_t ms);

#endif /* WR_RFC2889_RX_H */
