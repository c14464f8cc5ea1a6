/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --mode conn-load on screen (docs/connload.md): a line per finished
 * trial, then the table of the result's "conn_load": requests/s and
 * latency per concurrency (HTTP) or goodput per connection count (bulk),
 * the server's agreement in a run of both roles, and the verdict.
 */
#include <stdio.h>
#include <string.h>

#include "view_mode.h"

static double
num(const json_t *o, const char *k)
{
	return json_number_value(json_object_get(o, k));
}

/* A percentile of the latency object at k of t (us), or -1 when none. */
static double
pct(const json_t *t, const char *k, const char *p)
{
	const json_t *o = json_object_get(t, k);

	return json_is_object(o) ? num(o, p) : -1.0;
}

/* Whether t is a bulk trial. */
static bool
is_bulk(const json_t *t)
{
	const char *a = json_string_value(json_object_get(t, "app"));

	return a != NULL && strcmp(a, "bulk") == 0;
}

/* The server's word of t: agrees, DISAGREES, or - (no server here). */
static const char *
server_word(const json_t *t)
{
	const json_t *s = json_object_get(t, "server");

	if (!json_is_object(s))
		return "-";
	return json_is_true(json_object_get(s, "agrees")) ? "agrees" :
		"DISAGREES";
}

/* One row of t, the line per trial and the table alike. */
static void
row(FILE *f, const json_t *t)
{
	const json_t *fl = json_object_get(t, "failed");

	if (is_bulk(t))
		fprintf(f, "%11.0f %10.3f %12.3f %10.0f %8.0f %9s %s\n",
			num(t, "concurrency"), num(t, "total_s"),
			num(t, "goodput_bps") / 1e6, num(t, "completed"),
			num(fl, "total"), server_word(t),
			json_is_true(json_object_get(t, "pass")) ? "pass" : "FAIL");
	else
		fprintf(f, "%11.0f %10.3f %12.0f %10.0f %8.0f %8.0f %8.0f %8.0f "
			"%9s %s\n", num(t, "concurrency"), num(t, "total_s"),
			num(t, "requests_per_s"), num(t, "resps"),
			num(t, "reqs_failed") + num(fl, "total"),
			pct(t, "ttfb", "p50_us"), pct(t, "ttlb", "p50_us"),
			pct(t, "ttlb", "p99_us"), server_word(t),
			json_is_true(json_object_get(t, "pass")) ? "pass" : "FAIL");
}

/* The table's head for trials like t. */
static void
head(FILE *f, const json_t *t)
{
	if (is_bulk(t))
		fprintf(f, "%11s %10s %12s %10s %8s %9s %s\n", "connections",
			"seconds", "goodput Mb/s", "completed", "failed", "server",
			"verdict");
	else
		fprintf(f, "%11s %10s %12s %10s %8s %8s %8s %8s %9s %s\n",
			"concurrency", "seconds", "requests/s", "answered", "failed",
			"TTFB p50", "TTLB p50", "TTLB p99", "server", "verdict");
}

void
app_view_connload_cell(FILE *f, const json_t *t)
{
	fprintf(f, "conn-load trial: ");
	head(f, t);
	fprintf(f, "conn-load trial: ");
	row(f, t);
	fflush(f);
}

void
app_view_connload(FILE *f, const json_t *doc)
{
	const json_t *c = json_object_get(doc, "conn_load"), *t;
	const json_t *cells = json_object_get(c, "cells");
	size_t i;

	fprintf(f, "\nconn-load results (trials of %.1f s, per client port; "
		"latency in us)\n", num(doc, "trial_s"));
	if (json_array_size(cells) > 0)
		head(f, json_array_get(cells, 0));
	json_array_foreach(cells, i, t)
		row(f, t);
	fprintf(f, "verdict: %s\n", json_string_value(json_object_get(c,
		"verdict")));
}
