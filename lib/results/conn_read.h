/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A connection run's result read back (the "connections" object of
 * conn_doc.h): the figures of its one point, which `wirerate compare`
 * judges, `wirerate report` tabulates and `wirerate history` keeps.
 * Pure: jansson only, no EAL, no I/O.
 */
#ifndef WR_RESULTS_CONN_READ_H
#define WR_RESULTS_CONN_READ_H

#include <stdbool.h>

#include <jansson.h>

#include "base/error.h"
#include "kinds.h"

/* Whether doc is a connection run's result (it has "connections"). */
bool wr_results_conn_is(const json_t *doc);

/*
 * The role of a connection run's result doc: "client" or "server", or
 * NULL with err naming the field. A client's figures and a server's are
 * two kinds of result: compare never judges one against the other.
 */
const char *wr_results_conn_role(const json_t *doc, struct wr_error *err);

/* The kind of a connection run's result doc (conn-capacity's when it
 * has "capacity", else its role's), or NULL with err. */
const struct wr_kind *wr_results_conn_kind(const json_t *doc,
		struct wr_error *err);

/*
 * The one point of a connection run into out: completed (client) or
 * accepted (server) connections per second, requests per second (HTTP),
 * goodput in Gb/s, failed connections in % of the attempted (client),
 * connect p99 in us (client); a figure the run has as null is absent.
 * One reader per role (the kinds' points()). Returns 0, or -EINVAL with
 * err naming the missing or ill-typed field.
 */
int wr_results_conn_client_points(const json_t *doc, struct wr_points *out,
		struct wr_error *err);
int wr_results_conn_server_points(const json_t *doc, struct wr_points *out,
		struct wr_error *err);

#endif /* WR_RESULTS_CONN_READ_H */
