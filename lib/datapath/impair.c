/* SPDX-License-Identifier: BSD-3-Clause */
#include <string.h>

#include <rte_cycles.h>

#include "base/frame.h"
#include "impair.h"

static inline int
hits(const struct wr_impair_rule *r, uint64_t seq)
{
	return r->every != 0 && seq % r->every == r->at;
}

/* Sequence of an own frame, or -1 for anything else. */
static int
own_seq(struct rte_mbuf *m, uint64_t *seq)
{
	struct wr_frame_rx fr;

	if (wr_frame_classify(rte_pktmbuf_mtod(m, const uint8_t *), m->data_len,
			&fr) != WR_FRAME_OWN)
		return -1;
	*seq = fr.seq;
	return 0;
}

/* Decide one frame's fate; append what passes to out. */
static uint16_t
one(struct wr_impair_q *q, struct rte_mbuf *m, struct rte_mbuf **out, uint16_t n)
{
	uint64_t seq;

	if (own_seq(m, &seq) != 0) {
		out[n++] = m;
	} else if (hits(&q->spec.drop, seq)) {
		rte_pktmbuf_free(m);
		q->nb_dropped++;
		return n;
	} else if (hits(&q->spec.reorder, seq) && q->held == NULL) {
		q->held = m;
		q->nb_reordered++;
		return n;
	} else {
		out[n++] = m;
		if (hits(&q->spec.dup, seq)) {
			rte_mbuf_refcnt_update(m, 1);
			out[n++] = m;
			q->nb_duplicated++;
		}
	}
	/* A frame passed: the held one follows it, one place late. */
	if (q->held != NULL) {
		out[n++] = q->held;
		q->held = NULL;
	}
	return n;
}

/* Token bucket: refill for the time since the last poll (once a burst). */
static void
police_refill(struct wr_impair_q *q)
{
	uint64_t now = rte_rdtsc(), hz = rte_get_tsc_hz();
	double depth = q->spec.police_pps * WR_IMPAIR_POLICE_DEPTH_S;

	if (q->last_tsc == 0)
		q->tokens = depth;
	else
		q->tokens += (double)(now - q->last_tsc) * q->spec.police_pps / (double)hz;
	if (q->tokens > depth)
		q->tokens = depth;
	q->last_tsc = now;
}

/* Drop what exceeds the bucket; returns the frames kept, in order. */
static uint16_t
police(struct wr_impair_q *q, struct rte_mbuf **pkts, uint16_t nb)
{
	uint16_t i, n = 0;

	police_refill(q);
	for (i = 0; i < nb; i++) {
		if (q->tokens >= 1.0) {
			q->tokens -= 1.0;
			pkts[n++] = pkts[i];
		} else {
			rte_pktmbuf_free(pkts[i]);
			q->nb_policed++;
		}
	}
	return n;
}

uint16_t
wr_impair_rx(uint16_t port_id __rte_unused, uint16_t queue __rte_unused,
		struct rte_mbuf **pkts, uint16_t nb_pkts, uint16_t max_pkts __rte_unused,
		void *user_param)
{
	struct wr_impair_q *q = user_param;
	struct rte_mbuf *in[WR_IMPAIR_MAX_BURST];
	uint16_t i, n = 0;

	if (q->spec.police_pps > 0 && nb_pkts > 0)
		nb_pkts = police(q, pkts, nb_pkts);
	if (nb_pkts == 0) {
		if (q->held != NULL) {
			pkts[0] = q->held;
			q->held = NULL;
			return 1;
		}
		return 0;
	}
	if (q->spec.delay_us != 0) {
		rte_delay_us_block(q->spec.delay_us);
		q->nb_delayed_polls++;
	}
	memcpy(in, pkts, nb_pkts * sizeof(in[0]));
	for (i = 0; i < nb_pkts; i++)
		n = one(q, in[i], pkts, n);
	return n;
}

void
wr_impair_flush(struct wr_impair_q *q)
{
	if (q->held != NULL)
		rte_pktmbuf_free(q->held);
	q->held = NULL;
}

void
wr_impair_reset_counts(struct wr_impair_q *q)
{
	q->nb_dropped = 0;
	q->nb_duplicated = 0;
	q->nb_reordered = 0;
	q->nb_delayed_polls = 0;
	q->nb_policed = 0;
}
