/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The connection engine (lib/conn) when all goes well: two engines back
 * to back in memory (conn_pair.h), HTTP with one request or K per
 * connection, IPv4 and IPv6, bulk. The books must close exactly on both
 * ends and agree with what the link saw cross it (SYNs, GETs, 200s, bulk
 * bytes checked against the pattern), and with the configuration.
 */
#include <stdio.h>

#include "conn_pair.h"
#include "rss_key.h"
#include "wr_test.h"

static struct pair P;

/* The client's books close, every connection completed, none open. */
static void
check_client_books(const struct wr_conn_books *b, uint64_t n)
{
	WR_CHECK_U64(b->nb_attempted, n);
	WR_CHECK_U64(b->nb_completed, n);
	WR_CHECK_U64(b->nb_established, n);
	WR_CHECK_U64(pair_failed(b), 0);
	WR_CHECK_U64(b->nb_open, 0);
	WR_CHECK_U64(b->nb_unstarted_pool + b->nb_unstarted_tuples +
		b->nb_unstarted_tx, 0);
	WR_CHECK_U64(b->nb_attempted, b->nb_completed + pair_failed(b) +
		b->nb_open);
}

/* HTTP, reqs requests per connection, n connections, IPv4 or 6; each
 * request a GET, or a POST of body bytes (the link checks them). */
static void
run_http(uint64_t n, uint32_t reqs, int family, uint32_t max_open,
	uint64_t body)
{
	struct wr_conn_cfg cc, sc;
	const struct wr_conn_books *cb, *sb;

	pair_cfg(&cc, WR_CONN_CLIENT, WR_CONN_APP_HTTP);
	pair_cfg(&sc, WR_CONN_SERVER, WR_CONN_APP_HTTP);
	if (family == 6) {
		pair_cfg6(&cc);
		pair_cfg6(&sc);
	}
	cc.nb_conns = n;
	cc.reqs_per_conn = reqs;
	cc.max_open = max_open;
	cc.cps = 200000;
	cc.req_body_bytes = body;
	WR_CHECK(pair_init(&P, &cc, &sc));
	if (P.cli == NULL || P.srv == NULL)
		return;
	P.c2s.check_body = true;
	WR_CHECK(pair_run(&P, 60000000));
	cb = wr_conn_engine_books(P.cli);
	sb = wr_conn_engine_books(P.srv);
	/* the client closed first: its TIME_WAITs, then none */
	WR_CHECK(cb->nb_time_wait > 0);
	WR_CHECK_U64(sb->nb_time_wait, 0);
	pair_settle(&P, 10000);
	check_client_books(cb, n);
	WR_CHECK_U64(cb->nb_reqs_sent, n * reqs);
	WR_CHECK_U64(cb->nb_resps, n * reqs);
	WR_CHECK_U64(cb->nb_reqs_failed, 0);
	WR_CHECK_U64(sb->nb_accepted, n);
	WR_CHECK_U64(sb->nb_closed, n);
	WR_CHECK_U64(sb->nb_open, 0);
	WR_CHECK_U64(sb->nb_reqs_served, n * reqs);
	/* what the links saw: no loss, so each once */
	WR_CHECK_U64(P.c2s.seen.nb_syn, n);
	WR_CHECK_U64(P.c2s.seen.nb_get, body > 0 ? 0 : n * reqs);
	WR_CHECK_U64(P.c2s.seen.nb_post, body > 0 ? n * reqs : 0);
	WR_CHECK_U64(P.c2s.seen.nb_body_bytes, n * reqs * body);
	WR_CHECK_U64(P.c2s.seen.nb_pattern_bad, 0);
	WR_CHECK_U64(P.s2c.seen.nb_200, n * reqs);
	WR_CHECK_U64(P.c2s.seen.nb_rst + P.s2c.seen.nb_rst, 0);
	/* one request in one segment: SYN, ACK with the request, FIN, ACK;
	 * SYN,ACK, the answer, FIN with the ACK of the client's FIN */
	if (reqs == 1 && body < 1000) {
		WR_CHECK_U64(P.c2s.seen.nb_pkts, 4 * n);
		WR_CHECK_U64(P.s2c.seen.nb_pkts, 3 * n);
	}
	WR_CHECK_U64(wr_conn_books_rtx(cb) + wr_conn_books_rtx(sb), 0);
	/* latencies: one connect per connection, one ttfb/ttlb a request;
	 * the link's round trip is 100 us */
	WR_CHECK_U64(cb->lat.connect_us.nb, n);
	WR_CHECK_U64(cb->lat.ttlb_us.nb, n * reqs);
	WR_CHECK_U64(cb->lat.ttfb_us.nb, n * reqs);
	WR_CHECK(cb->lat.connect_us.min >= 100);
	WR_CHECK(cb->lat.ttfb_us.min >= 100);
	/* bytes: the server's answers are head + 1000 bytes of body */
	WR_CHECK_U64(cb->nb_l7_rx_bytes, sb->nb_l7_tx_bytes);
	WR_CHECK_U64(sb->nb_l7_rx_bytes, cb->nb_l7_tx_bytes);
	WR_CHECK(cb->nb_l7_rx_bytes > n * reqs * 1000);
	WR_CHECK_U64(cb->nb_rx_bad + sb->nb_rx_bad, 0);
	WR_CHECK_U64(cb->nb_time_wait, 0);
	pair_free(&P);
}

