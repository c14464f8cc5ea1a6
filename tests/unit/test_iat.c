/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for iat.c/iat.h: folding a burst's arrivals once per stream
 * gives exactly what adding them frame by frame gave.
 */
#include <stdbool.h>
#include <string.h>

#include "measure/iat.h"
#include "wr_test.h"

/* The per-frame accounting the fold replaces: one arrival at now_tsc. */
static void
ref_frame(struct wr_rx_iat *a, uint64_t now_tsc)
{
	uint64_t gap = now_tsc - a->last_tsc;
	unsigned int bin;

	if (a->last_tsc == 0) {
		a->last_tsc = now_tsc;
		return;
	}
	a->last_tsc = now_tsc;
	bin = gap == 0 ? 0 : 64u - (unsigned int)__builtin_clzll(gap);
	a->bins[bin < WR_IAT_BINS ? bin : WR_IAT_BINS - 1]++;
	a->nb++;
	a->sum_tsc += gap;
	a->sumsq_tsc += (double)gap * (double)gap;
}

/* Every field equal, the double bit for bit. */
static void
check_same(const struct wr_rx_iat *got, const struct wr_rx_iat *want)
{
	unsigned int k;

	WR_CHECK_U64(got->last_tsc, want->last_tsc);
	WR_CHECK_U64(got->nb, want->nb);
	WR_CHECK_U64(got->sum_tsc, want->sum_tsc);
	WR_CHECK(memcmp(&got->sumsq_tsc, &want->sumsq_tsc, sizeof(double)) == 0);
	for (k = 0; k < WR_IAT_BINS; k++)
		WR_CHECK_U64(got->bins[k], want->bins[k]);
}

/* Add a burst of n frames at now to both. */
static void
burst(struct wr_rx_iat *fold, struct wr_rx_iat *ref, uint64_t now, uint32_t n)
{
	uint32_t i;

	wr_iat_fold(fold, now, n);
	for (i = 0; i < n; i++)
		ref_frame(ref, now);
}

/* The stream's first burst: no gap for its first frame, 0 for the rest. */
static void
test_first_burst(void)
{
	struct wr_rx_iat f = { 0 }, r = { 0 };

	burst(&f, &r, 1000, 32);
	check_same(&f, &r);
	WR_CHECK_U64(f.nb, 31);
	WR_CHECK_U64(f.bins[0], 31);
	WR_CHECK_U64(f.sum_tsc, 0);
}

/* Single frames, equal stamps (a 0 first gap) and gaps past the last bin. */
static void
test_edges(void)
{
	struct wr_rx_iat f = { 0 }, r = { 0 };

	burst(&f, &r, 5, 1);
	burst(&f, &r, 5, 3);
	burst(&f, &r, 6, 1);
	burst(&f, &r, 6 + (UINT64_C(1) << 50), 2);
	burst(&f, &r, 7 + (UINT64_C(1) << 50), 512);
	check_same(&f, &r);
	WR_CHECK_U64(f.nb, 1 + 3 + 1 + 2 + 512 - 1);
	WR_CHECK_U64(f.bins[WR_IAT_BINS - 1], 1);
	WR_CHECK_U64(f.bins[1], 2);
}

/* Random bursts of random sizes and gaps: a constant-rate and a bursty mix. */
static void
test_random(void)
{
	struct wr_rx_iat f = { 0 }, r = { 0 };
	uint64_t st = 0x1234567u, now = 1;
	unsigned int i;

	for (i = 0; i < 20000; i++) {
		uint64_t x = wr_test_prng(&st);

		now += (x >> 40) % 3 == 0 ? 0 : (x >> 20) % 100000;
		burst(&f, &r, now, (uint32_t)(x % 64) + 1);
	}
	check_same(&f, &r);
	WR_CHECK(f.nb > 20000);
}

int
main(void)
{
	WR_TEST_RUN(test_first_burst);
	WR_TEST_RUN(test_edges);
	WR_TEST_RUN(test_random);
	return wr_test_summary();
}
