/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for the worker loop's end of iteration (worker.h,
 * wr_worker_iter_end) on a hand-made worker, without the EAL: the clock
 * that stamps the next TX burst is read after the publication copy.
 */
#include <stdlib.h>
#include <string.h>

#include "datapath/worker.h"
#include "wr_test.h"

static struct wr_worker *g_w;
static uint64_t g_done_at_read; /* rx[0]->pub_done when the clock was read */
static uint64_t g_now;

/* A clock that notes which publication was already copied when read. */
static uint64_t
fake_clock(void)
{
	g_done_at_read = __atomic_load_n(&g_w->rx[0]->pub_done, __ATOMIC_ACQUIRE);
	return g_now;
}

/*
 * A request is pending: the copy happens first, the clock after it (issue
 * 22 item 10: a burst's latency included the copy once per interval), and
 * the iteration's cycles go to the busy or idle side.
 */
static void
test_clock_after_copy(void)
{
	static struct wr_worker w;
	static struct wr_rxq q;
	static struct wr_ctl ctl;

	memset(&w, 0, sizeof(w));
	w.nb_rx = 1;
	w.rx[0] = &q;
	w.ctl = &ctl;
	g_w = &w;
	ctl.pub_req = 1;
	g_now = 1000;
	WR_CHECK_U64(wr_worker_iter_end(&w, 5, 400, fake_clock), 1000);
	WR_CHECK_U64(g_done_at_read, 1);
	WR_CHECK_U64(w.pub_seen, 1);
	WR_CHECK_U64(w.st.busy_tsc, 600);
	WR_CHECK_U64(w.st.nb_busy_polls, 1);
	/* No request: no copy, an idle iteration. */
	g_now = 1500;
	WR_CHECK_U64(wr_worker_iter_end(&w, 0, 1000, fake_clock), 1500);
	WR_CHECK_U64(g_done_at_read, 1);
	WR_CHECK_U64(w.st.idle_tsc, 500);
	WR_CHECK_U64(w.st.nb_idle_polls, 1);
	/* The next request: copied before the clock again. */
	ctl.pub_req = 2;
	g_now = 2000;
	wr_worker_iter_end(&w, 1, 1500, fake_clock);
	WR_CHECK_U64(g_done_at_read, 2);
	WR_CHECK_U64(q.pub_done, 2);
}

int
main(void)
{
	WR_TEST_RUN(test_clock_after_copy);
	return wr_test_summary();
}
