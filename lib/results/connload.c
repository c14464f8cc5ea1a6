/* SPDX-License-Identifier: BSD-3-Clause */
/* --mode conn-load's figures, checks and JSON (connload.h). */
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "base/jsonw.h"
#include "connload.h"

/* The counters of struct wr_conn_books: the uint64_t fields before lat. */
#define BOOKS_NB_U64 (offsetof(struct wr_conn_books, lat) / sizeof(uint64_t))

void
wr_connload_delta(const struct wr_conn_books *before,
		const struct wr_conn_books *after, struct wr_conn_books *out)
{
	const uint64_t *a = (const uint64_t *)(const void *)after;
	const uint64_t *b = (const uint64_t *)(const void *)before;
	uint64_t *o = (uint64_t *)(void *)out;
	size_t i;

	for (i = 0; i < BOOKS_NB_U64; i++)
		o[i] = a[i] - b[i];
	/* Gauges: what holds at the trial's end. */
	out->nb_open = after->nb_open;
	out->nb_peak_open = after->nb_peak_open;
	out->nb_time_wait = after->nb_time_wait;
	out->nb_held = after->nb_held;
	out->nb_held_peak = after->nb_held_peak;
	wr_hist_delta(&after->lat.connect_us, &before->lat.connect_us, 0,
		UINT64_MAX, &out->lat.connect_us);
	wr_hist_delta(&after->lat.ttfb_us, &before->lat.ttfb_us, 0,
		UINT64_MAX, &out->lat.ttfb_us);
	wr_hist_delta(&after->lat.ttlb_us, &before->lat.ttlb_us, 0,
		UINT64_MAX, &out->lat.ttlb_us);
	out->nb_gen = after->nb_gen;
}

uint64_t
wr_connload_failed(const struct wr_conn_books *b)
{
	return b->nb_failed_syn_timeout + b->nb_failed_refused +
		b->nb_failed_reset + b->nb_failed_rtx_timeout +
		b->nb_failed_resp_timeout + b->nb_failed_http;
}

/* Whether the client's requests close: sent = answered + failed. */
static bool
reqs_close(const struct wr_conn_books *c)
{
	return c->nb_reqs_sent == c->nb_resps + c->nb_reqs_failed;
}

/* Whether the server's books agree with the client's (none: true). */
static bool
server_agrees(const struct wr_connload_cell *x)
{
	if (!x->has_server)
		return true;
	return x->s.nb_reqs_served == x->c.nb_resps &&
		x->s.nb_l7_rx_bytes == x->c.nb_l7_tx_bytes &&
		x->s.nb_l7_tx_bytes == x->c.nb_l7_rx_bytes &&
		x->s.nb_accepted == x->c.nb_completed;
}

bool
wr_connload_pass(const struct wr_connload_cell *c)
{
	return c->drained && c->c.nb_open == 0 &&
		wr_connload_failed(&c->c) == 0 && c->c.nb_reqs_failed == 0 &&
		reqs_close(&c->c) && c->c.nb_completed > 0 && server_agrees(c);
}

static double
per_s(uint64_t n, double s)
{
	return s > 0 ? (double)n / s : 0.0;
}

/* A latency histogram's percentiles (us), or null when empty. */
static json_t *
lat_json(const struct wr_hist *h)
{
	if (h->nb == 0)
		return json_null();
	return json_pack("{s:o, s:o, s:o, s:o, s:o}",
		"count", wr_json_u64(h->nb),
		"p50_us", wr_json_u64(wr_hist_percentile(h, 50.0)),
		"p90_us", wr_json_u64(wr_hist_percentile(h, 90.0)),
		"p99_us", wr_json_u64(wr_hist_percentile(h, 99.0)),
		"max_us", wr_json_u64(wr_hist_percentile(h, 100.0)));
}

/* The failures by class of b. */
static json_t *
failed_json(const struct wr_conn_books *b)
{
	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
		"total", wr_json_u64(wr_connload_failed(b)),
		"syn_timeout", wr_json_u64(b->nb_failed_syn_timeout),
		"refused", wr_json_u64(b->nb_failed_refused),
		"reset", wr_json_u64(b->nb_failed_reset),
		"rtx_timeout", wr_json_u64(b->nb_failed_rtx_timeout),
		"resp_timeout", wr_json_u64(b->nb_failed_resp_timeout),
		"http", wr_json_u64(b->nb_failed_http));
}

/* The server side's books over the cell, or null. */
static json_t *
server_json(const struct wr_connload_cell *x)
{
	if (!x->has_server)
		return json_null();
	return json_pack("{s:o, s:o, s:o, s:o, s:b}",
		"accepted", wr_json_u64(x->s.nb_accepted),
		"reqs_served", wr_json_u64(x->s.nb_reqs_served),
		"l7_rx_bytes", wr_json_u64(x->s.nb_l7_rx_bytes),
		"l7_tx_bytes", wr_json_u64(x->s.nb_l7_tx_bytes),
		"agrees", server_agrees(x));
}

