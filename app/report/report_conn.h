/* SPDX-License-Identifier: BSD-3-Clause */
/* The connection runs' tables of `wirerate report` (report_conn.c). */
#ifndef WR_APP_REPORT_CONN_H
#define WR_APP_REPORT_CONN_H

#include "rep.h"
#include "rep_doc.h"

/*
 * Append, per result file of a connection run, its books (every counter,
 * failures by class), whether they close (each equation with both sides)
 * and its latency per phase. Files past the room of one report (its 32
 * tables) are left to the runs' table. Returns 0 or -ENOMEM.
 */
int rep_conn_tables(const struct rep *r, struct rep_doc *doc);

#endif /* WR_APP_REPORT_CONN_H */
