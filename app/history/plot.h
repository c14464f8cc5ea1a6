/* SPDX-License-Identifier: BSD-3-Clause */
/* `history plot` and `history html` (plot.c). */
#ifndef WR_APP_HIST_PLOT_H
#define WR_APP_HIST_PLOT_H

#include <stdbool.h>

#include "args.h"

/*
 * Write a trend chart per series into a->out (series-ID.png and .svg:
 * the points, each segment's mean, the change points marked), drawn by
 * gnuplot from history.gp; with html, also history.html: one
 * self-contained page (every chart's SVG inline, its change points in a
 * table). Returns the exit code.
 */
int hist_plot(const struct hist_args *a, struct hist_db *db, bool html);

#endif /* WR_APP_HIST_PLOT_H */
