/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The "connections" object of a connection run's result (docs/results.md):
 * what was asked, the books, the figures derived from them, the latency
 * percentiles of each phase, the rows per interval, and whether the books
 * close. Pure: jansson only.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <string.h>
#include <sys/socket.h>

#include "base/jsonw.h"
#include "conn_doc.h"
#include "measure/stats.h"

/* The histograms count microseconds: a 1 MHz clock for wr_stats_lat_figs. */
#define CONN_LAT_HZ UINT64_C(1000000)

uint64_t
wr_results_conn_failed(const struct wr_conn_books *b)
{
	return b->nb_failed_syn_timeout + b->nb_failed_refused +
		b->nb_failed_reset + b->nb_failed_rtx_timeout +
		b->nb_failed_resp_timeout + b->nb_failed_http;
}

static void
eq_set(struct wr_conn_eq *eq, const char *name, const char *text,
		uint64_t left, uint64_t right)
{
	memset(eq, 0, sizeof(*eq));
	eq->name = name;
	eq->text = text;
	eq->left = left;
	eq->right = right;
	eq->ok = left == right;
}

/*
 * Requests: sent = answered + failed + in flight. The books do not count
 * the requests in flight; an HTTP/1.1 client sends the next request of a
 * connection once the answer to the last one is in, so at most one is in
 * flight on each connection open, none once every connection ended.
 */
static void
requests_eq(const struct wr_conn_result *r, struct wr_conn_eq *eq)
{
	const struct wr_conn_books *b = r->books;
	uint64_t done = b->nb_resps + b->nb_reqs_failed;

	eq_set(eq, "requests", "reqs_sent = resps + reqs_failed + in flight",
		b->nb_reqs_sent, done);
	eq->in_flight = true;
	eq->in_flight_max = r->drained ? 0 : b->nb_open;
	eq->ok = b->nb_reqs_sent >= done &&
		b->nb_reqs_sent - done <= eq->in_flight_max;
}

unsigned int
wr_results_conn_check(const struct wr_conn_result *r, struct wr_conn_eq *eq)
{
	const struct wr_conn_books *b = r->books;

	if (r->cfg->role == WR_CONN_SERVER) {
		eq_set(&eq[0], "accepted", "accepted = closed + open",
			b->nb_accepted, b->nb_closed + b->nb_open);
		return 1;
	}
	eq_set(&eq[0], "connections", "attempted = completed + failed + open",
		b->nb_attempted, b->nb_completed + wr_results_conn_failed(b) +
		b->nb_open);
	if (r->cfg->app != WR_CONN_APP_HTTP)
		return 1;
	requests_eq(r, &eq[1]);
	return 2;
}

static json_t *
eq_json(const struct wr_conn_eq *eq)
{
	json_t *o = json_pack("{sssssIsIsb}", "name", eq->name, "equation",
		eq->text, "left", (json_int_t)eq->left, "right",
		(json_int_t)eq->right, "ok", eq->ok);

	if (o != NULL && eq->in_flight) {
		/* what the left side has beyond the right: may be negative */
		wr_json_set(o, "in_flight", json_integer((json_int_t)(eq->left -
			eq->right)));
		wr_json_set(o, "in_flight_max", wr_json_u64(eq->in_flight_max));
	}
	return o;
}

json_t *
wr_results_conn_check_json(const struct wr_conn_result *r)
{
	struct wr_conn_eq eq[WR_CONN_NB_EQ];
	unsigned int i, n = wr_results_conn_check(r, eq);
	json_t *a = json_array(), *o;
	bool all = true;

	for (i = 0; a != NULL && i < n; i++) {
		all &= eq[i].ok;
		if (json_array_append_new(a, eq_json(&eq[i])) != 0) {
			json_decref(a);
			return NULL;
		}
	}
	if (a == NULL)
		return NULL;
	o = json_pack("{sbso}", "closed", all, "equations", a);
	return o;
}

static const char *
role_name(uint8_t role)
{
	return role == WR_CONN_CLIENT ? "client" : "server";
}

static const char *
app_name(uint8_t app)
{
	return app == WR_CONN_APP_HTTP ? "http" : "bulk";
}

/* An address of cfg's family as text, or null. */
static json_t *
addr_json(uint8_t family, const uint8_t *a)
{
	char buf[INET6_ADDRSTRLEN];

	if (inet_ntop(family == 6 ? AF_INET6 : AF_INET, a, buf, sizeof(buf)) == NULL)
		return json_null();
	return json_string(buf);
}

