/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for datapath/connclock.h: TSC to microseconds with no
 * division, against the exact quotient d * 10^6 / hz worked in 128 bits
 * here, over random spans up to ten days at several TSC rates; the clock
 * never goes back.
 */
#include <errno.h>
#include <stdlib.h>

#include "datapath/connclock.h"
#include "wr_test.h"

/* The exact microseconds of d cycles at hz, in 128-bit arithmetic. */
static uint64_t
exact_us(uint64_t d, uint64_t hz)
{
	return (uint64_t)((unsigned __int128)d * 1000000u / hz);
}

static uint64_t
rand64(void)
{
	return ((uint64_t)rand() << 42) ^ ((uint64_t)rand() << 21) ^ (uint64_t)rand();
}

/* Every reading within 1 us plus 1e-6 relative of the exact one. */
static void
test_accuracy(void)
{
	static const uint64_t hzs[] = { 1000000, 999999999, 2100000000,
		2994375000, 3700000000u, 5000000000ull };
	unsigned int i, k;

	for (i = 0; i < sizeof(hzs) / sizeof(hzs[0]); i++) {
		struct wr_connclock c;
		uint64_t max_d = hzs[i] * 864000u;   /* ten days */

		WR_CHECK(wr_connclock_init(&c, 12345, hzs[i]) == 0);
		WR_CHECK_U64(wr_connclock_us(&c, 12345), 0);
		WR_CHECK_U64(wr_connclock_us(&c, 100), 0);
		for (k = 0; k < 100000; k++) {
			uint64_t d = rand64() % max_d, want = exact_us(d, hzs[i]);
			uint64_t got = wr_connclock_us(&c, 12345 + d);
			uint64_t diff = got > want ? got - want : want - got;

			WR_CHECK(diff <= 1 + want / 1000000);
			if (diff > 1 + want / 1000000)
				return;
		}
		/* One second is 10^6 us to within 1 us. */
		WR_CHECK(wr_connclock_us(&c, 12345 + hzs[i]) >= 999999);
		WR_CHECK(wr_connclock_us(&c, 12345 + hzs[i]) <= 1000001);
	}
}

/* Monotonic across the 2^32 boundary of the split, where a sum of two
 * floors could step back. */
static void
test_monotonic(void)
{
	struct wr_connclock c;
	uint64_t d, prev = 0, now;
	unsigned int hi;

	WR_CHECK(wr_connclock_init(&c, 0, 2994375000u) == 0);
	for (hi = 0; hi < 64; hi++) {
		for (d = ((uint64_t)hi << 32) - (hi ? 5000 : 0);
				d < ((uint64_t)hi << 32) + 5000; d++) {
			now = wr_connclock_us(&c, d);
			WR_CHECK(now >= prev);
			if (now < prev)
				return;
			prev = now;
		}
	}
}

static void
test_bad_hz(void)
{
	struct wr_connclock c;

	WR_CHECK(wr_connclock_init(&c, 0, 999999) == -EINVAL);
	WR_CHECK(wr_connclock_init(&c, 0, 0) == -EINVAL);
}

int
main(void)
{
	srand(44);
	WR_TEST_RUN(test_accuracy);
	WR_TEST_RUN(test_monotonic);
	WR_TEST_RUN(test_bad_hz);
	return wr_test_summary();
}
