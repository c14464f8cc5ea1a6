/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The tear-down pass (conn/teardown.c; --mode conn-teardown,
 * docs/connteardown.md), two engines back to back in memory
 * (conn_pair.h): held connections closed at a paced rate, each close
 * complete when the client's FIN is acknowledged and the server's FIN
 * received. The link counts the FINs that crossed it, apart from both
 * engines' books. A trial's figures from the books (results/conntear.h)
 * and the point report and compare read.
 */
#include <errno.h>
#include <stdio.h>

#include "conn_pair.h"
#include "results/conntear.h"
#include "tcp/wire.h"
#include "wr_test.h"

static struct pair P;

/* FINs seen on a link, counted by the test (not by the engines), and
 * the ring's index up to which it looked. */
static uint64_t fins_c2s;
static uint32_t looked;

/* A holding client of n connections opened at 10,000/s. */
static bool
setup(uint64_t n, uint32_t srv_pool)
{
	struct wr_conn_cfg cc, sc;

	pair_cfg(&cc, WR_CONN_CLIENT, WR_CONN_APP_HTTP);
	pair_cfg(&sc, WR_CONN_SERVER, WR_CONN_APP_HTTP);
	cc.nb_conns = n;
	cc.cps = 10000;
	cc.hold = 1;
	cc.reqs_per_conn = 2;
	cc.syn_timeout_us = 2500000;
	cc.resp_timeout_us = 2000000;
	sc.max_open = srv_pool;
	WR_CHECK(pair_init(&P, &cc, &sc));
	fins_c2s = 0;
	looked = 0;
	return P.cli != NULL && P.srv != NULL;
}

/* The FINs from the client among the packets queued c2s since the
 * last look. */
static void
count_fins(void)
{
	struct wr_tcp_rx rx;
	uint32_t i;

	for (i = looked; i != P.c2s.tail; i++) {
		const struct pair_pkt *pk = &P.c2s.ring[i % PAIR_RING];

		if (wr_tcp_wire_parse(pk->data, pk->len, &rx) == 0 &&
			(rx.seg.flags & WR_TCP_FIN))
			fins_c2s++;
	}
}

/* Step the pair for us of simulated time, counting FINs as they leave. */
static void
step_for(uint64_t us)
{
	uint64_t end = P.now_us + us;

	while (P.now_us < end) {
		pair_deliver(&P.c2s, P.srv, P.now_us, true);
		pair_deliver(&P.s2c, P.cli, P.now_us, false);
		wr_conn_engine_poll(P.srv, P.now_us);
		wr_conn_engine_poll(P.cli, P.now_us);
		count_fins();
		looked = P.c2s.tail;
		P.now_us += P.c2s.head != P.c2s.tail ||
			P.s2c.head != P.s2c.tail ? 10 : 1000;
	}
}

/* The books close: attempted = done + failed + closing. */
static void
check_books(const struct wr_conn_books *b)
{
	WR_CHECK_U64(b->nb_close_attempted, b->nb_close_done +
		b->nb_close_failed + b->nb_closing);
}

/* 300 held, closed at 1,000/s: after 100 ms about 100 FINs went out,
 * and all 300 complete by 0.4 s; none fails, and every one ends as a
 * completed connection too. */
static void
test_paced(void)
{
	const struct wr_conn_books *cb, *sb;
	const uint64_t n = 300;

	if (!setup(n, 4096))
		return;
	WR_CHECK(!pair_run(&P, 1000000));
	looked = P.c2s.tail;
	cb = wr_conn_engine_books(P.cli);
	sb = wr_conn_engine_books(P.srv);
	WR_CHECK_U64(cb->nb_held, n);
	wr_conn_engine_teardown(P.cli, 1000);
	step_for(100000);
	check_books(cb);
	/* 1 ms a close: the first at once, 100 more in 100 ms (one burst's
	 * grain: the clock moves 10 us a turn) */
	WR_CHECK(cb->nb_close_attempted >= 100 && cb->nb_close_attempted <= 101);
	WR_CHECK_U64(fins_c2s, cb->nb_close_attempted);
	step_for(400000);
	check_books(cb);
	WR_CHECK_U64(cb->nb_close_attempted, n);
	WR_CHECK_U64(cb->nb_close_done, n);
	WR_CHECK_U64(cb->nb_close_failed, 0);
	WR_CHECK_U64(cb->nb_closing, 0);
	WR_CHECK_U64(cb->nb_held, 0);
	WR_CHECK_U64(cb->nb_completed, n);
	WR_CHECK_U64(pair_failed(cb), 0);
	WR_CHECK_U64(fins_c2s, n);
	WR_CHECK_U64(sb->nb_closed, n);
	WR_CHECK_U64(cb->nb_open + sb->nb_open, 0);
	WR_CHECK(pair_run(&P, 1000000));
	pair_free(&P);
}

/* The server's FINs lost on the way: every close times out at the
 * deadline (resp_timeout_us), is aborted and counted failed, once. */
