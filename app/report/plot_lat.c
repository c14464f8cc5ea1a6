/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The latency-under-load plot of `wirerate report` (results of throughput
 * and mlr with --lat-loads): latency against percentile, a curve per
 * label, frame size and load level, both axes logarithmic: x in "nines"
 * (p50, p90, p99, p99.9, p99.99 evenly spaced), y in nanoseconds.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>

#include "gnuplot.h"
#include "plot_lat.h"

#define LAT_PLOT "latency"

static const struct {
	const char *key;   /* in latency.percentiles_ns */
	double pct;
} lat_pcts[] = {
	{ "p50", 50 }, { "p90", 90 }, { "p99", 99 }, { "p99.9", 99.9 },
	{ "p99.99", 99.99 },
};

/* Label of file i: the label of its first row. */
static const char *
file_label(const struct rep *r, unsigned int i)
{
	unsigned int k;

	for (k = 0; k < r->nb_runs; k++)
		if (r->run[k].file == i)
			return r->run[k].label;
	return "?";
}

/* Calls fn for every load level of every result of every file. */
static unsigned int
each_level(const struct rep *r, FILE *f,
		void (*fn)(FILE *, const char *, const json_t *, const json_t *,
			unsigned int))
{
	const json_t *res, *x, *lv;
	unsigned int i, n = 0;
	size_t j, k;

	for (i = 0; i < r->nb_files; i++) {
		res = json_object_get(r->docs[i], "results");
		json_array_foreach(res, j, x) {
			json_array_foreach(json_object_get(json_object_get(x,
					"latency_under_load"), "levels"), k, lv) {
				if (json_object_get(json_object_get(lv, "latency"),
						"percentiles_ns") == NULL)
					continue;
				if (fn != NULL)
					fn(f, file_label(r, i), x, lv, n);
				n++;
			}
		}
	}
	return n;
}

void
rep_plot_lat_list(const struct rep *r, struct rep_doc *doc)
{
	if (each_level(r, NULL, NULL) == 0 || doc->nb_plots == RTE_DIM(doc->plot_name))
		return;
	doc->plot_name[doc->nb_plots] = LAT_PLOT;
	doc->plot_title[doc->nb_plots++] = "Latency under load: percentiles per "
		"load level (log scales)";
}

/* One block: "# label size pct", then nines and ns per percentile. */
static void
data_level(FILE *f, const char *label, const json_t *res, const json_t *lv,
		unsigned int idx)
{
	const json_t *p = json_object_get(json_object_get(lv, "latency"),
		"percentiles_ns");
	unsigned int i;

	(void)idx;
	fprintf(f, "# %s %.0f B %g%%\n", label, json_number_value(json_object_get(res,
		"frame_size")), json_number_value(json_object_get(lv, "pct")));
	for (i = 0; i < RTE_DIM(lat_pcts); i++) {
		double v = json_number_value(json_object_get(p, lat_pcts[i].key));

		/* A log axis has no 0: a sub-nanosecond figure is not drawn. */
		if (v >= 1)
			fprintf(f, "%.6f %.9g\n", -log10(1 - lat_pcts[i].pct / 100), v);
	}
	fputs("\n\n", f);
}

int
rep_plot_lat_data(const struct rep *r, const char *dir, struct wr_error *err)
{
	char path[PATH_MAX];
	FILE *f;

	if (each_level(r, NULL, NULL) == 0)
		return 0;
	snprintf(path, sizeof(path), "%s/%s.dat", dir, LAT_PLOT);
	f = fopen(path, "w");
	if (f == NULL)
		return wr_err_env(err, -EIO, "%s: cannot create", path);
	each_level(r, f, data_level);
	if (fclose(f) != 0)
		return wr_err_env(err, -EIO, "%s: cannot write", path);
	return 0;
}

static void
plot_level(FILE *f, const char *label, const json_t *res, const json_t *lv,
		unsigned int idx)
{
	char title[WR_LABEL_LEN + 64];

	snprintf(title, sizeof(title), "%s %.0f B at %g%%", label,
		json_number_value(json_object_get(res, "frame_size")),
		json_number_value(json_object_get(lv, "pct")));
	fprintf(f, "%s\"%s.dat\" index %u using 1:2 with linespoints lw 2 pt 7 "
		"lc %u title ", idx == 0 ? "plot " : ", ", LAT_PLOT, idx, idx + 1);
	rep_gp_string(f, title);
}

static void
plot_one(FILE *f, const struct rep *r, const char *term, const char *ext,
		const char *title)
{
	fprintf(f, "set terminal %s size 760,520 noenhanced font \"sans,10\"\n"
		"set output \"%s.%s\"\nset title ", term, LAT_PLOT, ext);
	rep_gp_string(f, title);
	fprintf(f, "\nunset logscale x\nset xrange [0.2:4.2]\n"
		"set xtics (\"p50\" 0.301, \"p90\" 1, \"p99\" 2, \"p99.9\" 3, "
		"\"p99.99\" 4)\nset logscale y 10\nset yrange [*:*]\n"
		"set xlabel \"percentile (log scale of 1 - p)\"\n"
		"set ylabel \"latency, ns (TSC; buckets within 1/32)\"\n"
		"set key left top\n");
	each_level(r, f, plot_level);
	fprintf(f, "\nunset logscale y\nunset title\nset key default\nset output\n");
}

void
rep_plot_lat_script(FILE *f, const struct rep *r, const char *title)
{
	char t[512];

	if (each_level(r, NULL, NULL) == 0)
		return;
	snprintf(t, sizeof(t), "%s: latency under load", title);
	plot_one(f, r, "pngcairo", "png", t);
	plot_one(f, r, "svg dynamic", "svg", t);
}
