/* SPDX-License-Identifier: BSD-3-Clause */
/* The per-stream tables of `wirerate report` (report_streams.c). */
#ifndef WR_APP_REPORT_STREAMS_H
#define WR_APP_REPORT_STREAMS_H

#include "rep.h"
#include "rep_doc.h"

/*
 * Append a table per result file that holds two or more streams: a row
 * per stream, sent (tx_streams) and received (streams) joined by
 * stream_id. Returns 0 or -ENOMEM.
 */
int rep_stream_tables(const struct rep *r, struct rep_doc *doc);

#endif /* WR_APP_REPORT_STREAMS_H */
