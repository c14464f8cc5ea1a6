/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Minimal assertion helpers for wirerate's unit tests (no EAL, no framework).
 * Each test binary calls WR_TEST_RUN() for each case and returns
 * wr_test_summary(), which prints "N passed, N failed" and exits non-zero on
 * any failure.
 */
#ifndef WR_TEST_H
#define WR_TEST_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int wr_test_failed_checks;
static int wr_test_nb_passed;
static int wr_test_nb_failed;

#define WR_CHECK(cond) do { \
	if (!(cond)) { \
		fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
		wr_test_failed_checks++; \
	} \
} while (0)

#define WR_CHECK_U64(got, want) do { \
	uint64_t g_ = (uint64_t)(got), w_ = (uint64_t)(want); \
	if (g_ != w_) { \
		fprintf(stderr, "%s:%d: %s = %" PRIu64 ", want %" PRIu64 "\n", \
			__FILE__, __LINE__, #got, g_, w_); \
		wr_test_failed_checks++; \
	} \
} while (0)

#define WR_CHECK_STR(got, want) do { \
	const char *g_ = (got), *w_ = (want); \
	if (g_ == NULL || strstr(g_, w_) == NULL) { \
		fprintf(stderr, "%s:%d: '%s' does not contain '%s'\n", \
			__FILE__, __LINE__, g_ ? g_ : "(null)", w_); \
		wr_test_failed_checks++; \
	} \
} while (0)

#define WR_CHECK_NEAR(got, want, tol) do { \
	double g_ = (got), w_ = (want), t_ = (tol); \
	if (!(g_ >= w_ - t_ && g_ <= w_ + t_)) { \
		fprintf(stderr, "%s:%d: %s = %.9g, want %.9g +- %.3g\n", \
			__FILE__, __LINE__, #got, g_, w_, t_); \
		wr_test_failed_checks++; \
	} \
} while (0)

#define WR_TEST_RUN(fn) do { \
	int before_ = wr_test_failed_checks; \
	fn(); \
	if (wr_test_failed_checks == before_) { \
		wr_test_nb_passed++; \
	} else { \
		wr_test_nb_failed++; \
		fprintf(stderr, "FAIL %s\n", #fn); \
	} \
} while (0)

/* Small deterministic PRNG (xorshift64*): fixed seeds, tests repeat. */
static inline uint64_t
wr_test_prng(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * UINT64_C(0x2545F4914F6CDD1D);
}

static inline int
wr_test_summary(void)
{
	printf("%d passed, %d failed\n", wr_test_nb_passed, wr_test_nb_failed);
	return wr_test_nb_failed == 0 ? 0 : 1;
}

#endif /* WR_TEST_H */
