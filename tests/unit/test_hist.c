/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests for hist.c/hist.h: latency histogram and RFC 3550 jitter. */
#include <math.h>
#include <stdlib.h>

#include "measure/hist.h"
#include "wr_test.h"

#define NB_VALUES 100000

static uint64_t values[NB_VALUES];
static struct wr_hist hist, hist2, hist3;


/* Uniform in [0, 1) with 53 bits. */
static double
prng_unit(uint64_t *state)
{
	return (double)(wr_test_prng(state) >> 11) * 0x1.0p-53;
}

static int
u64_cmp(const void *pa, const void *pb)
{
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;

	return a < b ? -1 : a > b;
}

/*
 * Compare percentiles of h with the exact nearest-rank values of the n
 * sorted values v[]: the histogram must be within 1/64 of each (half a
 * bucket, the precision hist.h states), and exact at 0 and 100.
 */
static void
check_percentiles(const struct wr_hist *h, const uint64_t *v, unsigned int n)
{
	static const double pcts[] = {
		0, 0.1, 1, 5, 10, 25, 33.3, 50, 66.7, 75, 90, 95, 99, 99.5,
		99.9, 99.99, 100,
	};
	unsigned int i;

	for (i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++) {
		double r = ceil(pcts[i] * n / 100.0);
		unsigned int rank = r < 1 ? 1 : r > n ? n : (unsigned int)r;
		uint64_t want = v[rank - 1];
		uint64_t got = wr_hist_percentile(h, pcts[i]);
		uint64_t err = got > want ? got - want : want - got;

		if (err * 64 > want) {
			fprintf(stderr, "%s:%d: p%g = %" PRIu64 ", want %"
				PRIu64 " within 1/64\n", __FILE__, __LINE__,
				pcts[i], got, want);
			wr_test_failed_checks++;
		}
	}
	WR_CHECK_U64(wr_hist_percentile(h, 0), v[0]);
	WR_CHECK_U64(wr_hist_percentile(h, 100), v[n - 1]);
}

/* Build hist from values[0 .. n-1], sort them, check everything exact. */
static void
fill_and_check(unsigned int n)
{
	uint64_t sum = 0;
	unsigned int i;

	wr_hist_init(&hist);
	for (i = 0; i < n; i++) {
		wr_hist_add(&hist, values[i]);
		sum += values[i];
	}
	qsort(values, n, sizeof(values[0]), u64_cmp);
	WR_CHECK_U64(hist.nb, n);
	WR_CHECK_U64(hist.min, values[0]);
	WR_CHECK_U64(hist.max, values[n - 1]);
	WR_CHECK_U64(hist.sum, sum);
	WR_CHECK_U64(hist.nb_overflow, 0);
	WR_CHECK_NEAR(wr_hist_mean(&hist), (double)sum / n, 1e-6);
	check_percentiles(&hist, values, n);
}

