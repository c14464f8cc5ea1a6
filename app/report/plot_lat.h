/* SPDX-License-Identifier: BSD-3-Clause */
/* The latency-under-load plot of `wirerate report` (plot_lat.c). */
#ifndef WR_APP_PLOT_LAT_H
#define WR_APP_PLOT_LAT_H

#include <stdio.h>

#include "base/error.h"
#include "rep.h"
#include "rep_doc.h"

/*
 * The latency-under-load plot (plot_lat.c): listed, its data file and its
 * script, when some result has latency_under_load levels. Called by the
 * functions above; return and fail as they do.
 */
void rep_plot_lat_list(const struct rep *r, struct rep_doc *doc);
int rep_plot_lat_data(const struct rep *r, const char *dir, struct wr_error *err);
void rep_plot_lat_script(FILE *f, const struct rep *r, const char *title);

#endif /* WR_APP_PLOT_LAT_H */
