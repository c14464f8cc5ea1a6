/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The plots of the test modes' results in `wirerate report`, each the
 * kind's natural figure: NDR and PDR against frame size (throughput),
 * loss against offered load (loss, a curve per label and frame size) and
 * back-to-back burst length against frame size (b2b). A new kind's plot
 * is one more entry of kind_plots[].
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>

#include "gnuplot.h"
#include "plot_kinds.h"
#include "plot_lat.h"

struct kind_plot {
	const char *kind;           /* rows of this kind of result */
	const char *name;           /* NAME.png, NAME.svg, NAME.dat */
	const char *title;
	const char *ylabel;
	unsigned int nb_curves;     /* per label (and size when by load) */
	unsigned int id[2];         /* enum wr_metric_id of each curve */
	const char *suffix[2];      /* after the label in the key */
	const char *dash[2];        /* gnuplot dash type, "" solid */
};

static const struct kind_plot kind_plots[] = {
	{ "throughput", "ndr", "NDR and PDR against frame size",
		"Mpps (solid: NDR, no loss; dashed: PDR, loss up to --pdr)", 2,
		{ WR_METRIC_NDR_MPPS, WR_METRIC_PDR_MPPS }, { " NDR", " PDR" },
		{ "", "dt 2" } },
	{ "loss", "loss", "Frame loss rate against offered load",
		"frames lost, % of those sent", 1, { WR_METRIC_LOSS_PCT },
		{ "" }, { "" } },
	{ "mlr", "mlr", "MLRsearch conditional throughput against frame size",
		"Mpps (solid: zero-loss goal; dashed: last lossy goal)", 2,
		{ WR_METRIC_NDR_MPPS, WR_METRIC_PDR_MPPS }, { " NDR", " PDR" },
		{ "", "dt 2" } },
	{ "b2b", "b2b", "Back-to-back burst length against frame size",
		"frames in a burst without loss (mean, shortest..longest)", 1,
		{ WR_METRIC_B2B_PKTS }, { "" }, { "" } },
};

static bool
row_of(const struct rep_run *run, const struct kind_plot *p)
{
	return strcmp(run->kind->name, p->kind) == 0;
}

/* Whether the report has rows (with figures) for plot p. */
static bool
wanted(const struct rep *r, const struct kind_plot *p)
{
	unsigned int k, c;

	for (k = 0; k < r->nb_runs; k++)
		for (c = 0; c < p->nb_curves; c++)
			if (row_of(&r->run[k], p) && r->run[k].m.have[p->id[c]])
				return true;
	return false;
}

void
rep_plot_kinds_list(const struct rep *r, struct rep_doc *doc)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(kind_plots); i++) {
		if (!wanted(r, &kind_plots[i]) || doc->nb_plots == RTE_DIM(doc->plot_name))
			continue;
		doc->plot_name[doc->nb_plots] = kind_plots[i].name;
		doc->plot_title[doc->nb_plots++] = kind_plots[i].title;
	}
	rep_plot_lat_list(r, doc);
}

/* Smallest frame size above prev of p's rows in series s; 0: none. */
static unsigned int
next_size(const struct rep *r, const struct kind_plot *p, unsigned int s,
		unsigned int prev)
{
	unsigned int k, best = 0;

	for (k = 0; k < r->nb_runs; k++) {
		const struct rep_run *run = &r->run[k];

		if (row_of(run, p) && r->series_of[k] == s && run->frame_size > prev &&
				(best == 0 || run->frame_size < best))
			best = run->frame_size;
	}
	return best;
}

/* The x of a row, then value, min, max of each curve ("?" when absent). */
static void
data_row(FILE *f, const struct rep_run *run, const struct kind_plot *p)
{
	unsigned int c, id;

	if (run->kind->by_load)
		fprintf(f, "%g", run->load_pct);
	else
		fprintf(f, "%u", run->frame_size);
	for (c = 0; c < p->nb_curves; c++) {
		id = p->id[c];
		if (run->m.have[id])
			fprintf(f, " %.9g %.9g %.9g", run->m.v[id], run->lo.v[id],
				run->hi.v[id]);
		else
			fprintf(f, " ? ? ?");
	}
	fputc('\n', f);
}

/*
 * One block (gnuplot "index") per label, or per label and frame size when
 * the kind is keyed by load; rows in report order. size 0: every size.
 */