/* 10,000 connections of one request each, IPv4. */
static void
test_http_10k(void)
{
	run_http(10000, 1, 4, 4096, 0);
}

/* Keep-alive: 5 requests on each of 500 connections. */
static void
test_http_keepalive(void)
{
	run_http(500, 5, 4, 4096, 0);
}

/* IPv6: 2,000 connections of 2 requests. */
static void
test_http_ipv6(void)
{
	run_http(2000, 2, 6, 1024, 0);
}

/*
 * POST: a 1-byte body on 1,000 connections; 20 kB on each of 3 requests
 * on 300 connections; 3 MB on 4 connections (IPv6). Every body byte
 * crosses the link once, as the pattern; the server answers each after
 * its body.
 */
static void
test_http_post(void)
{
	run_http(1000, 1, 4, 4096, 1);
	run_http(300, 3, 4, 4096, 20000);
	run_http(4, 1, 6, 16, 3000000);
}

/* Bulk: 8 connections of 1 MB; the link checks every byte. */
static void
test_bulk(void)
{
	struct wr_conn_cfg cc, sc;
	const struct wr_conn_books *cb, *sb;
	const uint64_t n = 8, bytes = 1000000;

	pair_cfg(&cc, WR_CONN_CLIENT, WR_CONN_APP_BULK);
	pair_cfg(&sc, WR_CONN_SERVER, WR_CONN_APP_BULK);
	cc.nb_conns = n;
	cc.bulk_bytes = bytes;
	WR_CHECK(pair_init(&P, &cc, &sc));
	if (P.cli == NULL || P.srv == NULL)
		return;
	P.c2s.check_bulk = true;
	WR_CHECK(pair_run(&P, 60000000));
	cb = wr_conn_engine_books(P.cli);
	sb = wr_conn_engine_books(P.srv);
	check_client_books(cb, n);
	WR_CHECK_U64(P.c2s.seen.nb_bulk_bytes, n * bytes);
	WR_CHECK_U64(P.c2s.seen.nb_pattern_bad, 0);
	WR_CHECK_U64(cb->nb_l7_tx_bytes, n * bytes);
	WR_CHECK_U64(sb->nb_l7_rx_bytes, n * bytes);
	WR_CHECK_U64(sb->nb_accepted, n);
	WR_CHECK_U64(sb->nb_closed, n);
	/* The server ACKs once a burst: at most one ACK a run of a
	 * connection's segments in a delivery, besides the handshake's and
	 * the close's (one each), not one every second segment. The runs
	 * are long enough for the two to differ. */
	WR_CHECK(P.c2s.seen.nb_data >= 4 * P.c2s.seen.nb_runs);
	WR_CHECK(P.s2c.seen.nb_pure_acks <= P.c2s.seen.nb_runs + 2 * n);
	pair_free(&P);
}

/* Bulk until drain: what was sent is what was delivered. */
static void
test_bulk_drain(void)
{
	struct wr_conn_cfg cc, sc;
	const struct wr_conn_books *cb, *sb;

	pair_cfg(&cc, WR_CONN_CLIENT, WR_CONN_APP_BULK);
	pair_cfg(&sc, WR_CONN_SERVER, WR_CONN_APP_BULK);
	cc.nb_conns = 4;
	WR_CHECK(pair_init(&P, &cc, &sc));
	if (P.cli == NULL || P.srv == NULL)
		return;
	P.c2s.check_bulk = true;
	WR_CHECK(!pair_run(&P, 50000));
	wr_conn_engine_drain(P.cli);
	WR_CHECK(pair_run(&P, 60000000));
	cb = wr_conn_engine_books(P.cli);
	sb = wr_conn_engine_books(P.srv);
	check_client_books(cb, 4);
	WR_CHECK(cb->nb_l7_tx_bytes > 100000);
	WR_CHECK_U64(sb->nb_l7_rx_bytes, cb->nb_l7_tx_bytes);
	WR_CHECK_U64(P.c2s.seen.nb_bulk_bytes, cb->nb_l7_tx_bytes);
	WR_CHECK_U64(P.c2s.seen.nb_pattern_bad, 0);
	pair_free(&P);
}

