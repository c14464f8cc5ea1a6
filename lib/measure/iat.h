/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Gaps between a stream's arrivals on one RX queue (inter-arrival times),
 * by RX burst time: the frames of one burst share its TSC, so every frame
 * of a burst after the first is 0 cycles from the one before. Pure: no
 * EAL, no I/O.
 */
#ifndef WR_IAT_H
#define WR_IAT_H

#include <stdint.h>

/* Inter-arrival bins: 0 holds gaps of 0 cycles, k > 0 [2^(k-1), 2^k). */
#define WR_IAT_BINS 48u

/* Gaps of one stream on one RX queue. Written only by the owning lcore. */
struct wr_rx_iat {
	uint64_t last_tsc;        /* previous arrival; 0: none yet */
	uint64_t nb;              /* gaps counted */
	uint64_t sum_tsc;
	double sumsq_tsc;         /* for the coefficient of variation */
	uint64_t bins[WR_IAT_BINS];
};

/*
 * Add nb_pkts (>= 1) frames of one RX burst stamped now_tsc to a: the one
 * real gap since the previous arrival (none for the stream's first frame)
 * and nb_pkts - 1 gaps of 0 cycles. The result equals nb_pkts arrivals
 * added one by one. Called once per stream per burst, never per frame.
 * This function can't fail.
 */
void wr_iat_fold(struct wr_rx_iat *a, uint64_t now_tsc, uint32_t nb_pkts);

#endif /* WR_IAT_H */
