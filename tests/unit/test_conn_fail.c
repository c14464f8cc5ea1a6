/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The connection engine (lib/conn) when things go wrong, two engines
 * back to back in memory (conn_pair.h): 1 % loss each way, a server that
 * vanishes, a refused port, a pool and source tuples that run out, a
 * segment for no connection, a bad checksum. Every connection ends in a
 * class, none hangs, the books close on both ends; the links count what
 * crossed them (SYNs, RSTs) apart from the engines.
 */
#include <stdio.h>

#include "conn_pair.h"
#include "wr_test.h"

static struct pair P;

/* attempted = completed + failed + open, and nothing open. */
static void
check_closed(const struct wr_conn_books *cb, const struct wr_conn_books *sb)
{
	WR_CHECK_U64(cb->nb_attempted, cb->nb_completed + pair_failed(cb) +
		cb->nb_open);
	WR_CHECK_U64(cb->nb_open, 0);
	WR_CHECK_U64(cb->nb_reqs_sent, cb->nb_resps + cb->nb_reqs_failed);
	WR_CHECK_U64(sb->nb_accepted, sb->nb_closed + sb->nb_open);
	WR_CHECK_U64(sb->nb_open, 0);
}

static bool
setup(struct wr_conn_cfg *cc, struct wr_conn_cfg *sc, uint64_t n)
{
	pair_cfg(cc, WR_CONN_CLIENT, WR_CONN_APP_HTTP);
	pair_cfg(sc, WR_CONN_SERVER, WR_CONN_APP_HTTP);
	cc->nb_conns = n;
	cc->cps = 100000;
	return true;
}

/* Run P with drop_ppm random loss each way (fixed seeds) until idle,
 * TIME_WAITs over: both ends' books, closed. */
static void
run_lossy(uint64_t drop_ppm, const struct wr_conn_books **cb,
	const struct wr_conn_books **sb)
{
	P.c2s.drop_ppm = P.s2c.drop_ppm = drop_ppm;
	WR_CHECK(pair_run(&P, 600000000));
	pair_settle(&P, 10000);
	*cb = wr_conn_engine_books(P.cli);
	*sb = wr_conn_engine_books(P.srv);
	check_closed(*cb, *sb);
}

/* 1 % loss each way (fixed seeds): all end, most complete. */
static void
test_loss(void)
{
	struct wr_conn_cfg cc, sc;
	const struct wr_conn_books *cb, *sb;
	const uint64_t n = 2000;

	setup(&cc, &sc, n);
	cc.reqs_per_conn = 3;
	sc.resp_body_bytes = 20000;
	cc.resp_timeout_us = 20000000;
	WR_CHECK(pair_init(&P, &cc, &sc));
	if (P.cli == NULL || P.srv == NULL)
		return;
	run_lossy(10000, &cb, &sb);
	WR_CHECK_U64(cb->nb_attempted, n);
	WR_CHECK(P.c2s.seen.nb_syn >= n);
	WR_CHECK(P.c2s.seen.nb_drops > 0 && P.s2c.seen.nb_drops > 0);
	WR_CHECK(cb->nb_rtx_rto + cb->nb_rtx_fast > 0);
	WR_CHECK(sb->nb_rtx_rto + sb->nb_rtx_fast > 0);
	/* a connection fails only past TCP's retry bound at 1 % loss:
	 * practically never */
	WR_CHECK(cb->nb_completed >= n - n / 100);
	WR_CHECK_U64(cb->nb_time_wait + sb->nb_time_wait, 0);
	printf("loss: %llu completed, %llu failed, rtx rto %llu fast %llu\n",
		(unsigned long long)cb->nb_completed,
		(unsigned long long)pair_failed(cb),
		(unsigned long long)(cb->nb_rtx_rto + sb->nb_rtx_rto),
		(unsigned long long)(cb->nb_rtx_fast + sb->nb_rtx_fast));
	pair_free(&P);
}

