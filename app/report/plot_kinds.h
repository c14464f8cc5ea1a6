/* SPDX-License-Identifier: BSD-3-Clause */
/* The test modes' plots in `wirerate report` (plot_kinds.c), called by rep_plot(). */
#ifndef WR_APP_PLOT_KINDS_H
#define WR_APP_PLOT_KINDS_H

#include <stdio.h>

#include "base/error.h"
#include "rep.h"
#include "rep_doc.h"

/* Add the test modes' plots r calls for to doc's list. Can't fail. */
void rep_plot_kinds_list(const struct rep *r, struct rep_doc *doc);

/* Write dir/NAME.dat for each of those plots. Returns 0 or -1 with err. */
int rep_plot_kinds_data(const struct rep *r, const char *dir, struct wr_error *err);

/* Their gnuplot commands (png and svg) on f. This function can't fail. */
void rep_plot_kinds_script(FILE *f, const struct rep *r, const char *title);

#endif /* WR_APP_PLOT_KINDS_H */
