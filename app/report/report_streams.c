/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The per-stream tables of `wirerate report`: one per result file that
 * holds several streams (--stream, [streams]), a row per stream with what
 * its sender sent and its receiver counted. The per-port figures stay in
 * the runs table.
 */
#include <errno.h>
#include <stdio.h>

#include <rte_common.h>

#include "base/csv.h"
#include "report_streams.h"

/* An integer of o as text into cell, "-" when o lacks it. */
static void
int_cell(char *cell, const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	if (json_is_integer(v))
		snprintf(cell, REP_CELL, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
	else
		snprintf(cell, REP_CELL, "-");
}

/* A latency of o in ns, no decimals, "-" when not valid. */
static void
ns_cell(char *cell, const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	if (json_is_number(v))
		snprintf(cell, REP_CELL, "%.0f", json_number_value(v));
	else
		snprintf(cell, REP_CELL, "-");
}

/* One row: the sender's half tx, the receiver's rx (either may be NULL). */
static void
stream_row(char (*row)[REP_CELL], const json_t *tx, const json_t *rx)
{
	const json_t *name = json_object_get(tx, "name");
	const json_t *mix = json_object_get(tx, "mix");

	int_cell(row[0], tx != NULL ? tx : rx, "stream_id");
	snprintf(row[1], REP_CELL, "%s", json_is_string(name) ?
		json_string_value(name) : "-");
	int_cell(row[2], tx, "port");
	int_cell(row[3], tx, "queue");
	if (json_is_string(mix))
		snprintf(row[4], REP_CELL, "%s", json_string_value(mix));
	else
		int_cell(row[4], tx, "frame_size");
	int_cell(row[5], tx, "sent_pkts");
	int_cell(row[6], rx, "rx_port");
	int_cell(row[7], rx, "rx_pkts");
	int_cell(row[8], rx, "lost_pkts");
	ns_cell(row[9], rx, "latency_mean_ns");
	ns_cell(row[10], rx, "latency_max_ns");
}

/* Streams of doc: those sent, then those only received. */
static unsigned int
count_streams(const json_t *txs, const json_t *rxs)
{
	unsigned int n = (unsigned int)json_array_size(txs);
	const json_t *s;
	size_t i;

	json_array_foreach(rxs, i, s)
		if (wr_csv_stream_find(txs, json_object_get(s, "stream_id")) == NULL)
			n++;
	return n;
}

static int
stream_table(const struct rep_run *run, struct rep_doc *doc)
{
	static const char *const head[] = { "stream", "name", "TX port",
		"TX queue", "size B / mix", "sent", "RX port", "received", "lost",
		"latency mean ns", "latency max ns" };
	const json_t *txs = json_object_get(run->doc, "tx_streams");
	const json_t *rxs = json_object_get(run->doc, "streams");
	unsigned int n = count_streams(txs, rxs), k = 0, c;
	struct rep_table *t;
	const json_t *s;
	size_t i;

	if (n < 2)
		return 0;
	t = rep_table_new(doc, n, "Streams of %s (%s)", run->label, run->path);
	if (t == NULL)
		return -ENOMEM;
	for (c = 0; c < RTE_DIM(head); c++)
		t->head[c] = head[c];
	t->nb_cols = RTE_DIM(head);
	json_array_foreach(txs, i, s)
		stream_row(t->cell[k++], s, wr_csv_stream_find(rxs,
			json_object_get(s, "stream_id")));
	json_array_foreach(rxs, i, s)
		if (wr_csv_stream_find(txs, json_object_get(s, "stream_id")) == NULL)
			stream_row(t->cell[k++], NULL, s);
	return 0;
}

int
rep_stream_tables(const struct rep *r, struct rep_doc *doc)
{
	unsigned int f, k;
	int rc;

	for (f = 0; f < r->nb_files; f++) {
		for (k = 0; k < r->nb_runs; k++) {
			if (r->run[k].file != f)
				continue;
			rc = stream_table(&r->run[k], doc);
			if (rc != 0)
				return rc;
			break;
		}
	}
	return 0;
}
