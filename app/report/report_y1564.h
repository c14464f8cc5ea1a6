/* SPDX-License-Identifier: BSD-3-Clause */
/* The service activation report of a --mode y1564 result (report_y1564.c). */
#ifndef WR_APP_REPORT_Y1564_H
#define WR_APP_REPORT_Y1564_H

#include <stdbool.h>

#include <jansson.h>

#include "base/error.h"

/* Whether doc is a --mode y1564 result. This function can't fail. */
bool rep_y1564_is(const json_t *doc);

/*
 * The one-page report of doc (read from path): out/report.md,
 * out/report.html and, with a performance test and gnuplot (NULL: no
 * plots), out/y1564.png; out NULL: the Markdown on stdout. Returns 0 or
 * a negative errno with a message.
 */
int rep_y1564_page(const char *path, const json_t *doc, const char *out,
		const char *gnuplot, struct wr_error *err);

#endif /* WR_APP_REPORT_Y1564_H */