json_t *
wr_connload_cell_json(const struct wr_connload_cell *x)
{
	const struct wr_conn_books *c = &x->c;
	uint64_t bytes = c->nb_l7_tx_bytes + c->nb_l7_rx_bytes;

	return json_pack("{s:s, s:s, s:i, s:f, s:f, s:o, s:o, s:b, s:o, s:o, s:o, s:o, "
		"s:o, s:o, s:o, s:o, s:o, s:o, s:b, s:f, s:f, s:f, s:o, s:o, s:o, "
		"s:o, s:o, s:b}",
		"what", "conn-load", "app", x->app == WR_CONN_APP_BULK ? "bulk" :
			"http", "concurrency", (int)x->conc,
		"duration_s", x->open_s, "total_s", x->total_s,
		"start_unix_us", wr_json_u64((uint64_t)(x->t0_unix_s * 1e6)),
		"end_unix_us", wr_json_u64((uint64_t)(x->t1_unix_s * 1e6)),
		"drained", x->drained,
		"attempted", wr_json_u64(c->nb_attempted),
		"completed", wr_json_u64(c->nb_completed),
		"failed", failed_json(c),
		"open", wr_json_u64(c->nb_open),
		"unstarted", wr_json_u64(c->nb_unstarted_pool +
			c->nb_unstarted_tuples + c->nb_unstarted_tx +
			c->nb_unstarted_late),
		"reqs_sent", wr_json_u64(c->nb_reqs_sent),
		"resps", wr_json_u64(c->nb_resps),
		"reqs_failed", wr_json_u64(c->nb_reqs_failed),
		"l7_tx_bytes", wr_json_u64(c->nb_l7_tx_bytes),
		"l7_rx_bytes", wr_json_u64(c->nb_l7_rx_bytes),
		"books_close", reqs_close(c),
		"requests_per_s", per_s(c->nb_resps, x->total_s),
		"cps", per_s(c->nb_completed, x->total_s),
		"goodput_bps", per_s(bytes * 8, x->total_s),
		"connect", lat_json(&c->lat.connect_us),
		"ttfb", lat_json(&c->lat.ttfb_us),
		"ttlb", lat_json(&c->lat.ttlb_us),
		"rtx_segs", wr_json_u64(wr_conn_books_rtx(c)),
		"server", server_json(x),
		"pass", wr_connload_pass(x));
}

/* The verdict of nb cells in one sentence into buf. */
static void
sentence(const struct wr_connload_cell *cells, uint32_t nb, bool stopped,
		char *buf, size_t len)
{
	uint32_t i, bad = 0, first = 0;

	for (i = 0; i < nb; i++)
		if (!wr_connload_pass(&cells[i]) && bad++ == 0)
			first = i;
	if (nb == 0)
		snprintf(buf, len, "no trial ran");
	else if (bad == 0)
		snprintf(buf, len, "every trial's books close: no connection or "
			"request failed at any concurrency%s", stopped ?
			" (stopped before the last)" : "");
	else
		snprintf(buf, len, "%" PRIu32 " of %" PRIu32 " trials failed; the "
			"first at concurrency %" PRIu32 ": %" PRIu64 " connections and "
			"%" PRIu64 " requests failed, %" PRIu64 " still open", bad, nb,
			cells[first].conc, wr_connload_failed(&cells[first].c),
			cells[first].c.nb_reqs_failed, cells[first].c.nb_open);
}

json_t *
wr_connload_json(const struct wr_connload_cell *cells, uint32_t nb,
		bool stopped)
{
	json_t *rows = json_array();
	char s[320];
	bool pass = nb > 0 && !stopped;
	uint32_t i;

	for (i = 0; i < nb && rows != NULL; i++) {
		pass = pass && wr_connload_pass(&cells[i]);
		json_array_append_new(rows, wr_connload_cell_json(&cells[i]));
	}
	sentence(cells, nb, stopped, s, sizeof(s));
	return json_pack("{s:s, s:o, s:b, s:b, s:s}",
		"app", nb > 0 && cells[0].app == WR_CONN_APP_BULK ? "bulk" : "http",
		"cells", rows != NULL ? rows : json_null(), "complete", !stopped,
		"pass", pass, "verdict", s);
}

const json_t *
wr_connload_record(json_t *trials, const struct wr_connload_cell *x)
{
	json_t *o = wr_connload_cell_json(x);

	if (o == NULL || json_array_append_new(trials, o) != 0)
		return NULL;
	return o;
}

void
wr_connload_put(json_t *doc, const struct wr_connload_cell *cells,
		uint32_t nb, bool stopped)
{
	json_object_set_new(doc, "conn_load", wr_connload_json(cells, nb,
		stopped));
}