/* A count that 0 means "no bound" for: the count, or null. */
static json_t *
bound_json(uint64_t v)
{
	return v == 0 ? json_null() : wr_json_u64(v);
}

/* What the run asked for: "asked" (rates and sizes) of the object. */
static json_t *
asked_json(const struct wr_conn_cfg *c)
{
	json_t *o = json_object();

	if (o == NULL)
		return NULL;
	wr_json_set(o, "max_open", wr_json_u64(c->max_open));
	if (c->role == WR_CONN_CLIENT) {
		wr_json_set(o, "cps", bound_json(c->cps));
		wr_json_set(o, "conns", bound_json(c->nb_conns));
		if (c->app == WR_CONN_APP_HTTP) {
			wr_json_set(o, "reqs_per_conn", wr_json_u64(c->reqs_per_conn));
			wr_json_set(o, "req_body_bytes",
				wr_json_u64(c->req_body_bytes));
			wr_json_set(o, "resp_timeout_us",
				wr_json_u64(c->resp_timeout_us));
		} else {
			wr_json_set(o, "bulk_bytes", bound_json(c->bulk_bytes));
		}
	} else if (c->app == WR_CONN_APP_HTTP) {
		wr_json_set(o, "resp_body_bytes", wr_json_u64(c->resp_body_bytes));
	}
	return o;
}

/* The configuration: role, application, the server, what was asked. */
static void
cfg_put(json_t *o, const struct wr_conn_cfg *c)
{
	json_t *srv = json_object();

	wr_json_set(o, "role", json_string(role_name(c->role)));
	wr_json_set(o, "app", json_string(app_name(c->app)));
	wr_json_set(o, "family", json_integer(c->family));
	if (srv != NULL) {
		wr_json_set(srv, "addr", addr_json(c->family,
			c->role == WR_CONN_CLIENT ? c->server_addr : c->laddr));
		wr_json_set(srv, "port", json_integer(c->server_port));
	}
	wr_json_set(o, "server", srv);
	if (c->role == WR_CONN_CLIENT) {
		wr_json_set(o, "src_addr", addr_json(c->family, c->laddr));
		wr_json_set(o, "src_addrs", wr_json_u64(c->nb_laddrs));
		wr_json_set(o, "src_ports", json_pack("[ii]", c->lport_first,
			c->lport_last));
	}
	wr_json_set(o, "asked", asked_json(c));
}

/* Failures by class. */
static json_t *
failed_json(const struct wr_conn_books *b)
{
	return json_pack("{sIsIsIsIsIsI}",
		"syn_timeout", (json_int_t)b->nb_failed_syn_timeout,
		"refused", (json_int_t)b->nb_failed_refused,
		"reset", (json_int_t)b->nb_failed_reset,
		"rtx_timeout", (json_int_t)b->nb_failed_rtx_timeout,
		"resp_timeout", (json_int_t)b->nb_failed_resp_timeout,
		"http", (json_int_t)b->nb_failed_http);
}

/* Starts the client could not make, never counted among the attempted. */
static json_t *
unstarted_json(const struct wr_conn_books *b)
{
	return json_pack("{sIsIsIsI}", "pool", (json_int_t)b->nb_unstarted_pool,
		"tuples", (json_int_t)b->nb_unstarted_tuples,
		"tx", (json_int_t)b->nb_unstarted_tx,
		"late", (json_int_t)b->nb_unstarted_late);
}

