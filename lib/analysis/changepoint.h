/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Change points of a series: E-divisive means (Matteson and James, "A
 * nonparametric approach for multiple change point analysis of
 * multivariate data", JASA 2014; the method of Apache Otava, formerly
 * Hunter) by binary segmentation, each split kept only when a permutation
 * test finds it significant. No per-metric threshold: the test compares
 * the split with the same points shuffled, so it adapts to the series'
 * own noise. Permutations come from a seeded generator: the same series
 * and seed give the same change points. docs/history.md says why this
 * method. Pure: no EAL, no I/O, never prints.
 */
#ifndef WR_CHANGEPOINT_H
#define WR_CHANGEPOINT_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

#define WR_CP_MAX 64u              /* change points of one series, at most */
#define WR_CP_MAX_POINTS 100000u   /* points of one series, at most */

struct wr_cp_opts {
	double alpha;                  /* significance level, (0, 1) */
	double min_change_pct;         /* smaller shifts of the segment means
	                                * are dropped (merged), in % */
	unsigned int permutations;     /* of each tested segment */
	unsigned int min_seg;          /* points on each side of a split, >= 2 */
	uint64_t seed;                 /* of the permutations */
};

/* One change point: the segment starting at idx differs from the one before. */
struct wr_cp {
	unsigned int idx;              /* first point of the new segment */
	unsigned int from;             /* first point of the segment before */
	unsigned int to;               /* one past the new segment's last point */
	double stat;                   /* the E-divisive statistic of the split */
	double p_value;                /* permutation test: (1 + #perm >= stat) /
	                                * (1 + permutations) */
	double mean_before;            /* means of the two segments, the
	                                * metric's unit */
	double mean_after;
	double change_pct;             /* 100 (after - before) / |before| */
	double ci_low_pct;             /* its 95% interval (Welch t) */
	double ci_high_pct;
};

/* alpha 0.01, min_change 0, 499 permutations, min_seg 3, a fixed seed. */
void wr_cp_defaults(struct wr_cp_opts *o);

/*
 * The change points of x[0..n), in index order, into out (WR_CP_MAX):
 * significant at o->alpha and shifting the segment means by at least
 * o->min_change_pct (a smaller one is merged into its neighbours, the
 * rest re-measured). Returns their number, or -EINVAL (options out of
 * range, n above WR_CP_MAX_POINTS, a non-finite value) or -ENOMEM, with
 * err.
 */
int wr_cp_find(const double *x, unsigned int n, const struct wr_cp_opts *o,
		struct wr_cp *out, struct wr_error *err);

/*
 * The E-divisive statistic of the best split of x[0..n) with at least
 * min_seg points a side, its index into *best. Returns the statistic, 0
 * when no split fits. O(n log n). This function can't fail (scratch is
 * WR_CP_SCRATCH(n) doubles).
 */
#define WR_CP_SCRATCH(n) (6 * ((size_t)(n) + 1))
double wr_cp_best_split(const double *x, unsigned int n, unsigned int min_seg,
		double *scratch, unsigned int *best);

#endif /* WR_CHANGEPOINT_H */
