/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Read side of the latency histogram (percentiles, mean, merge) and of the
 * RFC 3550 jitter estimator. The per-packet paths are in hist.h.
 */
#include <math.h>
#include <string.h>

#include "hist.h"

_Static_assert(WR_HIST_VALUE_BITS <= 59 && WR_HIST_SUB_BITS >= 1,
	"bucket bounds are computed in 64 bits");

void
wr_hist_init(struct wr_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

uint64_t
wr_hist_bucket_low(unsigned int b)
{
	unsigned int row = b >> WR_HIST_SUB_BITS;

	if (b > WR_HIST_NB_BUCKETS)
		return UINT64_MAX;
	if (row == 0)
		return b;
	/* Row r >= 1 holds mantissas 32..63 shifted left by r - 1. */
	return (uint64_t)((b & (WR_HIST_SUB_COUNT - 1)) | WR_HIST_SUB_COUNT) <<
		(row - 1);
}

uint64_t
wr_hist_bucket_width(unsigned int b)
{
	unsigned int row = b >> WR_HIST_SUB_BITS;

	if (b >= WR_HIST_NB_BUCKETS)
		return 0;
	return row <= 1 ? 1 : UINT64_C(1) << (row - 1);
}

/* Nearest rank of percentile pct in (0, 100) among nb > 0 values. */
static uint64_t
percentile_rank(uint64_t nb, double pct)
{
	/* pct * nb first: exact for integer pct, so 97% of 100 is rank 97. */
	double r = ceil(pct * (double)nb / 100.0);

	if (r < 1.0)
		return 1;
	if (r >= (double)nb)
		return nb;
	return (uint64_t)r;
}

/* Value reported for bucket b: its middle, kept within [min, max]. */
static uint64_t
bucket_value(const struct wr_hist *h, unsigned int b)
{
	uint64_t v;

	if (b >= WR_HIST_NB_BUCKETS - 1 && h->nb_overflow > 0)
		return h->max;
	v = wr_hist_bucket_low(b) + wr_hist_bucket_width(b) / 2;
	if (v < h->min)
		v = h->min;
	if (v > h->max)
		v = h->max;
	return v;
}

uint64_t
wr_hist_percentile(const struct wr_hist *h, double pct)
{
	uint64_t rank, seen = 0;
	unsigned int b;

	if (h->nb == 0)
		return 0;
	if (!(pct > 0.0)) /* also NaN */
		return h->min;
	if (pct >= 100.0)
		return h->max;
	rank = percentile_rank(h->nb, pct);
	for (b = 0; b < WR_HIST_NB_BUCKETS; b++) {
		seen += h->counts[b];
		if (seen >= rank)
			break;
	}
	return bucket_value(h, b);
}

double
wr_hist_mean(const struct wr_hist *h)
{
	if (h->nb == 0)
		return 0.0;
	return ((double)h->sum_hi * 0x1p64 + (double)h->sum) / (double)h->nb;
}

void
wr_hist_merge(struct wr_hist *dst, const struct wr_hist *src)
{
	unsigned int b;

	for (b = 0; b < WR_HIST_NB_BUCKETS; b++)
		dst->counts[b] += src->counts[b];
	dst->nb += src->nb;
	dst->sum += src->sum;
	dst->sum_hi += src->sum_hi + (dst->sum < src->sum);
	dst->nb_overflow += src->nb_overflow;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
}

void
wr_hist_set_moments(struct wr_hist *h, uint64_t min, uint64_t max,
		uint64_t sum, uint64_t sum_hi)
{
	unsigned int b;

	h->nb = 0;
	for (b = 0; b < WR_HIST_NB_BUCKETS; b++)
		h->nb += h->counts[b];
	h->min = h->nb ? min : UINT64_MAX;
	h->max = h->nb ? max : 0;
	h->sum = sum;
	h->sum_hi = sum_hi;
}

void
wr_hist_delta(const struct wr_hist *now, const struct wr_hist *before,
		uint64_t lo, uint64_t hi, struct wr_hist *out)
{
	unsigned int b, first = WR_HIST_NB_BUCKETS, last = 0;

	wr_hist_init(out);
	for (b = 0; b < WR_HIST_NB_BUCKETS; b++) {
		out->counts[b] = now->counts[b] - before->counts[b];
		if (out->counts[b] == 0)
			continue;
		out->nb += out->counts[b];
		if (first == WR_HIST_NB_BUCKETS)
			first = b;
		last = b;
	}
	out->nb_overflow = now->nb_overflow - before->nb_overflow;
	if (out->nb == 0)
		return;
	out->min = wr_hist_bucket_low(first);
	if (out->min < lo)
		out->min = lo;
	out->max = wr_hist_bucket_low(last) + wr_hist_bucket_width(last) - 1;
	if (out->max > hi || out->nb_overflow > 0)
		out->max = hi;
	if (out->min > out->max)
		out->min = out->max;
}

void
wr_jitter_init(struct wr_jitter *j)
{
	memset(j, 0, sizeof(*j));
}

double
wr_jitter_value(const struct wr_jitter *j)
{
	/* 16 * J kept by RFC 3550 A.8; report J unrounded. */
	return (double)j->jitter_x16 / 16.0;
}

void
wr_hist_pub_init(struct wr_hist_pub *p)
{
	p->ivl_min = p->acc_min = p->stale_min[0] = p->stale_min[1] = UINT64_MAX;
	p->ivl_max = p->acc_max = p->stale_max[0] = p->stale_max[1] = 0;
	p->last_req = 0;
}

static void
widen(uint64_t *lo, uint64_t *hi, uint64_t min, uint64_t max)
{
	if (min < *lo)
		*lo = min;
	if (max > *hi)
		*hi = max;
}

void
wr_hist_pub_copy(struct wr_hist_pub *p, const struct wr_hist *h,
		struct wr_hist *copy, uint64_t req, uint64_t read,
		uint64_t *min, uint64_t *max)
{
	unsigned int k = (unsigned int)(req & 1), a, b;
	uint64_t lo = p->stale_min[k], hi = p->stale_max[k];

	/* Every value counted since copy k was written lies in lo..hi. */
	widen(&lo, &hi, p->ivl_min, p->ivl_max);
	if (lo <= hi) {
		a = wr_hist_bucket(lo);
		b = wr_hist_bucket(hi);
		memcpy(&copy->counts[a], &h->counts[a], (b - a + 1) * sizeof(h->counts[0]));
	}
	copy->nb_overflow = h->nb_overflow;
	p->stale_min[k] = UINT64_MAX;
	p->stale_max[k] = 0;
	widen(&p->stale_min[k ^ 1], &p->stale_max[k ^ 1], p->ivl_min, p->ivl_max);
	/* The reader took the previous copy: what it held is consumed. */
	if (read == p->last_req) {
		p->acc_min = UINT64_MAX;
		p->acc_max = 0;
	}
	widen(&p->acc_min, &p->acc_max, p->ivl_min, p->ivl_max);
	*min = p->acc_min;
	*max = p->acc_max;
	p->ivl_min = UINT64_MAX;
	p->ivl_max = 0;
	p->last_req = req;
}