/* Every counter of the books, as the engine keeps them (no nb_ prefix). */
static json_t *
books_json(const struct wr_conn_books *b)
{
	json_t *o = json_pack("{sIsIsIsIsIsIsIsIsIsIsIsI}",
		"attempted", (json_int_t)b->nb_attempted,
		"established", (json_int_t)b->nb_established,
		"completed", (json_int_t)b->nb_completed,
		"failed_total", (json_int_t)wr_results_conn_failed(b),
		"open", (json_int_t)b->nb_open,
		"peak_open", (json_int_t)b->nb_peak_open,
		"accepted", (json_int_t)b->nb_accepted,
		"closed", (json_int_t)b->nb_closed,
		"reqs_sent", (json_int_t)b->nb_reqs_sent,
		"resps", (json_int_t)b->nb_resps,
		"reqs_failed", (json_int_t)b->nb_reqs_failed,
		"reqs_served", (json_int_t)b->nb_reqs_served);

	if (o == NULL)
		return NULL;
	wr_json_set(o, "failed", failed_json(b));
	wr_json_set(o, "unstarted", unstarted_json(b));
	wr_json_set(o, "continues", wr_json_u64(b->nb_continues));
	wr_json_set(o, "l7_tx_bytes", wr_json_u64(b->nb_l7_tx_bytes));
	wr_json_set(o, "l7_rx_bytes", wr_json_u64(b->nb_l7_rx_bytes));
	wr_json_set(o, "tx_segs", wr_json_u64(b->nb_segs_tx));
	wr_json_set(o, "rx_segs", wr_json_u64(b->nb_segs_rx));
	wr_json_set(o, "rtx_rto_segs", wr_json_u64(b->nb_rtx_rto));
	wr_json_set(o, "rtx_fast_segs", wr_json_u64(b->nb_rtx_fast));
	wr_json_set(o, "rtx_probe_segs", wr_json_u64(b->nb_rtx_probe));
	wr_json_set(o, "tail_probes", wr_json_u64(b->nb_probes));
	wr_json_set(o, "sack_recoveries", wr_json_u64(b->nb_sack_recoveries));
	wr_json_set(o, "sack_refused", wr_json_u64(b->nb_sack_refused));
	wr_json_set(o, "tx_no_buf_segs", wr_json_u64(b->nb_tx_no_buf));
	wr_json_set(o, "rx_no_conn_segs", wr_json_u64(b->nb_rx_no_conn));
	wr_json_set(o, "rx_bad_segs", wr_json_u64(b->nb_rx_bad));
	wr_json_set(o, "time_wait", wr_json_u64(b->nb_time_wait));
	return o;
}

/* Each queue pair's worker and its books: they add up to "books". */
static json_t *
queues_json(const struct wr_conn_result *r)
{
	json_t *a = json_array(), *o;
	uint32_t i;

	for (i = 0; a != NULL && i < r->nb_queues; i++) {
		o = json_pack("{sIsIsI}", "port", (json_int_t)r->queues[i].port,
			"queue", (json_int_t)r->queues[i].queue,
			"lcore", (json_int_t)r->queues[i].lcore);
		if (o != NULL)
			wr_json_set(o, "books", books_json(r->queues[i].books));
		json_array_append_new(a, o);
	}
	return a;
}

/*
 * Whether the application's payload of this end is what it receives:
 * an HTTP client's answers and a bulk server's stream; else what it
 * sends (an HTTP server's answers, a bulk client's stream).
 */
static bool
goodput_rx(const struct wr_conn_cfg *c)
{
	return (c->role == WR_CONN_CLIENT) == (c->app == WR_CONN_APP_HTTP);
}

/* n per second over dur_s, null when the run lasted no time. */
static json_t *
per_s(double n, double dur_s)
{
	return dur_s > 0 ? json_real(n / dur_s) : json_null();
}

/* The figures per second over the whole run, and the goodput. */
static json_t *
rates_json(const struct wr_conn_result *r)
{
	const struct wr_conn_books *b = r->books;
	double d = r->duration_s;
	bool rx = goodput_rx(r->cfg);
	double good = (double)(rx ? b->nb_l7_rx_bytes : b->nb_l7_tx_bytes);
	json_t *o = json_object();

	if (o == NULL)
		return NULL;
	if (r->cfg->role == WR_CONN_CLIENT) {
		wr_json_set(o, "attempted_cps", per_s((double)b->nb_attempted, d));
		wr_json_set(o, "completed_cps", per_s((double)b->nb_completed, d));
		wr_json_set(o, "requests_per_s", per_s((double)b->nb_resps, d));
	} else {
		wr_json_set(o, "accepted_cps", per_s((double)b->nb_accepted, d));
		wr_json_set(o, "closed_cps", per_s((double)b->nb_closed, d));
		wr_json_set(o, "requests_per_s", per_s((double)b->nb_reqs_served, d));
	}
	wr_json_set(o, "l7_tx_bytes_per_s", per_s((double)b->nb_l7_tx_bytes, d));
	wr_json_set(o, "l7_rx_bytes_per_s", per_s((double)b->nb_l7_rx_bytes, d));
	wr_json_set(o, "goodput_direction", json_string(rx ? "rx" : "tx"));
	wr_json_set(o, "goodput_bytes_per_s", per_s(good, d));
	wr_json_set(o, "goodput_bps", per_s(good * 8, d));
	wr_json_set(o, "rtx_segs_per_s", per_s((double)wr_conn_books_rtx(b),
		d));
	return o;
}

