/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/splitmix.h"
#include "changepoint.h"
#include "results/trials.h"

void
wr_cp_defaults(struct wr_cp_opts *o)
{
	o->alpha = 0.01;
	o->min_change_pct = 0;
	o->permutations = 499;
	o->min_seg = 3;
	o->seed = 0x5eed2544u;
}

/*
 * The E-divisive statistic (alpha = 1) of every split tau of x[0..n),
 * A = x[0..tau), B = x[tau..n), m = |A|, k = |B|:
 *   Q = m k / (m + k) * (2/(m k) sum|a - b| - sum|a - a'| / C(m,2)
 *                       - sum|b - b'| / C(k,2))
 * Moving tau by one moves point p = tau - 1 from B to A, so the three sums
 * are updated with row_a = sum over i < p of |x_i - x_p| and row_b, the
 * same over i > p. In 1-D both come without the pairs: row_a from the
 * count and sum of the earlier points below x_p (a Fenwick tree over the
 * points' ranks), row_b = all[p] - row_a, with all[p] = sum over every i of
 * |x_i - x_p| from prefix sums in sorted order. O(n log n) for all
 * splits; a permutation moves (value, all, rank) together, so a segment is
 * sorted once for all its permutations.
 */
struct split {
	double *v;              /* the points less their median (distances
	                         * alike, sums nearer 0: less rounding) */
	double *all;            /* all[p]: sum over i of |v_i - v_p| */
	unsigned int *rank;     /* rank[p]: p's place in sorted order */
	double *fen_sum;        /* Fenwick tree over ranks, 1-based */
	unsigned int *fen_nb;
	double pairs;           /* sum over i < j of |v_i - v_j| */
	unsigned int n;
};

/* Scratch of WR_CP_SCRATCH(n) doubles into the split's arrays. */
static void
split_carve(struct split *w, double *scratch, unsigned int n)
{
	w->v = scratch;
	w->all = scratch + n;
	w->fen_sum = scratch + 2 * n;
	w->rank = (unsigned int *)(scratch + 3 * n + 1);
	w->fen_nb = w->rank + n;
	w->n = n;
}

/* Sort order of x[0..n) into ord (indices), tmp n indices: merge sort. */
static void
sort_order(const double *x, unsigned int n, unsigned int *ord, unsigned int *tmp)
{
	unsigned int w, lo, mid, hi, i, j, k, *a = ord, *b = tmp, *t;

	for (i = 0; i < n; i++)
		a[i] = i;
	for (w = 1; w < n; w *= 2) {
		for (lo = 0; lo < n; lo += 2 * w) {
			mid = lo + w < n ? lo + w : n;
			hi = lo + 2 * w < n ? lo + 2 * w : n;
			for (i = lo, j = mid, k = lo; k < hi; k++)
				b[k] = j >= hi || (i < mid && x[a[i]] <= x[a[j]]) ?
					a[i++] : a[j++];
		}
		t = a;
		a = b;
		b = t;
	}
	if (a != ord)
		memcpy(ord, a, n * sizeof(*ord));
}

/*
 * Ranks, centred values, all[] and the sum over pairs of x[0..n), the
 * points in their order; w->fen_nb and w->fen_sum serve as sort space.
 */
static void
split_prepare(struct split *w, const double *x)
{
	unsigned int n = w->n, *ord = w->fen_nb, i, p;
	double mid, below = 0, total = 0, v;

	sort_order(x, n, ord, w->rank);
	for (i = 0; i < n; i++)
		w->rank[ord[i]] = i;
	mid = x[ord[n / 2]];
	for (i = 0; i < n; i++)
		total += x[ord[i]] - mid;
	w->pairs = 0;
	for (i = 0; i < n; i++) {
		p = ord[i];
		v = x[p] - mid;
		w->v[p] = v;
		/* i points below (or equal), n - 1 - i above */
		w->all[p] = v * i - below + (total - below - v) - v * (n - 1 - i);
		w->pairs += v * i - below;
		below += v;
	}
}

