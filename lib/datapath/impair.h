/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The --impair fixture at run time: an ethdev RX callback per RX queue
 * applying the rules of config/impair_spec.h to our own frames, so tests
 * (and lab users checking their accounting) know exactly what the receiver
 * must report.
 */
#ifndef WR_IMPAIR_H
#define WR_IMPAIR_H

#include <stddef.h>
#include <stdint.h>

#include <rte_mbuf.h>

#include "config/impair_spec.h"

/* What one RX queue's fixture did; written by the lcore polling it. */
struct wr_impair_q {
	struct wr_impair_spec spec;
	struct rte_mbuf *held;      /* frame waiting to be passed late */
	uint64_t nb_dropped;
	uint64_t nb_duplicated;
	uint64_t nb_reordered;
	uint64_t nb_delayed_polls;
	uint64_t nb_policed;
	double tokens;              /* policer bucket, frames */
	uint64_t last_tsc;          /* policer refill time, 0: not started */
};

/*
 * The RX callback (rte_rx_callback_fn). user_param is a struct
 * wr_impair_q. The caller's array must hold 2 * max_pkts + 1 mbufs: the
 * receiver asks for at most WR_IMPAIR_MAX_BURST with a WR_MAX_BURST array.
 */
uint16_t wr_impair_rx(uint16_t port_id, uint16_t queue, struct rte_mbuf **pkts,
		uint16_t nb_pkts, uint16_t max_pkts, void *user_param);

/* Zero what the fixture counted (a new trial). This function can't fail. */
void wr_impair_reset_counts(struct wr_impair_q *q);

/* Free a frame still held at the end. This function can't fail. */
void wr_impair_flush(struct wr_impair_q *q);

#endif /* WR_IMPAIR_H */
