/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The connection runs' tables of `wirerate report`: for each result file
 * with a "connections" object (docs/results.md), its books, the books'
 * check as the file holds it (the writer's equations, both sides) and
 * the latency of each phase. The figures compare judges (CPS, requests/s,
 * goodput, failed %, connect p99) are in the kind's table (report_fmt.c).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>

#include "report_conn.h"

/* Tables one file adds, and those the report keeps for the environment. */
#define CONN_TABLES 3u
#define OTHER_TABLES 1u

/* A count of o at key as text into cell, "-" when absent. */
static void
count_cell(char *cell, const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	if (json_is_integer(v))
		snprintf(cell, REP_CELL, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
	else if (json_is_number(v))
		snprintf(cell, REP_CELL, "%.3f", json_number_value(v));
	else
		snprintf(cell, REP_CELL, "-");
}

/* The books' counters of each role, in the order a reader follows them. */
static const char *const client_keys[] = {
	"attempted", "established", "completed", "failed_total", "open",
	"peak_open", "reqs_sent", "resps", "reqs_failed", "l7_tx_bytes",
	"l7_rx_bytes", "tx_segs", "rx_segs", "rtx_rto_segs", "rtx_fast_segs",
	"rtx_probe_segs", "tail_probes", "tx_no_buf_segs", "rx_no_conn_segs",
	"rx_bad_segs", "time_wait",
};
static const char *const server_keys[] = {
	"accepted", "closed", "open", "peak_open", "reqs_served", "continues",
	"l7_tx_bytes", "l7_rx_bytes", "tx_segs", "rx_segs", "rtx_rto_segs",
	"rtx_fast_segs", "rtx_probe_segs", "tail_probes", "tx_no_buf_segs",
	"rx_no_conn_segs", "rx_bad_segs", "time_wait",
};

/* Rows of an object of counters (failed, unstarted) named prefix: key. */
static unsigned int
sub_rows(struct rep_table *t, unsigned int k, const json_t *o,
		const char *prefix)
{
	const char *key;
	json_t *v;

	json_object_foreach((json_t *)(uintptr_t)o, key, v) {
		snprintf(t->cell[k][0], REP_CELL, "%s: %s", prefix, key);
		count_cell(t->cell[k][1], o, key);
		k++;
	}
	return k;
}

static int
books_table(const struct rep_run *run, const json_t *c, struct rep_doc *doc)
{
	const char *role = json_string_value(json_object_get(c, "role"));
	bool client = role != NULL && strcmp(role, "client") == 0;
	const char *const *keys = client ? client_keys : server_keys;
	unsigned int nb = client ? RTE_DIM(client_keys) : RTE_DIM(server_keys);
	const json_t *b = json_object_get(c, "books");
	/* a server has no failure classes nor starts it could not make */
	const json_t *failed = client ? json_object_get(b, "failed") : NULL;
	const json_t *unst = client ? json_object_get(b, "unstarted") : NULL;
	unsigned int n = nb + (unsigned int)json_object_size(failed) +
		(unsigned int)json_object_size(unst), k;
	struct rep_table *t;

	t = rep_table_new(doc, n, "Books of %s (%s): %s %s, %s, %g s", run->label,
		run->path, json_string_value(json_object_get(c, "app")) ?: "?",
		role ?: "?", json_is_true(json_object_get(c, "drained")) ?
		"drained" : "connections open at the end",
		json_number_value(json_object_get(c, "duration_s")));
	if (t == NULL)
		return -ENOMEM;
	t->head[0] = "counter";
	t->head[1] = "count";
	t->nb_cols = 2;
	for (k = 0; k < nb; k++) {
		snprintf(t->cell[k][0], REP_CELL, "%s", keys[k]);
		count_cell(t->cell[k][1], b, keys[k]);
	}
	k = sub_rows(t, k, failed, "failed");
	sub_rows(t, k, unst, "unstarted");
	return 0;
}

/* The check as the file holds it: each equation, both sides, ok. */
static int
check_table(const struct rep_run *run, const json_t *c, struct rep_doc *doc)
{
	static const char *const head[] = { "equation", "left", "right",
		"ok", "in flight [bound]" };
	const json_t *chk = json_object_get(c, "books_check");
	const json_t *eqs = json_object_get(chk, "equations"), *e;
	struct rep_table *t;
	unsigned int i;
	size_t k;

	t = rep_table_new(doc, (unsigned int)json_array_size(eqs),
		"Books check of %s (%s): the books %s", run->label,
		json_string_value(json_object_get(c, "role")) ?: "?",
		json_is_true(json_object_get(chk, "closed")) ? "close" :
		"do NOT close");
	if (t == NULL)
		return -ENOMEM;
	for (i = 0; i < RTE_DIM(head); i++)
		t->head[i] = head[i];
	t->nb_cols = RTE_DIM(head);
	json_array_foreach(eqs, k, e) {
		snprintf(t->cell[k][0], REP_CELL, "%s",
			json_string_value(json_object_get(e, "equation")) ?: "?");
		count_cell(t->cell[k][1], e, "left");
		count_cell(t->cell[k][2], e, "right");
		snprintf(t->cell[k][3], REP_CELL, "%s",
			json_is_true(json_object_get(e, "ok")) ? "yes" : "NO");
		if (json_object_get(e, "in_flight") != NULL)
			snprintf(t->cell[k][4], REP_CELL, "%" JSON_INTEGER_FORMAT
				" [0..%" JSON_INTEGER_FORMAT "]",
				json_integer_value(json_object_get(e, "in_flight")),
				json_integer_value(json_object_get(e, "in_flight_max")));
		else
			snprintf(t->cell[k][4], REP_CELL, "-");
	}
	return 0;
}

/* A latency figure in us, "-" when absent. */
static void
us_cell(char *cell, const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	if (json_is_number(v))
		snprintf(cell, REP_CELL, "%.1f", json_number_value(v));
	else
		snprintf(cell, REP_CELL, "-");
}

static int
latency_table(const struct rep_run *run, const json_t *c, struct rep_doc *doc)
{
	static const char *const phases[] = { "connect", "ttfb", "ttlb" };
	static const char *const keys[] = { "p50_us", "p90_us", "p99_us",
		"p99_9_us", "max_us", "mean_us" };
	static const char *const head[] = { "phase", "samples", "p50 us",
		"p90 us", "p99 us", "p99.9 us", "max us", "mean us" };
	const json_t *lat = json_object_get(c, "latency"), *ph;
	const char *clock = json_string_value(json_object_get(lat, "clock"));
	struct rep_table *t;
	unsigned int i, j;

	t = rep_table_new(doc, RTE_DIM(phases), "Connection latency of %s, "
		"%s (clock: %s; connect: SYN to SYN,ACK; ttfb, ttlb: request to the "
		"answer's first, last byte)", run->label,
		json_string_value(json_object_get(c, "role")) ?: "?",
		clock ?: "not given");
	if (t == NULL)
		return -ENOMEM;
	for (i = 0; i < RTE_DIM(head); i++)
		t->head[i] = head[i];
	t->nb_cols = RTE_DIM(head);
	for (i = 0; i < RTE_DIM(phases); i++) {
		ph = json_object_get(lat, phases[i]);
		snprintf(t->cell[i][0], REP_CELL, "%s", phases[i]);
		count_cell(t->cell[i][1], ph, "samples");
		for (j = 0; j < RTE_DIM(keys); j++)
			us_cell(t->cell[i][2 + j], ph, keys[j]);
	}
	return 0;
}

/* The objects of one file: the run's, and a run of both roles' server. */
static const char *const conn_keys[] = { "connections", "connections_server" };

int
rep_conn_tables(const struct rep *r, struct rep_doc *doc)
{
	const struct rep_run *run;
	const json_t *c;
	unsigned int k, i;

	for (k = 0; k < r->nb_runs; k++) {
		run = &r->run[r->order[k]];
		for (i = 0; i < RTE_DIM(conn_keys); i++) {
			c = json_object_get(run->doc, conn_keys[i]);
			if (!json_is_object(c))
				continue;
			if (doc->nb_tables + CONN_TABLES + OTHER_TABLES >
					RTE_DIM(doc->tables))
				return 0;
			if (books_table(run, c, doc) != 0 ||
					check_table(run, c, doc) != 0 ||
					latency_table(run, c, doc) != 0)
				return -ENOMEM;
		}
	}
	return 0;
}
