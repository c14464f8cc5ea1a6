/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The change points as lib/analysis/changepoint.c found them before its
 * statistic went O(n log n): every pair's distance summed, O(n^2) a split
 * search. Kept for test_changepoint to check the fast one against: the
 * same change points, the statistic within rounding. Test only.
 */
#ifndef WR_CP_REFERENCE_H
#define WR_CP_REFERENCE_H

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/splitmix.h"
#include "analysis/changepoint.h"
#include "results/trials.h"

/*
 * The E-divisive statistic (alpha = 1) of every split tau of x[0..n),
 * A = x[0..tau), B = x[tau..n), m = |A|, k = |B|:
 *   Q = m k / (m + k) * (2/(m k) sum|a - b| - sum|a - a'| / C(m,2)
 *                       - sum|b - b'| / C(k,2))
 * Moving tau by one moves one point from B to A, so the three sums are
 * updated with that point's distances to the rest: O(n^2) for all splits.
 * row_a[p] = sum over i < p of |x_i - x_p|, row_b[p] over j > p.
 */
static double
ref_best_split(const double *x, unsigned int n, unsigned int min_seg,
		double *scratch, unsigned int *best)
{
	double *row_a = scratch, *row_b = scratch + n;
	double cross = 0, in_a = 0, in_b = 0, q, top = 0, m, k;
	unsigned int i, j, tau;

	*best = 0;
	if (n < 2 * min_seg)
		return 0;
	for (i = 0; i < n; i++)
		row_a[i] = row_b[i] = 0;
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++) {
			double d = fabs(x[i] - x[j]);

			row_b[i] += d;
			row_a[j] += d;
			in_b += d;
		}
	for (tau = 1; tau < n; tau++) {
		unsigned int p = tau - 1;      /* moves from B to A */

		in_a += row_a[p];
		in_b -= row_b[p];
		cross += row_b[p] - row_a[p];
		if (tau < min_seg || n - tau < min_seg)
			continue;
		m = tau;
		k = n - tau;
		q = m * k / (m + k) * (2 * cross / (m * k) - in_a / (m * (m - 1) / 2) -
			in_b / (k * (k - 1) / 2));
		if (q > top) {
			top = q;
			*best = tau;
		}
	}
	return top;
}

/* The permutation test of the best split of x[0..n): its p-value. */
static double
ref_p_value(const double *x, unsigned int n, double stat, const struct wr_cp_opts *o,
		double *perm, double *scratch, uint64_t *rng)
{
	unsigned int r, i, j, at, ge = 0;
	double t;

	memcpy(perm, x, n * sizeof(*perm));
	for (r = 0; r < o->permutations; r++) {
		for (i = n - 1; i > 0; i--) {     /* Fisher-Yates */
			j = (unsigned int)(wr_splitmix64(rng) % (i + 1));
			t = perm[i];
			perm[i] = perm[j];
			perm[j] = t;
		}
		ge += ref_best_split(perm, n, o->min_seg, scratch, &at) >= stat;
	}
	return (1.0 + ge) / (1.0 + o->permutations);
}

static void
ref_mean_var(const double *x, unsigned int n, double *mean, double *var)
{
	double s = 0, v = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		s += x[i];
	*mean = s / n;
	for (i = 0; i < n; i++)
		v += (x[i] - *mean) * (x[i] - *mean);
	*var = n > 1 ? v / (n - 1) : 0;
}

/*
 * Magnitude of c between its segments x[from..idx) and x[idx..to): the
 * change of the means in % of the first, and its 95% interval from
 * Welch's t (the two segments' own variances; df by Welch-Satterthwaite).
 */
static void
ref_measure(const double *x, struct wr_cp *c)
{
	unsigned int na = c->idx - c->from, nb = c->to - c->idx, df;
	double va, vb, se2, half, base, dfw;

	ref_mean_var(x + c->from, na, &c->mean_before, &va);
	ref_mean_var(x + c->idx, nb, &c->mean_after, &vb);
	se2 = va / na + vb / nb;
	dfw = se2 > 0 ? se2 * se2 / ((va / na) * (va / na) / (na - 1) +
		(vb / nb) * (vb / nb) / (nb - 1)) : na + nb - 2;
	df = dfw >= 1 ? (unsigned int)dfw : 1;
	half = wr_trials_t95(df) * sqrt(se2);
	base = fabs(c->mean_before);
	if (base == 0)
		base = 1;    /* a figure at 0: the change in its unit, as % of 1 */
	c->change_pct = 100.0 * (c->mean_after - c->mean_before) / base;
	c->ci_low_pct = 100.0 * (c->mean_after - c->mean_before - half) / base;
	c->ci_high_pct = 100.0 * (c->mean_after - c->mean_before + half) / base;
}

/* Insert the split of out[] into index order; segments' bounds follow. */
static unsigned int
ref_insert(struct wr_cp *out, unsigned int nb, const struct wr_cp *c)
{
	unsigned int i = nb;

	while (i > 0 && out[i - 1].idx > c->idx) {
		out[i] = out[i - 1];
		i--;
	}
	out[i] = *c;
	return nb + 1;
}

