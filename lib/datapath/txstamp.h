/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * TX stamping, per burst: the length, sequence number and timestamp of each
 * new frame (each --stamp mode its own loop, no per-frame test), UDP source
 * ports of --flows, the per-frame size and IPv6 checksum of a --mix or
 * --ipv6 queue (txvar.h), and the header fields of field ranges
 * (txflow.h). Only worker_tx.h includes this: everything here is inlined
 * into its TX burst (and that into worker.c's loop).
 */
#ifndef WR_TXSTAMP_H
#define WR_TXSTAMP_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_byteorder.h>
#include <rte_mbuf.h>

#include "base/counter.h"
#include "base/frame.h"
#include "worker.h"

/*
 * The sequence (seq) and timestamp (ts) of n new frames, when asked.
 * Always inlined with constant flags, so each --stamp mode gets its own
 * loop with no per-frame test. Their length is the pool's (set-up wrote
 * the queue's data_len and pkt_len into every mbuf with the template): a
 * fixed-size queue never writes another and a PMD's free keeps them, as
 * it keeps data_off (worker_tx.h). TX is bound by stores: the two length
 * stores a frame cost 3 % of TX on net_null (docs/dev/bench.md).
 */
static __rte_always_inline void
tx_stamp_new(struct wr_txq *q, struct rte_mbuf **m, uint16_t n, uint32_t tsc_lo,
		bool seq_on, bool ts_on)
{
	uint64_t seq = q->next_seq;
	uint16_t i;

	for (i = 0; i < n; i++) {
		struct wr_test_hdr *th = rte_pktmbuf_mtod_offset(m[i],
			struct wr_test_hdr *, q->th_off);

		if (seq_on)
			th->seq = seq + i;
		if (ts_on)
			th->tsc_lo = tsc_lo;
	}
	q->next_seq = seq + n;
}

/* Stamp n new frames as q->stamp says; decided once per burst. */
static inline void
tx_stamp(struct wr_txq *q, struct rte_mbuf **m, uint16_t n, uint32_t tsc_lo)
{
	if (likely(q->stamp == WR_STAMP_FULL))
		tx_stamp_new(q, m, n, tsc_lo, true, true);
	else if (q->stamp == WR_STAMP_SEQ)
		tx_stamp_new(q, m, n, tsc_lo, true, false);
	else
		tx_stamp_new(q, m, n, tsc_lo, false, false);
}

/* Rare path: rotate the UDP source port over nb_flows flows. */
static __rte_noinline void
tx_stamp_flows(struct wr_txq *q, struct rte_mbuf **m, uint16_t n)
{
	uint32_t flow = q->flow;
	uint16_t i;

	for (i = 0; i < n; i++) {
		*rte_pktmbuf_mtod_offset(m[i], uint16_t *, q->sport_off) =
			rte_cpu_to_be_16((uint16_t)(q->sport_base + flow));
		if (++flow == q->nb_flows)
			flow = 0;
	}
	q->flow = flow;
}

/*
 * What tx_stamp_var reads per frame, copied out of the queue once per
 * burst: stores into frame bytes may alias anything, so fields read
 * through q would be reloaded for every frame.
 */
struct tx_var_ctx {
	const struct wr_txvar *v;
	uint32_t th_off;
	uint32_t sport_off;
	uint32_t seq_len;
	uint32_t nb_flows;
	uint16_t data_len;
	uint16_t sport_base;
	uint16_t ck_base;
	bool mix, csum6, seq_on, ts_on;
};

/*
 * One frame of a queue where more than the test header varies (txvar.h):
 * its size when a mix, its stamps and source port, then its IPv6 UDP
 * checksum from its size's template checksum.
 */
static __rte_always_inline void
tx_var_frame(const struct tx_var_ctx *c, struct rte_mbuf *m, uint32_t pos,
		uint64_t seq, uint32_t tsc_lo, uint32_t flow)
{
	uint8_t *d = rte_pktmbuf_mtod(m, uint8_t *);
	struct wr_test_hdr *th = (struct wr_test_hdr *)(d + c->th_off);
	uint16_t len = c->data_len, base = c->ck_base;

	if (c->mix) {
		len = wr_txvar_size_frame(c->v, d, pos);
		base = c->v->slot[pos].var_val[WR_FRAME_NB_VAR - 1];
	}
	m->data_len = len;
	m->pkt_len = len;
	if (c->seq_on)
		th->seq = seq;
	if (c->ts_on)
		th->tsc_lo = tsc_lo;
	if (c->nb_flows > 1)
		*(uint16_t *)(d + c->sport_off) =
			rte_cpu_to_be_16((uint16_t)(c->sport_base + flow));
	if (c->csum6)   /* for the template's source port but --flows' */
		wr_txvar_csum6_sport(c->v, d, base, c->nb_flows > 1 ?
			rte_cpu_to_be_16((uint16_t)(c->sport_base + flow)) :
			c->v->sport_base_be);
}

/*
 * tx_stamp_var for full stamps and one flow, the usual case, always
 * inlined with mix and csum6 constant: per frame one 8-byte slot load, the
 * stores, and for IPv6 the checksum from seq and a per-burst sum (nothing
 * read back from the frame), stepped per frame when the size is fixed.
 * Offsets in locals: frame stores alias all.
 */
static __rte_always_inline void
tx_var_full(struct wr_txq *q, struct rte_mbuf **m, uint16_t n, uint32_t tsc_lo,
		bool mix, bool csum6)
{
	const struct wr_txvar *v = q->var;
	const struct wr_txvar_slot *slot = v->slot;
	const uint32_t th_off = q->th_off, ck_off = v->udp_ck_off;
	const uint32_t seq_len = v->seq_len;
	const uint16_t off0 = v->var_off[0], off1 = v->var_off[1];
	const uint16_t off2 = v->var_off[2];
	const uint64_t burst_sum = wr_txvar_csum6_burst(v, tsc_lo, v->sport_base_be);
	struct wr_txvar_slot fixed = { .data_len = (uint16_t)q->data_len };
	uint32_t pos = q->var_pos;
	uint64_t seq = q->next_seq;
	/* One size: each frame's checksum stepped from the last (txvar.h). */
	uint32_t ck6 = wr_txvar_ck6_start(v->ck_base, burst_sum, seq);
	uint16_t i;

	fixed.var_val[WR_FRAME_NB_VAR - 1] = v->ck_base;
	for (i = 0; i < n; i++) {
		uint8_t *d = rte_pktmbuf_mtod(m[i], uint8_t *);
		struct wr_test_hdr *th = (struct wr_test_hdr *)(d + th_off);
		const struct wr_txvar_slot s = mix ? slot[pos] : fixed;

		if (mix) {
			memcpy(d + off0, &s.var_val[0], sizeof(uint16_t));
			memcpy(d + off1, &s.var_val[1], sizeof(uint16_t));
			if (!csum6)   /* IPv6: the checksum, stored below */
				memcpy(d + off2, &s.var_val[2], sizeof(uint16_t));
			if (++pos == seq_len)
				pos = 0;
		}
		m[i]->data_len = s.data_len;
		m[i]->pkt_len = s.data_len;
		th->seq = seq + i;
		th->tsc_lo = tsc_lo;
		if (csum6) {
			uint16_t ck = mix ? wr_txvar_csum6_of(
				s.var_val[WR_FRAME_NB_VAR - 1], burst_sum, seq + i) :
				wr_txvar_ck6_next(&ck6);

			memcpy(d + ck_off, &ck, sizeof(ck));
		}
	}
	q->var_pos = pos;
	q->next_seq = seq + n;
}

/*
 * tx_stamp_var for other stamp modes or several flows: every flag tested
 * per frame (predictable), the fields as the frame holds them.
 */
static inline void
tx_stamp_some(struct wr_txq *q, struct rte_mbuf **m, uint16_t n, uint32_t tsc_lo)
{
	const struct wr_txvar *v = q->var;
	const struct tx_var_ctx c = {
		.v = v, .th_off = q->th_off, .sport_off = q->sport_off,
		.seq_len = v->seq_len, .nb_flows = q->nb_flows,
		.data_len = (uint16_t)q->data_len, .sport_base = q->sport_base,
		.ck_base = v->ck_base, .mix = v->mix, .csum6 = v->csum6,
		.seq_on = q->stamp != WR_STAMP_NONE, .ts_on = q->stamp == WR_STAMP_FULL,
	};
	uint32_t pos = q->var_pos, flow = q->flow;
	uint64_t seq = q->next_seq;
	uint16_t i;

	for (i = 0; i < n; i++) {
		tx_var_frame(&c, m[i], pos, seq + i, tsc_lo, flow);
		if (c.mix && ++pos == c.seq_len)
			pos = 0;
		if (c.nb_flows > 1 && ++flow == c.nb_flows)
			flow = 0;
	}
	q->var_pos = pos;
	q->flow = flow;
	q->next_seq = seq + n;
}

/*
 * Field ranges over n frames stamped for the template's fields: each
 * frame the next flow's row. Always inlined with ipv6, tagged and fresh
 * constant (txflow.h).
 */
static __rte_always_inline void
tx_ranges_of(const struct wr_txflows *t, struct wr_txq *q, struct rte_mbuf **m,
		uint16_t n, bool ipv6, bool tagged, bool fresh)
{
	const struct wr_txflow_at at = t->at;
	const uint32_t nb = t->nb;
	uint32_t k = q->flow;
	uint16_t i;

	for (i = 0; i < n; i++) {
		wr_txflow_frame(at, &t->row[k], rte_pktmbuf_mtod(m[i], uint8_t *),
			ipv6, tagged, fresh);
		if (++k == nb)
			k = 0;
	}
	q->flow = k;
}

/*
 * Full stamps and the rows of fixed-size IPv4 frames in one pass, the
 * usual ranges queue: per frame its length, seq, timestamp, one row load
 * and its stores (the template's checksum from the table, not the frame).
 */
static __rte_always_inline void
tx_ranges_full(const struct wr_txflows *t, struct wr_txq *q, struct rte_mbuf **m,
		uint16_t n, uint32_t tsc_lo, bool tagged, bool img)
{
	const struct wr_txflow_img *g = wr_txflow_imgs(t);
	const struct wr_txflow_at at = t->at;
	const uint32_t th_off = q->th_off, nb = t->nb;
	const uint16_t len = (uint16_t)q->data_len;
	uint64_t seq = q->next_seq;
	uint32_t k = q->flow;
	uint16_t i;

	for (i = 0; i < n; i++) {
		uint8_t *d = rte_pktmbuf_mtod(m[i], uint8_t *);
		struct wr_test_hdr *th = (struct wr_test_hdr *)(d + th_off);

		m[i]->data_len = len;
		m[i]->pkt_len = len;
		th->seq = seq + i;
		th->tsc_lo = tsc_lo;
		if (img)
			wr_txflow_img_frame(&g[k], d);
		else
			wr_txflow_frame(at, &t->row[k], d, false, tagged, false);
		if (++k == nb)
			k = 0;
	}
	q->flow = k;
	q->next_seq = seq + n;
}

/* tx_ranges_of for the queue's kind of frame, decided once per burst. */
static inline void
tx_ranges(const struct wr_txflows *t, struct wr_txq *q, struct rte_mbuf **m,
		uint16_t n)
{
	if (t->ipv6)   /* IPv6: the stamps always write the UDP checksum */
		tx_ranges_of(t, q, m, n, true, t->tagged, true);
	else if (t->tagged)
		tx_ranges_of(t, q, m, n, false, true, t->ck_fresh);
	else if (t->ck_fresh)
		tx_ranges_of(t, q, m, n, false, false, true);
	else
		tx_ranges_of(t, q, m, n, false, false, false);
}

/*
 * Rare path: the outer words of a mix inside a header stack (txvar.h) for
 * n frames from position pos of the mix's cycle.
 */
static __rte_noinline void
tx_var_ext(const struct wr_txvar *v, struct rte_mbuf **m, uint16_t n, uint32_t pos)
{
	uint16_t i;

	for (i = 0; i < n; i++) {
		wr_txvar_ext_frame(v, rte_pktmbuf_mtod(m[i], uint8_t *), pos);
		if (++pos == v->seq_len)
			pos = 0;
	}
}

/*
 * Rare path, decided once per burst: stamp n new frames of a queue with a
 * size mix, IPv6 or field ranges (instead of tx_stamp and tx_stamp_flows):
 * sizes and stamps for the template's fields in one pass, then the flows.
 * Aligned to 64 bytes, as rx_rare is (worker_rx.c): the IPv6 loop cost
 * 3 % more a frame with the same instructions 8 bytes further on.
 */
static __rte_noinline __rte_aligned(64) void
tx_stamp_var(struct wr_txq *q, struct rte_mbuf **m, uint16_t n, uint32_t tsc_lo)
{
	const struct wr_txvar *v = q->var;

	if (unlikely(v->nb_ext != 0))   /* a mix inside a stack */
		tx_var_ext(v, m, n, q->var_pos);
	if (!v->mix && !v->csum6 && q->stamp == WR_STAMP_FULL) {
		if (v->flows->img)   /* ranges alone: else v is NULL */
			tx_ranges_full(v->flows, q, m, n, tsc_lo, false, true);
		else if (v->flows->tagged)
			tx_ranges_full(v->flows, q, m, n, tsc_lo, true, false);
		else
			tx_ranges_full(v->flows, q, m, n, tsc_lo, false, false);
		return;
	}
	if (!v->mix && !v->csum6)
		tx_stamp(q, m, n, tsc_lo);
	else if (likely(q->stamp == WR_STAMP_FULL && q->nb_flows <= 1)) {
		if (v->mix && v->csum6)
			tx_var_full(q, m, n, tsc_lo, true, true);
		else if (v->mix)
			tx_var_full(q, m, n, tsc_lo, true, false);
		else
			tx_var_full(q, m, n, tsc_lo, false, true);
	} else
		tx_stamp_some(q, m, n, tsc_lo);
	if (v->flows != NULL)
		tx_ranges(v->flows, q, m, n);
}

/* Rare path: frames the PMD refused last time get a fresh timestamp. */
static __rte_noinline void
tx_restamp(struct wr_txq *q, uint16_t n, uint32_t tsc_lo)
{
	uint16_t i;

	if (q->var != NULL && q->var->csum6) {
		for (i = 0; i < n; i++)
			wr_txvar_restamp6(q->var,
				rte_pktmbuf_mtod(q->pending[i], uint8_t *), tsc_lo);
		return;
	}
	for (i = 0; i < n; i++)
		rte_pktmbuf_mtod_offset(q->pending[i], struct wr_test_hdr *,
			q->th_off)->tsc_lo = tsc_lo;
}

#endif /* WR_TXSTAMP_H */