/*
 * POSTs of 50 kB, 3 on each connection, at 2 % loss each way: the bodies'
 * bytes that arrive out of order reach the server only as a count (not
 * kept), so it finds each request's end by the length alone; every
 * request is answered, every byte on the link is the pattern.
 */
static void
test_loss_post(void)
{
	struct wr_conn_cfg cc, sc;
	const struct wr_conn_books *cb, *sb;
	const uint64_t n = 300, body = 50000;

	setup(&cc, &sc, n);
	cc.reqs_per_conn = 3;
	cc.req_body_bytes = body;
	cc.resp_timeout_us = 20000000;
	WR_CHECK(pair_init(&P, &cc, &sc));
	if (P.cli == NULL || P.srv == NULL)
		return;
	P.c2s.check_body = true;
	run_lossy(20000, &cb, &sb);
	WR_CHECK_U64(cb->nb_completed, n);
	WR_CHECK_U64(cb->nb_resps, n * 3);
	WR_CHECK_U64(sb->nb_reqs_served, n * 3);
	WR_CHECK(cb->nb_rtx_fast > 0 && cb->nb_sack_recoveries > 0);
	WR_CHECK(P.c2s.seen.nb_body_bytes > n * 3 * body);
	WR_CHECK_U64(P.c2s.seen.nb_pattern_bad, 0);
	WR_CHECK_U64(sb->nb_l7_rx_bytes, cb->nb_l7_tx_bytes);
	pair_free(&P);
}

/* The server vanishes mid-run: the client's open connections fail by
 * class (SYN timeout, retransmission timeout, answer timeout). */
static void
test_vanish(void)
{
	struct wr_conn_cfg cc, sc;
	const struct wr_conn_books *cb, *sb;

	setup(&cc, &sc, 0);
	cc.cps = 10000;
	cc.resp_timeout_us = 2000000;
	sc.resp_body_bytes = 200000;
	WR_CHECK(pair_init(&P, &cc, &sc));
	if (P.cli == NULL || P.srv == NULL)
		return;
	WR_CHECK(!pair_run(&P, 100000));
	P.c2s.cut = P.s2c.cut = true;   /* nothing in, nothing out */
	WR_CHECK(!pair_run(&P, 20000));
	wr_conn_engine_drain(P.cli);
	WR_CHECK(pair_run(&P, 2000000000));
	pair_settle(&P, 10000);
	cb = wr_conn_engine_books(P.cli);
	sb = wr_conn_engine_books(P.srv);
	check_closed(cb, sb);
	WR_CHECK(cb->nb_completed > 0);
	WR_CHECK(cb->nb_failed_syn_timeout > 0);
	WR_CHECK(cb->nb_failed_resp_timeout > 0);
	WR_CHECK_U64(cb->nb_failed_refused + cb->nb_failed_reset +
		cb->nb_failed_http, 0);
	/* the server's answers went unacknowledged: its retry bound */
	WR_CHECK(sb->nb_rtx_rto > 0);
	printf("vanish: %llu completed, syn timeout %llu, rtx timeout %llu, "
		"answer timeout %llu\n",
		(unsigned long long)cb->nb_completed,
		(unsigned long long)cb->nb_failed_syn_timeout,
		(unsigned long long)cb->nb_failed_rtx_timeout,
		(unsigned long long)cb->nb_failed_resp_timeout);
	pair_free(&P);
}

/* No listener on the port: every SYN answered by RST, refused. */
static void
test_refused(void)
{
	struct wr_conn_cfg cc, sc;
	const struct wr_conn_books *cb, *sb;
	const uint64_t n = 100;

	setup(&cc, &sc, n);
	cc.server_port = 81;
	WR_CHECK(pair_init(&P, &cc, &sc));
	if (P.cli == NULL || P.srv == NULL)
		return;
	WR_CHECK(pair_run(&P, 10000000));
	cb = wr_conn_engine_books(P.cli);
	sb = wr_conn_engine_books(P.srv);
	check_closed(cb, sb);
	WR_CHECK_U64(cb->nb_attempted, n);
	WR_CHECK_U64(cb->nb_failed_refused, n);
	WR_CHECK_U64(cb->nb_reqs_sent, 0);
	WR_CHECK_U64(sb->nb_accepted, 0);
	WR_CHECK_U64(sb->nb_rx_no_conn, n);
	WR_CHECK_U64(P.c2s.seen.nb_syn, n);
	WR_CHECK_U64(P.s2c.seen.nb_rst, n);
	pair_free(&P);
}