static void
test_bucket_layout(void)
{
	unsigned int b, bad = 0;
	uint64_t v, st = 1;

	WR_CHECK_U64(WR_HIST_NB_BUCKETS, 1472);
	WR_CHECK_U64(wr_hist_bucket(0), 0);
	WR_CHECK_U64(wr_hist_bucket(63), 63);
	WR_CHECK_U64(wr_hist_bucket(64), 64);
	WR_CHECK_U64(wr_hist_bucket(65), 64);
	WR_CHECK_U64(wr_hist_bucket(66), 65);
	WR_CHECK_U64(wr_hist_bucket(127), 95);
	WR_CHECK_U64(wr_hist_bucket(128), 96);
	WR_CHECK_U64(wr_hist_bucket(UINT64_C(1) << 48), 43 * 32 + 32);
	WR_CHECK_U64(wr_hist_bucket(WR_HIST_MAX_VALUE), WR_HIST_NB_BUCKETS - 1);
	WR_CHECK_U64(wr_hist_bucket(WR_HIST_MAX_VALUE + 1),
		WR_HIST_NB_BUCKETS - 1);
	WR_CHECK_U64(wr_hist_bucket(UINT64_MAX), WR_HIST_NB_BUCKETS - 1);
	WR_CHECK_U64(wr_hist_bucket_low(WR_HIST_NB_BUCKETS),
		UINT64_C(1) << WR_HIST_VALUE_BITS);
	WR_CHECK_U64(wr_hist_bucket_low(WR_HIST_NB_BUCKETS + 1), UINT64_MAX);
	WR_CHECK_U64(wr_hist_bucket_width(WR_HIST_NB_BUCKETS), 0);
	/* Every bucket: contiguous bounds, width <= low / 32 above 64. */
	for (b = 0; b < WR_HIST_NB_BUCKETS; b++) {
		uint64_t lo = wr_hist_bucket_low(b);
		uint64_t hi = wr_hist_bucket_low(b + 1);

		bad += hi <= lo || hi - lo != wr_hist_bucket_width(b);
		bad += wr_hist_bucket(lo) != b || wr_hist_bucket(hi - 1) != b;
		bad += lo >= 64 && (hi - lo) * 32 > lo;
		bad += lo < 64 && hi - lo != 1;
	}
	WR_CHECK_U64(bad, 0);
	/* Every value below 2^20, and random ones of every magnitude. */
	for (v = 0; v < (UINT64_C(1) << 20); v++) {
		b = wr_hist_bucket(v);
		bad += v < wr_hist_bucket_low(b) ||
			v >= wr_hist_bucket_low(b + 1);
	}
	for (v = 0; v < 200000; v++) {
		uint64_t x = wr_test_prng(&st) >> (wr_test_prng(&st) % 64);

		b = wr_hist_bucket(x);
		if (x > WR_HIST_MAX_VALUE)
			bad += b != WR_HIST_NB_BUCKETS - 1;
		else
			bad += x < wr_hist_bucket_low(b) ||
				x >= wr_hist_bucket_low(b + 1);
	}
	WR_CHECK_U64(bad, 0);
}

static void
test_empty(void)
{
	wr_hist_init(&hist);
	WR_CHECK_U64(hist.nb, 0);
	WR_CHECK_U64(hist.min, UINT64_MAX);
	WR_CHECK_U64(hist.max, 0);
	WR_CHECK_U64(wr_hist_percentile(&hist, 0), 0);
	WR_CHECK_U64(wr_hist_percentile(&hist, 50), 0);
	WR_CHECK_U64(wr_hist_percentile(&hist, 100), 0);
	WR_CHECK_NEAR(wr_hist_mean(&hist), 0.0, 0.0);
}

static void
test_min_max_mean(void)
{
	static const uint64_t v[] = { 1000, 7, 123456789, 64, 99999, 7 };
	unsigned int i;

	wr_hist_init(&hist);
	for (i = 0; i < 6; i++)
		wr_hist_add(&hist, v[i]);
	WR_CHECK_U64(hist.nb, 6);
	WR_CHECK_U64(hist.min, 7);
	WR_CHECK_U64(hist.max, 123456789);
	WR_CHECK_U64(hist.sum, 123557866);
	WR_CHECK_NEAR(wr_hist_mean(&hist), 123557866.0 / 6, 1e-6);
	WR_CHECK_U64(wr_hist_percentile(&hist, 0), 7);
	WR_CHECK_U64(wr_hist_percentile(&hist, 100), 123456789);
	WR_CHECK_U64(wr_hist_percentile(&hist, 101), 123456789);
	WR_CHECK_U64(wr_hist_percentile(&hist, -3), 7);
	/* Rank 3 is 64, in bucket [64, 65]: its middle 65 is reported. */
	WR_CHECK_U64(wr_hist_percentile(&hist, 33.4), 65);
	WR_CHECK_U64(wr_hist_percentile(&hist, 50), 65);
	/* Rank 4 is 1000, bucket [992, 1007]: the middle is 1000. */
	WR_CHECK_U64(wr_hist_percentile(&hist, 51), 1000);
	/* Rank 5 is 99999, bucket [98304, 100351]: middle 99328. */
	WR_CHECK_U64(wr_hist_percentile(&hist, 80), 99328);
	WR_CHECK_U64(wr_hist_percentile(&hist, 16.7), 7); /* rank 2 */
	WR_CHECK_U64(wr_hist_percentile(&hist, 16.6), 7); /* rank 1 */
}

static void
test_constant(void)
{
	unsigned int i;

	for (i = 0; i < 10000; i++)
		values[i] = 12345;
	fill_and_check(10000);
	/* Clamped to [min, max]: exact, though 12345 is no bucket middle. */
	WR_CHECK_U64(wr_hist_percentile(&hist, 50), 12345);
	WR_CHECK_U64(wr_hist_percentile(&hist, 99.9), 12345);
	/* 12345 lies below its bucket's middle (12416), 12500 above it. */
	for (i = 0; i < 10000; i++)
		values[i] = 12500;
	fill_and_check(10000);
	WR_CHECK_U64(wr_hist_percentile(&hist, 50), 12500);
}

