/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Latency histogram and interarrival jitter. Pure: no EAL, no I/O, no
 * allocation. Values are unsigned integers in whatever unit the caller
 * uses (TSC cycles on the hot path); conversion is the reporter's job.
 *
 * Histogram layout (log-linear, as HdrHistogram): values below
 * 2 * WR_HIST_SUB_COUNT have one bucket each; above that, every power of two
 * [2^e, 2^(e+1)) is split into WR_HIST_SUB_COUNT equal buckets of width
 * 2^(e - WR_HIST_SUB_BITS). A bucket is thus never wider than 1/32 of its
 * lower bound. Values of 2^WR_HIST_VALUE_BITS or more are clamped into the
 * last bucket and counted in nb_overflow; min, max and sum keep them exact.
 *
 * One histogram per measuring lcore, written only by it; the stats core
 * combines them with wr_hist_merge().
 */
#ifndef WR_HIST_H
#define WR_HIST_H

#include <stdbool.h>
#include <stdint.h>

/* Sub-buckets per power of two: 2^5 = 32, relative bucket width <= 1/32. */
#define WR_HIST_SUB_BITS 5
#define WR_HIST_SUB_COUNT (1u << WR_HIST_SUB_BITS)
/* Values below 2^50 are bucketed (4.3 days of a 3 GHz TSC). */
#define WR_HIST_VALUE_BITS 50
#define WR_HIST_MAX_VALUE ((UINT64_C(1) << WR_HIST_VALUE_BITS) - 1)
#define WR_HIST_NB_BUCKETS \
	((WR_HIST_VALUE_BITS - WR_HIST_SUB_BITS + 1) * WR_HIST_SUB_COUNT)

/*
 * Distribution of the values of one measurement. Written only by the owning
 * lcore (wr_hist_add); read and merged by the stats core.
 */
struct wr_hist {
	uint64_t nb;            /* values added */
	uint64_t min, max;      /* exact; min is UINT64_MAX while nb == 0 */
	uint64_t sum;           /* sum modulo 2^64 ... */
	uint64_t sum_hi;        /* ... and its carries: sum_hi * 2^64 + sum */
	uint64_t nb_overflow;   /* values > WR_HIST_MAX_VALUE, in last bucket */
	uint64_t counts[WR_HIST_NB_BUCKETS]; /* values per bucket */
};

/*
 * Bucket index of value v: v itself below 2 * WR_HIST_SUB_COUNT, else
 * shift * 32 + (v >> shift) with shift = msb(v) - WR_HIST_SUB_BITS.
 * Values above WR_HIST_MAX_VALUE map to the last bucket. No division, no
 * branch but the clamp (usually a conditional move).
 */
static inline unsigned int
wr_hist_bucket(uint64_t v)
{
	unsigned int shift;

	if (v > WR_HIST_MAX_VALUE)
		return WR_HIST_NB_BUCKETS - 1;
	/* v | 32 keeps shift at 0 for the small values counted one by one. */
	shift = 63 - WR_HIST_SUB_BITS -
		(unsigned int)__builtin_clzll(v | WR_HIST_SUB_COUNT);
	return (shift << WR_HIST_SUB_BITS) + (unsigned int)(v >> shift);
}

/*
 * Add one value to h. Called per packet by the owning lcore.
 * This function can't fail.
 */
