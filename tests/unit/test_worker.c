/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for the worker loop's end of iteration (worker.h,
 * wr_worker_iter_end) on a hand-made worker, without the EAL: the clock
 * that stamps the next TX burst is read after the publication copy. And
 * the controller's live rate (trial/live.c) on a hand-made run: taken
 * only while a trial sends.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "datapath/worker.h"
#include "setup/run.h"
#include "trial/live.h"
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

/*
 * A live rate or hold between trials (answered with the new
 * rate, then erased by the next trial's set-up) is refused, with nothing
 * published; while a trial sends it is published (pace_gen 0 -> 2, the
 * queue's pace_live); once the trial stopped, refused again.
 */
static void
test_live_between_trials(void)
{
	static struct wr_config cfg;
	static struct wr_run run;
	static struct wr_txq q;
	const struct wr_rate rate = { WR_RATE_PPS, 1e6 };
	struct wr_error err;

	memset(&run, 0, sizeof(run));
	memset(&q, 0, sizeof(q));
	run.setup.cfg = &cfg;
	run.setup.tsc_hz = 2000000000ULL;
	run.setup.nb_ports = 1;
	run.setup.ports[0].tx = true;
	run.setup.ports[0].nb_txq = 1;
	q.burst_pkts = 32;
	q.frame_size = 64;
	run.setup.q.tx[0] = &q;
	run.setup.q.nb_tx = 1;
	wr_err_clear(&err);
	WR_CHECK(wr_live_rate(&run, -1, -1, &rate, &err) == -EAGAIN);
	WR_CHECK(err.cls == WR_ERR_FAIL);
	WR_CHECK(wr_live_hold(&run, -1, true, &err) == -EAGAIN);
	WR_CHECK_U64(run.live.ctl.pace_gen, 0);
	WR_CHECK_U64(run.live.ctl.tx_held, 0);
	WR_CHECK(q.pace_live.pps == 0.0);
	run.live.launched = true;
	WR_CHECK(wr_live_rate(&run, -1, -1, &rate, &err) == 0);
	WR_CHECK_U64(run.live.ctl.pace_gen, 2);
	WR_CHECK(q.pace_live.pps == 1e6);
	WR_CHECK(wr_live_hold(&run, -1, true, &err) == 0);
	WR_CHECK_U64(run.live.ctl.tx_held, 1);
	run.live.stopped = true;
	WR_CHECK(wr_live_rate(&run, -1, -1, &rate, &err) == -EAGAIN);
	WR_CHECK_U64(run.live.ctl.pace_gen, 2);
}

int
main(void)
{
	WR_TEST_RUN(test_clock_after_copy);
	WR_TEST_RUN(test_live_between_trials);
	return wr_test_summary();
}