static void
data_block(FILE *f, const struct rep *r, const struct kind_plot *p,
		unsigned int s, unsigned int size)
{
	unsigned int k;

	fprintf(f, "# %s", r->series[s]);
	if (size != 0)
		fprintf(f, " %u B", size);
	fputc('\n', f);
	for (k = 0; k < r->nb_runs; k++) {
		const struct rep_run *run = &r->run[r->order[k]];

		if (row_of(run, p) && r->series_of[r->order[k]] == s &&
				(size == 0 || run->frame_size == size))
			data_row(f, run, p);
	}
	fputs("\n\n", f);
}

/* Walk p's blocks in order: fn(f, r, p, series, size, index). */
static void
each_block(FILE *f, const struct rep *r, const struct kind_plot *p,
		void (*fn)(FILE *, const struct rep *, const struct kind_plot *,
			unsigned int, unsigned int, unsigned int))
{
	unsigned int s, size, idx = 0;
	bool by_load = strcmp(p->kind, "loss") == 0;

	for (s = 0; s < r->nb_series; s++) {
		size = next_size(r, p, s, 0);
		if (size == 0)
			continue;
		if (!by_load) {
			fn(f, r, p, s, 0, idx++);
			continue;
		}
		for (; size != 0; size = next_size(r, p, s, size))
			fn(f, r, p, s, size, idx++);
	}
}

static void
write_block(FILE *f, const struct rep *r, const struct kind_plot *p,
		unsigned int s, unsigned int size, unsigned int idx)
{
	(void)idx;
	data_block(f, r, p, s, size);
}

int
rep_plot_kinds_data(const struct rep *r, const char *dir, struct wr_error *err)
{
	char path[PATH_MAX];
	unsigned int i;
	FILE *f;

	for (i = 0; i < RTE_DIM(kind_plots); i++) {
		if (!wanted(r, &kind_plots[i]))
			continue;
		snprintf(path, sizeof(path), "%s/%s.dat", dir, kind_plots[i].name);
		f = fopen(path, "w");
		if (f == NULL)
			return wr_err_env(err, -EIO, "%s: cannot create", path);
		each_block(f, r, &kind_plots[i], write_block);
		if (fclose(f) != 0)
			return wr_err_env(err, -EIO, "%s: cannot write", path);
	}
	return rep_plot_lat_data(r, dir, err);
}

/* The curves of one block: value with min..max error bars. */
static void
plot_block(FILE *f, const struct rep *r, const struct kind_plot *p,
		unsigned int s, unsigned int size, unsigned int idx)
{
	char title[WR_LABEL_LEN + 32];
	unsigned int c, col;

	for (c = 0; c < p->nb_curves; c++) {
		col = 2 + 3 * c;
		if (size != 0)
			snprintf(title, sizeof(title), "%s %u B%s", r->series[s], size,
				p->suffix[c]);
		else
			snprintf(title, sizeof(title), "%s%s", r->series[s], p->suffix[c]);
		fprintf(f, "%s\"%s.dat\" index %u using 1:%u:%u:%u with yerrorlines "
			"lw 2 pt 7 lc %u %s title ", idx == 0 && c == 0 ? "plot " : ", ",
			p->name, idx, col, col + 1, col + 2, idx + 1, p->dash[c]);
		rep_gp_string(f, title);
	}
}

static void
plot_one(FILE *f, const struct rep *r, const struct kind_plot *p,
		const char *term, const char *ext, const char *title)
{
	fprintf(f, "set terminal %s size 760,520 noenhanced font \"sans,10\"\n"
		"set output \"%s.%s\"\nset title ", term, p->name, ext);
	rep_gp_string(f, title);
	if (strcmp(p->kind, "loss") == 0)
		fprintf(f, "\nunset logscale x\nset xtics auto\nset xrange [0:105]\n"
			"set yrange [0:*]\nset xlabel \"offered load, %% of the maximum "
			"rate (--rate, line rate or calibration)\"\n");
	else
		fputc('\n', f), rep_gp_size_axis(f, r);
	fprintf(f, "set ylabel ");
	rep_gp_string(f, p->ylabel);
	fputc('\n', f);
	each_block(f, r, p, plot_block);
	fprintf(f, "\nunset title\nset output\n");
}

void
rep_plot_kinds_script(FILE *f, const struct rep *r, const char *title)
{
	char t[512];
	unsigned int i;

	for (i = 0; i < RTE_DIM(kind_plots); i++) {
		if (!wanted(r, &kind_plots[i]))
			continue;
		snprintf(t, sizeof(t), "%s: %s", title, kind_plots[i].title);
		plot_one(f, r, &kind_plots[i], "pngcairo", "png", t);
		plot_one(f, r, &kind_plots[i], "svg dynamic", "svg", t);
	}
	rep_plot_lat_script(f, r, title);
}
