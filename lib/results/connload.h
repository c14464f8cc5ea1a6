/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --mode conn-load (docs/connload.md): the figures of one trial at a
 * fixed concurrency (requests/s and latency for HTTP, goodput for bulk),
 * the books that must close, the check against the server's own books
 * (a run of both roles), and the result's "conn_load" object. Pure: the
 * books come in as arguments.
 */
#ifndef WR_RESULTS_CONNLOAD_H
#define WR_RESULTS_CONNLOAD_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "conn/engine.h"

/* One trial (a cell of the table): differences of the books over it. */
struct wr_connload_cell {
	uint32_t conc;             /* connections open at once, per client
	                            * port (--conn-concurrency's value) */
	uint8_t app;               /* enum wr_conn_app */
	double open_s;             /* the trial's opening window */
	double total_s;            /* the window and the drain */
	double t0_unix_s;          /* wall clock at the start and at the
	                            * drain's end (s since 1970), to match
	                            * the trial with other logs */
	double t1_unix_s;
	bool drained;              /* nothing open at the drain's end */
	bool has_server;           /* a run of both roles: s is the
	                            * server side's books over the trial */
	struct wr_conn_books c;    /* the client side's, over the trial */
	struct wr_conn_books s;
};

/*
 * The cell's books: after - before field by field, the latency
 * histograms too (wr_hist_delta). This function can't fail.
 */
void wr_connload_delta(const struct wr_conn_books *before,
		const struct wr_conn_books *after, struct wr_conn_books *out);

/* The failed connections of b, every class. Can't fail. */
uint64_t wr_connload_failed(const struct wr_conn_books *b);

/*
 * Whether the cell passes: drained, no connection and no request
 * failed, the requests' books close (sent = answered + failed), and with
 * a server, its books agree with the client's (each answer served, each
 * byte sent delivered, both ways). Can't fail.
 */
bool wr_connload_pass(const struct wr_connload_cell *c);

/* The cell as a "trials" entry ("what": "conn-load"); NULL: no memory. */
json_t *wr_connload_cell_json(const struct wr_connload_cell *c);

/*
 * The doc's "conn_load" object over nb cells (their JSON is in trials):
 * the table's rows, whether all passed, the verdict in one sentence.
 * NULL: no memory.
 */
json_t *wr_connload_json(const struct wr_connload_cell *cells, uint32_t nb,
		bool stopped);

/*
 * Append cell x to trials; returns its entry (borrowed: trials holds
 * it), NULL when no memory. This function can't fail otherwise.
 */
const json_t *wr_connload_record(json_t *trials,
		const struct wr_connload_cell *x);

/* doc's "conn_load" := wr_connload_json(...). Can't fail. */
void wr_connload_put(json_t *doc, const struct wr_connload_cell *cells,
		uint32_t nb, bool stopped);

#endif /* WR_RESULTS_CONNLOAD_H */