/*
 * Memory per connection: wr_conn_engine_mem_bytes / max_open for a
 * million connections. The bound: the pool's 132 bytes (conn.h's 128 and
 * a free-list slot), the table's entry (16 bytes IPv4, 40 IPv6) and its
 * bucket heads (4 bytes and a little more: a power of two), two timer
 * links of 16 bytes, the app state of 48, the SACK map's 2: 234 bytes
 * IPv4, 258 IPv6, and less than three more for the buckets' rounding
 * and the engine's own few KB spread over the million.
 */
static void
test_mem_per_conn(void)
{
	struct wr_conn_cfg c;
	const uint32_t n = 1000000;
	double per4, per6;

	pair_cfg(&c, WR_CONN_CLIENT, WR_CONN_APP_HTTP);
	c.max_open = n;
	per4 = (double)wr_conn_engine_mem_bytes(&c) / n;
	pair_cfg6(&c);
	per6 = (double)wr_conn_engine_mem_bytes(&c) / n;
	printf("memory per connection: IPv4 %.1f bytes, IPv6 %.1f bytes\n",
		per4, per6);
	WR_CHECK(per4 > 132 && per4 <= 237);
	WR_CHECK(per6 > per4 && per6 <= 261);
	c.max_open = 0;
	WR_CHECK_U64(wr_conn_engine_mem_bytes(&c), 0);
}

/* A configuration that can't run is refused, naming the field. */
static void
test_bad_cfg(void)
{
	struct wr_conn_cfg c;
	struct wr_conn_emit em = { pair_buf, pair_sent, &P.c2s };
	struct wr_error err;
	static uint8_t mem[1 << 22] __attribute__((aligned(64)));

	pair_cfg(&c, WR_CONN_CLIENT, WR_CONN_APP_HTTP);
	c.max_open = 64;
	c.reqs_per_conn = 0;
	WR_CHECK(wr_conn_engine_init(mem, &c, &em, &err) == NULL);
	WR_CHECK_STR(err.msg, "reqs_per_conn");
	c.reqs_per_conn = 1;
	c.lport_first = 2000;
	c.lport_last = 1000;
	WR_CHECK(wr_conn_engine_init(mem, &c, &em, &err) == NULL);
	WR_CHECK_STR(err.msg, "source ports");
	c.lport_last = 3000;
	WR_CHECK(wr_conn_engine_init(mem + 8, &c, &em, &err) == NULL);
	WR_CHECK_STR(err.msg, "aligned");
	WR_CHECK(wr_conn_engine_mem_bytes(&c) <= sizeof(mem));
	WR_CHECK(wr_conn_engine_init(mem, &c, &em, &err) != NULL);
}

/* The client opens at cps: the SYNs the link counts over a time. */
static void
run_pacing(uint64_t cps, uint64_t span_us)
{
	struct wr_conn_cfg cc, sc;
	uint64_t want = cps * span_us / 1000000;

	pair_cfg(&cc, WR_CONN_CLIENT, WR_CONN_APP_HTTP);
	pair_cfg(&sc, WR_CONN_SERVER, WR_CONN_APP_HTTP);
	cc.cps = cps;
	WR_CHECK(pair_init(&P, &cc, &sc));
	if (P.cli == NULL || P.srv == NULL)
		return;
	/* the first start is due at once: want + 1 in [0, span] */
	pair_settle(&P, span_us);
	wr_conn_engine_drain(P.cli);    /* no start after the span */
	pair_settle(&P, 1000);          /* the SYNs on the way arrive */
	WR_CHECK(P.c2s.seen.nb_syn >= want && P.c2s.seen.nb_syn <= want + 2);
	WR_CHECK_U64(wr_conn_engine_books(P.cli)->nb_attempted,
		P.c2s.seen.nb_syn);
	pair_free(&P);
}

static void
test_pacing(void)
{
	run_pacing(1000, 500000);
	run_pacing(3, 2000000);
	run_pacing(50000, 200000);
}

/* wr_conn_books_sum adds every count and merges the histograms. */
static void
test_books_sum(void)
{
	static struct wr_conn_books a, b, sum;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	memset(&sum, 0, sizeof(sum));
	wr_hist_init(&a.lat.connect_us);
	wr_hist_init(&a.lat.ttfb_us);
	wr_hist_init(&a.lat.ttlb_us);
	b.lat = a.lat;
	sum.lat = a.lat;
	a.nb_attempted = 3;
	b.nb_attempted = 4;
	a.nb_time_wait = 1;
	b.nb_time_wait = 2;
	b.nb_rx_bad = 5;
	wr_hist_add(&a.lat.connect_us, 10);
	wr_hist_add(&b.lat.connect_us, 30);
	wr_hist_add(&b.lat.ttlb_us, 7);
	wr_conn_books_sum(&sum, &a);
	wr_conn_books_sum(&sum, &b);
	WR_CHECK_U64(sum.nb_attempted, 7);
	WR_CHECK_U64(sum.nb_time_wait, 3);
	WR_CHECK_U64(sum.nb_rx_bad, 5);
	WR_CHECK_U64(sum.lat.connect_us.nb, 2);
	WR_CHECK_U64(sum.lat.connect_us.min, 10);
	WR_CHECK_U64(sum.lat.connect_us.max, 30);
	WR_CHECK_U64(sum.lat.ttlb_us.nb, 1);
	WR_CHECK_U64(sum.lat.ttfb_us.nb, 0);
}

