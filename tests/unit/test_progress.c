/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for progress.c/progress.h: trial counts, the gap between
 * trials, the upper bound of the time left, halvings and the time format.
 */
#include <string.h>

#include "measure/progress.h"
#include "wr_test.h"

#define HZ 1000000000ull    /* 1 GHz: one tick per ns */

/* Three sizes of 10 s trials: the bound counts later sizes and the gaps. */
static void
test_bound(void)
{
	struct wr_progress p;

	wr_progress_begin(&p, "throughput", 3, 5 * HZ, HZ);
	wr_progress_lengths(&p, 10.0, 0.0);
	wr_progress_size(&p, 1, 64);
	wr_progress_trial(&p, "search", 10.0, 4, 6, 5 * HZ);
	WR_CHECK_U64(p.trial, 1);
	WR_CHECK_U64(p.trials_left, 4 + 2 * 6);
	WR_CHECK_NEAR(wr_progress_left_s(&p, 5 * HZ), 10.0 + 16 * 10.0, 1e-9);
	/* 4 s into the trial: 4 s less. */
	WR_CHECK_NEAR(wr_progress_left_s(&p, 9 * HZ), 6.0 + 160.0, 1e-9);
	WR_CHECK_NEAR(wr_progress_elapsed_s(&p, 9 * HZ), 4.0, 1e-9);
	/* The next trial starts 12 s after the first: a 2 s gap. */
	wr_progress_trial(&p, "search", 10.0, 3, 6, 17 * HZ);
	WR_CHECK_U64(p.trial, 2);
	WR_CHECK_NEAR(p.gap_s, 2.0, 1e-9);
	WR_CHECK_NEAR(wr_progress_left_s(&p, 17 * HZ), 10.0 + 2.0 + 15 * 12.0, 1e-9);
	/* A trial past its length leaves no negative time. */
	WR_CHECK_NEAR(wr_progress_left_s(&p, 40 * HZ), 2.0 + 15 * 12.0, 1e-9);
	/* The last size: no later size counts. */
	wr_progress_size(&p, 3, 1518);
	wr_progress_trial(&p, "search", 10.0, 0, 6, 30 * HZ);
	WR_CHECK_U64(p.trials_left, 0);
	WR_CHECK_STR(p.what, "search");
	WR_CHECK_STR(p.mode, "throughput");
	WR_CHECK_U64(p.frame_size, 1518);
}

/* A calibration longer than the trials counts once per size not started. */
static void
test_size_extra(void)
{
	struct wr_progress p;

	wr_progress_begin(&p, "loss", 3, 0, HZ);
	wr_progress_lengths(&p, 1.0, 1.5);
	wr_progress_size(&p, 1, 64);
	wr_progress_trial(&p, "calibrate", 2.5, 4, 5, 0);
	WR_CHECK_NEAR(wr_progress_left_s(&p, 0), 2.5 + 14 * 1.0 + 2 * 1.5, 1e-9);
	wr_progress_size(&p, 3, 1518);
	wr_progress_trial(&p, "loss", 1.0, 0, 5, 0);
	WR_CHECK_NEAR(wr_progress_left_s(&p, 0), 1.0, 1e-9);
}

/* No bound: said as a negative time, never a made-up figure. */
static void
test_unknown(void)
{
	struct wr_progress p;

	wr_progress_begin(&p, "b2b", 2, 0, HZ);
	wr_progress_lengths(&p, 2.0, 0.0);
	wr_progress_size(&p, 1, 64);
	wr_progress_trial(&p, "calibrate", 2.0, 3, WR_PROGRESS_UNKNOWN, HZ);
	WR_CHECK_U64(p.trials_left, WR_PROGRESS_UNKNOWN);
	WR_CHECK(wr_progress_left_s(&p, HZ) < 0);
	/* On the last size an unknown later size does not matter. */
	wr_progress_size(&p, 2, 128);
	wr_progress_trial(&p, "b2b", 2.0, 3, WR_PROGRESS_UNKNOWN, 4 * HZ);
	WR_CHECK_U64(p.trials_left, 3);
}

/* Trials by count (no length): no bound until one has run, then its time. */
static void
test_by_count(void)
{
	struct wr_progress p;

	wr_progress_begin(&p, "repeat", 1, 0, HZ);
	wr_progress_lengths(&p, 0.0, 0.0);
	wr_progress_size(&p, 1, 64);
	wr_progress_trial(&p, "trial", 0.0, 2, 0, 0);
	WR_CHECK(wr_progress_left_s(&p, HZ) < 0);
	wr_progress_trial(&p, "trial", 0.0, 1, 0, 3 * HZ);
	WR_CHECK_NEAR(wr_progress_left_s(&p, 3 * HZ), 3.0 + 3.0, 1e-9);
}

static void
test_halvings(void)
{
	WR_CHECK_U64(wr_progress_halvings(1.0, 1.0), 0);
	WR_CHECK_U64(wr_progress_halvings(1.0, 0.5), 1);
	WR_CHECK_U64(wr_progress_halvings(1.0, 0.3), 2);
	WR_CHECK_U64(wr_progress_halvings(1024.0, 1.0), 10);
	WR_CHECK_U64(wr_progress_halvings(1.0, 0.0), 64);
}

static void
test_hms(void)
{
	char b[16];

	WR_CHECK_STR(wr_progress_hms(0.2, b, sizeof(b)), "1s");
	WR_CHECK_STR(wr_progress_hms(59.0, b, sizeof(b)), "59s");
	WR_CHECK_STR(wr_progress_hms(125.0, b, sizeof(b)), "2m05s");
	WR_CHECK_STR(wr_progress_hms(3600.0, b, sizeof(b)), "1h00m");
	WR_CHECK_STR(wr_progress_hms(7199.0, b, sizeof(b)), "2h00m");
	WR_CHECK_STR(wr_progress_hms(-3.0, b, sizeof(b)), "0s");
}

int
main(void)
{
	WR_TEST_RUN(test_bound);
	WR_TEST_RUN(test_unknown);
	WR_TEST_RUN(test_size_extra);
	WR_TEST_RUN(test_by_count);
	WR_TEST_RUN(test_halvings);
	WR_TEST_RUN(test_hms);
	return wr_test_summary();
}
