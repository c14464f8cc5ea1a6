/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Change points (lib/analysis/changepoint.c) on synthetic series: shifts of
 * 2, 5 and 20% planted in Gaussian noise of 1 to 3% are found at their
 * index +- 1 (29 of 30 series; +- 2 all) with their sign and size; pure noise has no more false changes than
 * the significance level allows; the same seed gives the same answer; a
 * lone bad point is no change; the O(n log n) statistic gives the same
 * change points as the O(n^2) one it replaced (cp_reference.h) on random
 * series with planted shifts, ties and steps. Also SHA-256 (lib/base/sha256.c) against
 * the FIPS 180-2 examples.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "base/sha256.h"
#include "analysis/changepoint.h"
#include "cp_reference.h"
#include "wr_test.h"

static uint64_t rng_state;

static double
uniform(void)
{
	rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
	return ((rng_state >> 11) + 0.5) / 9007199254740992.0;
}

/* A standard normal number (Box-Muller). */
static double
gauss(void)
{
	return sqrt(-2 * log(uniform())) * cos(2 * M_PI * uniform());
}

/* n points around 100, noise noise_pct %, shifted by shift_pct from at. */
static void
series(double *x, unsigned int n, unsigned int at, double shift_pct,
		double noise_pct)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		x[i] = (i >= at ? 100 * (1 + shift_pct / 100) : 100) *
			(1 + noise_pct / 100 * gauss());
}

static void
test_planted(void)
{
	static const struct { double shift, noise; } cases[] = {
		{ 2, 1 }, { -2, 1 }, { 5, 2 }, { -5, 3 }, { 20, 3 }, { -20, 1 },
	};
	struct wr_cp cp[WR_CP_MAX];
	struct wr_cp_opts o;
	struct wr_error err;
	unsigned int c, seed, off_by_more = 0;
	double x[80];
	int n;

	wr_cp_defaults(&o);
	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		for (seed = 1; seed <= 5; seed++) {
			rng_state = seed * 7919u + c;
			series(x, 80, 40, cases[c].shift, cases[c].noise);
			n = wr_cp_find(x, 80, &o, cp, &err);
			WR_CHECK(n == 1);
			if (n < 1)
				continue;
			if (cp[0].idx < 39 || cp[0].idx > 41) {
				printf("shift %g%% in noise %g%%, seed %u: found at %u, "
					"planted at 40\n", cases[c].shift, cases[c].noise,
					seed, cp[0].idx);
				off_by_more++;
			}
			WR_CHECK(cp[0].idx >= 38 && cp[0].idx <= 42);
			WR_CHECK((cp[0].change_pct > 0) == (cases[c].shift > 0));
			WR_CHECK(cp[0].ci_low_pct <= cp[0].change_pct &&
				cp[0].change_pct <= cp[0].ci_high_pct);
			WR_CHECK(cp[0].p_value <= o.alpha);
			WR_CHECK(fabs(cp[0].change_pct - cases[c].shift) <
				0.5 * fabs(cases[c].shift) + cases[c].noise);
		}
	}
	/*
	 * A 2% shift in 1% noise is two standard deviations: even the
	 * likelihood's own estimate of where it is misses by 2 points now and
	 * then. 29 of the 30 series must be within +- 1 (all within +- 2).
	 */
	WR_CHECK(off_by_more <= 1);
}

/*
 * 300 points of noise, 40 series at alpha 0.05: each series' first test
 * rejects with chance 0.05, so about 2 series show a false change; 7 or
 * more has a chance below 0.5% (binomial 40, 0.05).
 */
static void
test_noise(void)
{
	struct wr_cp cp[WR_CP_MAX];
	struct wr_cp_opts o;
	struct wr_error err;
	unsigned int s, false_series = 0;
	static double x[300];
	int n;

	wr_cp_defaults(&o);
	o.alpha = 0.05;
	o.permutations = 99;
	for (s = 0; s < 40; s++) {
		rng_state = 1000 + s;
		series(x, 300, 0, 0, 2);
		n = wr_cp_find(x, 300, &o, cp, &err);
		WR_CHECK(n >= 0);
		false_series += n > 0;
	}
	printf("noise: %u of 40 series with a false change (alpha 0.05)\n",
		false_series);
	WR_CHECK(false_series <= 6);
}

static void
test_seeded_and_outlier(void)
{
	struct wr_cp a[WR_CP_MAX], b[WR_CP_MAX];
	struct wr_cp_opts o;
	struct wr_error err;
	double x[80];
	int na, nb;

	wr_cp_defaults(&o);
	rng_state = 42;
	series(x, 40, 20, -4, 2);
	na = wr_cp_find(x, 40, &o, a, &err);
	nb = wr_cp_find(x, 40, &o, b, &err);
	WR_CHECK(na == 1 && nb == 1);
	WR_CHECK(na == 1 && nb == 1 && a[0].p_value == b[0].p_value &&
		a[0].idx == b[0].idx);
	/* One bad run, the newest: no segment of one point. */
	rng_state = 43;
	series(x, 40, 40, 0, 1);
	x[39] *= 0.5;
	WR_CHECK(wr_cp_find(x, 40, &o, a, &err) == 0);
	/* Below --min-change: merged away. */
	rng_state = 44;
	series(x, 80, 40, -3, 0.5);
	WR_CHECK(wr_cp_find(x, 80, &o, a, &err) == 1);
	o.min_change_pct = 5;
	WR_CHECK(wr_cp_find(x, 80, &o, a, &err) == 0);
	o.alpha = 1.5;
	WR_CHECK(wr_cp_find(x, 80, &o, a, &err) == -EINVAL);
	x[3] = NAN;
	o.alpha = 0.01;
	WR_CHECK(wr_cp_find(x, 80, &o, a, &err) == -EINVAL);
	WR_CHECK_STR(err.msg, "point 3");
}