/* With RSS, every source tuple's reply reaches the client's queue. */
static void
test_rss(void)
{
	static const uint16_t reta[8] = { 0, 1, 2, 3, 0, 1, 2, 3 };
	const struct wr_conn_rss rss = { ms_key, sizeof(ms_key), reta, 8, 2 };
	struct wr_conn_cfg cc, sc;
	struct wr_error err;
	const uint64_t n = 500;

	pair_cfg(&cc, WR_CONN_CLIENT, WR_CONN_APP_HTTP);
	pair_cfg(&sc, WR_CONN_SERVER, WR_CONN_APP_HTTP);
	cc.nb_conns = n;
	WR_CHECK(pair_init(&P, &cc, &sc));
	if (P.cli == NULL || P.srv == NULL)
		return;
	WR_CHECK(wr_conn_engine_set_rss(P.srv, &rss, &err) < 0);
	WR_CHECK_STR(err.msg, "client");
	WR_CHECK(wr_conn_engine_set_rss(P.cli, &rss, &err) == 0);
	P.c2s.rss = &rss;
	WR_CHECK(pair_run(&P, 10000000));
	pair_settle(&P, 10000);
	check_client_books(wr_conn_engine_books(P.cli), n);
	WR_CHECK_U64(P.c2s.seen.nb_syn, n);
	WR_CHECK_U64(P.c2s.seen.nb_rss_bad, 0);
	pair_free(&P);
}

/*
 * With RSS, a client's queue may take few tuples: here one entry of 128.
 * Each start tries 64 tuples for each one the queue's share gives, so
 * none goes unstarted while tuples are free (64 tries alone leave some);
 * a table that names no entry for the queue is refused.
 */
static void
test_rss_many(void)
{
	static uint16_t reta[128];
	static const uint16_t none[4] = { 0, 1, 0, 1 };
	const struct wr_conn_rss rss = { ms_key, sizeof(ms_key), reta, 128, 5 };
	const struct wr_conn_rss bad = { ms_key, sizeof(ms_key), none, 4, 2 };
	const struct wr_conn_books *b;
	struct wr_conn_cfg cc, sc;
	struct wr_error err;
	const uint64_t n = 400;     /* of the 504 tuples whose entry is 77 */

	reta[77] = 5;
	pair_cfg(&cc, WR_CONN_CLIENT, WR_CONN_APP_HTTP);
	pair_cfg(&sc, WR_CONN_SERVER, WR_CONN_APP_HTTP);
	cc.nb_conns = n;
	WR_CHECK(pair_init(&P, &cc, &sc));
	if (P.cli == NULL || P.srv == NULL)
		return;
	WR_CHECK(wr_conn_engine_set_rss(P.cli, &bad, &err) < 0);
	WR_CHECK_STR(err.msg, "sends nothing to queue 2");
	WR_CHECK(wr_conn_engine_set_rss(P.cli, &rss, &err) == 0);
	P.c2s.rss = &rss;
	WR_CHECK(pair_run(&P, 10000000));
	pair_settle(&P, 10000);
	b = wr_conn_engine_books(P.cli);
	check_client_books(b, n);
	WR_CHECK_U64(b->nb_unstarted_tuples, 0);
	WR_CHECK_U64(P.c2s.seen.nb_syn, n);
	WR_CHECK_U64(P.c2s.seen.nb_rss_bad, 0);
	pair_free(&P);
}

int
main(void)
{
	WR_TEST_RUN(test_rss);
	WR_TEST_RUN(test_rss_many);
	WR_TEST_RUN(test_pacing);
	WR_TEST_RUN(test_books_sum);
	WR_TEST_RUN(test_http_10k);
	WR_TEST_RUN(test_http_keepalive);
	WR_TEST_RUN(test_http_ipv6);
	WR_TEST_RUN(test_http_post);
	WR_TEST_RUN(test_bulk);
	WR_TEST_RUN(test_bulk_drain);
	WR_TEST_RUN(test_mem_per_conn);
	WR_TEST_RUN(test_bad_cfg);
	return wr_test_summary();
}
