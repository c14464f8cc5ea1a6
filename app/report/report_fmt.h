/* SPDX-License-Identifier: BSD-3-Clause */
/* The tables of `wirerate report` and their Markdown, HTML and CSV forms. */
#ifndef WR_APP_REPORT_FMT_H
#define WR_APP_REPORT_FMT_H

#include <stdio.h>

#include "rep.h"
#include "rep_doc.h"
#include "measure/metrics.h"

/*
 * The matrix's figure (--pivot): a metric id of the metric table, or
 * REP_PIVOT_MBYTES, the RX L2 rate in MB/s (10^6 bytes a second: the unit
 * of NIC-model tables), a view of rx_gbps_l2.
 */
#define REP_PIVOT_MBYTES WR_METRIC_COUNT
#define REP_PIVOT_MBYTES_NAME "MB/s"

/* The pivot NAME stands for (a metric's name or "MB/s"), or -1. */
int rep_pivot_find(const char *name);

/*
 * Fill doc with the runs table, one ROW x COLUMN matrix of metric per
 * frame size when every label reads ROW/COLUMN, and the environment
 * table. Returns 0 or -ENOMEM. Free with rep_doc_free().
 */
int rep_doc_build(const struct rep *r, int metric, struct rep_doc *doc);

/* Whether a result has a port with no wire (ring, null, memif...). */
bool rep_doc_no_wire(const json_t *doc);

/* doc as Markdown on f; the plots are referenced by file name. */
void rep_doc_markdown(FILE *f, const struct rep_doc *doc);

/* doc as a standalone HTML page on f, embedding the plots (img). */
void rep_doc_html(FILE *f, const struct rep_doc *doc);

/*
 * The per-size table as CSV on f: label, file, frame_size, trials, then
 * each metric and its _min and _max over the trials. Returns 0 or -EIO.
 */
int rep_csv(FILE *f, const struct rep *r);

#endif /* WR_APP_REPORT_FMT_H */
