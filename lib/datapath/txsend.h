/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The end of one TX burst, shared by the generator (worker_tx.h) and the
 * replay loop (replay.c): offer what is pending, keep what the port did
 * not take, in order, and publish the counters once.
 */
#ifndef WR_TXSEND_H
#define WR_TXSEND_H

#include <string.h>

#include <rte_ethdev.h>

#include "base/counter.h"
#include "worker.h"

/*
 * Offer the first min(n, cap) of q's n pending frames to the PMD; the
 * pacer or the gate, when on, is told what left. With nothing to offer,
 * q is marked done once all of limit_pkts were sent. Returns frames sent.
 * Only q's lcore may call this.
 */
static __rte_always_inline uint16_t
wr_txq_send(struct wr_txq *q, uint16_t n, uint16_t cap)
{
	uint16_t offer = RTE_MIN(n, cap), sent;

	if (offer == 0) {
		if (n == 0 && q->next_seq == q->limit_pkts && q->done == 0)
			wr_counter_set(&q->done, 1);
		return 0;
	}
	sent = rte_eth_tx_burst(q->port, q->queue, q->pending, offer);
	if (q->paced)
		wr_pace_commit(&q->pace, sent);
	else if (unlikely(q->gated))
		wr_gate_commit(&q->gate, sent);
	if (unlikely(sent < n)) {
		memmove(q->pending, q->pending + sent, (n - sent) * sizeof(q->pending[0]));
		if (sent < offer)
			wr_counter_add(&q->st.nb_full_pkts, offer - sent);
	}
	q->nb_pending = (uint16_t)(n - sent);
	wr_counter_add(&q->st.nb_pkts, sent);
	return sent;
}

/*
 * One burst (burst(q, now_tsc), frames sent) on each TX queue of w, but
 * none on a port whose link the stats core saw go down (wr_ctl.tx_paused,
 * one load per loop): its frames would go into a dead link, and a PMD
 * tearing the link down (memif unmaps its shared rings) is not raced by
 * more bursts than it must be. burst is a constant in each caller, so it
 * is inlined. Returns frames sent. Only w's lcore.
 */
static __rte_always_inline unsigned int
wr_worker_poll_tx(struct wr_worker *w, uint64_t now_tsc,
		uint16_t (*burst)(struct wr_txq *q, uint64_t now_tsc))
{
	uint64_t paused = __atomic_load_n(&w->ctl->tx_paused, __ATOMIC_RELAXED);
	unsigned int i, work = 0;
	uint16_t n;

	for (i = 0; i < w->nb_tx; i++) {
		if (unlikely(paused != 0) && (paused >> w->tx[i]->pidx & 1) != 0)
			continue;
		n = burst(w->tx[i], now_tsc);
		wr_counter_add(&w->st.tx_bursts[wr_cpu_burst_bin(n)], 1);
		work += n;
	}
	return work;
}

/*
 * Free what q still has pending at stop (for replayed frames: give back
 * their references); it was never sent. Only q's lcore.
 */
static inline void
wr_txq_drain(struct wr_txq *q)
{
	if (q->nb_pending == 0)
		return;
	rte_pktmbuf_free_bulk(q->pending, q->nb_pending);
	wr_counter_add(&q->st.nb_unsent_pkts, q->nb_pending);
	q->nb_pending = 0;
}

/*
 * The end of w's TX once it saw ctl->tx_stop: each paced queue's budget
 * settled up to the stop's TSC (wr_pace_settle: frames owed by a worker
 * off its CPU at the end count as clamped, not silently missing), then
 * what is pending freed (wr_txq_drain). Only w's lcore.
 */
static inline void
wr_worker_tx_end(struct wr_worker *w)
{
	uint64_t end_tsc;
	unsigned int i;

	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	end_tsc = w->ctl->tx_stop_tsc;
	for (i = 0; i < w->nb_tx; i++) {
		if (w->tx[i]->paced)
			wr_pace_settle(&w->tx[i]->pace, end_tsc);
		wr_txq_drain(w->tx[i]);
	}
}

#endif /* WR_TXSEND_H */
