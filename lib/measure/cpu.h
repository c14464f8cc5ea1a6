/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * CPU cost of the workers: busy against idle polling, TSC cycles of busy
 * time per frame and per byte, and how full the bursts are. The workers
 * publish raw counters (struct wr_worker_stats, one increment per burst);
 * everything here runs on the stats core and is plain arithmetic, so unit
 * tests check it without EAL.
 *
 * Cycles per frame is the machine-independent figure of DESIGN.md: busy TSC
 * cycles divided by the frames the lcore moved. A frame sent counts once on
 * the lcore that sent it and a frame received once on the lcore that
 * received it; an lcore that both sends and receives a frame counts it twice.
 */
#ifndef WR_CPU_H
#define WR_CPU_H

#include <stdint.h>

#include <rte_common.h>

#include "config/config.h"

/*
 * Frames-per-burst histogram bins: bin 0 holds bursts of 0 frames, bin b
 * (b >= 1) bursts of 2^(b-1) .. 2^b - 1 frames; the last bin holds 512.
 */
#define WR_CPU_BURST_BINS 11u
_Static_assert(WR_MAX_BURST < (1u << (WR_CPU_BURST_BINS - 1)) * 2,
	"the largest burst must fall in the last bin");

/* Bin of a burst of n frames: no division, one bit scan. */
static inline unsigned int
wr_cpu_burst_bin(uint16_t n)
{
	return rte_fls_u32(n);
}

/* One lcore's counters, cumulative or over an interval. */
struct wr_cpu_counters {
	uint64_t busy_tsc;          /* polls that moved frames */
	uint64_t idle_tsc;          /* polls that found nothing */
	uint64_t nb_busy_polls;
	uint64_t nb_idle_polls;
	uint64_t tx_pkts;           /* sent by the lcore's TX queues */
	uint64_t rx_pkts;           /* received by its RX queues */
	uint64_t tx_bytes;          /* frame bytes, FCS included */
	uint64_t rx_bytes;
	uint64_t tx_bursts[WR_CPU_BURST_BINS]; /* TX polls by frames taken */
	uint64_t rx_bursts[WR_CPU_BURST_BINS]; /* RX polls by frames received */
};

/* Figures derived from counters; 0 where the divisor is 0. */
struct wr_cpu_cost {
	double busy_ratio;          /* busy / (busy + idle) TSC, 0 .. 1 */
	double tsc_per_pkt;         /* busy TSC per frame moved (tx + rx) */
	double tsc_per_byte;        /* busy TSC per frame byte moved */
	double tx_pkts_per_burst;   /* frames per TX poll that sent any */
	double rx_pkts_per_burst;   /* frames per RX poll that received any */
};

/*
 * One port's share of the busy time of the lcores that serve it. An lcore
 * serving queues of several ports splits its busy cycles in proportion to
 * the frames each port's queues moved on it.
 */
struct wr_cpu_port {
	double busy_tsc;
	uint64_t pkts;              /* frames moved, tx + rx */
	uint64_t bytes;
};

/* out = cur - prev, field by field. This function can't fail. */
void wr_cpu_sub(const struct wr_cpu_counters *cur,
		const struct wr_cpu_counters *prev, struct wr_cpu_counters *out);

/* acc += x, field by field. This function can't fail. */
void wr_cpu_add(struct wr_cpu_counters *acc, const struct wr_cpu_counters *x);

/* Derive the cost figures of c. This function can't fail. */
void wr_cpu_cost(const struct wr_cpu_counters *c, struct wr_cpu_cost *out);

/* Busy TSC per frame and per byte of a port's share; 0 when nothing moved. */
void wr_cpu_port_cost(const struct wr_cpu_port *p, double *tsc_per_pkt,
		double *tsc_per_byte);

/*
 * The part of busy_tsc that part_pkts of all_pkts frames account for.
 * Returns 0 when all_pkts is 0.
 */
double wr_cpu_share(uint64_t busy_tsc, uint64_t part_pkts, uint64_t all_pkts);

/* Bursts in bins[] from bin first on (1: only bursts that moved frames). */
uint64_t wr_cpu_bursts(const uint64_t *bins, unsigned int first);

/* Smallest and largest burst size that bin holds. */
void wr_cpu_bin_range(unsigned int bin, unsigned int *lo, unsigned int *hi);

#endif /* WR_CPU_H */