static void
test_small_exact(void)
{
	uint64_t st = 7;
	unsigned int i;

	for (i = 0; i < 6400; i++)
		values[i] = wr_test_prng(&st) % 64;
	fill_and_check(6400);
	/* One bucket per value below 64: percentiles are exact. */
	WR_CHECK_U64(wr_hist_percentile(&hist, 50), values[3199]);
	WR_CHECK_U64(wr_hist_percentile(&hist, 90), values[5759]);
	WR_CHECK_U64(wr_hist_percentile(&hist, 99), values[6335]);
}

static void
test_uniform(void)
{
	uint64_t st = 0x1234;
	unsigned int i;

	for (i = 0; i < NB_VALUES; i++)
		values[i] = 1000 + wr_test_prng(&st) % 999001;
	fill_and_check(NB_VALUES);
}

static void
test_exponential(void)
{
	uint64_t st = 0xABCDEF;
	unsigned int i;

	/* Base latency 800 cycles plus an exponential tail, mean 5000. */
	for (i = 0; i < NB_VALUES; i++)
		values[i] = 800 +
			(uint64_t)(-log(1.0 - prng_unit(&st)) * 5000.0);
	fill_and_check(NB_VALUES);
}

static void
test_wide(void)
{
	uint64_t st = 99;
	unsigned int i;

	/* 48 powers of two, 1 .. 2^48 inclusive. */
	for (i = 0; i < NB_VALUES - 1; i++)
		values[i] = (wr_test_prng(&st) >> 16) >> (wr_test_prng(&st) % 49);
	values[NB_VALUES - 1] = UINT64_C(1) << 48;
	fill_and_check(NB_VALUES);
}

static void
test_overflow(void)
{
	unsigned int i;

	wr_hist_init(&hist);
	for (i = 0; i < 97; i++)
		wr_hist_add(&hist, 1000);
	wr_hist_add(&hist, WR_HIST_MAX_VALUE); /* still in range */
	wr_hist_add(&hist, WR_HIST_MAX_VALUE + 1);
	wr_hist_add(&hist, UINT64_C(1) << 60);
	WR_CHECK_U64(hist.nb, 100);
	WR_CHECK_U64(hist.nb_overflow, 2);
	WR_CHECK_U64(hist.counts[WR_HIST_NB_BUCKETS - 1], 3);
	WR_CHECK_U64(hist.max, UINT64_C(1) << 60);
	WR_CHECK_U64(hist.sum, 97000 + 2 * WR_HIST_MAX_VALUE + 1 +
		(UINT64_C(1) << 60));
	WR_CHECK_U64(wr_hist_percentile(&hist, 50), 1000);
	WR_CHECK_U64(wr_hist_percentile(&hist, 97), 1000);
	/* Ranks 98 .. 100 share the clamped bucket: only max is known. */
	WR_CHECK_U64(wr_hist_percentile(&hist, 98), UINT64_C(1) << 60);
	WR_CHECK_U64(wr_hist_percentile(&hist, 100), UINT64_C(1) << 60);

	/* Without overflow the last bucket reports its middle. */
	wr_hist_init(&hist);
	wr_hist_add(&hist, 1);
	wr_hist_add(&hist, WR_HIST_MAX_VALUE - 5);
	wr_hist_add(&hist, WR_HIST_MAX_VALUE);
	WR_CHECK_U64(hist.nb_overflow, 0);
	WR_CHECK_U64(wr_hist_percentile(&hist, 60),
		wr_hist_bucket_low(WR_HIST_NB_BUCKETS - 1) +
		wr_hist_bucket_width(WR_HIST_NB_BUCKETS - 1) / 2);
}