/*
 * n points: 0 to 3 shifts of 1 to 20% at random places in 0.5 to 3%
 * noise; kind 1 rounds them to whole numbers around 20 (many ties),
 * kind 2 adds one far outlier.
 */
static void
random_series(double *x, unsigned int n, unsigned int kind)
{
	unsigned int i, s, nb_shift = (unsigned int)(uniform() * 4), at[3];
	double level = 100, noise = 0.5 + 2.5 * uniform(), sh[3];

	for (s = 0; s < nb_shift; s++) {
		at[s] = (unsigned int)(uniform() * n);
		sh[s] = (uniform() < 0.5 ? -1 : 1) * (1 + 19 * uniform()) / 100;
	}
	for (i = 0; i < n; i++) {
		for (s = 0; s < nb_shift; s++)
			if (at[s] == i)
				level *= 1 + sh[s];
		x[i] = level * (1 + noise / 100 * gauss());
		if (kind == 1)
			x[i] = floor(x[i] / 5);
	}
	if (kind == 2)
		x[(unsigned int)(uniform() * n)] *= 3;
}

static int
close_rel(double a, double b)
{
	return fabs(a - b) <= 1e-9 * fmax(fabs(a), fabs(b)) + 1e-300;
}

/* The fast statistic against the pairwise one: best split and its value. */
static void
test_fast_stat(void)
{
	static double x[400], scratch[WR_CP_SCRATCH(400)], ref_scratch[800];
	unsigned int s, n, at, ref_at, bad = 0;
	double q, ref_q;

	for (s = 0; s < 300; s++) {
		rng_state = 5000 + s;
		n = 2 + (unsigned int)(uniform() * 398);
		random_series(x, n, s % 3);
		q = wr_cp_best_split(x, n, 3, scratch, &at);
		ref_q = ref_best_split(x, n, 3, ref_scratch, &ref_at);
		if (at != ref_at || !close_rel(q, ref_q)) {
			printf("series %u (%u points): split %u stat %.17g, pairwise "
				"%u %.17g\n", s, n, at, q, ref_at, ref_q);
			bad++;
		}
	}
	WR_CHECK(bad == 0);
}

/* The whole search, fast against pairwise: the same change points. */
static void
test_same_as_pairwise(void)
{
	struct wr_cp a[WR_CP_MAX], b[WR_CP_MAX];
	struct wr_cp_opts o;
	struct wr_error err;
	static double x[300];
	unsigned int s, n, i, bad = 0, found = 0;
	int na, nb;

	wr_cp_defaults(&o);
	o.permutations = 99;
	o.alpha = 0.05;
	for (s = 0; s < 120; s++) {
		rng_state = 9000 + s;
		n = 10 + (unsigned int)(uniform() * 290);
		random_series(x, n, s % 3);
		o.min_change_pct = s % 4 == 0 ? 3 : 0;
		o.seed = 77 + s;
		na = wr_cp_find(x, n, &o, a, &err);
		nb = ref_cp_find(x, n, &o, b, &err);
		WR_CHECK(na >= 0 && na == nb);
		for (i = 0; na == nb && i < (unsigned int)na; i++)
			if (a[i].idx != b[i].idx || a[i].p_value != b[i].p_value ||
					!close_rel(a[i].stat, b[i].stat) ||
					a[i].change_pct != b[i].change_pct)
				bad++;
		found += na > 0 ? (unsigned int)na : 0;
	}
	printf("fast and pairwise: %u change points in 120 series, %u differ\n",
		found, bad);
	WR_CHECK(bad == 0);
	WR_CHECK(found > 60);
}

static void
test_sha256(void)
{
	static const char million[] = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	char hex[WR_SHA256_HEX_LEN];

	wr_sha256_hex("abc", 3, hex);
	WR_CHECK_STR(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	wr_sha256_hex("", 0, hex);
	WR_CHECK_STR(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	wr_sha256_hex(million, sizeof(million) - 1, hex);
	WR_CHECK_STR(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

int
main(void)
{
	WR_TEST_RUN(test_sha256);
	WR_TEST_RUN(test_planted);
	WR_TEST_RUN(test_noise);
	WR_TEST_RUN(test_seeded_and_outlier);
	WR_TEST_RUN(test_fast_stat);
	WR_TEST_RUN(test_same_as_pairwise);
	return wr_test_summary();
}
