/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The RFC 2889 results' tables of `wirerate report` (docs/rfc2889.md):
 * for each --mode mesh file its trials, with the congestion verdicts of
 * 5.5, then the ports of the last trial (counts, forwarding rate, the
 * MFR of 5.6 over the trials, the latency of 5.10) and its pairs, and
 * the forward pressure trial of 5.6 when run; for
 * each address mode file (5.7, 5.8) its trials. The figures compare
 * judges are in the kind's table (report_fmt.c).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>

#include "report_mesh.h"

#define MESH_TABLES 4u
#define OTHER_TABLES 1u

/* A number of o at key into cell, with decimals; "-" when absent. */
static void
num_cell(char *cell, const json_t *o, const char *key, int decimals)
{
	const json_t *v = json_object_get(o, key);

	if (json_is_number(v))
		snprintf(cell, REP_CELL, "%.*f", decimals, json_number_value(v));
	else
		snprintf(cell, REP_CELL, "-");
}

/* A boolean of o at key as yes/no; "-" when absent. */
static void
yes_cell(char *cell, const json_t *o, const char *key, const char *yes,
		const char *no)
{
	const json_t *v = json_object_get(o, key);

	snprintf(cell, REP_CELL, "%s", json_is_boolean(v) ? (json_is_true(v) ?
		yes : no) : "-");
}

static void
heads(struct rep_table *t, const char *const *head, unsigned int nb)
{
	unsigned int i;

	for (i = 0; i < nb; i++)
		t->head[i] = head[i];
	t->nb_cols = nb;
}

static const char *
str(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s != NULL ? s : "?";
}

/* The trials of a mesh result y, one row each. */
static int
mesh_trials(const struct rep_run *run, const json_t *y, struct rep_doc *doc)
{
	static const char *const head[] = { "trial", "size", "offered fps/port",
		"sent", "received", "lost", "forwarding fps", "verdict",
		"head-of-line blocking", "back pressure" };
	const json_t *trials = json_object_get(y, "trials"), *t, *g;
	struct rep_table *tb;
	size_t i;

	tb = rep_table_new(doc, (unsigned int)json_array_size(trials),
		"RFC 2889 %s of %s (%s): %s over %zu ports, trials", str(y,
		"section"), run->label, run->path, str(y, "pattern"),
		json_array_size(json_object_get(y, "ports")));
	if (tb == NULL)
		return -ENOMEM;
	heads(tb, head, RTE_DIM(head));
	json_array_foreach(trials, i, t) {
		g = json_object_get(t, "congestion");
		snprintf(tb->cell[i][0], REP_CELL, "%zu", i + 1);
		num_cell(tb->cell[i][1], t, "frame_size", 0);
		num_cell(tb->cell[i][2], t, "offered_pps", 0);
		num_cell(tb->cell[i][3], t, "sent", 0);
		num_cell(tb->cell[i][4], t, "received", 0);
		num_cell(tb->cell[i][5], t, "lost", 0);
		num_cell(tb->cell[i][6], t, "forwarding_rate_pps", 0);
		yes_cell(tb->cell[i][7], t, "pass", "pass", "LOSS");
		yes_cell(tb->cell[i][8], g, "head_of_line_blocking", "yes", "no");
		yes_cell(tb->cell[i][9], g, "back_pressure", "yes", "no");
	}
	return 0;
}

/* y's result of trial t's frame size (its "result" in a file without). */
static const json_t *
result_of(const json_t *y, const json_t *t)
{
	const json_t *r;
	size_t i;

	json_array_foreach(json_object_get(y, "results"), i, r)
		if (json_equal(json_object_get(r, "frame_size"),
				json_object_get(t, "frame_size")))
			return r;
	return json_object_get(y, "result");
}

/* The MFR entry of port idx in result r, or NULL. */
static const json_t *
mfr_of(const json_t *r, const json_t *idx)
{
	const json_t *x;
	size_t i;

	json_array_foreach(json_object_get(r, "max_forwarding_rate"), i, x)
		if (json_equal(json_object_get(x, "index"), (json_t *)(uintptr_t)idx))
			return x;
	return NULL;
}

