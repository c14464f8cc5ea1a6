/* SPDX-License-Identifier: BSD-3-Clause */
/* gnuplot script pieces every plot of `wirerate report` writes (gnuplot.c). */
#ifndef WR_APP_GNUPLOT_H
#define WR_APP_GNUPLOT_H

#include <stdio.h>

#include "rep.h"

/* A gnuplot single-quoted string of s on f: inert, control chars as spaces. */
void rep_gp_string(FILE *f, const char *s);

/* gnuplot commands for an x axis of r's frame sizes (log 2, one tic each). */
void rep_gp_size_axis(FILE *f, const struct rep *r);

/*
 * Run gnuplot (a path or a name on PATH) on script in dir, its messages
 * into dir/gnuplot.log. Returns 0, or -errno / -EIO with err (gnuplot
 * missing, or failed: see the log).
 */
int rep_gp_run(const char *dir, const char *gnuplot, const char *script,
		struct wr_error *err);

#endif /* WR_APP_GNUPLOT_H */
