/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The RX path of the generator's worker, top to bottom: one burst
 * (wr_rxq_burst), the own-frame fast path (rx_classify, rx_own), the rare
 * path (rx_rare: other shapes, header stacks, foreign and malformed
 * frames), the --port-ip service punt (rx_service, svcq.h) and the
 * --capture hand-off (rx_capture, capture.h); then the burst's free and
 * its counters, published once (counter.h). The loop that calls
 * wr_rxq_burst, once per queue and poll, is worker.c's.
 */
#include <string.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_prefetch.h>

#include "base/counter.h"
#include "base/frame.h"
#include "base/stack.h"
#include "capture.h"
#include "rxmbuf.h"
#include "svcq.h"
#include "worker.h"

#define RX_PREFETCH 4u

/* Rare path: the first frame of a stream on this queue. */
static __rte_noinline void
rx_stream_new(struct wr_rxq *q, uint16_t sid)
{
	q->active[q->nb_active++] = sid;
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
 * A run of own frames of one stream within a burst, each the sequence the
 * stream expects next (the steady case, seq.h): counted in locals, which
 * stay in registers, and folded into the stream once (rx_run_end), not a
 * load and a store of a dozen stream fields per frame, each waiting on
 * the last frame's store. The result is what rx_own would have left:
 * latency per frame in order (the jitter's recurrence in last and jx16),
 * the histogram's buckets per frame, sums and extremes at the end.
 */
struct rx_run {
	struct wr_rx_stream *s;   /* the stream; NULL: no run */
	uint64_t first;           /* sequence of the run's first frame */
	uint64_t next;            /* the sequence that extends it */
	uint64_t sum, min, max;   /* of the run's latencies */
	uint64_t last, jx16;      /* the stream's jitter state, run along */
	uint32_t sid;             /* s's stream id; UINT32_MAX: none */
	uint32_t ovf;             /* latencies over the histogram's range */
};

/*
 * After rx_own counted a frame of stream sid (so the stream is in the
 * burst's list): a run from the sequence it expects next, if it is
 * steady and (with lat) has a delay for the jitter; else no run.
 */
static __rte_always_inline void
rx_run_begin(struct wr_rxq *q, struct rx_run *r, uint16_t sid, bool lat)
{
	struct wr_rx_stream *s = &q->streams[sid];

	r->sid = UINT32_MAX;
	r->s = NULL;
	if (unlikely(!s->seq.steady) || (lat && unlikely(!s->jitter.have_last)))
		return;
	r->s = s;
	r->sid = sid;
	r->first = s->seq.next_seq;
	r->next = r->first;
	if (lat) {
		r->sum = 0;
		r->min = UINT64_MAX;
		r->max = 0;
		r->last = s->jitter.last_delay;
		r->jx16 = s->jitter.jitter_x16;
		r->ovf = 0;
	}
}

/* One frame that extends run r (its sequence is r->next), as rx_own. */
static __rte_always_inline void
rx_run_frame(struct wr_rxq *q, struct rx_run *r, uint32_t tsc_lo,
		uint64_t now_tsc, bool lat)
{
	r->next++;
	if (lat) {
		const uint64_t v = (uint32_t)((uint32_t)now_tsc - tsc_lo);
		const uint64_t d = v > r->last ? v - r->last : r->last - v;

		q->lat.counts[wr_hist_bucket(v)]++;
		r->ovf += v > WR_HIST_MAX_VALUE;
		r->last = v;
		r->jx16 += d - ((r->jx16 + 8) >> 4);   /* wr_jitter_update */
		r->sum += v;   /* < 2^32 a frame, WR_MAX_BURST frames: no wrap */
		if (v < r->min)
			r->min = v;
		if (v > r->max)
			r->max = v;
	}
}

/*
 * Fold the n frames of run r into its stream and the queue (rx_run_end),
 * out of line: once per run. Inlined, it cost RX of foreign frames, which
 * never make a run, 1-4 % a frame (docs/dev/bench.md).
 */
static __rte_noinline void
rx_run_fold(struct wr_rxq *q, struct rx_run *r, uint64_t n, bool lat)
{
	struct wr_rx_stream *s = r->s;

	wr_seq_update_run(&s->seq, r->first, n);
	s->nb_burst_pkts += (uint32_t)n;
	if (lat) {
		s->jitter.last_delay = r->last;
		s->jitter.jitter_x16 = r->jx16;
		s->lat_sum_tsc += r->sum;
		s->lat_sum_hi += s->lat_sum_tsc < r->sum;
		s->nb_lat += n;
		if (r->min < s->lat_min_tsc)
			s->lat_min_tsc = r->min;
		if (r->max > s->lat_max_tsc)
			s->lat_max_tsc = r->max;
		q->lat.nb_overflow += r->ovf;
		wr_hist_pub_note(&q->lat_pub, r->min);
		wr_hist_pub_note(&q->lat_pub, r->max);
	}
}

/* Fold run r, if any, into its stream (rx_run_fold); then it is empty. */
static __rte_always_inline void
rx_run_end(struct wr_rxq *q, struct rx_run *r, bool lat)
{
	const uint64_t n = r->next - r->first;

	if (r->s == NULL || n == 0)
		return;
	rx_run_fold(q, r, n, lat);
	r->first = r->next;
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
 * zeros take it (docs/dev/bench.md, "rx64").
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
 * Bytes of every header the classifiers read (a VLAN tag, IPv6, UDP and
 * the test header, base/frame.h), with room to spare.
 */
#define RX_HDRS_MAX_LEN 128u

/*
 * The length m is classified by. A chained frame (buffers smaller than
 * the frame: vhost and virtio's mergeable buffers split a jumbo frame
 * over several) counts by its whole length, pkt_len, when its first
 * segment holds every header the classifiers read; else by data_len, so
 * nothing past the first segment is read.
 */
static __rte_always_inline uint32_t
rx_class_len(const struct rte_mbuf *m)
{
	if (likely(m->nb_segs == 1) || m->data_len < RX_HDRS_MAX_LEN)
		return m->data_len;
	return m->pkt_len;
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

	k = wr_frame_classify(d, rx_class_len(m), &fr);
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
 * a prefetch of frame i + 4 here cost 13 % on all-foreign RX (docs/dev/bench.md).
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

/*
 * The rare path without --capture, out of line: at most once per burst.
 * Aligned to 64 bytes so that where the link puts it does not decide
 * its loop's cost: the same instructions cost 4 % more a frame on
 * all-foreign RX (rx64) at another offset from a 32-byte boundary, on
 * the Intel Xeon of docs/dev/bench.md ("The worker split").
 */
static __rte_noinline __rte_aligned(64) void
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
	struct rx_run run;
	struct rx_sids b;
	struct wr_frame_rx fr;
	uint64_t bytes = 0, slow = 0;
	uint32_t own = 0;
	bool odd = false;
	uint16_t i;

	b.nb = 0;
	run.s = NULL;
	run.sid = UINT32_MAX;
	run.first = run.next = 0;
	for (i = 0; i < nb && i < RX_PREFETCH; i++)
		rte_prefetch0(rte_pktmbuf_mtod(pkts[i], void *));
	for (i = 0; i < nb; i++) {
		struct rte_mbuf *m = pkts[i];
		const uint64_t w = wr_rx_rearm(m);
		const uint16_t len = m->data_len;

		rx_prefetch(pkts, i, nb);
		if (unlikely(!wr_frame_own4(wr_rx_data(m, w), len, &fr)))
			break;
		/* Without --capture (no per-frame verdict): runs (rx_run). */
		if (why == NULL && likely(fr.stream_id == run.sid &&
				fr.seq == run.next)) {
			rx_run_frame(q, &run, fr.tsc_lo, now_tsc, lat);
		} else {
			if (why == NULL)
				rx_run_end(q, &run, lat);
			if (unlikely(!rx_own(q, &fr, now_tsc, why ? &odd : NULL, &b, lat)))
				break;
			if (why == NULL)
				rx_run_begin(q, &run, fr.stream_id, lat);
		}
		bytes += len;
		slow |= wr_rx_not_raw(m, w, pool);
		own++;
		if (why != NULL) {
			why[i] = odd ? WR_CAPTURE_WHY_SEQ : WR_CAPTURE_WHY_NONE;
			t->odd += odd;
		}
	}
	if (why == NULL)
		rx_run_end(q, &run, lat);
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
 * zeros does on some CPUs (docs/dev/bench.md). Called once per queue and
 * poll by the loop (worker.c): a call per burst, as when it was a static
 * function there (too large for the compiler to inline).
 */
uint16_t
wr_rxq_burst(struct wr_rxq *q, uint64_t poll_tsc)
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
