/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Plots of `wirerate report`, drawn by gnuplot from a generated script:
 * throughput (Mpps, and Gb/s L1 and L2) against frame size, and cycles per
 * packet against frame size, each as PNG (pngcairo) and SVG.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <rte_common.h>

#include "gnuplot.h"
#include "plot.h"
#include "plot_kinds.h"

extern char **environ;

/*
 * Columns of plots.dat: frame size, then value, min and max over the
 * trials (value, value, value for a single run) of each figure.
 */
enum { COL_MPPS = 2, COL_GBPS_L1 = 5, COL_GBPS_L2 = 8, COL_CYCLES = 11 };

static FILE *
open_in(const char *dir, const char *name, struct wr_error *err)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (f == NULL)
		wr_err_env(err, -errno, "%s: cannot create: %s", path, strerror(errno));
	return f;
}

/*
 * Throughput of a run as the report plots it: what was received, or what
 * was sent when the run had no receiving port, read from m (r's figures,
 * or their min or max). which is WR_METRIC_TX_MPPS, WR_METRIC_TX_GBPS_L1
 * or WR_METRIC_TX_GBPS_L2 (its RX twin is used when the run received).
 */
static double
rep_throughput(const struct rep_run *r, const struct wr_metric_values *m,
		unsigned int which)
{
	unsigned int rx = which + (WR_METRIC_RX_MPPS - WR_METRIC_TX_MPPS);

	if (which == WR_METRIC_TX_GBPS_L1 || which == WR_METRIC_TX_GBPS_L2)
		rx = which + (WR_METRIC_RX_GBPS_L1 - WR_METRIC_TX_GBPS_L1);
	return r->m.v[WR_METRIC_RX_MPPS] > 0 ? m->v[rx] : m->v[which];
}

/* True when any run has a cycles-per-packet figure. */
static bool
rep_have_cycles(const struct rep *r)
{
	unsigned int i;

	for (i = 0; i < r->nb_runs; i++)
		if (r->run[i].m.have[WR_METRIC_CYCLES_PER_PKT])
			return true;
	return false;
}

/* Value, min and max of a figure ("?": missing, for gnuplot). */
static void
data_triple(FILE *f, const struct rep_run *run, unsigned int id)
{
	if (id == WR_METRIC_CYCLES_PER_PKT && !run->m.have[id])
		fprintf(f, " ? ? ?");
	else if (id == WR_METRIC_CYCLES_PER_PKT)
		fprintf(f, " %.9g %.9g %.9g", run->m.v[id], run->lo.v[id], run->hi.v[id]);
	else
		fprintf(f, " %.9g %.9g %.9g", rep_throughput(run, &run->m, id),
			rep_throughput(run, &run->lo, id), rep_throughput(run, &run->hi, id));
}

/* Rows of the throughput and cycles plots: runs and sweeps. */
static bool
traffic_row(const struct rep_run *run)
{
	return !run->kind->by_load && run->m.have[WR_METRIC_TX_MPPS];
}

static bool
have_traffic(const struct rep *r)
{
	unsigned int k;

	for (k = 0; k < r->nb_runs; k++)
		if (traffic_row(&r->run[k]))
			return true;
	return false;
}

/* One block per series (gnuplot "index"), rows sorted by frame size. */
static int
write_data(const struct rep *r, const char *dir, struct wr_error *err)
{
	FILE *f = open_in(dir, "plots.dat", err);
	unsigned int s, k;

	if (f == NULL)
		return -1;
	for (s = 0; s < r->nb_series; s++) {
		fprintf(f, "# series %u: %s\n# frame_size, then value min max of: "
			"mpps gbps_l1 gbps_l2 cycles_per_pkt\n", s, r->series[s]);
		for (k = 0; k < r->nb_runs; k++) {
			const struct rep_run *run = &r->run[r->order[k]];

			if (r->series_of[r->order[k]] != s || !traffic_row(run))
				continue;
			fprintf(f, "%u", run->frame_size);
			data_triple(f, run, WR_METRIC_TX_MPPS);
			data_triple(f, run, WR_METRIC_TX_GBPS_L1);
			data_triple(f, run, WR_METRIC_TX_GBPS_L2);
			data_triple(f, run, WR_METRIC_CYCLES_PER_PKT);
			fprintf(f, "\n");
		}
		fprintf(f, "\n\n");
	}
	if (fclose(f) != 0)
		return wr_err_env(err, -EIO, "%s/plots.dat: cannot write", dir);
	return 0;
}

/* One curve per series, with the trials' min..max as error bars. */
static void
gp_plot(FILE *f, const struct rep *r, unsigned int col, const char *suffix,
		const char *dash, bool first)
{
	char title[WR_LABEL_LEN + 16];
	unsigned int s;

	for (s = 0; s < r->nb_series; s++) {
		snprintf(title, sizeof(title), "%s%s", r->series[s], suffix);
		fprintf(f, "%s\"plots.dat\" index %u using 1:%u:%u:%u with "
			"yerrorlines lw 2 pt 7 lc %u %s title ",
			first && s == 0 ? "plot " : ", ", s, col, col + 1, col + 2,
			s + 1, dash);
		rep_gp_string(f, title);
	}
}

