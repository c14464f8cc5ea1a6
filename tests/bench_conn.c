/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The connection engine's cost (lib/conn): two engines back to back in
 * memory on one core (tests/unit/conn_pair.h, the links not looking),
 * HTTP with one request per connection and a 1000-byte answer. Prints
 * connections per second (wall and CPU time) and CPU cycles per
 * connection (the TSC's rate times the process's CPU time), both ends
 * and the in-memory link together. Built, not a test: it prints
 * figures.
 *
 * Usage: bench_conn [connections] [max_open]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#ifdef __x86_64__
#include <x86intrin.h>
#endif

#include "conn_pair.h"

static struct pair P;

static uint64_t
cycles(void)
{
#ifdef __x86_64__
	return __rdtsc();
#else
	return 0;
#endif
}

static double
seconds(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int
main(int argc, char **argv)
{
	uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 0) : 1000000;
	uint32_t max_open = argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 0) :
		4096;
	const struct wr_conn_books *cb, *sb;
	struct wr_conn_cfg cc, sc;
	uint64_t c0, c1;
	double t0, t1, cpu0, cpu1;
	int rc;

	pair_cfg(&cc, WR_CONN_CLIENT, WR_CONN_APP_HTTP);
	pair_cfg(&sc, WR_CONN_SERVER, WR_CONN_APP_HTTP);
	cc.nb_conns = n;
	cc.max_open = max_open;
	sc.max_open = max_open;
	cc.time_wait_us = 100;
	if (!pair_init(&P, &cc, &sc)) {
		fprintf(stderr, "bench_conn: set-up failed\n");
		return 1;
	}
	P.c2s.blind = P.s2c.blind = true;
	P.c2s.delay_us = P.s2c.delay_us = 0;
	t0 = seconds(CLOCK_MONOTONIC);
	cpu0 = seconds(CLOCK_PROCESS_CPUTIME_ID);
	c0 = cycles();
	while (!(wr_conn_engine_idle(P.cli) && wr_conn_engine_idle(P.srv) &&
		wr_conn_engine_books(P.cli)->nb_time_wait == 0)) {
		pair_deliver(&P.c2s, P.srv, P.now_us, true);
		pair_deliver(&P.s2c, P.cli, P.now_us, false);
		wr_conn_engine_poll(P.srv, P.now_us);
		wr_conn_engine_poll(P.cli, P.now_us);
		P.now_us += 1;
	}
	c1 = cycles();
	cpu1 = seconds(CLOCK_PROCESS_CPUTIME_ID);
	t1 = seconds(CLOCK_MONOTONIC);
	cb = wr_conn_engine_books(P.cli);
	sb = wr_conn_engine_books(P.srv);
	printf("connections: %" PRIu64 " completed of %" PRIu64
		" attempted, server closed %" PRIu64 "\n",
		cb->nb_completed, cb->nb_attempted, sb->nb_closed);
	printf("segments: %" PRIu64 " client, %" PRIu64 " server\n",
		cb->nb_segs_tx, sb->nb_segs_tx);
	printf("wall: %.3f s, %.0f connections/s\n", t1 - t0,
		(double)cb->nb_completed / (t1 - t0));
	/* On a shared machine the wall clock counts the time others ran:
	 * the CPU time of this process is the cost. */
	printf("cpu: %.3f s, %.0f connections per CPU second\n", cpu1 - cpu0,
		(double)cb->nb_completed / (cpu1 - cpu0));
	if (c1 > c0 && cb->nb_completed > 0)
		printf("cycles per connection (both ends, TSC over CPU time): "
			"%.0f\n", (double)(c1 - c0) / (t1 - t0) *
			(cpu1 - cpu0) / (double)cb->nb_completed);
	rc = cb->nb_completed == n ? 0 : 1;
	pair_free(&P);
	return rc;
}
