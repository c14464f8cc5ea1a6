/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Traffic patterns other than a constant rate, as TX gates: how many frames
 * may leave now. Pure: time is a TSC value passed in.
 *
 *   constant      the pacer (pace.h): frames spread evenly; not a gate
 *   burst:N/T     N frames back to back every T (e.g. burst:32/1ms): a
 *                 duty cycle at an average rate of N / T
 *   poisson[:S]   exponential gaps between frames at a mean rate, from a
 *                 fixed seed S [1], so two runs send at the same times
 *
 * A gate that falls behind (the worker was descheduled) restarts its
 * schedule: a burst more than T/8 late starts the next period then, a
 * poisson frame more than one mean gap (at least 20 us) late leaves alone
 * and the gaps resume from it. The pattern stays a pattern; the shortfall
 * shows in the achieved rate.
 */
#ifndef WR_PATTERN_H
#define WR_PATTERN_H

#include <stddef.h>
#include <stdint.h>

#include <rte_branch_prediction.h>
#include "base/error.h"

enum wr_pattern_kind {
	WR_PATTERN_CONSTANT = 0,
	WR_PATTERN_BURST,
	WR_PATTERN_POISSON,
};

/* A parsed pattern. */
struct wr_pattern {
	enum wr_pattern_kind kind;
	uint32_t burst_pkts;   /* burst: frames per burst */
	uint64_t period_ns;    /* burst: one burst starts every period_ns */
	uint64_t seed;         /* poisson: PRNG seed, not 0 */
};

#define WR_PATTERN_TABLE 1024u /* poisson: gaps drawn once, then cycled */

/* A TX queue's gate; written only by the owning lcore once running. */
struct wr_gate {
	enum wr_pattern_kind kind;
	uint32_t max_burst;    /* most frames per grant */
	uint64_t next_tsc;     /* when the next burst or frame is due */
	uint64_t period_tsc;   /* burst: between burst starts */
	uint32_t burst_pkts;
	uint32_t left;         /* burst: frames of the current burst not sent */
	uint32_t idx;          /* poisson: next gap in gap_tsc[] */
	uint64_t owed;         /* poisson: frames due and not yet sent */
	double pps;            /* average frames per second asked for */
	uint64_t stall_tsc;    /* poisson: this late means a stall */
	uint64_t gap_tsc[WR_PATTERN_TABLE]; /* poisson: mean exactly 1/rate */
};

/*
 * Parse s ("constant", "burst:N/T", "poisson", "poisson:SEED"; T a
 * duration such as 1ms, 250us, 2s) into *out. Returns 0 or -EINVAL with a
 * message naming what was wrong.
 */
int wr_pattern_parse(const char *s, struct wr_pattern *out, struct wr_error *err);

/* Write p as wr_pattern_parse() reads it. Returns the length or -ENOSPC. */
int wr_pattern_format(const struct wr_pattern *p, char *buf, size_t len);

/*
 * Average frames per second of a burst pattern (N / T); 0 for others,
 * whose rate is given separately.
 */
double wr_pattern_burst_pps(const struct wr_pattern *p);

/*
 * Set g up for pattern p at pps frames per second (poisson; burst takes
 * its rate from N / T) on a TSC of tsc_hz, starting at now_tsc.
 * Returns 0, or -EINVAL for a constant pattern, a rate or period the TSC
 * cannot hold (gaps of 0 cycles or above 2^48).
 */
int wr_gate_init(struct wr_gate *g, const struct wr_pattern *p, double pps,
		uint64_t tsc_hz, uint32_t max_burst, uint64_t now_tsc);

/* Frames that may leave at now_tsc, at most g->max_burst. */
static inline uint32_t
wr_gate_grant(struct wr_gate *g, uint64_t now_tsc)
{
	if (g->kind == WR_PATTERN_BURST) {
		if (g->left == 0 && now_tsc >= g->next_tsc) {
			g->left = g->burst_pkts;
			/*
			 * Late by more than an eighth of T (a stall): the
			 * next burst is T after this one, not sooner.
			 */
			if (now_tsc - g->next_tsc > g->period_tsc / 8)
				g->next_tsc = now_tsc;
			g->next_tsc += g->period_tsc;
		}
		return g->left < g->max_burst ? g->left : g->max_burst;
	}
	/*
	 * Stalled (the worker lost its CPU): the frames due meanwhile would
	 * leave in a clump that is no Poisson arrival. One leaves now and the
	 * schedule restarts; the shortfall shows in the achieved rate.
	 */
	if (unlikely(now_tsc > g->next_tsc + g->stall_tsc))
		g->next_tsc = now_tsc;
	while (now_tsc >= g->next_tsc && g->owed < g->max_burst) {
		g->owed++;
		g->next_tsc += g->gap_tsc[g->idx];
		if (++g->idx == WR_PATTERN_TABLE)
			g->idx = 0;
	}
	return (uint32_t)g->owed;
}

/* Record that sent of the granted frames left. */
static inline void
wr_gate_commit(struct wr_gate *g, uint32_t sent)
{
	if (g->kind == WR_PATTERN_BURST)
		g->left -= sent < g->left ? sent : g->left;
	else
		g->owed -= sent < g->owed ? sent : g->owed;
}

#endif /* WR_PATTERN_H */
