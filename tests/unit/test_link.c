/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests for link.c: transitions and time spent down. */
#include "measure/link.h"
#include "wr_test.h"

static void
test_steady(void)
{
	struct wr_link_watch w;

	wr_link_watch_start(&w, true, 1000);
	wr_link_watch_update(&w, true, 2000);
	wr_link_watch_update(&w, true, 3000);
	WR_CHECK(w.up);
	WR_CHECK_U64(w.nb_down, 0);
	WR_CHECK_U64(w.down_tsc, 0);
}

static void
test_flaps(void)
{
	struct wr_link_watch w;

	wr_link_watch_start(&w, true, 0);
	wr_link_watch_update(&w, false, 100);  /* went down: 1 */
	wr_link_watch_update(&w, false, 250);  /* down 150 */
	wr_link_watch_update(&w, true, 300);   /* down 50 more, back up */
	wr_link_watch_update(&w, false, 400);  /* down again: 2 */
	wr_link_watch_update(&w, true, 410);   /* down 10 */
	WR_CHECK(w.up);
	WR_CHECK_U64(w.nb_down, 2);
	WR_CHECK_U64(w.down_tsc, 210);
}

static void
test_starts_down(void)
{
	struct wr_link_watch w;

	wr_link_watch_start(&w, false, 0);
	wr_link_watch_update(&w, false, 500);
	WR_CHECK_U64(w.nb_down, 0);           /* never seen going down */
	WR_CHECK_U64(w.down_tsc, 500);
	wr_link_watch_update(&w, true, 400);   /* a reading out of order */
	WR_CHECK_U64(w.down_tsc, 500);
	WR_CHECK(w.up);
}

int
main(void)
{
	WR_TEST_RUN(test_steady);
	WR_TEST_RUN(test_flaps);
	WR_TEST_RUN(test_starts_down);
	return wr_test_summary();
}
