/* SPDX-License-Identifier: BSD-3-Clause */
/* The plots of `wirerate report`, drawn by gnuplot (plot.c). */
#ifndef WR_APP_PLOT_H
#define WR_APP_PLOT_H

#include "base/error.h"
#include "rep.h"
#include "rep_doc.h"

/*
 * Write dir/plots.gp and its data files, run gnuplot (path or name on
 * PATH) in dir, and leave each plot r calls for as NAME.png and NAME.svg:
 * throughput (runs and sweeps), cycles (when rep_have_cycles()), and the
 * plots of the test modes (plot_kinds.c). doc lists them (nb_plots,
 * plot_name, plot_title). gnuplot's own messages go to dir/gnuplot.log.
 * Returns 0 or -1 with a message in err (doc then lists none).
 */
int rep_plot(const struct rep *r, const char *dir, const char *gnuplot,
		const char *title, struct rep_doc *doc, struct wr_error *err);

#endif /* WR_APP_PLOT_H */