/* The plots for one terminal (png or svg). */
static void
gp_figures(FILE *f, const struct rep *r, const char *term, const char *ext,
		const char *title)
{
	if (!have_traffic(r))
		return;
	fprintf(f, "set terminal %s size 1280,520 noenhanced font \"sans,10\"\n"
		"set output \"throughput.%s\"\nset multiplot layout 1,2 title ", term, ext);
	rep_gp_string(f, title);
	fprintf(f, "\nset ylabel \"Mpps (received; sent if nothing was received)\"\n");
	gp_plot(f, r, COL_MPPS, "", "", true);
	fprintf(f, "\nset ylabel \"Gb/s (solid L1 with 20 B overhead, dashed L2)\"\n");
	gp_plot(f, r, COL_GBPS_L1, " L1", "", true);
	gp_plot(f, r, COL_GBPS_L2, " L2", "dt 2", false);
	fprintf(f, "\nunset multiplot\nset output\n");
	if (!rep_have_cycles(r))
		return;
	fprintf(f, "set terminal %s size 760,520 noenhanced font \"sans,10\"\n"
		"set output \"cycles.%s\"\nset title ", term, ext);
	rep_gp_string(f, title);
	fprintf(f, "\nset ylabel \"TSC cycles per packet\"\n");
	gp_plot(f, r, COL_CYCLES, "", "", true);
	fprintf(f, "\nunset title\nset output\n");
}

static int
write_script(const struct rep *r, const char *dir, const char *title,
		struct wr_error *err)
{
	FILE *f = open_in(dir, "plots.gp", err);

	if (f == NULL)
		return -1;
	fprintf(f, "# Generated by wirerate report; run with: gnuplot plots.gp\n"
		"set datafile missing \"?\"\n");
	rep_gp_size_axis(f, r);
	gp_figures(f, r, "pngcairo", "png", title);
	gp_figures(f, r, "svg dynamic", "svg", title);
	rep_plot_kinds_script(f, r, title);
	if (fclose(f) != 0)
		return wr_err_env(err, -EIO, "%s/plots.gp: cannot write", dir);
	return 0;
}

/* Run gnuplot plots.gp in dir, its output into gnuplot.log. */

/* The plots drawn for r, in report order: name and caption. */
static void
list_plots(const struct rep *r, struct rep_doc *doc)
{
	doc->nb_plots = 0;
	if (have_traffic(r)) {
		doc->plot_name[doc->nb_plots] = "throughput";
		doc->plot_title[doc->nb_plots++] = "Throughput against frame size";
	}
	if (have_traffic(r) && rep_have_cycles(r)) {
		doc->plot_name[doc->nb_plots] = "cycles";
		doc->plot_title[doc->nb_plots++] = "Cycles per packet against frame size";
	}
	rep_plot_kinds_list(r, doc);
}

/* The plot files gnuplot should have left, each non-empty. */
static int
check_outputs(const struct rep_doc *doc, const char *dir, struct wr_error *err)
{
	static const char *const ext[] = { "png", "svg" };
	char path[PATH_MAX];
	struct stat st;
	unsigned int i, e;

	for (i = 0; i < doc->nb_plots; i++) {
		for (e = 0; e < RTE_DIM(ext); e++) {
			snprintf(path, sizeof(path), "%s/%s.%s", dir, doc->plot_name[i],
				ext[e]);
			if (stat(path, &st) != 0 || st.st_size == 0)
				return wr_err_env(err, -EIO, "gnuplot left no %s (see %s/gnuplot.log)",
					path, dir);
		}
	}
	return 0;
}

/* Plots of an earlier report in dir must not pass for this one's. */
static void
remove_old(const char *dir)
{
	static const char *const names[] = { "throughput", "cycles", "ndr",
		"loss", "b2b" };
	static const char *const ext[] = { "png", "svg" };
	char path[PATH_MAX];
	unsigned int i, e;

	for (i = 0; i < RTE_DIM(names); i++) {
		for (e = 0; e < RTE_DIM(ext); e++) {
			snprintf(path, sizeof(path), "%s/%s.%s", dir, names[i], ext[e]);
			unlink(path);
		}
	}
}

int
rep_plot(const struct rep *r, const char *dir, const char *gnuplot,
		const char *title, struct rep_doc *doc, struct wr_error *err)
{
	remove_old(dir);
	list_plots(r, doc);
	if (write_data(r, dir, err) != 0 ||
			rep_plot_kinds_data(r, dir, err) != 0 ||
			write_script(r, dir, title, err) != 0 ||
			rep_gp_run(dir, gnuplot, "plots.gp", err) != 0 ||
			check_outputs(doc, dir, err) != 0) {
		doc->nb_plots = 0;
		return -1;
	}
	return 0;
}
