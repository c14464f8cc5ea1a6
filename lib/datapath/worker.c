/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The hot paths. Per burst: one TSC read, bulk allocation from a pool whose
 * mbufs already hold the frame template, a stamp of sequence and timestamp
 * per frame (fewer fields with --stamp seq / none), one rte_eth_tx_burst; on
 * RX one burst, classification of each frame, bulk free. Counters are
 * published once per burst (counter.h).
 */
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_prefetch.h>

#include "base/counter.h"
#include "base/frame.h"
#include "base/stack.h"
#include "capture.h"
#include "reflect.h"
#include "rxmbuf.h"
#include "svcq.h"
#include "txsend.h"
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
	/*
	 * A raw get, not rte_pktmbuf_alloc_bulk: its reset writes both of an
	 * mbuf's header lines, and TX is bound by stores. The pool is this
	 * queue's alone (port.c): an mbuf comes back from the PMD's free with
	 * one reference, one segment and no next (rte_pktmbuf_prefree_seg),
	 * and every other field TX relies on is the pool's init (data_off,
	 * no offload flags) or written per frame (data_len, pkt_len).
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

/* Per-burst tallies, published once. */
struct rx_tally {
	uint64_t bytes;
	uint64_t slow_free;  /* non-zero: some mbuf needs rte_pktmbuf_free */
	uint32_t own;
	uint32_t foreign;
	uint32_t malformed;
	uint32_t service;    /* --port-ip: handed to the main lcore (svcq.h) */
	uint32_t service_drop; /* of those: its ring full, freed */
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
 * Latency and jitter of one own frame of stream s (rx_own, when the
 * queue counts latency). Latency is summed once, per stream; the queue's
 * histogram only counts buckets (its moments come from the streams,
 * wr_rxq_lat_final).
 */
static __rte_always_inline void
rx_own_lat(struct wr_rxq *q, struct wr_rx_stream *s, uint32_t tsc_lo,
		uint64_t now_tsc)
{
	/* 32-bit TSC difference: exact for latencies below 2^32 cycles. */
	const uint64_t lat = (uint32_t)((uint32_t)now_tsc - tsc_lo);

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
}

/*
 * Sequence and, with lat (a constant in each caller), latency of one own
 * frame; false: unknown stream. When odd is not NULL (--capture), *odd
 * says the sequence was not the one the stream expected (a gap before
 * it, late, or a duplicate). A stream's first frame of the burst adds it
 * to b.
 */
static __rte_always_inline bool
rx_own(struct wr_rxq *q, const struct wr_frame_rx *fr, uint64_t now_tsc,
		bool *odd, struct rx_sids *b, bool lat)
{
	struct wr_rx_stream *s;

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
	if (lat)
		rx_own_lat(q, s, fr->tsc_lo, now_tsc);
	return true;
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

/* What the rare path of one burst needs (rx_classify's, by address). */
struct rx_ctx {
	struct wr_rxq *q;
	struct rx_tally *t;
	struct rx_sids *b;
	struct rte_mbuf **pkts;
	const struct rte_mempool *pool; /* the burst's first mbuf's */
	uint64_t now_tsc;
	uint16_t nb;
};

/* Prefetch the data of the frame RX_PREFETCH after frame i, if any. */
static __rte_always_inline void
rx_prefetch(struct rte_mbuf **pkts, uint16_t i, uint16_t nb)
{
	if (i + RX_PREFETCH < nb)
		rte_prefetch0(rte_pktmbuf_mtod(pkts[i + RX_PREFETCH], void *));
}

/*
 * A frame that is not own where a plain frame has its test header (class
 * c from wr_frame_classify). A foreign one may still carry
 * one inside a header stack or after headers a DUT pushed or popped: walk
 * to the innermost UDP payload (base/stack.h, docs/accounting.md).
 */
static enum wr_frame_class
rx_stack(const struct rte_mbuf *m, enum wr_frame_class c, struct wr_frame_rx *fr)
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
 * A foreign frame of a port with --port-ip: a service frame goes to the
 * main lcore (svcq.h), counted apart in r; returns true. Else false, and
 * a malformed ARP / ND / echo frame turns *k malformed.
 */
static __rte_noinline bool
rx_service(struct wr_rxq *q, struct rx_tally *r, struct rte_mbuf *m,
		enum wr_frame_class *k)
{
	enum wr_svcq_verdict v = wr_svcq_rx(q, m);

	if (v == WR_SVCQ_MALFORMED)
		*k = WR_FRAME_MALFORMED;
	if (v == WR_SVCQ_FOREIGN || v == WR_SVCQ_MALFORMED)
		return false;
	r->service++;
	r->service_drop += v == WR_SVCQ_DROPPED;
	r->slow_free = 1;  /* the burst's free must leave the ring's reference */
	return true;
}

/*
 * False when the frame at d can be neither own (plain or inside a header
 * stack) nor a service frame, by its outermost EtherType: it is foreign
 * without classifying it (frames of zeros, LLDP, ...). A type field
 * below 0x0800 is ruled out by its first byte alone, one test instead of
 * the list (every type of the list is 0x0800 or more): IEEE 802.3 frames
 * (a length there, below 0x0600: LLC such as STP BPDUs) and frames of
 * zeros take it (docs/bench.md, "rx64").
 */
static __rte_always_inline bool
rx_may_matter(const uint8_t *d, uint32_t len)
{
	if (len < RTE_ETHER_HDR_LEN || d[12] < RTE_ETHER_TYPE_IPV4 >> 8)
		return false;
	return wr_stack_may_carry(d, len) ||
		*(const uint16_t *)(d + 12) == RTE_BE16(RTE_ETHER_TYPE_ARP);
}

/*
 * One frame of the rare path that may matter (rx_may_matter), at d: the
 * whole classification, counted into r and, when why is not NULL
 * (--capture), why it is kept.
 */
static __rte_always_inline void
rx_rare_frame(const struct rx_ctx *c, struct rx_tally *r,
		struct rte_mbuf *m, const uint8_t *d, uint8_t *why)
{
	struct wr_frame_rx fr = { 0 };
	enum wr_frame_class k;
	bool odd = false;

	k = wr_frame_classify(d, m->data_len, &fr);
	if (k == WR_FRAME_FOREIGN)
		k = rx_stack(m, k, &fr);
	if (k == WR_FRAME_FOREIGN && c->q->svc != NULL &&
			rx_service(c->q, r, m, &k)) {
		if (why != NULL)
			*why = WR_CAPTURE_WHY_NONE;
		return;
	}
	if (k == WR_FRAME_OWN && rx_own(c->q, &fr, c->now_tsc, why ? &odd : NULL,
			c->b, c->q->count_lat)) {
		r->own++;
		if (why != NULL) {
			*why = odd ? WR_CAPTURE_WHY_SEQ : WR_CAPTURE_WHY_NONE;
			r->odd += odd;
		}
	} else if (k == WR_FRAME_FOREIGN) {
		r->foreign++;
		if (why != NULL)
			*why = WR_CAPTURE_WHY_FOREIGN;
	} else {
		r->malformed++;
		if (why != NULL)
			*why = WR_CAPTURE_WHY_MALFORMED;
	}
}

/*
 * Frames first..nb-1 of a burst whose frame first is not an own untagged
 * IPv4 frame of a known stream (wr_frame_own4, rx_own): other shapes
 * (VLAN, IPv6), not our frames, malformed ones. Each is counted and
 * classified in full, in arrival order, in one loop (no call per frame,
 * no second pass); why as in rx_classify, a constant in each caller.
 * A frame whose EtherType rules out both an own frame and a service frame
 * (rx_may_matter) is counted foreign at once. This loop is bound by loads
 * (rxmbuf.h), so it reads each mbuf's fields once and prefetches nothing:
 * a prefetch of frame i + 4 here cost 13 % on all-foreign RX (docs/bench.md).
 */
static __rte_always_inline void
rx_rare_burst(const struct rx_ctx *c, uint16_t first, uint8_t *why)
{
	struct rte_mbuf **pkts = c->pkts;
	const struct rte_mempool *pool = c->pool;
	const uint16_t nb = c->nb;
	struct rx_tally r = { 0 };  /* a local: kept in registers */
	uint64_t bytes = 0, slow = 0;
	uint32_t foreign = 0;
	uint16_t i;

	for (i = first; i < nb; i++) {
		struct rte_mbuf *m = pkts[i];
		const uint64_t w = wr_rx_rearm(m);
		const uint8_t *d = wr_rx_data(m, w);
		const uint16_t len = m->data_len;

		bytes += len;
		slow |= wr_rx_not_raw(m, w, pool);
		if (likely(!rx_may_matter(d, len))) {
			foreign++;
			if (why != NULL)
				why[i] = WR_CAPTURE_WHY_FOREIGN;
			continue;
		}
		rx_rare_frame(c, &r, m, d, why != NULL ? &why[i] : NULL);
	}
	c->t->bytes += bytes;  /* r counts no bytes: the loop does */
	c->t->slow_free |= slow | r.slow_free;
	c->t->own += r.own;
	c->t->foreign += foreign + r.foreign;
	c->t->malformed += r.malformed;
	c->t->service += r.service;
	c->t->service_drop += r.service_drop;
	c->t->odd += r.odd;
}

/* The rare path without --capture, out of line: at most once per burst. */
static __rte_noinline void
rx_rare(const struct rx_ctx *c, uint16_t first)
{
	rx_rare_burst(c, first, NULL);
}


/*
 * Classify one received burst into t and, when why is not NULL
 * (--capture; a constant in each caller), each frame into why[i]; with
 * lat (a constant too) own frames' latency is counted. Per
 * frame one test takes an own untagged IPv4 frame; from the first frame
 * that is not, rx_rare takes the rest of the burst. The burst's sums live
 * in locals (t may alias the stream updates' stores, so its fields would
 * be reloaded per frame) and reach t once.
 */
static __rte_always_inline void
rx_classify(struct wr_rxq *q, struct rte_mbuf **pkts, uint16_t nb,
		uint64_t now_tsc, struct rx_tally *t, uint8_t *why, bool lat)
{
	const struct rte_mempool *pool = pkts[0]->pool;
	struct rx_sids b;
	struct wr_frame_rx fr;
	uint64_t bytes = 0, slow = 0;
	uint32_t own = 0;
	bool odd = false;
	uint16_t i;

	b.nb = 0;
	for (i = 0; i < nb && i < RX_PREFETCH; i++)
		rte_prefetch0(rte_pktmbuf_mtod(pkts[i], void *));
	for (i = 0; i < nb; i++) {
		struct rte_mbuf *m = pkts[i];
		const uint64_t w = wr_rx_rearm(m);
		const uint16_t len = m->data_len;

		rx_prefetch(pkts, i, nb);
		if (unlikely(!wr_frame_own4(wr_rx_data(m, w), len, &fr)) ||
				unlikely(!rx_own(q, &fr, now_tsc, why ? &odd : NULL, &b, lat)))
			break;
		bytes += len;
		slow |= wr_rx_not_raw(m, w, pool);
		own++;
		if (why != NULL) {
			why[i] = odd ? WR_CAPTURE_WHY_SEQ : WR_CAPTURE_WHY_NONE;
			t->odd += odd;
		}
	}
	t->own += own;
	t->slow_free |= slow;
	t->bytes += bytes + (uint64_t)nb * RTE_ETHER_CRC_LEN;
	if (unlikely(i < nb)) {
		const struct rx_ctx c = { q, t, &b, pkts, pool, now_tsc, nb };

		if (why != NULL)   /* rx_capture: out of line already */
			rx_rare_burst(&c, i, why);
		else
			rx_rare(&c, i);
	}
	if (unlikely(t->slow_free != 0))  /* chained frames: their other segments */
		t->bytes += wr_rx_chained_bytes(pkts, nb);
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

	rx_classify(q, pkts, nb, now_tsc, t, why, q->count_lat);
	b.anomalous = t->foreign != 0 || t->malformed != 0 || t->odd != 0;
	b.raw = t->slow_free == 0;
	wr_capq_burst(q->cap, &b);
}

/* Publish a burst's service frames (rare: --port-ip). */
static __rte_noinline void
rx_count_service(struct wr_rxq_stats *st, const struct rx_tally *t)
{
	wr_counter_add(&st->nb_service_pkts, t->service);
	wr_counter_add(&st->nb_service_drop_pkts, t->service_drop);
}

/*
 * One RX burst of a poll that began at TSC poll_tsc (the loop's last
 * read); returns frames received. The burst's stamp (inter-arrival,
 * first and last frame) is poll_tsc, unless latency is counted or frames
 * captured: then a read after the burst, so that no frame is stamped
 * before it arrived. A TSC read costs what classifying nine frames of
 * zeros does on some CPUs (docs/bench.md).
 */
static inline uint16_t
rx_burst(struct wr_rxq *q, uint64_t poll_tsc)
{
	struct rte_mbuf *pkts[WR_MAX_BURST];
	uint16_t nb = rte_eth_rx_burst(q->port, q->queue, pkts, q->burst_pkts);
	struct rx_tally t = { 0 };
	uint64_t now = poll_tsc;

	if (nb == 0)
		return 0;
	if (q->count_lat || q->cap != NULL)
		now = rte_rdtsc();
	if (unlikely(q->cap != NULL)) {
		rx_capture(q, pkts, nb, now, &t);
	} else {
		if (likely(q->count_lat))
			rx_classify(q, pkts, nb, now, &t, NULL, true);
		else
			rx_classify(q, pkts, nb, now, &t, NULL, false);
		rx_free(pkts, nb, &t);
	}
	/* --rx-clock own: a burst of foreign frames only (a switch's BPDUs,
	 * LLDP) neither starts the clock nor holds off the idle timeout. One
	 * branch per burst, taken the same way burst after burst. */
	if ((t.own | (uint32_t)q->clock_any) != 0)
		wr_rxq_stamp(&q->st, now);
	wr_counter_add(&q->st.nb_pkts, nb);
	wr_counter_add(&q->st.nb_bytes, t.bytes);
	wr_counter_add(&q->st.nb_own_pkts, t.own);
	if (unlikely(t.foreign != 0))
		wr_counter_add(&q->st.nb_foreign_pkts, t.foreign);
	if (unlikely(t.malformed != 0))
		wr_counter_add(&q->st.nb_malformed_pkts, t.malformed);
	if (unlikely(t.service != 0))
		rx_count_service(&q->st, &t);
	return nb;
}

/* Count one poll of a queue in its frames-per-burst bin. */
static inline void
count_burst(uint64_t *bins, uint16_t n)
{
	wr_counter_add(&bins[wr_cpu_burst_bin(n)], 1);
}

static inline unsigned int
poll_rx(struct wr_worker *w, uint64_t poll_tsc)
{
	unsigned int i, work = 0;
	uint16_t n;

	for (i = 0; i < w->nb_rx; i++) {
		n = rx_burst(w->rx[i], poll_tsc);
		count_burst(w->st.rx_bursts, n);
		work += n;
	}
	return work;
}

unsigned int
wr_worker_poll_rx(struct wr_worker *w, uint64_t poll_tsc)
{
	return poll_rx(w, poll_tsc);
}

/* One burst on each TX queue of a port whose link is up (txsend.h). */
static inline unsigned int
poll_tx(struct wr_worker *w, uint64_t now_tsc)
{
	if (unlikely(w->svc_tx))
		wr_svcq_poll_tx(w);
	return wr_worker_poll_tx(w, now_tsc, tx_burst);
}

/*
 * Rare path, at most once per loop: the controller published new pace
 * configurations (wr_ctl.pace_gen). Copied while the generation is even
 * and unchanged across the copy, else retried on the next loop.
 */
static __rte_noinline void
repace(struct wr_worker *w, uint64_t now_tsc)
{
	struct wr_pace_conf conf[WR_MAX_QPW];
	uint64_t gen = __atomic_load_n(&w->ctl->pace_gen, __ATOMIC_ACQUIRE);
	unsigned int i;

	if (gen & 1)
		return;
	for (i = 0; i < w->nb_tx; i++)
		conf[i] = w->tx[i]->pace_live;
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	if (__atomic_load_n(&w->ctl->pace_gen, __ATOMIC_RELAXED) != gen)
		return;
	for (i = 0; i < w->nb_tx; i++) {
		if (conf[i].pps <= 0.0 || w->tx[i]->gated)
			continue;
		/* Checked by the controller: this cannot fail here. A queue
		 * paced before keeps its clamp and stall counts. */
		if ((w->tx[i]->paced ? wr_pace_rerate(&w->tx[i]->pace, &conf[i], now_tsc) :
				wr_pace_init(&w->tx[i]->pace, &conf[i], now_tsc)) == 0)
			w->tx[i]->paced = true;
	}
	w->pace_gen = gen;
}

/* CPU time the kernel gave the calling thread, in ns; 0 if unreadable. */
static uint64_t
thread_cpu_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Of that, time spent in the kernel in the thread's context, in ns. */
static uint64_t
thread_sys_ns(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru) != 0)
		return 0;
	return (uint64_t)ru.ru_stime.tv_sec * 1000000000u +
		(uint64_t)ru.ru_stime.tv_usec * 1000u;
}