/* Failed over attempted (client), null when nothing was attempted. */
static json_t *
failed_ratio_json(const struct wr_conn_result *r)
{
	const struct wr_conn_books *b = r->books;

	if (r->cfg->role != WR_CONN_CLIENT || b->nb_attempted == 0)
		return json_null();
	return json_real((double)wr_results_conn_failed(b) /
		(double)b->nb_attempted);
}

static json_t *
rtx_json(const struct wr_conn_books *b)
{
	return json_pack("{sIsIsIsI}", "rto_segs", (json_int_t)b->nb_rtx_rto,
		"fast_segs", (json_int_t)b->nb_rtx_fast,
		"probe_segs", (json_int_t)b->nb_rtx_probe,
		"total_segs", (json_int_t)wr_conn_books_rtx(b));
}

/*
 * One phase's latency, defined as the frame latency's figures (percentiles
 * by nearest rank over the histogram, within 1/64; min, max, mean exact),
 * in microseconds; null without a sample.
 */
static json_t *
phase_json(const struct wr_hist *h)
{
	struct wr_lat_figs f;
	json_t *o;

	wr_stats_lat_figs(h, CONN_LAT_HZ, &f);
	if (f.samples == 0)
		return json_null();
	o = json_object();
	if (o == NULL)
		return NULL;
	wr_json_set(o, "samples", wr_json_u64(f.samples));
	wr_json_set(o, "min_us", json_real(f.min_ns / 1e3));
	wr_json_set(o, "mean_us", json_real(f.mean_ns / 1e3));
	wr_json_set(o, "p50_us", json_real(f.p50_ns / 1e3));
	wr_json_set(o, "p90_us", json_real(f.p90_ns / 1e3));
	wr_json_set(o, "p99_us", json_real(f.p99_ns / 1e3));
	wr_json_set(o, "p99_9_us", json_real(f.p999_ns / 1e3));
	wr_json_set(o, "max_us", json_real(f.max_ns / 1e3));
	return o;
}

/* The three phases' latency and the clock that timed them. */
static json_t *
latency_json(const struct wr_conn_result *r)
{
	const struct wr_conn_lat *l = &r->books->lat;
	json_t *o = json_object();

	if (o == NULL)
		return NULL;
	wr_json_set(o, "clock", r->clock != NULL ? json_string(r->clock) :
		json_null());
	wr_json_set(o, "connect", phase_json(&l->connect_us));
	wr_json_set(o, "ttfb", phase_json(&l->ttfb_us));
	wr_json_set(o, "ttlb", phase_json(&l->ttlb_us));
	return o;
}

/* One row: the counters as given, the rates over the row's own span. */
static json_t *
row_json(const struct wr_conn_interval *iv, const struct wr_conn_interval *prev,
		bool rx)
{
	double dt = iv->t_s - (prev != NULL ? prev->t_s : 0.0);
	uint64_t b = rx ? iv->nb_l7_rx_bytes : iv->nb_l7_tx_bytes;
	uint64_t pb = prev == NULL ? 0 : rx ? prev->nb_l7_rx_bytes :
		prev->nb_l7_tx_bytes;
	json_t *o = json_pack("{sfsfsIsIsIsIsIsIsIsI}", "t_s", iv->t_s, "dt_s", dt,
		"attempted", (json_int_t)iv->nb_attempted,
		"completed", (json_int_t)iv->nb_completed,
		"failed", (json_int_t)iv->nb_failed, "open", (json_int_t)iv->nb_open,
		"resps", (json_int_t)iv->nb_resps,
		"l7_rx_bytes", (json_int_t)iv->nb_l7_rx_bytes,
		"l7_tx_bytes", (json_int_t)iv->nb_l7_tx_bytes,
		"rtx_segs", (json_int_t)iv->nb_rtx);

	if (o == NULL)
		return NULL;
	wr_json_set(o, "completed_cps", per_s((double)(iv->nb_completed -
		(prev != NULL ? prev->nb_completed : 0)), dt));
	wr_json_set(o, "requests_per_s", per_s((double)(iv->nb_resps -
		(prev != NULL ? prev->nb_resps : 0)), dt));
	wr_json_set(o, "goodput_bps", per_s((double)(b - pb) * 8, dt));
	return o;
}