static inline void
wr_hist_add(struct wr_hist *h, uint64_t v)
{
	h->counts[wr_hist_bucket(v)]++;
	h->nb_overflow += v > WR_HIST_MAX_VALUE;
	h->nb++;
	h->sum += v;
	h->sum_hi += h->sum < v;   /* a carry: no wrap in any real run */
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

/*
 * Count one value in its bucket only: nb, min, max and sum are left for the
 * caller to set (wr_hist_set_moments) from figures it keeps anyway, so a
 * hot path that already sums latency per stream does not sum it twice.
 * Called per packet by the owning lcore. This function can't fail.
 */
static inline void
wr_hist_count(struct wr_hist *h, uint64_t v)
{
	h->counts[wr_hist_bucket(v)]++;
	h->nb_overflow += v > WR_HIST_MAX_VALUE;
}

/*
 * Set the moments of a histogram filled by wr_hist_count: nb from its
 * counts, and the given exact min, max and 128-bit sum (sum_hi * 2^64 +
 * sum). This function can't fail.
 */
void wr_hist_set_moments(struct wr_hist *h, uint64_t min, uint64_t max,
		uint64_t sum, uint64_t sum_hi);

/*
 * The values added to now but not to before (before's counts a subset of
 * now's: an earlier copy of the same histogram) into out: counts and nb
 * subtracted; min and max of out are the bounds of its lowest and highest
 * non-empty buckets clamped to [lo, hi] (the exact extremes of that span
 * when the caller knows them, else 0 and UINT64_MAX); sum is left 0.
 * This function can't fail.
 */
void wr_hist_delta(const struct wr_hist *now, const struct wr_hist *before,
		uint64_t lo, uint64_t hi, struct wr_hist *out);

/* Reset h to empty (min = UINT64_MAX, all else 0). This function can't fail. */
void wr_hist_init(struct wr_hist *h);

/*
 * Inclusive lower bound of bucket b: the smallest value v with
 * wr_hist_bucket(v) == b. b == WR_HIST_NB_BUCKETS gives
 * 2^WR_HIST_VALUE_BITS (the end of the bucketed range); larger b UINT64_MAX.
 */
uint64_t wr_hist_bucket_low(unsigned int b);

/*
 * Width of bucket b in values: 1 for b < 2 * WR_HIST_SUB_COUNT, then
 * doubling every WR_HIST_SUB_COUNT buckets; 0 for b >= WR_HIST_NB_BUCKETS.
 * The last bucket also holds the overflow, which its width does not cover.
 */
uint64_t wr_hist_bucket_width(unsigned int b);

/*
 * Value at percentile pct (clamped to [0, 100]), nearest-rank definition:
 * the value of rank ceil(pct * nb / 100) (at least 1) in sorted order.
 * Returned as the middle of that value's bucket, clamped to [min, max], so
 * it is within 1/64 (half a bucket, 2^-(WR_HIST_SUB_BITS + 1)) of the exact
 * value, and exact below 64. pct <= 0 gives min, pct >= 100 gives max.
 * Returns 0 when h is empty, and max when the rank falls in the last bucket
 * while it holds overflowed values.
 */
uint64_t wr_hist_percentile(const struct wr_hist *h, double pct);

/* Exact arithmetic mean (sum / nb), 0.0 when empty. */
double wr_hist_mean(const struct wr_hist *h);

/*
 * Add the values of src to dst. Every field stays exact, as if all values
 * had been added to dst. This function can't fail; src is not modified.
 */
void wr_hist_merge(struct wr_hist *dst, const struct wr_hist *src);

/*
 * RFC 3550 section 6.4.1 interarrival jitter of a series of one-way delays
 * (receive time - send time of each frame, in any one unit; the sender and
 * receiver clocks need not agree since only differences count):
 *   D(i-1, i) = delay(i) - delay(i-1)
 *   J(i) = J(i-1) + (|D(i-1, i)| - J(i-1)) / 16
 * Kept as 16 * J so that the update has no division (RFC 3550 A.8).
 * Written only by the owning lcore.
 */
struct wr_jitter {
	uint64_t last_delay;    /* delay of the previous frame */
	uint64_t jitter_x16;    /* 16 * J, rounded */
	bool have_last;         /* last_delay is valid */
};

/* Reset j: no frame seen, jitter 0. This function can't fail. */
void wr_jitter_init(struct wr_jitter *j);

/*
 * Account the delay of the next frame. The first frame only sets the
 * reference. 16 * J += |D| - round(16 * J / 16), as in RFC 3550 A.8; the
 * rounding keeps the result within 0.5 units of the exact recurrence.
 * Delays must stay below 2^59 so that 16 * J fits. This function can't fail.
 */
static inline void
wr_jitter_update(struct wr_jitter *j, uint64_t delay)
{
	uint64_t d;

	if (__builtin_expect(!j->have_last, 0)) {
		j->last_delay = delay;
		j->have_last = true;
		return;
	}
	d = delay > j->last_delay ?
		delay - j->last_delay : j->last_delay - delay;
	j->last_delay = delay;
	/* Never negative overall: (x + 8) >> 4 <= x for all x. */
	j->jitter_x16 += d - ((j->jitter_x16 + 8) >> 4);
}

/* Current jitter J in the unit of the delays, 0.0 before two frames. */
double wr_jitter_value(const struct wr_jitter *j);

/*
 * A histogram one thread fills, published to a reader through two copies
 * (datapath/worker.h's rule). The writer notes the extremes of each value
 * it counts (wr_hist_pub_note); each publication brings copy req & 1 up
 * to date by copying only the buckets that changed since that copy was
 * last written, and gives the extremes of the values counted since the
 * last copy the reader took, so a copy the reader missed (it gave up
 * waiting) loses no extreme. Writer-owned; pure.
 */
struct wr_hist_pub {
	uint64_t ivl_min, ivl_max;     /* noted since the last publication */
	uint64_t acc_min, acc_max;     /* and before it, since the last copy
	                                * the reader took */
	uint64_t stale_min[2];         /* values whose buckets copy k lacks */
	uint64_t stale_max[2];
	uint64_t last_req;             /* request of the last publication */
};

/* No value noted, both copies as empty as the histogram. Can't fail. */
void wr_hist_pub_init(struct wr_hist_pub *p);

/* Note a value counted into the histogram. Can't fail. */
static inline void
wr_hist_pub_note(struct wr_hist_pub *p, uint64_t v)
{
	if (v < p->ivl_min)
		p->ivl_min = v;
	if (v > p->ivl_max)
		p->ivl_max = v;
}

/*
 * Publication for request req: copy (the copy req & 1) gets h's counts
 * and overflow; *min and *max the extremes of the values noted since the
 * publication of request read, the last one the reader took (UINT64_MAX
 * and 0 when none). Requests rise; read is one of them or 0. Can't fail.
 */
void wr_hist_pub_copy(struct wr_hist_pub *p, const struct wr_hist *h,
		struct wr_hist *copy, uint64_t req, uint64_t read,
		uint64_t *min, uint64_t *max);

#endif /* WR_HIST_H */