/* The ports of the last trial t of y: counts, rates, MFR, latency. */
static int
mesh_ports(const struct rep_run *run, const json_t *y, const json_t *t,
		struct rep_doc *doc)
{
	static const char *const head[] = { "port", "sent", "received", "lost",
		"stray", "tx refused", "forwarding fps", "MFR fps", "MFR at offered",
		"latency frames", "min us", "mean us", "p99 us", "max us" };
	static const char *const lat[] = { "min_ns", "mean_ns", "p99_ns", "max_ns" };
	const json_t *ports = json_object_get(t, "ports"), *x, *m, *l;
	struct rep_table *tb;
	unsigned int j;
	size_t i;

	tb = rep_table_new(doc, (unsigned int)json_array_size(ports),
		"RFC 2889 %s of %s: ports of the last trial (%.0f B); MFR (5.6) "
		"over the trials of its size; latency by %s", str(y, "section"),
		run->label, json_number_value(json_object_get(t, "frame_size")),
		str(y, "latency_clock"));
	if (tb == NULL)
		return -ENOMEM;
	heads(tb, head, RTE_DIM(head));
	json_array_foreach(ports, i, x) {
		m = mfr_of(result_of(y, t), json_object_get(x, "index"));
		l = json_object_get(x, "latency");
		num_cell(tb->cell[i][0], x, "index", 0);
		num_cell(tb->cell[i][1], x, "sent", 0);
		num_cell(tb->cell[i][2], x, "received", 0);
		num_cell(tb->cell[i][3], x, "lost", 0);
		num_cell(tb->cell[i][4], x, "stray", 0);
		num_cell(tb->cell[i][5], x, "tx_refused", 0);
		num_cell(tb->cell[i][6], x, "forwarding_rate_pps", 0);
		num_cell(tb->cell[i][7], m, "mfr_pps", 0);
		num_cell(tb->cell[i][8], m, "offered_pps", 0);
		num_cell(tb->cell[i][9], l, "count", 0);
		for (j = 0; j < RTE_DIM(lat); j++) {
			if (json_number_value(json_object_get(l, "count")) <= 0)
				snprintf(tb->cell[i][10 + j], REP_CELL, "-");
			else
				snprintf(tb->cell[i][10 + j], REP_CELL, "%.1f",
					json_number_value(json_object_get(l, lat[j])) / 1e3);
		}
	}
	return 0;
}

/* The pairs of the last trial t of y. */
static int
mesh_pairs(const struct rep_run *run, const json_t *y, const json_t *t,
		struct rep_doc *doc)
{
	static const char *const head[] = { "pair", "sent", "received", "lost",
		"stray" };
	const json_t *pairs = json_object_get(t, "pairs"), *x;
	struct rep_table *tb;
	size_t i;

	tb = rep_table_new(doc, (unsigned int)json_array_size(pairs),
		"RFC 2889 %s of %s: pairs of the last trial (sent = received + "
		"lost)", str(y, "section"), run->label);
	if (tb == NULL)
		return -ENOMEM;
	heads(tb, head, RTE_DIM(head));
	json_array_foreach(pairs, i, x) {
		snprintf(tb->cell[i][0], REP_CELL, "%.0f to %.0f",
			json_number_value(json_object_get(x, "src")),
			json_number_value(json_object_get(x, "dst")));
		num_cell(tb->cell[i][1], x, "sent", 0);
		num_cell(tb->cell[i][2], x, "received", 0);
		num_cell(tb->cell[i][3], x, "lost", 0);
		num_cell(tb->cell[i][4], x, "stray", 0);
	}
	return 0;
}

