/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Helpers shared by the sequence tracker's unit tests (test_seq.c,
 * test_seq_restart.c): feed sequences, check all counters at once.
 */
#ifndef WR_SEQ_FEED_H
#define WR_SEQ_FEED_H

#include "measure/seq.h"
#include "wr_test.h"

#define W WR_SEQ_WINDOW_BITS

/* Feed sequences base + from .. base + to - 1 in order. */
static inline void
feed_range(struct wr_seq *s, uint64_t base, uint64_t from, uint64_t to)
{
	uint64_t i;

	for (i = from; i < to; i++)
		wr_seq_update(s, base + i);
}

static inline void
feed_list(struct wr_seq *s, const uint64_t *seqs, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		wr_seq_update(s, seqs[i]);
}

/* All counters at once, so each test states the full expected outcome. */
static inline void
check_counts(const struct wr_seq *s, uint64_t rx, uint64_t late, uint64_t dup,
	uint64_t old, uint64_t restarts)
{
	WR_CHECK_U64(s->nb_rx_pkts, rx);
	WR_CHECK_U64(s->nb_late_pkts, late);
	WR_CHECK_U64(s->nb_dup_pkts, dup);
	WR_CHECK_U64(s->nb_old_pkts, old);
	WR_CHECK_U64(s->nb_restarts, restarts);
}

/* The current epoch's bounds, the closed epochs' span and the gaps. */
static inline void
check_span(const struct wr_seq *s, uint64_t first_seq, uint64_t next_seq,
	uint64_t closed_span, uint64_t gaps)
{
	WR_CHECK_U64(s->first_seq, first_seq);
	WR_CHECK_U64(s->next_seq, next_seq);
	WR_CHECK_U64(s->closed_span_pkts, closed_span);
	WR_CHECK_U64(wr_seq_gaps(s), gaps);
}

#endif /* WR_SEQ_FEED_H */