/* A pool of 8 with a long TIME_WAIT: starts that find it full are
 * unstarted, never attempted nor failed. */
static void
test_pool_exhausted(void)
{
	struct wr_conn_cfg cc, sc;
	const struct wr_conn_books *cb, *sb;
	const uint64_t n = 100;

	setup(&cc, &sc, n);
	cc.max_open = 8;
	cc.time_wait_us = 1000000;
	WR_CHECK(pair_init(&P, &cc, &sc));
	if (P.cli == NULL || P.srv == NULL)
		return;
	WR_CHECK(pair_run(&P, 10000000));
	pair_settle(&P, 2000000);
	cb = wr_conn_engine_books(P.cli);
	sb = wr_conn_engine_books(P.srv);
	check_closed(cb, sb);
	WR_CHECK(cb->nb_unstarted_pool > 0);
	WR_CHECK_U64(cb->nb_attempted + cb->nb_unstarted_pool, n);
	WR_CHECK_U64(cb->nb_completed, cb->nb_attempted);
	WR_CHECK_U64(P.c2s.seen.nb_syn, cb->nb_attempted);
	WR_CHECK_U64(sb->nb_accepted, cb->nb_attempted);
	pair_free(&P);
}

/* Four source ports, held by TIME_WAIT: unstarted for tuples; a port is
 * used again only after its TIME_WAIT (docs/tcp.md). */
static void
test_tuples_exhausted(void)
{
	struct wr_conn_cfg cc, sc;
	const struct wr_conn_books *cb, *sb;
	const uint64_t n = 100;

	setup(&cc, &sc, n);
	cc.lport_first = 2000;
	cc.lport_last = 2003;
	cc.time_wait_us = 50000;
	cc.cps = 1000;
	WR_CHECK(pair_init(&P, &cc, &sc));
	if (P.cli == NULL || P.srv == NULL)
		return;
	WR_CHECK(pair_run(&P, 10000000));
	pair_settle(&P, 100000);
	cb = wr_conn_engine_books(P.cli);
	sb = wr_conn_engine_books(P.srv);
	check_closed(cb, sb);
	WR_CHECK(cb->nb_unstarted_tuples > 0);
	WR_CHECK(cb->nb_attempted > 4);
	WR_CHECK_U64(cb->nb_attempted + cb->nb_unstarted_tuples, n);
	WR_CHECK_U64(cb->nb_completed, cb->nb_attempted);
	WR_CHECK_U64(P.c2s.seen.nb_syn, cb->nb_attempted);
	/* the link saw no port used again before its TIME_WAIT ended */
	WR_CHECK(P.c2s.seen.min_reuse_us >= cc.time_wait_us);
	printf("tuples: port reused %llu us after its last packet at least\n",
		(unsigned long long)P.c2s.seen.min_reuse_us);
	/* 100 starts over 100 ms, each port busy ~50 ms: about half */
	WR_CHECK(cb->nb_attempted < n - 20);
	pair_free(&P);
}

/* A server whose pool is full drops the SYN (counted); the client's
 * SYN comes again after its RTO and the connection completes. */
