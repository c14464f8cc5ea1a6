/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The replay loop (replay.h). Per TX queue and burst: stage the frames
 * whose time has come (all of them, up to the burst, when untimed), each
 * a copy of the queue's own given back by the PMD, with one reference
 * more set by a plain store, and offer them to rte_eth_tx_burst;
 * what the port did not take stays pending, in order, for the next burst.
 * Counters are published once per burst (counter.h).
 */
#include <rte_cycles.h>

#include "base/counter.h"
#include "replay.h"
#include "txsend.h"
#include "worker.h"

/*
 * Stage q's next frames until cap are pending, its limit is reached,
 * (timed) the next frame is due after now_tsc, or the PMD still holds the
 * next frame's copy. Returns frames pending.
 */
static inline uint16_t
replay_fill(struct wr_txq *q, struct wr_replayq *r, uint64_t now_tsc, uint16_t cap)
{
	uint64_t left = q->limit_pkts - q->next_seq;
	uint16_t n = q->nb_pending;
	uint16_t want = cap > n ? (uint16_t)(cap - n) : 0;
	struct rte_mbuf *m;

	if (unlikely(left < want))
		want = (uint16_t)left;
	for (; want > 0; want--) {
		if (r->due_tsc != NULL && r->loop_start_tsc + r->due_tsc[r->pos] > now_tsc)
			break;
		m = r->mbufs[r->copy];
		/*
		 * Count 1: only our reference, the PMD's free of its last send
		 * is done (acquire: before anything after it), and no other
		 * lcore can touch the copy; the PMD's free takes back the one
		 * set here. Otherwise the port still holds it: wait.
		 */
		if (unlikely(__atomic_load_n(&m->refcnt, __ATOMIC_ACQUIRE) != 1))
			break;
		rte_mbuf_refcnt_set(m, 2);
		q->pending[n++] = m;
		q->next_seq++;
		if (unlikely(++r->copy == r->nb_copies))
			r->copy = 0;
		if (unlikely(++r->pos == r->nb)) {
			r->pos = 0;
			r->loop_start_tsc += r->loop_tsc;
		}
	}
	return n;
}

/* One TX burst of replayed frames; returns frames sent. */
static inline uint16_t
replay_burst(struct wr_txq *q, uint64_t now_tsc)
{
	uint16_t cap = q->paced ? (uint16_t)wr_pace_grant(&q->pace, now_tsc,
		q->burst_pkts) : q->burst_pkts;

	return wr_txq_send(q, replay_fill(q, q->replay, now_tsc, cap), cap);
}

int
wr_replay_main(struct wr_worker *w)
{
	uint64_t now = rte_rdtsc();
	unsigned int i, work;

	/* The file's clock and the pacer start now, at every trial. */
	for (i = 0; i < w->nb_tx; i++) {
		struct wr_txq *q = w->tx[i];

		q->replay->pos = 0;
		q->replay->copy = 0;
		q->replay->loop_start_tsc = now;
		if (q->paced)
			wr_pace_init(&q->pace, &q->pace_conf, now);
	}
	while (__atomic_load_n(&w->ctl->tx_stop, __ATOMIC_RELAXED) == 0) {
		work = wr_worker_poll_tx(w, now, replay_burst) + wr_worker_poll_rx(w);
		now = wr_worker_iter_end(w, work, now, rte_rdtsc);
	}
	for (i = 0; i < w->nb_tx; i++)
		wr_txq_drain(w->tx[i]);
	return wr_worker_rx_until_stop(w, now);
}