/* Bounds of every change point from its neighbours, then magnitudes. */
static void
ref_remeasure(const double *x, unsigned int n, struct wr_cp *out, unsigned int nb)
{
	unsigned int i;

	for (i = 0; i < nb; i++) {
		out[i].from = i ? out[i - 1].idx : 0;
		out[i].to = i + 1 < nb ? out[i + 1].idx : n;
		ref_measure(x, &out[i]);
	}
}

/*
 * Binary segmentation: among the segments not yet found flat, split the
 * one whose best split has the highest statistic when its permutation
 * test passes; a segment whose test fails is flat for good.
 */
static unsigned int
ref_segment(const double *x, unsigned int n, const struct wr_cp_opts *o,
		struct wr_cp *out, double *work)
{
	double *perm = work, *scratch = work + n;
	unsigned char *flat = (unsigned char *)(work + 3 * n);
	uint64_t rng = o->seed;
	unsigned int nb = 0, s, e, at, b_at = 0, b_s = 0, b_e = 0, i;
	double q, b_q;
	struct wr_cp c;

	memset(flat, 0, WR_CP_MAX + 1);
	while (nb < WR_CP_MAX) {
		b_q = -1;
		for (i = 0; i <= nb; i++) {
			s = i ? out[i - 1].idx : 0;
			e = i < nb ? out[i].idx : n;
			if (flat[i])
				continue;
			q = ref_best_split(x + s, e - s, o->min_seg, scratch, &at);
			if (at == 0) {
				flat[i] = 1;
			} else if (q > b_q) {
				b_q = q;
				b_at = s + at;
				b_s = s;
				b_e = e;
			}
		}
		if (b_q < 0)
			break;
		memset(&c, 0, sizeof(c));
		c.idx = b_at;
		c.stat = b_q;
		c.p_value = ref_p_value(x + b_s, b_e - b_s, b_q, o, perm, scratch, &rng);
		for (i = 0; i <= nb && (i ? out[i - 1].idx : 0) != b_s; i++)
			;
		if (c.p_value > o->alpha) {
			flat[i] = 1;
			continue;
		}
		memmove(flat + i + 1, flat + i, nb + 1 - i);   /* both halves open */
		nb = ref_insert(out, nb, &c);
	}
	return nb;
}

/*
 * Where exactly a found change is: the split of its two segments
 * x[from..to) that best separates their means (least squares, the
 * likelihood of a Gaussian mean shift), at least min_seg points a side.
 * E-divisive's distance statistic finds and tests the change; at a small
 * shift in noise its argmax wanders a point or two, the means' split less.
 */
static void
ref_refine(const double *x, unsigned int n, const struct wr_cp_opts *o,
		struct wr_cp *out, unsigned int nb)
{
	unsigned int i, t, from, to, m, best;
	double sum, left, q, top, d;

	for (i = 0; i < nb; i++) {
		from = i ? out[i - 1].idx : 0;
		to = i + 1 < nb ? out[i + 1].idx : n;
		sum = 0;
		for (t = from; t < to; t++)
			sum += x[t];
		left = 0;
		top = -1;
		best = out[i].idx;
		for (t = from; t + o->min_seg <= to; t++) {
			m = t - from;
			if (m >= o->min_seg) {
				d = left / m - (sum - left) / (to - t);
				q = (double)m * (to - t) / (to - from) * d * d;
				if (q > top) {
					top = q;
					best = t;
				}
			}
			left += x[t];
		}
		out[i].idx = best;
	}
}

/* Merge the weakest change point below min_change until none is. */
static unsigned int
ref_drop_small(const double *x, unsigned int n, const struct wr_cp_opts *o,
		struct wr_cp *out, unsigned int nb)
{
	unsigned int i, weak;

	for (;;) {
		ref_remeasure(x, n, out, nb);
		weak = nb;
		for (i = 0; i < nb; i++)
			if (fabs(out[i].change_pct) < o->min_change_pct &&
					(weak == nb || fabs(out[i].change_pct) <
					fabs(out[weak].change_pct)))
				weak = i;
		if (weak == nb)
			return nb;
		memmove(out + weak, out + weak + 1, (nb - weak - 1) * sizeof(*out));
		nb--;
	}
}

static int
ref_cp_find(const double *x, unsigned int n, const struct wr_cp_opts *o,
		struct wr_cp *out, struct wr_error *err)
{
	unsigned int i, nb;
	double *work;

	if (!(o->alpha > 0 && o->alpha < 1) || o->min_seg < 2 ||
			o->permutations == 0 || !(o->min_change_pct >= 0))
		return wr_err_usage(err, -EINVAL, "change points: significance %g not in "
			"(0, 1), or min-change %g below 0, or no permutations",
			o->alpha, o->min_change_pct);
	if (n > WR_CP_MAX_POINTS)
		return wr_err_usage(err, -EINVAL, "change points: %u points, at most %u",
			n, WR_CP_MAX_POINTS);
	for (i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return wr_err_usage(err, -EINVAL, "change points: point %u is not "
				"a finite number", i);
	work = malloc((3 * (size_t)n + 1) * sizeof(*work) + WR_CP_MAX + 1);
	if (work == NULL)
		return wr_err_env(err, -ENOMEM, "change points: no memory for %u points", n);
	nb = ref_segment(x, n, o, out, work);
	ref_refine(x, n, o, out, nb);
	nb = ref_drop_small(x, n, o, out, nb);
	free(work);
	return (int)nb;
}

#endif /* WR_CP_REFERENCE_H */
