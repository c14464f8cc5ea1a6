/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The live view of a connection run (--conn), every --interval, and its
 * books at the end (live_conn.c).
 */
#ifndef WR_APP_LIVE_CONN_H
#define WR_APP_LIVE_CONN_H

#include <stdbool.h>
#include <stdio.h>

#include "conn/engine.h"
#include "results/conn_doc.h"

/* One role's figures for a row: counts since the start, now and at the
 * row before (all zero before the first). */
struct app_view_conn_side {
	const char *role;                     /* "client" or "server" */
	const struct wr_conn_interval *now;
	const struct wr_conn_interval *prev;
};

/*
 * One interval: a row per side (n of them): CPS, open now, completed,
 * failed, requests/s, goodput and retransmits, under a header. On a
 * terminal (in_place) the rows replace the previous interval's, below
 * the header; piped, every row is printed and the header again every
 * 20 rows. Every line fits 80 columns.
 */
void app_view_conn_interval(FILE *f, const struct app_view_conn_side *s,
		unsigned int n, bool in_place);

/*
 * After the drain: the same row per side for the whole run (rates over
 * its dur_s seconds), with the counts of the books the result holds.
 */
void app_view_conn_total(FILE *f, const struct app_view_conn_side *s,
		unsigned int n, double dur_s);

/*
 * A side's books at the end: the connections (a client's failures by
 * class, open, not started), whether attempted = completed + failed +
 * open holds, the requests and the rates over dur_s. who: "" or a
 * role and a space. Lines of 80 columns at most.
 */
void app_view_conn_books(FILE *f, const struct wr_conn_books *b, bool server,
		const char *who, double dur_s, bool drained);

#endif /* WR_APP_LIVE_CONN_H */
