/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The TX path of the generator's worker: top up a queue's pending frames
 * from its pre-filled pool and stamp them (tx_fill, txstamp.h), ask the
 * pacer or the gate how many may leave, and offer them (tx_burst,
 * txsend.h). Internal to datapath: only worker.c includes this, so that
 * tx_burst stays inlined into the loop that calls it once per queue.
 */
#ifndef WR_WORKER_TX_H
#define WR_WORKER_TX_H

#include <rte_mempool.h>

#include "base/counter.h"
#include "txsend.h"
#include "txstamp.h"
#include "worker.h"

/* Top up the pending frames to cap; returns frames now pending. */
static inline uint16_t
tx_fill(struct wr_txq *q, uint32_t tsc_lo, uint16_t cap)
{
	uint16_t n = q->nb_pending;
	uint64_t left = q->limit_pkts - q->next_seq;
	uint16_t want = cap > n ? (uint16_t)(cap - n) : 0;

	if (unlikely(n != 0) && q->stamp == WR_STAMP_FULL)
		tx_restamp(q, n, tsc_lo);
	if (unlikely(left < want))
		want = (uint16_t)left;
	if (want == 0)
		return n;
	/*
	 * A raw get, not rte_pktmbuf_alloc_bulk: its reset writes both of an
	 * mbuf's header lines, and TX is bound by stores. The pool is this
	 * queue's alone (port.c): an mbuf comes back from the PMD's free with
	 * one reference, one segment and no next (rte_pktmbuf_prefree_seg),
	 * and every other field TX relies on is the pool's init (data_off,
	 * no offload flags, and data_len and pkt_len of a fixed-size queue)
	 * or written per frame (a size mix's lengths).
	 */
	if (unlikely(rte_mempool_get_bulk(q->pool, (void **)&q->pending[n], want) != 0)) {
		wr_counter_add(&q->st.nb_alloc_fail, 1);
		return n;
	}
	if (unlikely(q->var != NULL)) {
		tx_stamp_var(q, &q->pending[n], want, tsc_lo);
		return (uint16_t)(n + want);
	}
	tx_stamp(q, &q->pending[n], want, tsc_lo);
	if (q->nb_flows > 1)
		tx_stamp_flows(q, &q->pending[n], want);
	return (uint16_t)(n + want);
}

/* Rare path: a burst or poisson pattern says how many may leave now. */
static __rte_noinline uint16_t
tx_gate(struct wr_txq *q, uint64_t now_tsc)
{
	return (uint16_t)wr_gate_grant(&q->gate, now_tsc);
}

/* One TX burst; returns frames sent. */
static inline uint16_t
tx_burst(struct wr_txq *q, uint64_t now_tsc)
{
	/* The pacer, when on, says how many frames may leave now. */
	uint16_t cap = q->paced ? (uint16_t)wr_pace_grant(&q->pace, now_tsc,
		q->burst_pkts) : q->burst_pkts;
	uint16_t n;

	if (unlikely(q->gated))
		cap = tx_gate(q, now_tsc);
	n = tx_fill(q, (uint32_t)now_tsc, cap);
	return wr_txq_send(q, n, cap);
}

#endif /* WR_WORKER_TX_H */
