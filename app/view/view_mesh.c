/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The --mode mesh tables of a result's "rfc2889" object (RFC 2889 5.1,
 * 5.2, 5.5, 5.10; docs/rfc2889.md): one line per trial, the ports and the
 * pairs of the last trial (and 5.5's verdicts), the latency at each port,
 * then what the trials found.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "view_methods.h"

static double
num(const json_t *o, const char *k)
{
	return json_number_value(json_object_get(o, k));
}

static const char *
verdict(const json_t *t)
{
	return json_is_true(json_object_get(t, "pass")) ? "pass" : "LOSS";
}

/* The trials, one line each. */
static void
trials(FILE *f, const json_t *y)
{
	const json_t *t;
	size_t i;

	fprintf(f, "%6s %12s %12s %12s %10s %14s %s\n", "size", "offered pps",
		"sent", "received", "lost", "forwarding pps", "verdict");
	json_array_foreach(json_object_get(y, "trials"), i, t)
		fprintf(f, "%6.0f %12.0f %12.0f %12.0f %10.0f %14.0f %s\n",
			num(t, "frame_size"), num(t, "offered_pps"), num(t, "sent"),
			num(t, "received"), num(t, "lost"),
			num(t, "forwarding_rate_pps"), verdict(t));
}

/* RFC 2889 5.5's verdicts of trial t, when it has them. */
static void
congestion(FILE *f, const json_t *t)
{
	const json_t *g = json_object_get(t, "congestion");

	if (g == NULL)
		return;
	fprintf(f, "head-of-line blocking: %s (uncongested flow 0>3 lost %.0f of "
		"%.0f)\n", json_is_true(json_object_get(g, "head_of_line_blocking")) ?
		"yes" : "no", num(g, "uncongested_lost"), num(g, "uncongested_sent"));
	fprintf(f, "back pressure: %s (congested flows to port 2 lost %.0f of %.0f; "
		"transmit refused %.0f)\n", json_is_true(json_object_get(g,
		"back_pressure")) ? "yes" : "no", num(g, "congested_lost"),
		num(g, "congested_sent"), num(g, "tx_refused"));
}

/* The ports and pairs of trial t. */
static void
detail(FILE *f, const json_t *t)
{
	const json_t *x;
	size_t i;

	fprintf(f, "%6s %12s %12s %10s %10s %14s\n", "port", "sent", "received",
		"lost", "stray", "forwarding pps");
	json_array_foreach(json_object_get(t, "ports"), i, x)
		fprintf(f, "%6.0f %12.0f %12.0f %10.0f %10.0f %14.0f\n",
			num(x, "index"), num(x, "sent"), num(x, "received"),
			num(x, "lost"), num(x, "stray"), num(x, "forwarding_rate_pps"));
	fprintf(f, "%6s %12s %12s %10s %10s\n", "pair", "sent", "received",
		"lost", "stray");
	json_array_foreach(json_object_get(t, "pairs"), i, x)
		fprintf(f, "%3.0f>%-2.0f %12.0f %12.0f %10.0f %10.0f\n",
			num(x, "src"), num(x, "dst"), num(x, "sent"),
			num(x, "received"), num(x, "lost"), num(x, "stray"));
}

/* The latency at each receiving port of trial t, by the clock of y. */
static void
latency(FILE *f, const json_t *y, const json_t *t)
{
	const json_t *x, *l;
	size_t i;

	fprintf(f, "latency, %s:\n", json_string_value(json_object_get(y,
		"latency_clock")));
	fprintf(f, "%6s %12s %10s %10s %10s %10s\n", "port", "frames", "min us",
		"mean us", "p99 us", "max us");
	json_array_foreach(json_object_get(t, "ports"), i, x) {
		l = json_object_get(x, "latency");
		if (num(l, "count") > 0)
			fprintf(f, "%6.0f %12.0f %10.1f %10.1f %10.1f %10.1f\n",
				num(x, "index"), num(l, "count"), num(l, "min_ns") / 1e3,
				num(l, "mean_ns") / 1e3, num(l, "p99_ns") / 1e3,
				num(l, "max_ns") / 1e3);
	}
}

/* RFC 2889 5.6: the forward pressure verdict of result r, when run. */
static void
pressure(FILE *f, const json_t *r)
{
	const json_t *p = json_object_get(r, "forward_pressure");

	if (p == NULL)
		return;
	fprintf(f, "forward pressure: %s (offered %.0f frames/s per port: a gap "
		"of %.0f bits on %.0f bit/s; legal rate %.0f", json_is_true(
		json_object_get(p, "found")) ? "yes" : "no", num(p, "offered_pps"),
		num(p, "gap_bits"), num(p, "link_bps"), num(p, "legal_pps"));
	if (json_is_integer(json_object_get(p, "port")))
		fprintf(f, "; port %.0f forwarded %.0f", num(p, "port"), num(
			json_array_get(json_object_get(p, "ports"), (size_t)num(p,
			"port")), "forwarding_rate_pps"));
	if (!json_is_true(json_object_get(p, "held")))
		fprintf(f, "; the senders fell under the legal rate (%.0f "
			"frames/s) in each of %.0f trials",
			num(p, "tx_pps"), num(p, "tries"));
	else if (num(p, "tries") > 1)
		fprintf(f, "; %.0f trials, the senders held the rate in the "
			"last", num(p, "tries"));
	fprintf(f, ")\n");
}

/* RFC 2889 5.10: the broadcast frames of trial t. */
static void
broadcast(FILE *f, const json_t *t)
{
	const json_t *b = json_object_get(t, "broadcast");

	if (b != NULL)
		fprintf(f, "broadcast: port %.0f sent %.0f frames, each to %.0f "
			"ports (a pair's sent counts each one)\n", num(b, "src"),
			num(b, "frames_sent"), num(b, "receivers"));
}

/* What the trials of result r's size found; sized: say the size. */
static void
found(FILE *f, const json_t *r, bool sized)
{
	if (sized)
		fprintf(f, "at %.0f B:\n", num(r, "frame_size"));
	if (json_is_true(json_object_get(r, "search"))) {
		if (!json_is_true(json_object_get(r, "found")))
			fprintf(f, "throughput not found: even the lowest rate lost "
				"frames\n");
		else
			fprintf(f, "throughput: %.0f frames/s per port%s%s\n",
				num(r, "throughput_pps"),
				json_is_true(json_object_get(r, "at_max")) ? " (at "
				"least: the highest rate tried passed)" : "",
				json_is_true(json_object_get(r, "converged")) ? "" :
				" (not resolved: trial cap)");
	}
	if (json_is_number(json_object_get(r, "forwarding_rate_pps")))
		fprintf(f, "forwarding rate: %.0f frames/s in all\n",
			num(r, "forwarding_rate_pps"));
	pressure(f, r);
}

void
app_view_mesh(FILE *f, const json_t *y)
{
	const json_t *r = json_object_get(y, "result"), *rs;
	const json_t *t = json_object_get(y, "trials");
	const char *pat = json_string_value(json_object_get(y, "pattern"));
	size_t n = json_array_size(t), i;

	fprintf(f, "\nRFC 2889 %s: %s %s over %zu ports\n",
		json_string_value(json_object_get(y, "section")),
		pat != NULL ? pat : "?", pat != NULL && strcmp(pat,
		"broadcast") == 0 ? "frame forwarding" : "meshed forwarding",
		json_array_size(json_object_get(y, "ports")));
	trials(f, y);
	if (n > 0) {
		fprintf(f, "last trial, by port and by pair:\n");
		detail(f, json_array_get(t, n - 1));
		congestion(f, json_array_get(t, n - 1));
		broadcast(f, json_array_get(t, n - 1));
		if (json_object_get(y, "latency_clock") != NULL)
			latency(f, y, json_array_get(t, n - 1));
	}
	if (r == NULL) {
		fprintf(f, "no result: the trials did not finish\n");
		return;
	}
	rs = json_object_get(y, "results");
	if (json_array_size(rs) == 0)
		found(f, r, false);
	json_array_foreach(rs, i, r)
		found(f, r, json_array_size(rs) > 1);
}