static void
test_timeout(void)
{
	const struct wr_conn_books *cb;
	const uint64_t n = 50;

	if (!setup(n, 4096))
		return;
	WR_CHECK(!pair_run(&P, 1000000));
	looked = P.c2s.tail;
	cb = wr_conn_engine_books(P.cli);
	WR_CHECK_U64(cb->nb_held, n);
	P.s2c.cut = true;
	wr_conn_engine_teardown(P.cli, 10000);
	step_for(1000000);
	check_books(cb);
	WR_CHECK_U64(cb->nb_closing, n);
	WR_CHECK_U64(cb->nb_close_done, 0);
	step_for(4000000);
	check_books(cb);
	WR_CHECK_U64(cb->nb_close_attempted, n);
	WR_CHECK_U64(cb->nb_close_failed, n);
	WR_CHECK_U64(cb->nb_close_timeout, n);
	WR_CHECK_U64(cb->nb_close_done, 0);
	WR_CHECK_U64(cb->nb_closing, 0);
	WR_CHECK_U64(cb->nb_completed, 0);
	WR_CHECK_U64(cb->nb_open, 0);
	pair_free(&P);
}

/* A second trial after a reopen fills and closes again; the books go
 * on (a trial's figures are differences). */
static void
test_reopen(void)
{
	const struct wr_conn_books *cb;
	const uint64_t n = 100;

	if (!setup(n, 4096))
		return;
	cb = wr_conn_engine_books(P.cli);
	WR_CHECK(!pair_run(&P, 1000000));
	wr_conn_engine_teardown(P.cli, 5000);
	step_for(500000);
	WR_CHECK_U64(cb->nb_close_done, n);
	wr_conn_engine_reopen(P.cli, 10000, P.now_us);
	WR_CHECK(!pair_run(&P, 1000000));
	WR_CHECK_U64(cb->nb_held, n);
	wr_conn_engine_teardown(P.cli, 5000);
	step_for(500000);
	check_books(cb);
	WR_CHECK_U64(cb->nb_close_done, 2 * n);
	WR_CHECK_U64(cb->nb_completed, 2 * n);
	pair_free(&P);
}

/*
 * A trial's figures (results/conntear.h) across a trial that ends with
 * closes still open: trial 1 (the server's FINs cut) ends with every
 * close open; they fail as trial 2 starts (the reopen) and are not
 * trial 2's. Each trial's books close; trial 2 passes, trial 1 does not.
 */
static void
test_trial_books(void)
{
	static struct wr_conn_books b0, b1, b2;
	struct wr_conntear_trial t1, t2;
	const uint64_t n = 60;
	uint64_t sent;

	if (!setup(n, 4096))
		return;
	b0 = *wr_conn_engine_books(P.cli);
	WR_CHECK(!pair_run(&P, 1000000));
	P.s2c.cut = true;
	wr_conn_engine_teardown(P.cli, 10000);
	step_for(100000);
	b1 = *wr_conn_engine_books(P.cli);
	WR_CHECK(wr_conntear_trial_of(&b0, &b1, n, &t1));
	WR_CHECK_U64(t1.nb_attempted, n);
	WR_CHECK_U64(t1.nb_open, n);
	WR_CHECK_U64(wr_conntear_loss(&t1, &sent), n);
	WR_CHECK_U64(sent, n);
	P.s2c.cut = false;
	wr_conn_engine_reopen(P.cli, 10000, P.now_us);
	WR_CHECK(!pair_run(&P, 1000000));
	wr_conn_engine_teardown(P.cli, 10000);
	step_for(500000);
	b2 = *wr_conn_engine_books(P.cli);
	WR_CHECK(wr_conntear_trial_of(&b1, &b2, n, &t2));
	WR_CHECK_U64(b2.nb_close_failed, n);    /* trial 1's, at the reopen */
	WR_CHECK_U64(t2.nb_attempted, n);
	WR_CHECK_U64(t2.nb_done, n);
	WR_CHECK_U64(t2.nb_failed, 0);
	WR_CHECK_U64(t2.nb_open, 0);
	WR_CHECK_U64(wr_conntear_loss(&t2, &sent), 0);
	WR_CHECK_U64(sent, n);
	/* held ones left unclosed: the generator's limit, all lost */
	t2.nb_unsent = 1;
	WR_CHECK(wr_conntear_limited(&t2));
	WR_CHECK_U64(wr_conntear_loss(&t2, &sent), n);
	pair_free(&P);
}

/* The point report and compare read: max_cps, none while running. */
static void
test_points(void)
{
	struct wr_points pts;
	struct wr_error err;
	json_t *doc = json_pack("{s:s, s:{s:f}}", "mode", "conn-teardown",
		"conn_teardown", "max_cps", 401.0);

	memset(&pts, 0, sizeof(pts));
	WR_CHECK(wr_conntear_points(doc, &pts, &err) == 0);
	WR_CHECK(pts.p[0].m.have[WR_METRIC_CONN_TEARDOWN_CPS]);
	WR_CHECK(pts.p[0].m.v[WR_METRIC_CONN_TEARDOWN_CPS] == 401.0);
	json_object_del(doc, "conn_teardown");
	WR_CHECK(wr_conntear_points(doc, &pts, &err) == -EINVAL);
	json_object_set_new(doc, "stop_reason", json_string("running"));
	memset(&pts, 0, sizeof(pts));
	WR_CHECK(wr_conntear_points(doc, &pts, &err) == 0);
	WR_CHECK_U64(pts.nb, 0);
	json_decref(doc);
}

int
main(void)
{
	WR_TEST_RUN(test_paced);
	WR_TEST_RUN(test_timeout);
	WR_TEST_RUN(test_reopen);
	WR_TEST_RUN(test_trial_books);
	WR_TEST_RUN(test_points);
	return wr_test_summary();
}
