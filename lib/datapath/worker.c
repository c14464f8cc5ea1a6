/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The hot paths. Per burst: one TSC read, bulk allocation from a pool whose
 * mbufs already hold the frame template, a stamp of sequence and timestamp
 * per frame (fewer fields with --stamp seq / none), one rte_eth_tx_burst; on
 * RX one burst, classification of each frame, bulk free. Counters are
 * published once per burst (counter.h).
 */
#include <string.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_prefetch.h>

#include "base/counter.h"
#include "base/frame.h"
#include "base/stack.h"
#include "capture.h"
#include "reflect.h"
#include "txstamp.h"
#include "worker.h"

#define RX_PREFETCH 4u

void
wr_txq_reset(struct wr_txq *q)
{
	q->next_seq = 0;
	q->flow = 0;
	q->var_pos = 0;
	q->nb_pending = 0;
	q->done = 0;
	memset(&q->st, 0, sizeof(q->st));
}

void
wr_rxq_reset(struct wr_rxq *q)
{
	unsigned int i;

	memset(&q->st, 0, sizeof(q->st));
	wr_hist_init(&q->lat);
	wr_hist_pub_init(&q->lat_pub);
	q->nb_active = 0;
	for (i = 0; i < 2; i++) {
		q->pub[i].nb_streams = 0;
		q->pub[i].nb_unpublished = 0;
		wr_hist_init(&q->pub[i].lat);
		q->pub[i].ivl_min_tsc = UINT64_MAX;
		q->pub[i].ivl_max_tsc = 0;
	}
	for (i = 0; i < WR_MAX_STREAMS; i++) {
		struct wr_rx_stream *s = &q->streams[i];

		wr_seq_init(&s->seq);
		wr_jitter_init(&s->jitter);
		s->lat_min_tsc = UINT64_MAX;
		s->lat_max_tsc = 0;
		s->lat_sum_tsc = 0;
		s->lat_sum_hi = 0;
		s->nb_lat = 0;
		memset(&s->iat, 0, sizeof(s->iat));
		s->nb_burst_pkts = 0;
	}
}

/* Counts of src into h, and the moments from the streams given. */
static void
lat_counts(struct wr_hist *h, const struct wr_hist *src)
{
	unsigned int b;

	for (b = 0; b < WR_HIST_NB_BUCKETS; b++)
		h->counts[b] += src->counts[b];
	h->nb_overflow += src->nb_overflow;
}

static void
lat_stream(struct wr_hist *h, const struct wr_rx_stream *s)
{
	if (s->nb_lat == 0)
		return;
	h->nb += s->nb_lat;
	h->sum += s->lat_sum_tsc;
	h->sum_hi += s->lat_sum_hi + (h->sum < s->lat_sum_tsc);
	h->min = RTE_MIN(h->min, s->lat_min_tsc);
	h->max = RTE_MAX(h->max, s->lat_max_tsc);
}

void
wr_rxq_lat_final(struct wr_hist *h, const struct wr_rxq *q)
{
	unsigned int i;

	lat_counts(h, &q->lat);
	for (i = 0; i < q->nb_active; i++)
		lat_stream(h, &q->streams[q->active[i]]);
}

void
wr_rxq_lat_pub(struct wr_hist *h, const struct wr_rxq_pub *pb)
{
	unsigned int i;

	lat_counts(h, &pb->lat);
	for (i = 0; i < pb->nb_streams; i++)
		lat_stream(h, &pb->streams[i]);
}

/*
 * Copy q's state into the copy for request req (struct wr_rxq_pub); read:
 * the last request whose copies the stats core read. Of the latency
 * histogram (12 KB) only the buckets that changed since this copy was last
 * written are copied (wr_hist_pub_copy).
 */
static void
rxq_publish(struct wr_rxq *q, uint64_t req, uint64_t read)
{
	struct wr_rxq_pub *pb = &q->pub[req & 1];
	unsigned int i, n = RTE_MIN(q->nb_active, WR_PUB_STREAMS);

	wr_hist_pub_copy(&q->lat_pub, &q->lat, &pb->lat, req, read,
		&pb->ivl_min_tsc, &pb->ivl_max_tsc);
	for (i = 0; i < n; i++) {
		pb->sid[i] = q->active[i];
		pb->streams[i] = q->streams[q->active[i]];
	}
	pb->nb_streams = (uint16_t)n;
	pb->nb_unpublished = (uint16_t)(q->nb_active - n);
	__atomic_store_n(&q->pub_done, req, __ATOMIC_RELEASE);
}

