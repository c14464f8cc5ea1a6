/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rte_common.h>

#include "csv.h"

/* Rate columns of samples[].ports[], in header order. */
static const char *const rate_cols[] = {
	"tx_mpps", "rx_mpps", "tx_gbps_l1", "tx_gbps_l2", "rx_gbps_l1", "rx_gbps_l2",
};

static double
num(const json_t *o, const char *key)
{
	return json_number_value(json_object_get(o, key));
}

static json_int_t
integer(const json_t *o, const char *key)
{
	return json_integer_value(json_object_get(o, key));
}

/* Latency keys of samples[].ports[].latency, in header order after
 * "samples" (the interval's own frames, defined as totals[].latency). */
static const char *const lat_cols[] = {
	"min_ns", "mean_ns", "p50_ns", "p90_ns", "p99_ns", "p99_9_ns", "max_ns",
};

/* The interval's latency columns: empty cells when it is not known (no
 * own frame in the interval, or not valid), never a 0. */
static void
lat_cells(FILE *f, const json_t *lat)
{
	size_t k;

	if (!json_is_object(lat)) {
		for (k = 0; k <= RTE_DIM(lat_cols); k++)
			fputc(',', f);
		return;
	}
	fprintf(f, ",%" JSON_INTEGER_FORMAT, integer(lat, "samples"));
	for (k = 0; k < RTE_DIM(lat_cols); k++)
		fprintf(f, ",%.9g", num(lat, lat_cols[k]));
}

/* Rows of one trial's samples. */
static void
trial_rows(FILE *f, unsigned int trial, const json_t *samples)
{
	const json_t *s, *p;
	size_t i, j, k;

	json_array_foreach(samples, i, s) {
		json_array_foreach(json_object_get(s, "ports"), j, p) {
			fprintf(f, "%u,%.6f,%.6f,%" JSON_INTEGER_FORMAT, trial,
				num(s, "t_s"), num(s, "dt_s"), integer(p, "port_id"));
			for (k = 0; k < RTE_DIM(rate_cols); k++)
				fprintf(f, ",%.9g", num(p, rate_cols[k]));
			fprintf(f, ",%" JSON_INTEGER_FORMAT ",%" JSON_INTEGER_FORMAT,
				integer(p, "tx_pkts"), integer(p, "rx_pkts"));
			lat_cells(f, json_object_get(p, "latency"));
			fputc('\n', f);
		}
	}
}

/* Rows of one trial (numbered from 1) of a result: its part o of doc. */
typedef void (*trial_rows_fn)(FILE *f, unsigned int trial, const json_t *o);

/* A header, then fn over each trials[] entry, or over doc without trials. */
static int
each_trial(const json_t *doc, FILE *f, const char *header, trial_rows_fn fn)
{
	const json_t *trials = json_object_get(doc, "trials"), *t;
	size_t i;

	fprintf(f, "%s\n", header);
	if (json_is_array(trials) && json_array_size(trials) > 0) {
		json_array_foreach(trials, i, t)
			fn(f, (unsigned int)i + 1, t);
	} else {
		fn(f, 1, doc);
	}
	return ferror(f) ? -EIO : 0;
}

static void
trial_samples(FILE *f, unsigned int trial, const json_t *o)
{
	trial_rows(f, trial, json_object_get(o, "samples"));
}

int
wr_csv_intervals(const json_t *doc, FILE *f)
{
	return each_trial(doc, f, WR_CSV_INTERVAL_HEADER, trial_samples);
}

/* A count cell, empty when o lacks key (the other end's half). */
static void
count_cell(FILE *f, const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	if (json_is_integer(v))
		fprintf(f, ",%" JSON_INTEGER_FORMAT, json_integer_value(v));
	else
		fputc(',', f);
}

/* A number cell, empty when o lacks key (latency not valid). */
static void
num_cell(FILE *f, const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	if (json_is_number(v))
		fprintf(f, ",%.9g", json_number_value(v));
	else
		fputc(',', f);
}

const json_t *
wr_csv_stream_find(const json_t *a, const json_t *id)
{
	const json_t *o;
	size_t i;

	json_array_foreach(a, i, o)
		if (json_equal(json_object_get(o, "stream_id"), id))
			return o;
	return NULL;
}

/* Receiver's columns of a stream row, after the sender's. */
static const char *const stream_rx_cols[] = {
	"rx_pkts", "lost_pkts", "excess_pkts", "late_pkts", "dup_pkts",
};
static const char *const stream_lat_cols[] = {
	"latency_min_ns", "latency_mean_ns", "latency_max_ns", "jitter_ns",
};

/* One stream row: tx from tx_streams, rx from streams, either NULL. */
static void
stream_row(FILE *f, unsigned int trial, const json_t *tx, const json_t *rx)
{
	const json_t *any = tx != NULL ? tx : rx;
	const char *name = json_string_value(json_object_get(tx, "name"));
	size_t k;

	fprintf(f, "%u", trial);
	count_cell(f, any, "stream_id");
	fputc(',', f);
	wr_csv_field(f, name != NULL ? name : "");
	if (tx != NULL) {
		count_cell(f, tx, "port");
		count_cell(f, tx, "queue");
	} else {
		count_cell(f, rx, "tx_port");
		count_cell(f, rx, "tx_queue");
	}
	count_cell(f, rx, "rx_port");
	count_cell(f, tx, "frame_size");
	count_cell(f, tx, "sent_pkts");
	count_cell(f, tx, "sent_bytes");
	for (k = 0; k < RTE_DIM(stream_rx_cols); k++)
		count_cell(f, rx, stream_rx_cols[k]);
	for (k = 0; k < RTE_DIM(stream_lat_cols); k++)
		num_cell(f, rx, stream_lat_cols[k]);
	fputc('\n', f);
}

/* Stream rows of one trial: each stream sent, then each only received. */
static void
trial_stream_rows(FILE *f, unsigned int trial, const json_t *o)
{
	const json_t *txs = json_object_get(o, "tx_streams");
	const json_t *rxs = json_object_get(o, "streams");
	const json_t *s;
	size_t i;

	json_array_foreach(txs, i, s)
		stream_row(f, trial, s, wr_csv_stream_find(rxs, json_object_get(s, "stream_id")));
	json_array_foreach(rxs, i, s)
		if (wr_csv_stream_find(txs, json_object_get(s, "stream_id")) == NULL)
			stream_row(f, trial, NULL, s);
}

int
wr_csv_streams(const json_t *doc, FILE *f)
{
	return each_trial(doc, f, WR_CSV_STREAM_HEADER, trial_stream_rows);
}

int
wr_csv_field(FILE *f, const char *s)
{
	const char *c;

	if (strpbrk(s, ",\"\n\r") == NULL) {
		fputs(s, f);
	} else {
		fputc('"', f);
		for (c = s; *c != '\0'; c++) {
			if (*c == '"')
				fputc('"', f);
			fputc(*c, f);
		}
		fputc('"', f);
	}
	return ferror(f) ? -EIO : 0;
}

static int
fill_intervals(FILE *f, const void *doc)
{
	return wr_csv_intervals(doc, f);
}

static int
fill_streams(FILE *f, const void *doc)
{
	return wr_csv_streams(doc, f);
}

int
wr_csv_write(const json_t *doc, const char *path, bool streams,
		struct wr_error *err)
{
	return wr_file_write(path, streams ? fill_streams : fill_intervals, doc,
		err);
}