static json_t *
intervals_json(const struct wr_conn_result *r)
{
	bool rx = goodput_rx(r->cfg);
	json_t *a = json_array();
	uint32_t i;

	for (i = 0; a != NULL && i < r->nb_iv; i++)
		if (json_array_append_new(a, row_json(&r->iv[i],
				i > 0 ? &r->iv[i - 1] : NULL, rx)) != 0) {
			json_decref(a);
			return NULL;
		}
	return a;
}

/* Whether r can be written; else err names the field. */
static int
check_input(const json_t *doc, const struct wr_conn_result *r,
		struct wr_error *err)
{
	uint32_t i;

	if (!json_is_object(doc) || r == NULL || r->cfg == NULL || r->books == NULL)
		return wr_err_usage(err, -EINVAL, "connections: no document, "
			"configuration or books to write");
	for (i = 0; i < r->nb_queues; i++)
		if (r->queues == NULL || r->queues[i].books == NULL)
			return wr_err_usage(err, -EINVAL, "connections: queue %u of "
				"%u has no books", i, r->nb_queues);
	if (r->cfg->role != WR_CONN_CLIENT && r->cfg->role != WR_CONN_SERVER)
		return wr_err_usage(err, -EINVAL, "connections: role %u is neither "
			"client nor server", r->cfg->role);
	if (r->cfg->app != WR_CONN_APP_HTTP && r->cfg->app != WR_CONN_APP_BULK)
		return wr_err_usage(err, -EINVAL, "connections: app %u is neither "
			"http nor bulk", r->cfg->app);
	if (!isfinite(r->duration_s) || r->duration_s < 0)
		return wr_err_usage(err, -EINVAL, "connections: duration_s %g is "
			"not a time", r->duration_s);
	if (r->nb_iv > 0 && r->iv == NULL)
		return wr_err_usage(err, -EINVAL, "connections: %u intervals and "
			"no rows", r->nb_iv);
	for (i = 0; i < r->nb_iv; i++)
		if (!isfinite(r->iv[i].t_s) || r->iv[i].t_s <= (i > 0 ?
				r->iv[i - 1].t_s : 0.0))
			return wr_err_usage(err, -EINVAL, "connections: interval %u "
				"at t_s %g is not after the one before", i, r->iv[i].t_s);
	return 0;
}

int
wr_results_conn_put(json_t *doc, const struct wr_conn_result *r,
		struct wr_error *err)
{
	return wr_results_conn_put_as(doc, "connections", r, err);
}

int
wr_results_conn_put_as(json_t *doc, const char *key,
		const struct wr_conn_result *r, struct wr_error *err)
{
	json_t *o;

	if (check_input(doc, r, err) != 0)
		return -EINVAL;
	o = json_object();
	if (o == NULL)
		return wr_err_env(err, -ENOMEM, "connections: no memory");
	cfg_put(o, r->cfg);
	wr_json_set(o, "lcores", json_integer(r->nb_lcores));
	wr_json_set(o, "duration_s", json_real(r->duration_s));
	wr_json_set(o, "drained", json_boolean(r->drained));
	wr_json_set(o, "books", books_json(r->books));
	if (r->nb_queues > 0)
		wr_json_set(o, "queues", queues_json(r));
	wr_json_set(o, "failed_ratio", failed_ratio_json(r));
	wr_json_set(o, "rates", rates_json(r));
	wr_json_set(o, "retransmits", rtx_json(r->books));
	wr_json_set(o, "peak_open", wr_json_u64(r->books->nb_peak_open));
	wr_json_set(o, "latency", latency_json(r));
	wr_json_set(o, "intervals", intervals_json(r));
	wr_json_set(o, "books_check", wr_results_conn_check_json(r));
	/* The check is what a reader trusts the books by: never left out. */
	if (json_object_get(o, "books_check") == NULL) {
		json_decref(o);
		return wr_err_env(err, -ENOMEM, "connections: no memory");
	}
	/* jansson releases o when it cannot take it */
	if (json_object_set_new(doc, key, o) != 0)
		return wr_err_env(err, -ENOMEM, "connections: no memory");
	return 0;
}