/* The best split of the prepared points in their present order. */
static double
split_best(const struct split *w, unsigned int min_seg, unsigned int *best)
{
	unsigned int n = w->n, tau, p, r, c;
	double cross = 0, in_a = 0, in_b = w->pairs, inserted = 0, q, top = 0;
	double m, k, s, v, row_a, row_b;

	*best = 0;
	memset(w->fen_sum, 0, (n + 1) * sizeof(*w->fen_sum));
	memset(w->fen_nb, 0, (n + 1) * sizeof(*w->fen_nb));
	for (tau = 1; tau < n; tau++) {
		p = tau - 1;                   /* moves from B to A */
		v = w->v[p];
		s = 0;
		c = 0;
		for (r = w->rank[p]; r > 0; r &= r - 1) {  /* ranks below p's */
			s += w->fen_sum[r];
			c += w->fen_nb[r];
		}
		row_a = (v * c - s) + (inserted - s) - v * (p - c);
		row_b = w->all[p] - row_a;
		for (r = w->rank[p] + 1; r <= n; r += r & -r) {
			w->fen_sum[r] += v;
			w->fen_nb[r]++;
		}
		inserted += v;
		in_a += row_a;
		in_b -= row_b;
		cross += row_b - row_a;
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

double
wr_cp_best_split(const double *x, unsigned int n, unsigned int min_seg,
		double *scratch, unsigned int *best)
{
	struct split w;

	*best = 0;
	if (n < 2 * min_seg)
		return 0;
	split_carve(&w, scratch, n);
	split_prepare(&w, x);
	return split_best(&w, min_seg, best);
}

/* Swap point i and j of a prepared split: value, all and rank together. */
static void
split_swap(struct split *w, unsigned int i, unsigned int j)
{
	double t = w->v[i];
	unsigned int r = w->rank[i];

	w->v[i] = w->v[j];
	w->v[j] = t;
	t = w->all[i];
	w->all[i] = w->all[j];
	w->all[j] = t;
	w->rank[i] = w->rank[j];
	w->rank[j] = r;
}

/*
 * The permutation test of the best split of x[0..n): its p-value. Once
 * more permutations reach stat than alpha allows, the rest can't bring
 * the p-value back under it: they are skipped, their draws too (splitmix
 * steps its state by a constant, n - 1 draws a permutation), so the next
 * test sees the generator as if they had run, and the p-value returned
 * is then above alpha but not the full count's.
 */
static double
p_value(const double *x, unsigned int n, double stat, const struct wr_cp_opts *o,
		double *scratch, uint64_t *rng)
{
	unsigned int r, i, j, at, ge = 0;
	struct split w;

	split_carve(&w, scratch, n);
	split_prepare(&w, x);
	for (r = 0; r < o->permutations; r++) {
		if ((1.0 + ge) / (1.0 + o->permutations) > o->alpha) {
			*rng += 0x9e3779b97f4a7c15ull * (uint64_t)(n - 1) *
				(o->permutations - r);
			break;
		}
		for (i = n - 1; i > 0; i--) {     /* Fisher-Yates */
			j = (unsigned int)(wr_splitmix64(rng) % (i + 1));
			split_swap(&w, i, j);
		}
		ge += split_best(&w, o->min_seg, &at) >= stat;
	}
	return (1.0 + ge) / (1.0 + o->permutations);
}

static void
mean_var(const double *x, unsigned int n, double *mean, double *var)
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
measure(const double *x, struct wr_cp *c)
{
	unsigned int na = c->idx - c->from, nb = c->to - c->idx, df;
	double va, vb, se2, half, base, dfw;

	mean_var(x + c->from, na, &c->mean_before, &va);
	mean_var(x + c->idx, nb, &c->mean_after, &vb);
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
insert(struct wr_cp *out, unsigned int nb, const struct wr_cp *c)
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
remeasure(const double *x, unsigned int n, struct wr_cp *out, unsigned int nb)
{
	unsigned int i;

	for (i = 0; i < nb; i++) {
		out[i].from = i ? out[i - 1].idx : 0;
		out[i].to = i + 1 < nb ? out[i + 1].idx : n;
		measure(x, &out[i]);
	}
}

/*
 * Binary segmentation: among the segments not yet found flat, split the
 * one whose best split has the highest statistic when its permutation
 * test passes; a segment whose test fails is flat for good.
 */
static unsigned int
segment(const double *x, unsigned int n, const struct wr_cp_opts *o,
		struct wr_cp *out, double *work)
{
	double *scratch = work;
	unsigned char *flat = (unsigned char *)(work + WR_CP_SCRATCH(n));
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
			q = wr_cp_best_split(x + s, e - s, o->min_seg, scratch, &at);
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
		c.p_value = p_value(x + b_s, b_e - b_s, b_q, o, scratch, &rng);
		for (i = 0; i <= nb && (i ? out[i - 1].idx : 0) != b_s; i++)
			;
		if (c.p_value > o->alpha) {
			flat[i] = 1;
			continue;
		}
		memmove(flat + i + 1, flat + i, nb + 1 - i);   /* both halves open */
		nb = insert(out, nb, &c);
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
refine(const double *x, unsigned int n, const struct wr_cp_opts *o,
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
drop_small(const double *x, unsigned int n, const struct wr_cp_opts *o,
		struct wr_cp *out, unsigned int nb)
{
	unsigned int i, weak;

	for (;;) {
		remeasure(x, n, out, nb);
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

int
wr_cp_find(const double *x, unsigned int n, const struct wr_cp_opts *o,
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
	work = malloc(WR_CP_SCRATCH(n) * sizeof(*work) + WR_CP_MAX + 1);
	if (work == NULL)
		return wr_err_env(err, -ENOMEM, "change points: no memory for %u points", n);
	nb = segment(x, n, o, out, work);
	refine(x, n, o, out, nb);
	nb = drop_small(x, n, o, out, nb);
	free(work);
	return (int)nb;
}