int
wr_worker_main(void *arg)
{
	struct wr_worker *w = arg;
	uint64_t sys0 = thread_sys_ns(), cpu0 = thread_cpu_ns();
	uint64_t now = rte_rdtsc(), start = now;
	unsigned int i, work;

	if (w->mode == WR_WORKER_REFLECT)
		return wr_reflect_main(w);
	if (w->mode == WR_WORKER_REPLAY)
		return wr_replay_main(w);

	/* Pacing starts now; the configuration was validated at set-up.
	 * w->pace_gen is the trial's first generation (trial.c): a live rate
	 * published since the launch is applied on the first loop. */
	for (i = 0; i < w->nb_tx; i++) {
		if (w->tx[i]->paced)
			wr_pace_init(&w->tx[i]->pace, &w->tx[i]->pace_conf, now);
		if (w->tx[i]->gated)
			w->tx[i]->gate.next_tsc = now;
	}

	while (__atomic_load_n(&w->ctl->tx_stop, __ATOMIC_RELAXED) == 0) {
		if (unlikely(__atomic_load_n(&w->ctl->pace_gen, __ATOMIC_RELAXED) !=
				w->pace_gen))
			repace(w, now);
		work = poll_tx(w, now) + poll_rx(w, now);
		now = wr_worker_iter_end(w, work, now, rte_rdtsc);
	}
	wr_counter_set(&w->st.loop_cpu_ns, thread_cpu_ns() - cpu0);
	wr_counter_set(&w->st.loop_sys_ns, thread_sys_ns() - sys0);
	wr_counter_set(&w->st.loop_tsc, rte_rdtsc() - start);
	for (i = 0; i < w->nb_tx; i++)
		wr_txq_drain(w->tx[i]);
	return wr_worker_rx_until_stop(w, now);
}

int
wr_worker_rx_until_stop(struct wr_worker *w, uint64_t now)
{
	unsigned int i, work;

	while (__atomic_load_n(&w->ctl->rx_stop, __ATOMIC_RELAXED) == 0) {
		work = poll_rx(w, now);
		now = wr_worker_iter_end(w, work, now, rte_rdtsc);
	}
	for (i = 0; i < w->nb_rx; i++)
		if (w->rx[i]->cap != NULL)
			wr_capq_flush(w->rx[i]->cap);
	return 0;
}