static void
test_merge(void)
{
	uint64_t st = 0x77;
	unsigned int i;

	wr_hist_init(&hist);
	wr_hist_init(&hist2);
	wr_hist_init(&hist3);
	for (i = 0; i < NB_VALUES; i++) {
		values[i] = 500 + wr_test_prng(&st) % (1u << (i % 20 + 1));
		wr_hist_add(&hist, values[i]);
		wr_hist_add(i % 3 == 0 ? &hist2 : &hist3, values[i]);
	}
	wr_hist_merge(&hist2, &hist3);
	WR_CHECK(memcmp(&hist, &hist2, sizeof(hist)) == 0);
	qsort(values, NB_VALUES, sizeof(values[0]), u64_cmp);
	check_percentiles(&hist2, values, NB_VALUES);

	/* Empty into full and full into empty keep min, max and counts. */
	wr_hist_init(&hist3);
	wr_hist_merge(&hist2, &hist3);
	WR_CHECK(memcmp(&hist, &hist2, sizeof(hist)) == 0);
	wr_hist_merge(&hist3, &hist);
	WR_CHECK(memcmp(&hist, &hist3, sizeof(hist)) == 0);
	WR_CHECK_U64(hist3.min, values[0]);
}

/* RFC 3550 6.4.1 in doubles, the straightforward way. */
struct ref_jitter {
	double j;
	double last;
	int have_last;
};

static void
ref_jitter_update(struct ref_jitter *r, double delay)
{
	if (r->have_last)
		r->j += (fabs(delay - r->last) - r->j) / 16.0;
	r->last = delay;
	r->have_last = 1;
}

static void
test_jitter(void)
{
	struct ref_jitter ref = { 0 };
	struct wr_jitter j;
	uint64_t st = 0x3550, d, bad = 0;
	unsigned int i;

	wr_jitter_init(&j);
	WR_CHECK_NEAR(wr_jitter_value(&j), 0.0, 0.0);
	wr_jitter_update(&j, 100);
	WR_CHECK(j.have_last);
	WR_CHECK_NEAR(wr_jitter_value(&j), 0.0, 0.0);
	wr_jitter_update(&j, 116); /* |D| = 16: J = 16 / 16 */
	WR_CHECK_NEAR(wr_jitter_value(&j), 1.0, 0.0);
	wr_jitter_update(&j, 84);  /* |D| = 32: J = 1 + 31 / 16 */
	WR_CHECK_NEAR(wr_jitter_value(&j), 2.9375, 0.0);

	/* Constant delay: no jitter at all. */
	wr_jitter_init(&j);
	for (i = 0; i < 1000; i++)
		wr_jitter_update(&j, 50000);
	WR_CHECK_NEAR(wr_jitter_value(&j), 0.0, 0.0);

	/* Noise, spikes and steps, step by step against the reference. */
	wr_jitter_init(&j);
	for (i = 0; i < 200000; i++) {
		d = 50000 + wr_test_prng(&st) % 2000;
		if (i % 997 == 0)
			d += 300000;
		if (i >= 100000)
			d += 1000000;
		wr_jitter_update(&j, d);
		ref_jitter_update(&ref, (double)d);
		bad += fabs(wr_jitter_value(&j) - ref.j) > 0.5;
	}
	WR_CHECK_U64(bad, 0);
	WR_CHECK(ref.j > 500.0);
	WR_CHECK_NEAR(wr_jitter_value(&j), ref.j, 0.5);
}

/* Sums past 2^64 keep their carries: the mean stays exact. */
static void
test_sum_carry(void)
{
	struct wr_hist a, b;
	uint64_t big = UINT64_C(3) << 62;   /* 0.75 * 2^64 */
	unsigned int i;

	wr_hist_init(&a);
	wr_hist_init(&b);
	for (i = 0; i < 4; i++)
		wr_hist_add(&a, big);       /* 3 * 2^64 in all */
	WR_CHECK_U64(a.sum_hi, 3);
	WR_CHECK_U64(a.sum, 0);
	WR_CHECK_NEAR(wr_hist_mean(&a), (double)big, 1.0);
	wr_hist_add(&b, big);
	wr_hist_add(&b, big);
	wr_hist_merge(&a, &b);          /* 4.5 * 2^64 */
	WR_CHECK_U64(a.sum_hi, 4);
	WR_CHECK_U64(a.sum, UINT64_C(1) << 63);
	WR_CHECK_NEAR(wr_hist_mean(&a), (double)big, 1.0);
}

/* Counts only, moments set after; an interval as the difference of two
 * copies of one histogram, bounded by the exact extremes given. */
