/* SPDX-License-Identifier: BSD-3-Clause */
/* What every gnuplot script of `wirerate report` writes: strings, the x axis. */
#include <limits.h>
#include <stdio.h>

#include "gnuplot.h"

/* A gnuplot double-quoted string. */
void
rep_gp_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s != '\0'; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		if ((unsigned char)*s >= 0x20)
			fputc(*s, f);
	}
	fputc('"', f);
}

/* gnuplot commands for an x axis of the frame sizes: log 2, one tic each. */
void
rep_gp_size_axis(FILE *f, const struct rep *r)
{
	unsigned int k, lo = UINT_MAX, hi = 0, prev = 0;

	fprintf(f, "set grid\nset key top right\nset logscale x 2\n"
		"set offsets 0, 0, graph 0.08, 0\nset yrange [0:*]\n"
		"set xlabel \"frame size, bytes (FCS included)\"\nset xtics (");
	for (k = 0; k < r->nb_runs; k++) {
		unsigned int sz = r->run[k].frame_size;

		lo = sz < lo ? sz : lo;
		hi = sz > hi ? sz : hi;
	}
	/* Each distinct size once, ascending. */
	for (;;) {
		unsigned int next = UINT_MAX;

		for (k = 0; k < r->nb_runs; k++)
			if (r->run[k].frame_size > prev && r->run[k].frame_size < next)
				next = r->run[k].frame_size;
		if (next == UINT_MAX)
			break;
		fprintf(f, "%s%u", prev ? ", " : "", next);
		prev = next;
	}
	fprintf(f, ")\nset xrange [%g:%g]\n", lo / 1.25, hi * 1.25);
}
