/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Held connections and the capacity phases (conn/hold.c,
 * methods/conncap.c; --mode conn-capacity, docs/conncap.md), two engines
 * back to back in memory (conn_pair.h). The server's pool plays a
 * device's connection table: full, it drops new SYNs and counts them
 * (nb_unstarted_pool), a count the client never sees. The link counts
 * what crossed it apart from both.
 */
#include <stdio.h>

#include "conn_pair.h"
#include "methods/conncap.h"
#include "wr_test.h"

static struct pair P;

/* A holding client of n connections at cps; the server's pool. */
static bool
setup(uint64_t n, uint64_t cps, uint32_t srv_pool)
{
	struct wr_conn_cfg cc, sc;

	pair_cfg(&cc, WR_CONN_CLIENT, WR_CONN_APP_HTTP);
	pair_cfg(&sc, WR_CONN_SERVER, WR_CONN_APP_HTTP);
	cc.nb_conns = n;
	cc.cps = cps;
	cc.hold = 1;
	cc.reqs_per_conn = 2;
	cc.syn_timeout_us = 2500000;
	sc.max_open = srv_pool;
	WR_CHECK(pair_init(&P, &cc, &sc));
	return P.cli != NULL && P.srv != NULL;
}

/* Step the pair and the phases every 10 ms of simulated time until
 * the phases end or limit_us passed; apply their acts as the app does. */
static void
run_phases(struct wr_conncap *c, uint64_t limit_us)
{
	uint64_t end = P.now_us + limit_us, next = P.now_us;
	enum wr_conncap_act act;

	while (P.now_us < end && c->phase != WR_CONNCAP_DONE) {
		pair_step(&P);
		if (P.now_us < next)
			continue;
		next = P.now_us + 10000;
		act = wr_conncap_step(c, wr_conn_engine_books(P.cli),
			(double)P.now_us / 1e6, false);
		if (act == WR_CONNCAP_DRAIN)
			wr_conn_engine_drain(P.cli);
		else if (act == WR_CONNCAP_RELEASE)
			wr_conn_engine_release(P.cli);
	}
}

/* Every connection held after its first answer, still held after the
 * drain, each answering its check after the release, then closed. */
static void
test_hold(void)
{
	const struct wr_conn_books *cb, *sb;
	const uint64_t n = 200;

	if (!setup(n, 10000, 4096))
		return;
	WR_CHECK(!pair_run(&P, 1000000));
	cb = wr_conn_engine_books(P.cli);
	sb = wr_conn_engine_books(P.srv);
	WR_CHECK_U64(cb->nb_held, n);
	WR_CHECK_U64(cb->nb_open, n);
	WR_CHECK_U64(sb->nb_open, n);
	WR_CHECK_U64(sb->nb_reqs_served, n);
	WR_CHECK_U64(P.c2s.seen.nb_get, n);
	wr_conn_engine_drain(P.cli);
	WR_CHECK(!pair_run(&P, 1000000));
	WR_CHECK_U64(cb->nb_held, n);       /* the drain holds them */
	wr_conn_engine_release(P.cli);
	WR_CHECK(pair_run(&P, 10000000));
	pair_settle(&P, 10000);
	WR_CHECK_U64(cb->nb_held, 0);
	WR_CHECK_U64(cb->nb_held_peak, n);
	WR_CHECK_U64(cb->nb_hold_checks_ok, n);
	WR_CHECK_U64(cb->nb_completed, n);
	WR_CHECK_U64(pair_failed(cb), 0);
	WR_CHECK_U64(sb->nb_reqs_served, 2 * n);
	WR_CHECK_U64(P.c2s.seen.nb_get, 2 * n);
	WR_CHECK_U64(P.s2c.seen.nb_200, 2 * n);
	WR_CHECK_U64(cb->nb_open + sb->nb_open, 0);
	pair_free(&P);
}

/* A server that never answers: each connection fails once at the SYN
 * timeout, after its SYN and one retry, and sends no RST. */
static void
test_syn_timeout_once(void)
{
	const struct wr_conn_books *cb;
	const uint64_t n = 50;

	if (!setup(n, 10000, 4096))
		return;
	P.c2s.cut = true;
	WR_CHECK(pair_run(&P, 10000000));
	cb = wr_conn_engine_books(P.cli);
	WR_CHECK_U64(cb->nb_attempted, n);
	WR_CHECK_U64(cb->nb_failed_syn_timeout, n);
	WR_CHECK_U64(pair_failed(cb), n);
	WR_CHECK_U64(cb->nb_open, 0);
	/* everything the client sent was a SYN or its one retry */
	WR_CHECK_U64(P.c2s.seen.nb_drops, 2 * n);
	WR_CHECK_U64(cb->nb_rtx_rto, n);
	pair_free(&P);
}

/* The server's pool of 100 is the table: the phases find 100, the held
 * ones all answer their check, and the SYNs the server dropped are the
 * client's failures, two each (an independent count). */
static void
test_capacity_pool(void)
{
	const struct wr_conn_books *cb, *sb;
	struct wr_conncap c;
	const uint64_t n = 400, table = 100;

	/* 100 held at 2 s, the first failure seen at 4.5 s: about 225 */
	if (!setup(n, 50, (uint32_t)table))
		return;
	wr_conncap_init(&c, n, 8.5);
	run_phases(&c, 60000000);
	cb = wr_conn_engine_books(P.cli);
	sb = wr_conn_engine_books(P.srv);
	WR_CHECK_U64(c.phase, WR_CONNCAP_DONE);
	WR_CHECK_U64(c.why, WR_CONNCAP_BY_FAILURE);
	WR_CHECK(c.settled);
	WR_CHECK_U64(c.capacity, table);
	WR_CHECK_U64(cb->nb_hold_checks_ok, table);
	WR_CHECK_U64(cb->nb_completed, table);
	/* the fill stopped at the first failure: fewer than the ceiling */
	WR_CHECK(c.attempted < n);
	WR_CHECK_U64(c.failed, c.attempted - table);
	WR_CHECK_U64(c.failed_syn, c.failed);
	WR_CHECK_U64(sb->nb_unstarted_pool, 2 * cb->nb_failed_syn_timeout);
	WR_CHECK_U64(sb->nb_accepted, table);
	printf("capacity: %llu held, %llu attempted, %llu failed, %llu SYNs "
		"dropped by the server\n", (unsigned long long)c.capacity,
		(unsigned long long)c.attempted, (unsigned long long)c.failed,
		(unsigned long long)sb->nb_unstarted_pool);
	pair_free(&P);
}

/* Under the ceiling with no failure: the fill ends at the ceiling. */
static void
test_capacity_ceiling(void)
{
	struct wr_conncap c;
	const uint64_t n = 150;

	if (!setup(n, 5000, 4096))
		return;
	wr_conncap_init(&c, n, 8.5);
	run_phases(&c, 60000000);
	WR_CHECK_U64(c.phase, WR_CONNCAP_DONE);
	WR_CHECK_U64(c.why, WR_CONNCAP_BY_CEILING);
	WR_CHECK_U64(c.capacity, n);
	WR_CHECK_U64(c.failed, 0);
	WR_CHECK_U64(wr_conn_engine_books(P.cli)->nb_hold_checks_ok, n);
	pair_free(&P);
}

int
main(void)
{
	WR_TEST_RUN(test_hold);
	WR_TEST_RUN(test_syn_timeout_once);
	WR_TEST_RUN(test_capacity_pool);
	WR_TEST_RUN(test_capacity_ceiling);
	return wr_test_summary();
}