static void
test_count_delta(void)
{
	static struct wr_hist a, b, d;
	uint64_t v, sum = 0;

	wr_hist_init(&a);
	for (v = 1; v <= 100; v++) {
		wr_hist_count(&a, v);
		sum += v;
	}
	WR_CHECK_U64(a.nb, 0);
	wr_hist_set_moments(&a, 1, 100, sum, 0);
	WR_CHECK_U64(a.nb, 100);
	WR_CHECK_U64(wr_hist_percentile(&a, 50), 50);
	WR_CHECK(fabs(wr_hist_mean(&a) - 50.5) < 1e-9);
	b = a;
	for (v = 1000; v < 2000; v++)
		wr_hist_count(&b, v);
	wr_hist_set_moments(&b, 1, 1999, sum + 1499500, 0);
	wr_hist_delta(&b, &a, 1000, 1999, &d);
	WR_CHECK_U64(d.nb, 1000);
	WR_CHECK_U64(d.min, 1000);
	WR_CHECK_U64(d.max, 1999);
	v = wr_hist_percentile(&d, 50);
	WR_CHECK(v >= 1480 && v <= 1520);
	WR_CHECK(wr_hist_percentile(&d, 99.9) <= d.max);
	/* Without the extremes: the bounds of the outer buckets. */
	wr_hist_delta(&b, &a, 0, UINT64_MAX, &d);
	WR_CHECK(d.min <= 1000 && d.min > 960 && d.max >= 1999 && d.max < 2048);
	/* Nothing new: empty. */
	wr_hist_delta(&a, &a, 0, UINT64_MAX, &d);
	WR_CHECK_U64(d.nb, 0);
}

/*
 * Publication through two copies (wr_hist_pub): after every publication
 * the copy written equals the histogram, bucket for bucket, though only
 * the buckets that changed are copied; the extremes given cover exactly
 * the values since the last copy the reader took, when it missed some
 * (a timeout) or when the writer skipped requests (it was descheduled).
 */
static void
test_pub(void)
{
	static struct wr_hist h, copy[2];
	struct wr_hist_pub p;
	uint64_t state = 99, req = 0, read = 0, lo = UINT64_MAX, hi = 0;
	uint64_t min, max, v, scale;
	unsigned int round, i, n, bad = 0, bad_ext = 0;

	wr_hist_init(&h);
	wr_hist_init(&copy[0]);
	wr_hist_init(&copy[1]);
	wr_hist_pub_init(&p);
	for (round = 0; round < 2000; round++) {
		/* Each interval its own span: copies lag by different spans. */
		scale = UINT64_C(1) << (wr_test_prng(&state) % 40);
		n = (unsigned int)(wr_test_prng(&state) % 50);
		for (i = 0; i < n; i++) {
			v = scale + wr_test_prng(&state) % scale;
			if (wr_test_prng(&state) % 500 == 0)
				v = WR_HIST_MAX_VALUE + 1 + v;
			wr_hist_count(&h, v);
			wr_hist_pub_note(&p, v);
			lo = v < lo ? v : lo;
			hi = v > hi ? v : hi;
		}
		/* Usually the next request; sometimes the writer skipped some. */
		req += 1 + (wr_test_prng(&state) % 8 == 0 ? wr_test_prng(&state) % 3 : 0);
		wr_hist_pub_copy(&p, &h, &copy[req & 1], req, read, &min, &max);
		bad += memcmp(copy[req & 1].counts, h.counts, sizeof(h.counts)) != 0 ||
			copy[req & 1].nb_overflow != h.nb_overflow;
		bad_ext += min != lo || max != hi;
		/* The reader takes most copies; one in five it gave up waiting. */
		if (wr_test_prng(&state) % 5 != 0) {
			read = req;
			lo = UINT64_MAX;
			hi = 0;
		}
	}
	WR_CHECK_U64(bad, 0);
	WR_CHECK_U64(bad_ext, 0);
}

int
main(void)
{
	WR_TEST_RUN(test_count_delta);
	WR_TEST_RUN(test_bucket_layout);
	WR_TEST_RUN(test_empty);
	WR_TEST_RUN(test_min_max_mean);
	WR_TEST_RUN(test_constant);
	WR_TEST_RUN(test_small_exact);
	WR_TEST_RUN(test_uniform);
	WR_TEST_RUN(test_exponential);
	WR_TEST_RUN(test_wide);
	WR_TEST_RUN(test_overflow);
	WR_TEST_RUN(test_merge);
	WR_TEST_RUN(test_jitter);
	WR_TEST_RUN(test_sum_carry);
	WR_TEST_RUN(test_pub);
	return wr_test_summary();
}
