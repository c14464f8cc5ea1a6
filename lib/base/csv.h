/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * CSV export (RFC 4180: comma-separated, CRLF-free, fields quoted only
 * when they hold a comma, quote or newline) and an atomic file writer.
 * Pure: jansson and stdio only, no EAL.
 */
#ifndef WR_CSV_H
#define WR_CSV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "fileio.h"
#include "error.h"

/* Header of the per-interval table, without the newline. */
#define WR_CSV_INTERVAL_HEADER "trial,t_s,dt_s,port_id,tx_mpps,rx_mpps," \
	"tx_gbps_l1,tx_gbps_l2,rx_gbps_l1,rx_gbps_l2,tx_pkts,rx_pkts," \
	"lat_samples,lat_min_ns,lat_mean_ns,lat_p50_ns,lat_p90_ns,lat_p99_ns," \
	"lat_p99_9_ns,lat_max_ns"

/*
 * The per-interval table of a result document: one row per trial,
 * interval and port, from "trials[].samples" when the run was repeated
 * (trial 1..N) and from "samples" otherwise (trial 1). Returns 0 or -EIO
 * when writing to f failed.
 */
int wr_csv_intervals(const json_t *doc, FILE *f);

/* Header of the per-stream table, without the newline. */
#define WR_CSV_STREAM_HEADER "trial,stream_id,name,tx_port,tx_queue,rx_port," \
	"frame_size,sent_pkts,sent_bytes,rx_pkts,lost_pkts,excess_pkts," \
	"late_pkts,dup_pkts,lat_min_ns,lat_mean_ns,lat_max_ns,jitter_ns"

/*
 * The per-stream table of a result document: one row per trial and
 * stream, the sender's half from "tx_streams" joined by stream_id with
 * the receiver's half from "streams" (empty cells for the half this run
 * did not hold). Returns 0 or -EIO when writing to f failed.
 */
int wr_csv_streams(const json_t *doc, FILE *f);

/*
 * The entry of the array a (tx_streams or streams) whose stream_id equals
 * id, NULL when none. This function can't fail.
 */
const json_t *wr_csv_stream_find(const json_t *a, const json_t *id);

/* Write s as one CSV field (quoted when needed). Returns 0 or -EIO. */
int wr_csv_field(FILE *f, const char *s);


/*
 * Write the per-stream table of doc (streams) or its per-interval table
 * to path atomically (wr_file_write). Returns 0 or a negative errno with
 * err filled (class environment).
 */
int wr_csv_write(const json_t *doc, const char *path, bool streams,
		struct wr_error *err);

#endif /* WR_CSV_H */
