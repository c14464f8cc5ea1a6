/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A connection run's figures in the result document: the "connections"
 * object (docs/results.md), written here alone and read back by report,
 * compare and history. The caller sums the engines' books over its
 * lcores (wr_conn_books_sum) and keeps a row per interval.
 */
#ifndef WR_RESULTS_CONN_DOC_H
#define WR_RESULTS_CONN_DOC_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/error.h"
#include "conn/engine.h"

/* The counters at the end of one interval (cumulative since the start). */
struct wr_conn_interval {
	double t_s;                  /* seconds since traffic began */
	uint64_t nb_attempted;
	uint64_t nb_completed;
	uint64_t nb_failed;          /* all classes */
	uint64_t nb_open;
	uint64_t nb_resps;
	uint64_t nb_l7_rx_bytes;
	uint64_t nb_l7_tx_bytes;
	uint64_t nb_rtx;             /* RTO and fast */
};

/* One queue pair's worker of a connection port, and its engine's books. */
struct wr_conn_queue {
	uint16_t port;
	uint16_t queue;
	uint32_t lcore;
	const struct wr_conn_books *books;
};

/* One connection run, as the caller saw it. */
struct wr_conn_result {
	const struct wr_conn_cfg *cfg;      /* of the run (one lcore's) */
	const struct wr_conn_books *books;  /* whole run, all lcores */
	const struct wr_conn_interval *iv;  /* nb_iv rows, in time order */
	uint32_t nb_iv;
	uint32_t nb_lcores;
	double duration_s;                  /* traffic, first SYN to end */
	bool drained;                       /* every connection ended before
					     * the result was written */
	const char *clock;                  /* the latency clock's label, as
					     * the frame latency has it */
	const struct wr_conn_queue *queues; /* each worker's, whose books
					     * add up to books; none: NULL */
	uint32_t nb_queues;
};

/*
 * Put r into the result document doc as its "connections" object, with
 * the derived rates (CPS, requests/s, goodput) and the books' check
 * (docs/results.md). Returns 0; -EINVAL with err naming the field for an
 * r that cannot be written (no cfg or books, a role or app of neither
 * kind, a duration that is not a time, rows whose t_s does not rise),
 * doc left as it was; -ENOMEM.
 */
int wr_results_conn_put(json_t *doc, const struct wr_conn_result *r,
	struct wr_error *err);

/*
 * wr_results_conn_put under key: "connections", or "connections_server"
 * for the server ports of a run of both roles (docs/results.md).
 */
int wr_results_conn_put_as(json_t *doc, const char *key,
	const struct wr_conn_result *r, struct wr_error *err);

/* Equations of one role, at most. */
#define WR_CONN_NB_EQ 2u

/*
 * One equation of the books: left = right (+ the requests in flight,
 * which the books do not count: their bound is the connections open,
 * one request at a time on each, and 0 once drained).
 */
struct wr_conn_eq {
	const char *name;       /* "connections", "requests", "accepted" */
	const char *text;       /* the equation in words */
	uint64_t left;
	uint64_t right;
	bool in_flight;         /* right + a number in [0, in_flight_max] */
	uint64_t in_flight_max;
	bool ok;
};

/* Failed connections of every class. This function can't fail. */
uint64_t wr_results_conn_failed(const struct wr_conn_books *b);

/*
 * The equations of r's role into eq (WR_CONN_NB_EQ room): a client's
 * attempted = completed + failed + open and, for HTTP, requests sent =
 * answers + failed + in flight; a server's accepted = closed + open.
 * Returns their number. This function can't fail.
 */
unsigned int wr_results_conn_check(const struct wr_conn_result *r,
		struct wr_conn_eq *eq);

/*
 * The check as JSON: {"closed": every equation ok, "equations": [...]},
 * or NULL when out of memory.
 */
json_t *wr_results_conn_check_json(const struct wr_conn_result *r);

#endif /* WR_RESULTS_CONN_DOC_H */
