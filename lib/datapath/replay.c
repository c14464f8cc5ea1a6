/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The replay loop (replay.h). Per TX queue and burst: stage the frames
 * whose time has come (all of them, up to the burst, when untimed), each
 * a copy of the queue's own given back by the PMD, with one reference
 * more set by a plain store (and, with --replay-stamp, a test header),
 * and offer them to rte_eth_tx_burst;
 * what the port did not take stays pending, in order, for the next burst.
 * Counters are published once per burst (counter.h).
 */
#include <string.h>

#include <rte_cycles.h>

#include "base/counter.h"
#include "base/frame.h"
#include "replay.h"
#include "txsend.h"
#include "txvar.h"
#include "worker.h"

/*
 * --replay-stamp: frame s of the file, in copy m, gets sequence seq and
 * timestamp tsc_lo, and its UDP checksum from the one set-up computed
 * with both 0 (RFC 1624 eqn 3, as txvar.h does for IPv6 test frames).
 */
static __rte_always_inline void
replay_stamp(struct rte_mbuf *m, const struct wr_replay_stamp *s, uint64_t seq,
		uint32_t tsc_lo)
{
	uint8_t *d = rte_pktmbuf_mtod(m, uint8_t *);
	struct wr_test_hdr *th = (struct wr_test_hdr *)(d + s->th_off);
	uint16_t ck = wr_txvar_csum6_of(s->ck_base, tsc_lo, seq);

	th->seq = seq;
	th->tsc_lo = tsc_lo;
	memcpy(d + s->ck_off, &ck, sizeof(ck));
}

/*
 * Stage q's next frames until cap are pending, its limit is reached,
 * (timed) the next frame is due after now_tsc, or the PMD still holds the
 * next frame's copy; stamp those with room when stamp (a constant in
 * each caller). Returns frames pending.
 */
static __rte_always_inline uint16_t
replay_fill(struct wr_txq *q, struct wr_replayq *r, uint64_t now_tsc, uint16_t cap,
		bool stamp)
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
		if (stamp && r->stamp[r->pos].th_off != 0)
			replay_stamp(m, &r->stamp[r->pos], r->stamp_seq++, (uint32_t)now_tsc);
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

/* One TX burst of replayed frames, stamped or not (decided once); returns
 * frames sent. */
static inline uint16_t
replay_burst(struct wr_txq *q, uint64_t now_tsc)
{
	uint16_t cap = q->paced ? (uint16_t)wr_pace_grant(&q->pace, now_tsc,
		q->burst_pkts) : q->burst_pkts;
	struct wr_replayq *r = q->replay;

	return wr_txq_send(q, r->stamp != NULL ? replay_fill(q, r, now_tsc, cap, true) :
		replay_fill(q, r, now_tsc, cap, false), cap);
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
		q->replay->stamp_seq = 0;
		q->replay->loop_start_tsc = now;
		if (q->paced)
			wr_pace_init(&q->pace, &q->pace_conf, now);
	}
	while (__atomic_load_n(&w->ctl->tx_stop, __ATOMIC_RELAXED) == 0) {
		work = wr_worker_poll_tx(w, now, replay_burst) + wr_worker_poll_rx(w, now);
		now = wr_worker_iter_end(w, work, now, rte_rdtsc);
	}
	wr_worker_tx_end(w);
	return wr_worker_rx_until_stop(w, now);
}
