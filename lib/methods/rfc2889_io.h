/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * One RFC 2889 address trial on the wire (5.7.2, 5.8.2), driven from the
 * main lcore while no worker runs: the learning port sends one learning
 * frame from each of N addresses, the test port one test frame to each,
 * every receive queue of the three ports is polled the whole time, and
 * our frames (rfc2889_frame.h) of this trial are counted by kind and
 * port. The rates are a few thousand frames/s to a few hundred
 * thousand: a slow path, paced by the TSC, not the workers' hot path.
 */
#ifndef WR_RFC2889_IO_H
#define WR_RFC2889_IO_H

#include <stdint.h>

#include <rte_mempool.h>

#include "rfc2889.h"
#include "rfc2889_addr.h"
#include "base/error.h"

/* The three roles, as indices of the arrays below. */
enum { WR_R2889_PLEARN, WR_R2889_PTEST, WR_R2889_PMON, WR_R2889_NB_PORTS };

/* The ports of the trials, and what they share. Owned by the method. */
struct wr_r2889_io {
	uint16_t port_id[WR_R2889_NB_PORTS];	/* DPDK port ids */
	uint16_t nb_rxq[WR_R2889_NB_PORTS];	/* receive queues polled */
	uint8_t mac[WR_R2889_NB_PORTS][WR_ADDR_MAC_LEN];
	struct rte_mempool *pool;		/* the frames' mbufs */
	uint64_t tsc_hz;
	const volatile int *signals;		/* non-zero: stop */
	uint16_t trial;				/* this trial's number */
};

/* What one trial sends. */
struct wr_r2889_send {
	const struct wr_addr_plan *plan;	/* its first nb addresses */
	uint32_t nb;
	double learn_pps;
	double test_pps;
	uint64_t settle_ms;			/* after each phase */
};

/*
 * Run trial s on io into c (learn_flooded: learning frames seen at the
 * monitoring port). Returns 0, -EINTR on a signal, or -EIO with err set
 * when a port would not take a frame for a second.
 */
int wr_r2889_io_trial(const struct wr_r2889_io *io,
		const struct wr_r2889_send *s, struct wr_rfc2889_counts *c,
		uint64_t *learn_flooded, struct wr_error *err);

/* Drop whatever waits in the three ports' receive queues. Can't fail. */
void wr_r2889_io_drain(const struct wr_r2889_io *io);

#endif /* WR_RFC2889_IO_H */
