/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The "connections" object of a connection run's result (results/
 * conn_doc.h) on crafted books whose figures are known in advance: the
 * configuration, every counter, the rates, the latency percentiles, the
 * rows, and the books' check, which must say false when one side of an
 * equation is off by one; read back as the kind compare and report use.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "conn_craft.h"
#include "results/kinds.h"
#include "wr_test.h"

static struct wr_conn_books books;
static struct wr_conn_cfg cfg;
static struct wr_conn_interval iv[2];
static struct wr_conn_result res;

/* The connections object of r written into a fresh document, or NULL. */
static json_t *
put(const struct wr_conn_result *r, int *rc, struct wr_error *err)
{
	json_t *doc = json_object();

	*rc = wr_results_conn_put(doc, r, err);
	return doc;
}

static double
num(const json_t *doc, const char *path)
{
	const json_t *v = wr_metrics_get(doc, path);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static const json_t *
at(const json_t *doc, const char *path)
{
	return wr_metrics_get(doc, path);
}

static void
client(uint8_t app)
{
	craft_cfg(&cfg, WR_CONN_CLIENT, app);
	craft_client_books(&books, 10000);
	craft_intervals(iv, &books);
	craft_result(&res, &cfg, &books, iv);
}

static void
test_client_doc(void)
{
	struct wr_error err;
	json_t *doc;
	int rc;

	client(WR_CONN_APP_HTTP);
	doc = put(&res, &rc, &err);
	WR_CHECK(rc == 0);
	WR_CHECK_STR(json_string_value(at(doc, "connections.role")), "client");
	WR_CHECK_STR(json_string_value(at(doc, "connections.app")), "http");
	WR_CHECK_STR(json_string_value(at(doc, "connections.server.addr")), "10.0.0.2");
	WR_CHECK_U64(num(doc, "connections.server.port"), 80);
	WR_CHECK_STR(json_string_value(at(doc, "connections.src_addr")), "10.0.0.1");
	WR_CHECK_U64(num(doc, "connections.src_ports[1]"), 65535);
	WR_CHECK_U64(num(doc, "connections.asked.cps"), 5000);
	WR_CHECK_U64(num(doc, "connections.asked.conns"), 10000);
	WR_CHECK_U64(num(doc, "connections.books.attempted"), 10000);
	WR_CHECK_U64(num(doc, "connections.books.completed"), 9970);
	WR_CHECK_U64(num(doc, "connections.books.failed_total"), 30);
	WR_CHECK_U64(num(doc, "connections.books.failed.syn_timeout"), 10);
	WR_CHECK_U64(num(doc, "connections.books.failed.refused"), 5);
	WR_CHECK_U64(num(doc, "connections.books.failed.reset"), 3);
	WR_CHECK_U64(num(doc, "connections.books.failed.rtx_timeout"), 2);
	WR_CHECK_U64(num(doc, "connections.books.failed.resp_timeout"), 4);
	WR_CHECK_U64(num(doc, "connections.books.failed.http"), 6);
	WR_CHECK_U64(num(doc, "connections.books.unstarted.pool"), 7);
	WR_CHECK_U64(num(doc, "connections.books.l7_rx_bytes"), 9970000);
	WR_CHECK_U64(num(doc, "connections.retransmits.total_segs"), 37);
	WR_CHECK_U64(num(doc, "connections.retransmits.probe_segs"), 4);
	WR_CHECK_U64(num(doc, "connections.books.rtx_probe_segs"), 4);
	WR_CHECK_U64(num(doc, "connections.books.tail_probes"), 6);
	WR_CHECK_U64(num(doc, "connections.peak_open"), 700);
	/* 10000 and 9970 connections, 9970 answers of 1000 B in 2 s */
	WR_CHECK_NEAR(num(doc, "connections.rates.attempted_cps"), 5000, 1e-9);
	WR_CHECK_NEAR(num(doc, "connections.rates.completed_cps"), 4985, 1e-9);
	WR_CHECK_NEAR(num(doc, "connections.rates.requests_per_s"), 4985, 1e-9);
	WR_CHECK_STR(json_string_value(at(doc,
		"connections.rates.goodput_direction")), "rx");
	WR_CHECK_NEAR(num(doc, "connections.rates.goodput_bytes_per_s"), 4985000, 1e-6);
	WR_CHECK_NEAR(num(doc, "connections.rates.goodput_bps"), 39880000, 1e-6);
	WR_CHECK_NEAR(num(doc, "connections.failed_ratio"), 0.003, 1e-12);
	WR_CHECK(json_is_true(at(doc, "connections.drained")));
	json_decref(doc);
}

/* Connect latency 1..1000 us once each: the nearest ranks are known. */
static void
test_latency(void)
{
	struct wr_error err;
	json_t *doc;
	int rc;

	client(WR_CONN_APP_HTTP);
	doc = put(&res, &rc, &err);
	WR_CHECK(rc == 0);
	WR_CHECK_STR(json_string_value(at(doc, "connections.latency.clock")), "tsc");
	WR_CHECK_U64(num(doc, "connections.latency.connect.samples"), 1000);
	WR_CHECK_NEAR(num(doc, "connections.latency.connect.min_us"), 1, 1e-9);
	WR_CHECK_NEAR(num(doc, "connections.latency.connect.max_us"), 1000, 1e-9);
	WR_CHECK_NEAR(num(doc, "connections.latency.connect.mean_us"), 500.5, 1e-9);
	/* within 1/64 of the exact rank's value (measure/hist.h) */
	WR_CHECK_NEAR(num(doc, "connections.latency.connect.p50_us"), 500, 500 / 64.0);
	WR_CHECK_NEAR(num(doc, "connections.latency.connect.p90_us"), 900, 900 / 64.0);
	WR_CHECK_NEAR(num(doc, "connections.latency.connect.p99_us"), 990, 990 / 64.0);
	WR_CHECK_NEAR(num(doc, "connections.latency.connect.p99_9_us"), 999, 999 / 64.0);
	WR_CHECK_NEAR(num(doc, "connections.latency.ttfb.p99_us"), 100, 100 / 64.0);
	WR_CHECK_NEAR(num(doc, "connections.latency.ttlb.p50_us"), 200, 200 / 64.0);
	WR_CHECK_U64(num(doc, "connections.latency.ttlb.samples"), 9970);
	json_decref(doc);
	/* no sample: null, never a 0 that reads as a figure */
	wr_hist_init(&books.lat.connect_us);
	doc = put(&res, &rc, &err);
	WR_CHECK(rc == 0 && json_is_null(at(doc, "connections.latency.connect")));
	json_decref(doc);
}

/* The rows: each one's rates over its own span. */
static void
test_intervals(void)
{
	struct wr_error err;
	json_t *doc;
	int rc;

	client(WR_CONN_APP_HTTP);
	doc = put(&res, &rc, &err);
	WR_CHECK(rc == 0);
	WR_CHECK_U64(json_array_size(at(doc, "connections.intervals")), 2);
	WR_CHECK_NEAR(num(doc, "connections.intervals[0].dt_s"), 1, 1e-12);
	WR_CHECK_NEAR(num(doc, "connections.intervals[0].completed_cps"), 4985, 1e-9);
	WR_CHECK_NEAR(num(doc, "connections.intervals[1].completed_cps"), 4985, 1e-9);
	WR_CHECK_NEAR(num(doc, "connections.intervals[1].goodput_bps"),
		4985000.0 * 8, 1e-6);
	WR_CHECK_U64(num(doc, "connections.intervals[1].rtx_segs"), 37);
	json_decref(doc);
	/* no time: no rate (null), the counts as they are */
	res.duration_s = 0;
	doc = put(&res, &rc, &err);
	WR_CHECK(rc == 0 && json_is_null(at(doc, "connections.rates.completed_cps")));
	WR_CHECK_U64(num(doc, "connections.books.completed"), 9970);
	json_decref(doc);
}

/* closed and each equation's ok, as written in the document. */
static bool
closes(const struct wr_conn_result *r, const char *name, bool *eq_ok)
{
	struct wr_error err;
	const json_t *eqs, *e;
	json_t *doc;
	bool closed;
	size_t i;
	int rc;

	doc = put(r, &rc, &err);
	closed = rc == 0 && json_is_true(at(doc, "connections.books_check.closed"));
	*eq_ok = false;
	eqs = at(doc, "connections.books_check.equations");
	json_array_foreach(eqs, i, e)
		if (strcmp(json_string_value(json_object_get(e, "name")), name) == 0)
			*eq_ok = json_is_true(json_object_get(e, "ok"));
	json_decref(doc);
	return closed;
}

/* One counter of the client's books off by one, on either side. */
static void
test_client_off_by_one(void)
{
	uint64_t *fields[] = { &books.nb_attempted, &books.nb_completed,
		&books.nb_failed_syn_timeout, &books.nb_failed_refused,
		&books.nb_failed_reset, &books.nb_failed_rtx_timeout,
		&books.nb_failed_resp_timeout, &books.nb_failed_http,
		&books.nb_open };
	const char *names[] = { "attempted", "completed", "syn_timeout",
		"refused", "reset", "rtx_timeout", "resp_timeout", "http", "open" };
	bool ok;
	unsigned int i;

	client(WR_CONN_APP_HTTP);
	WR_CHECK(closes(&res, "connections", &ok) && ok);
	WR_CHECK(closes(&res, "requests", &ok) && ok);
	for (i = 0; i < RTE_DIM(fields); i++) {
		client(WR_CONN_APP_HTTP);
		(*fields[i])++;
		if (closes(&res, "connections", &ok) || ok)
			fprintf(stderr, "%s + 1: the books still close\n", names[i]);
		WR_CHECK(!closes(&res, "connections", &ok) && !ok);
		client(WR_CONN_APP_HTTP);
		(*fields[i])--;
		WR_CHECK(!closes(&res, "connections", &ok) && !ok);
	}
	/* the unstarted are never among the attempted */
	client(WR_CONN_APP_HTTP);
	books.nb_unstarted_tuples += 5;
	WR_CHECK(closes(&res, "connections", &ok) && ok);
}

/* Requests: one side off by one; one in flight on an open connection. */
static void
test_requests(void)
{
	bool ok;

	client(WR_CONN_APP_HTTP);
	books.nb_resps++;
	WR_CHECK(!closes(&res, "requests", &ok) && !ok);
	client(WR_CONN_APP_HTTP);
	books.nb_reqs_failed--;
	WR_CHECK(!closes(&res, "requests", &ok) && !ok);
	/* drained: nothing may be in flight */
	client(WR_CONN_APP_HTTP);
	books.nb_reqs_sent++;
	WR_CHECK(!closes(&res, "requests", &ok) && !ok);
	/* not drained, one connection open: one request may wait for its answer */
	client(WR_CONN_APP_HTTP);
	res.drained = false;
	books.nb_open = 1;
	books.nb_attempted++;
	books.nb_reqs_sent++;
	WR_CHECK(closes(&res, "requests", &ok) && ok);
	books.nb_reqs_sent++;
	WR_CHECK(!closes(&res, "requests", &ok) && !ok);
	/* bulk has no requests: one equation */
	client(WR_CONN_APP_BULK);
	WR_CHECK(closes(&res, "connections", &ok) && ok);
	WR_CHECK(closes(&res, "requests", &ok) && !ok);
}

static void
test_server(void)
{
	struct wr_error err;
	json_t *doc;
	bool ok;
	int rc;

	craft_cfg(&cfg, WR_CONN_SERVER, WR_CONN_APP_HTTP);
	craft_server_books(&books, 8003);
	craft_result(&res, &cfg, &books, NULL);
	res.nb_iv = 0;
	res.drained = false;
	doc = put(&res, &rc, &err);
	WR_CHECK(rc == 0);
	WR_CHECK_STR(json_string_value(at(doc, "connections.role")), "server");
	WR_CHECK_STR(json_string_value(at(doc, "connections.server.addr")), "10.0.0.2");
	WR_CHECK_NEAR(num(doc, "connections.rates.accepted_cps"), 4001.5, 1e-9);
	WR_CHECK_NEAR(num(doc, "connections.rates.requests_per_s"), 4000, 1e-9);
	WR_CHECK_STR(json_string_value(at(doc,
		"connections.rates.goodput_direction")), "tx");
	WR_CHECK_NEAR(num(doc, "connections.rates.goodput_bps"), 4000 * 8000.0, 1e-6);
	WR_CHECK(json_is_null(at(doc, "connections.failed_ratio")));
	WR_CHECK(at(doc, "connections.rates.completed_cps") == NULL);
	WR_CHECK_U64(num(doc, "connections.books_check.equations[0].left"), 8003);
	WR_CHECK_U64(num(doc, "connections.books_check.equations[0].right"), 8003);
	json_decref(doc);
	WR_CHECK(closes(&res, "accepted", &ok) && ok);
	books.nb_closed++;
	WR_CHECK(!closes(&res, "accepted", &ok) && !ok);
	books.nb_closed -= 2;
	WR_CHECK(!closes(&res, "accepted", &ok) && !ok);
	craft_server_books(&books, 8003);
	books.nb_accepted++;
	WR_CHECK(!closes(&res, "accepted", &ok) && !ok);
}

/* A server on two queue pairs: each worker's books under queues, in
 * order, absent with none; a queue with no books refused. */
static void
test_queues(void)
{
	struct wr_conn_books qb[2];
	struct wr_conn_queue q[2];
	struct wr_error err;
	json_t *doc;
	int rc;

	craft_cfg(&cfg, WR_CONN_SERVER, WR_CONN_APP_HTTP);
	craft_server_books(&qb[0], 3001);
	craft_server_books(&qb[1], 5002);
	craft_server_books(&books, 8003);
	craft_result(&res, &cfg, &books, NULL);
	res.nb_iv = 0;
	doc = put(&res, &rc, &err);
	WR_CHECK(rc == 0 && at(doc, "connections.queues") == NULL);
	json_decref(doc);
	q[0] = (struct wr_conn_queue){ 1, 0, 3, &qb[0] };
	q[1] = (struct wr_conn_queue){ 1, 1, 5, &qb[1] };
	res.queues = q;
	res.nb_queues = 2;
	doc = put(&res, &rc, &err);
	WR_CHECK(rc == 0);
	WR_CHECK_U64(json_array_size(at(doc, "connections.queues")), 2);
	WR_CHECK_U64(num(doc, "connections.queues[1].port"), 1);
	WR_CHECK_U64(num(doc, "connections.queues[1].queue"), 1);
	WR_CHECK_U64(num(doc, "connections.queues[1].lcore"), 5);
	WR_CHECK_U64(num(doc, "connections.queues[0].books.accepted"), 3001);
	WR_CHECK_U64(num(doc, "connections.queues[1].books.accepted"), 5002);
	WR_CHECK_U64(num(doc, "connections.books.accepted"), 8003);
	json_decref(doc);
	q[1].books = NULL;
	wr_err_clear(&err);
	doc = put(&res, &rc, &err);
	WR_CHECK(rc == -EINVAL && strstr(err.msg, "queue 1 of 2") != NULL);
	WR_CHECK(at(doc, "connections") == NULL);
	json_decref(doc);
	res.queues = NULL;
	res.nb_queues = 0;
}

/* Input the writer refuses, naming it, and leaves the document alone. */
static void
test_bad_input(void)
{
	struct wr_error err;
	json_t *doc;
	int rc;

	client(WR_CONN_APP_HTTP);
	cfg.role = 0;
	doc = put(&res, &rc, &err);
	WR_CHECK(rc == -EINVAL && json_object_size(doc) == 0);
	WR_CHECK_STR(err.msg, "role 0");
	json_decref(doc);
	client(WR_CONN_APP_HTTP);
	res.duration_s = NAN;
	doc = put(&res, &rc, &err);
	WR_CHECK(rc == -EINVAL);
	WR_CHECK_STR(err.msg, "duration_s");
	json_decref(doc);
	client(WR_CONN_APP_HTTP);
	iv[1].t_s = iv[0].t_s;
	doc = put(&res, &rc, &err);
	WR_CHECK(rc == -EINVAL);
	WR_CHECK_STR(err.msg, "interval 1");
	json_decref(doc);
	client(WR_CONN_APP_HTTP);
	res.books = NULL;
	doc = put(&res, &rc, &err);
	WR_CHECK(rc == -EINVAL);
	json_decref(doc);
}

/* Read back as a kind: the figures compare judges, from the document. */
static void
test_read_back(void)
{
	static struct wr_points pts;
	struct wr_error err;
	json_t *doc;
	int rc;

	client(WR_CONN_APP_HTTP);
	doc = put(&res, &rc, &err);
	json_object_set_new(doc, "schema", json_string("wirerate-result/1"));
	WR_CHECK(rc == 0 && wr_kind_points(doc, &pts, &err) == 0);
	WR_CHECK_STR(pts.kind->name, "conn_client");
	WR_CHECK_U64(pts.nb, 1);
	WR_CHECK_NEAR(pts.p[0].m.v[WR_METRIC_CONN_CPS], 4985, 1e-9);
	WR_CHECK_NEAR(pts.p[0].m.v[WR_METRIC_CONN_RPS], 4985, 1e-9);
	WR_CHECK_NEAR(pts.p[0].m.v[WR_METRIC_CONN_GOODPUT_GBPS], 0.03988, 1e-12);
	WR_CHECK_NEAR(pts.p[0].m.v[WR_METRIC_CONN_FAIL_PCT], 0.3, 1e-9);
	WR_CHECK_NEAR(pts.p[0].m.v[WR_METRIC_CONN_CONNECT_P99_US], 990, 990 / 64.0);
	WR_CHECK(!pts.p[0].m.have[WR_METRIC_TX_MPPS]);
	/* a field of another type is bad input, named */
	json_object_set_new(json_object_get(json_object_get(doc, "connections"),
		"rates"), "completed_cps", json_string("fast"));
	WR_CHECK(wr_kind_points(doc, &pts, &err) == -EINVAL);
	WR_CHECK_STR(err.msg, "connections.rates.completed_cps");
	json_decref(doc);
}

int
main(void)
{
	WR_TEST_RUN(test_client_doc);
	WR_TEST_RUN(test_latency);
	WR_TEST_RUN(test_intervals);
	WR_TEST_RUN(test_client_off_by_one);
	WR_TEST_RUN(test_requests);
	WR_TEST_RUN(test_server);
	WR_TEST_RUN(test_queues);
	WR_TEST_RUN(test_bad_input);
	WR_TEST_RUN(test_read_back);
	return wr_test_summary();
}