/* 5.6's forward pressure of y's results, when run: a row per size. */
static int
mesh_pressure(const struct rep_run *run, const json_t *y, struct rep_doc *doc)
{
	static const char *const head[] = { "size", "link bit/s",
		"offered fps/port", "legal fps", "sender fps", "trials", "port",
		"port fwd fps", "over legal %", "forward pressure" };
	const json_t *rs = json_object_get(y, "results"), *r, *f, *port;
	struct rep_table *tb;
	unsigned int n = 0;
	size_t i;

	json_array_foreach(rs, i, r)
		n += json_is_object(json_object_get(r, "forward_pressure"));
	if (n == 0)
		return 0;
	tb = rep_table_new(doc, n, "RFC 2889 5.6 of %s: forward pressure (a gap "
		"of 88 bits, legal 96)", run->label);
	if (tb == NULL)
		return -ENOMEM;
	heads(tb, head, RTE_DIM(head));
	n = 0;
	json_array_foreach(rs, i, r) {
		f = json_object_get(r, "forward_pressure");
		if (!json_is_object(f))
			continue;
		num_cell(tb->cell[n][0], r, "frame_size", 0);
		num_cell(tb->cell[n][1], f, "link_bps", 0);
		num_cell(tb->cell[n][2], f, "offered_pps", 1);
		num_cell(tb->cell[n][3], f, "legal_pps", 1);
		num_cell(tb->cell[n][4], f, "tx_pps", 1);
		num_cell(tb->cell[n][5], f, "tries", 0);
		port = json_object_get(f, "port");
		num_cell(tb->cell[n][6], f, "port", 0);
		num_cell(tb->cell[n][7], json_is_integer(port) ? json_array_get(
			json_object_get(f, "ports"), (size_t)json_integer_value(
			port)) : NULL, "forwarding_rate_pps", 1);
		num_cell(tb->cell[n][8], f, "over_legal_pct", 2);
		yes_cell(tb->cell[n][9], f, "found", "yes", "no");
		n++;
	}
	return 0;
}

/* The trials of an address mode result y (5.7, 5.8). */
static int
addr_trials(const struct rep_run *run, const json_t *y, struct rep_doc *doc)
{
	static const char *const head[] = { "trial", "addresses", "learning fps",
		"test sent", "test received", "flooded", "learning flooded",
		"reset s", "verdict" };
	static const char *const keys[] = { "addresses", "learn_pps",
		"test_sent", "test_received", "flooded", "learn_flooded" };
	const json_t *trials = json_object_get(y, "trials"), *t;
	struct rep_table *tb;
	unsigned int j;
	size_t i;

	tb = rep_table_new(doc, (unsigned int)json_array_size(trials),
		"RFC 2889 %s of %s (%s): trials", str(y, "section"), run->label,
		run->path);
	if (tb == NULL)
		return -ENOMEM;
	heads(tb, head, RTE_DIM(head));
	json_array_foreach(trials, i, t) {
		snprintf(tb->cell[i][0], REP_CELL, "%zu", i + 1);
		for (j = 0; j < RTE_DIM(keys); j++)
			num_cell(tb->cell[i][1 + j], t, keys[j], 0);
		num_cell(tb->cell[i][7], t, "reset_s", 3);
		yes_cell(tb->cell[i][8], t, "pass", "pass", "FAIL");
	}
	return 0;
}

static int
mesh_tables(const struct rep_run *run, const json_t *y, struct rep_doc *doc)
{
	const json_t *trials = json_object_get(y, "trials");
	const json_t *last = json_array_get(trials, json_array_size(trials) - 1);

	if (mesh_trials(run, y, doc) != 0 || mesh_pressure(run, y, doc) != 0)
		return -ENOMEM;
	if (last == NULL)
		return 0;
	if (mesh_ports(run, y, last, doc) != 0 || mesh_pairs(run, y, last, doc) != 0)
		return -ENOMEM;
	return 0;
}

int
rep_mesh_tables(const struct rep *r, struct rep_doc *doc)
{
	const struct rep_run *run;
	const json_t *y;
	unsigned int k;
	bool mesh;

	for (k = 0; k < r->nb_runs; k++) {
		run = &r->run[r->order[k]];
		y = json_object_get(run->doc, "rfc2889");
		if (!json_is_object(y) || !json_is_array(json_object_get(y, "trials")))
			continue;
		mesh = strcmp(run->kind->name, "mesh") == 0;
		if (doc->nb_tables + (mesh ? MESH_TABLES : 1) + OTHER_TABLES >
				RTE_DIM(doc->tables))
			return 0;
		if ((mesh ? mesh_tables(run, y, doc) : addr_trials(run, y, doc)) != 0)
			return -ENOMEM;
	}
	return 0;
}