void
wr_worker_publish(struct wr_worker *w, uint64_t req)
{
	uint64_t read = __atomic_load_n(&w->ctl->pub_read, __ATOMIC_RELAXED);
	unsigned int i;

	for (i = 0; i < w->nb_rx; i++)
		rxq_publish(w->rx[i], req, read);
	w->pub_seen = req;
}

/* Rare path: the first frame of a stream on this queue. */
static __rte_noinline void
rx_stream_new(struct wr_rxq *q, uint16_t sid)
{
	q->active[q->nb_active++] = sid;
}

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
	if (unlikely(rte_pktmbuf_alloc_bulk(q->pool, &q->pending[n], want) != 0)) {
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

/* Free what is still pending at stop; it was never sent. */
static void
tx_drain(struct wr_txq *q)
{
	if (q->nb_pending == 0)
		return;
	rte_pktmbuf_free_bulk(q->pending, q->nb_pending);
	wr_counter_add(&q->st.nb_unsent_pkts, q->nb_pending);
	q->nb_pending = 0;
}

/* Per-burst tallies, published once. */
struct rx_tally {
	uint64_t bytes;
	uint64_t slow_free;  /* non-zero: some mbuf needs rte_pktmbuf_free */
	uint32_t own;
	uint32_t foreign;
	uint32_t malformed;
	uint32_t odd;        /* --capture: own frames out of sequence */
};

/* Streams one RX burst touched, each once (not initialised: nb first). */
struct rx_sids {
	unsigned int nb;
	uint16_t id[WR_MAX_BURST];
};

/*
 * Inter-arrival gaps of the streams of a burst stamped now_tsc (each with
 * s->nb_burst_pkts frames): one fold per stream per burst, out of line,
 * instead of a bin per frame.
 */
static __rte_noinline void
rx_iat_burst(struct wr_rxq *q, const struct rx_sids *b, uint64_t now_tsc)
{
	unsigned int i;

	for (i = 0; i < b->nb; i++) {
		struct wr_rx_stream *s = &q->streams[b->id[i]];

		wr_iat_fold(&s->iat, now_tsc, s->nb_burst_pkts);
		s->nb_burst_pkts = 0;
	}
}

/*
 * Sequence, latency and jitter of one own frame; false: unknown stream.
 * Latency is summed once, per stream; the queue's histogram only counts
 * buckets (its moments come from the streams, wr_rxq_lat_final).
 * When odd is not NULL (--capture), *odd says the sequence was not the
 * one the stream expected (a gap before it, late, or a duplicate). A
 * stream's first frame of the burst adds it to b.
 */
static __rte_always_inline bool
rx_own(struct wr_rxq *q, const struct wr_frame_rx *fr, uint64_t now_tsc,
		bool *odd, struct rx_sids *b)
{
	struct wr_rx_stream *s;
	uint64_t lat;

	if (unlikely(fr->stream_id >= WR_MAX_STREAMS))
		return false;
	s = &q->streams[fr->stream_id];
	if (unlikely(!s->seq.started))
		rx_stream_new(q, fr->stream_id);
	if (odd != NULL)
		*odd = s->seq.started && fr->seq != s->seq.next_seq;
	wr_seq_update(&s->seq, fr->seq);
	/* Inter-arrival: note the stream once, count its frames (rx_iat_burst). */
	if (s->nb_burst_pkts++ == 0)
		b->id[b->nb++] = fr->stream_id;
	/* 32-bit TSC difference: exact for latencies below 2^32 cycles. */
	lat = (uint32_t)((uint32_t)now_tsc - fr->tsc_lo);
	wr_hist_count(&q->lat, lat);
	wr_jitter_update(&s->jitter, lat);
	s->lat_sum_tsc += lat;
	s->lat_sum_hi += s->lat_sum_tsc < lat;
	s->nb_lat++;
	if (lat < s->lat_min_tsc)
		s->lat_min_tsc = lat;
	if (lat > s->lat_max_tsc)
		s->lat_max_tsc = lat;
	wr_hist_pub_note(&q->lat_pub, lat);
	return true;
}

/*
 * Non-zero unless m can go straight back to pool like a freshly allocated
 * mbuf (what rte_pktmbuf_prefree_seg would find): one reference, one
 * segment (so no next), direct, from pool. Branch-free; it reads only the
 * mbuf's first cache line, which the burst loop reads anyway.
 */
static inline uint64_t
rx_not_raw(const struct rte_mbuf *m, const struct rte_mempool *pool)
{
	return (uint64_t)(rte_mbuf_refcnt_read(m) ^ 1) | (uint64_t)(m->nb_segs ^ 1) |
		(m->ol_flags & (RTE_MBUF_F_INDIRECT | RTE_MBUF_F_EXTERNAL)) |
		((uintptr_t)m->pool ^ (uintptr_t)pool);
}

/*
 * Free a burst: one bulk put into the pool when every mbuf is plain
 * (t->slow_free == 0), else the general rte_pktmbuf_free_bulk.
 */
static inline void
rx_free(struct rte_mbuf **pkts, uint16_t nb, const struct rx_tally *t)
{
	if (likely(t->slow_free == 0))
		rte_mempool_put_bulk(pkts[0]->pool, (void **)pkts, nb);
	else
		rte_pktmbuf_free_bulk(pkts, nb);
}

/*
 * Rare path: a frame that is not own where a plain frame has its test
 * header (class c from wr_frame_classify). A foreign one may still carry
 * one inside a header stack or after headers a DUT pushed or popped: walk
 * to the innermost UDP payload (base/stack.h, docs/accounting.md).
 */
static __rte_noinline enum wr_frame_class
rx_rare(const struct rte_mbuf *m, enum wr_frame_class c, struct wr_frame_rx *fr)
{
	const uint8_t *d = rte_pktmbuf_mtod(m, const uint8_t *);
	struct wr_stack_found f;
	struct wr_test_hdr th;
	int found;

	if (c != WR_FRAME_FOREIGN)
		return c;
	found = wr_stack_find(d, m->data_len, WR_FRAME_MAGIC, WR_FRAME_TH_LEN, &f);
	if (found != 1)
		return found == 2 ? WR_FRAME_MALFORMED : WR_FRAME_FOREIGN;
	memcpy(&th, d + f.th_off, sizeof(th));
	fr->stream_id = th.stream_id;
	fr->seq = th.seq;
	fr->tsc_lo = th.tsc_lo;
	return WR_FRAME_OWN;
}

/*
 * Classify one received burst into t and, when why is not NULL
 * (--capture; a constant in each caller), each frame into why[i].
 */
static __rte_always_inline void
rx_classify(struct wr_rxq *q, struct rte_mbuf **pkts, uint16_t nb,
		uint64_t now_tsc, struct rx_tally *t, uint8_t *why)
{
	const struct rte_mempool *pool = pkts[0]->pool;
	struct rx_sids b;
	struct wr_frame_rx fr;
	bool odd = false;
	uint16_t i;

	b.nb = 0;
	for (i = 0; i < nb && i < RX_PREFETCH; i++)
		rte_prefetch0(rte_pktmbuf_mtod(pkts[i], void *));
	for (i = 0; i < nb; i++) {
		struct rte_mbuf *m = pkts[i];
		enum wr_frame_class c;

		if (i + RX_PREFETCH < nb)
			rte_prefetch0(rte_pktmbuf_mtod(pkts[i + RX_PREFETCH], void *));
		t->bytes += m->pkt_len;
		t->slow_free |= rx_not_raw(m, pool);
		c = wr_frame_classify(rte_pktmbuf_mtod(m, const uint8_t *),
			m->data_len, &fr);
		if (unlikely(c != WR_FRAME_OWN))
			c = rx_rare(m, c, &fr);
		if (likely(c == WR_FRAME_OWN) &&
				likely(rx_own(q, &fr, now_tsc, why ? &odd : NULL, &b))) {
			t->own++;
			if (why != NULL) {
				why[i] = odd ? WR_CAPTURE_WHY_SEQ : WR_CAPTURE_WHY_NONE;
				t->odd += odd;
			}
		} else if (c == WR_FRAME_FOREIGN) {
			t->foreign++;
			if (why != NULL)
				why[i] = WR_CAPTURE_WHY_FOREIGN;
		} else {
			t->malformed++;
			if (why != NULL)
				why[i] = WR_CAPTURE_WHY_MALFORMED;
		}
	}
	t->bytes += (uint64_t)nb * RTE_ETHER_CRC_LEN;
	if (likely(b.nb != 0))
		rx_iat_burst(q, &b, now_tsc);
}

/* --capture on: classify with reasons, then capture.c keeps and frees. */
static __rte_noinline void
rx_capture(struct wr_rxq *q, struct rte_mbuf **pkts, uint16_t nb,
		uint64_t now_tsc, struct rx_tally *t)
{
	uint8_t why[WR_MAX_BURST];
	struct wr_capq_burst b = { pkts, why, now_tsc, nb, false, false };

	rx_classify(q, pkts, nb, now_tsc, t, why);
	b.anomalous = t->foreign != 0 || t->malformed != 0 || t->odd != 0;
	b.raw = t->slow_free == 0;
	wr_capq_burst(q->cap, &b);
}

/* One RX burst; returns frames received. */
static inline uint16_t
rx_burst(struct wr_rxq *q)
{
	struct rte_mbuf *pkts[WR_MAX_BURST];
	uint16_t nb = rte_eth_rx_burst(q->port, q->queue, pkts, q->burst_pkts);
	struct rx_tally t = { 0 };
	uint64_t now;

	if (nb == 0)
		return 0;
	/* Read after the burst so no frame is stamped later than now. */
	now = rte_rdtsc();
	if (unlikely(q->cap != NULL)) {
		rx_capture(q, pkts, nb, now, &t);
	} else {
		rx_classify(q, pkts, nb, now, &t, NULL);
		rx_free(pkts, nb, &t);
	}
	wr_rxq_stamp(&q->st, now);
	wr_counter_add(&q->st.nb_pkts, nb);
	wr_counter_add(&q->st.nb_bytes, t.bytes);
	wr_counter_add(&q->st.nb_own_pkts, t.own);
	if (unlikely(t.foreign != 0))
		wr_counter_add(&q->st.nb_foreign_pkts, t.foreign);
	if (unlikely(t.malformed != 0))
		wr_counter_add(&q->st.nb_malformed_pkts, t.malformed);
	return nb;
}

/* Count one poll of a queue in its frames-per-burst bin. */
static inline void
count_burst(uint64_t *bins, uint16_t n)
{
	wr_counter_add(&bins[wr_cpu_burst_bin(n)], 1);
}

static inline unsigned int
poll_rx(struct wr_worker *w)
{
	unsigned int i, work = 0;
	uint16_t n;

	for (i = 0; i < w->nb_rx; i++) {
		n = rx_burst(w->rx[i]);
		count_burst(w->st.rx_bursts, n);
		work += n;
	}
	return work;
}

/*
 * One burst on each TX queue, but none on a port whose link the stats core
 * saw go down (wr_ctl.tx_paused, one load per loop): its frames would go
 * into a dead link, and a PMD tearing the link down (memif unmaps its
 * shared rings) is not raced by more bursts than it must be.
 */
static inline unsigned int
poll_tx(struct wr_worker *w, uint64_t now_tsc)
{
	uint64_t paused = __atomic_load_n(&w->ctl->tx_paused, __ATOMIC_RELAXED);
	unsigned int i, work = 0;
	uint16_t n;

	for (i = 0; i < w->nb_tx; i++) {
		if (unlikely(paused != 0) && (paused >> w->tx[i]->pidx & 1) != 0)
			continue;
		n = tx_burst(w->tx[i], now_tsc);
		count_burst(w->st.tx_bursts, n);
		work += n;
	}
	return work;
}

int
wr_worker_main(void *arg)
{
	struct wr_worker *w = arg;
	uint64_t now = rte_rdtsc();
	unsigned int i, work;

	if (w->mode == WR_WORKER_REFLECT)
		return wr_reflect_main(w);

	/* Pacing starts now; the configuration was validated at set-up. */
	for (i = 0; i < w->nb_tx; i++) {
		if (w->tx[i]->paced)
			wr_pace_init(&w->tx[i]->pace, &w->tx[i]->pace_conf, now);
		if (w->tx[i]->gated)
			w->tx[i]->gate.next_tsc = now;
	}

	while (__atomic_load_n(&w->ctl->tx_stop, __ATOMIC_RELAXED) == 0) {
		work = poll_tx(w, now) + poll_rx(w);
		now = wr_worker_iter_end(w, work, now, rte_rdtsc);
	}
	for (i = 0; i < w->nb_tx; i++)
		tx_drain(w->tx[i]);
	while (__atomic_load_n(&w->ctl->rx_stop, __ATOMIC_RELAXED) == 0) {
		work = poll_rx(w);
		now = wr_worker_iter_end(w, work, now, rte_rdtsc);
	}
	for (i = 0; i < w->nb_rx; i++)
		if (w->rx[i]->cap != NULL)
			wr_capq_flush(w->rx[i]->cap);
	return 0;
}