static void
test_server_pool_full(void)
{
	struct wr_conn_cfg cc, sc;
	const struct wr_conn_books *cb, *sb;
	const uint64_t n = 48;

	/* all SYNs at once, 8 taken a round; the rest come back together
	 * after 1, 2, 4, 8, 16 s (RFC 6298 backoff): 6 rounds, 31 s */
	setup(&cc, &sc, n);
	cc.cps = 0;
	sc.max_open = 8;
	WR_CHECK(pair_init(&P, &cc, &sc));
	if (P.cli == NULL || P.srv == NULL)
		return;
	WR_CHECK(pair_run(&P, 60000000));
	pair_settle(&P, 10000);
	cb = wr_conn_engine_books(P.cli);
	sb = wr_conn_engine_books(P.srv);
	check_closed(cb, sb);
	WR_CHECK_U64(cb->nb_completed, n);
	WR_CHECK(sb->nb_unstarted_pool > 0);
	WR_CHECK_U64(sb->nb_accepted, n);
	WR_CHECK_U64(P.c2s.seen.nb_syn, n + sb->nb_unstarted_pool);
	WR_CHECK(sb->nb_peak_open <= 8);
	pair_free(&P);
}

/* A segment for no connection, and one with a bad checksum. */
static void
test_no_conn_and_bad_csum(void)
{
	struct wr_conn_cfg cc, sc;
	const struct wr_conn_books *sb;
	struct wr_tcp_tuple t;
	struct wr_tcp_seg seg;
	struct wr_tcp_tx tx;
	uint8_t pkt[128];
	int n;

	setup(&cc, &sc, 1);
	WR_CHECK(pair_init(&P, &cc, &sc));
	if (P.cli == NULL || P.srv == NULL)
		return;
	memset(&t, 0, sizeof(t));
	t.family = 4;
	memcpy(t.laddr, cc.laddr, 4);
	memcpy(t.raddr, sc.laddr, 4);
	t.lport = 5555;
	t.rport = 80;
	memset(&seg, 0, sizeof(seg));
	seg.seq = 1000;
	seg.ack = 777;
	seg.flags = WR_TCP_ACK;
	seg.wnd_raw = 100;
	seg.wscale = WR_TCP_WSCALE_NONE;
	memset(&tx, 0, sizeof(tx));
	tx.tuple = &t;
	tx.seg = &seg;
	tx.ttl = 64;
	n = wr_tcp_wire_build(&tx, pkt, sizeof(pkt));
	WR_CHECK(n > 0);
	WR_CHECK(wr_conn_engine_rx(P.srv, pkt, (size_t)n, P.now_us));
	sb = wr_conn_engine_books(P.srv);
	WR_CHECK_U64(sb->nb_rx_no_conn, 1);
	/* RFC 9293 3.10.7.1: <SEQ=SEG.ACK><CTL=RST> */
	WR_CHECK_U64(P.s2c.tail - P.s2c.head, 1);
	pair_look(&P.s2c, P.s2c.ring[0].data, P.s2c.ring[0].len, false);
	WR_CHECK_U64(P.s2c.seen.nb_rst, 1);
	pkt[n - 1] ^= 1;     /* in the TCP header: the checksum breaks */
	WR_CHECK(wr_conn_engine_rx(P.srv, pkt, (size_t)n, P.now_us));
	WR_CHECK_U64(sb->nb_rx_bad, 1);
	WR_CHECK(wr_conn_engine_rx_csum(P.srv, pkt, (size_t)n, P.now_us,
		true));
	WR_CHECK_U64(sb->nb_rx_bad, 1);
	WR_CHECK_U64(sb->nb_rx_no_conn, 2);
	/* another address is not this engine's */
	pkt[19] ^= 1;
	WR_CHECK(!wr_conn_engine_rx(P.srv, pkt, (size_t)n, P.now_us));
	pair_free(&P);
}

int
main(void)
{
	WR_TEST_RUN(test_loss);
	WR_TEST_RUN(test_loss_post);
	WR_TEST_RUN(test_vanish);
	WR_TEST_RUN(test_refused);
	WR_TEST_RUN(test_pool_exhausted);
	WR_TEST_RUN(test_tuples_exhausted);
	WR_TEST_RUN(test_server_pool_full);
	WR_TEST_RUN(test_no_conn_and_bad_csum);
	return wr_test_summary();
}
