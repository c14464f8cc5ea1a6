/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * rte_pcapng as each supported DPDK release has it (base/dpdk_compat.h):
 * the calls capture.c makes, with the same meaning on 22.11 to 25.11.
 */
#ifndef WR_PCAPNG_COMPAT_H
#define WR_PCAPNG_COMPAT_H

#include <stdint.h>

#include <rte_mbuf.h>
#include <rte_pcapng.h>

/*
 * A pcapng writer on fd (it owns fd from now on, closed on failure) with one interface block per
 * ethdev port, in port order, so a block's interface is its port (what
 * 22.11's rte_pcapng_fdopen() writes itself; 23.11 and later add them
 * with rte_pcapng_add_interface()). NULL with rte_errno on failure.
 */
rte_pcapng_t *wr_pcapng_open(int fd);

/*
 * A pcapng block (in mp) holding the first len bytes of received frame m
 * of port and queue, marked inbound; NULL when mp is out of mbufs.
 */
struct rte_mbuf *wr_pcapng_copy(uint16_t port, uint16_t queue,
	const struct rte_mbuf *m, struct rte_mempool *mp, uint32_t len);

/*
 * Set a block's receive time (tsc, or ns since the epoch by the run's own
 * clock pair) and original length, in the form rte_pcapng_write_packets()
 * expects: 22.11 writes the timestamp as is (its rte_pcapng_copy()
 * converted the TSC itself, off by a constant), 23.11 and later convert
 * a TSC with the clock pair of the handle (only forwards from its
 * opening: pc must be opened before the first frame is received).
 */
void wr_pcapng_set_time(struct rte_mbuf *b, uint64_t tsc, uint64_t ns,
	uint32_t orig_len);

/*
 * 22.11's rte_pcapng_copy() ties its TSC conversion to its first call and
 * only moves it forwards: make that call now, before any frame is
 * received. Nothing to do on later releases. Returns 0 or -ENOMEM.
 */
int wr_pcapng_clock_start(struct rte_mempool *mp);

#endif
