/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/exitcode.h"
#include "report/gnuplot.h"
#include "report/markup.h"
#include "analyse.h"
#include "plot.h"

#define PROG "wirerate history"

/* series-ID.dat: run number, value, mean of its segment. */
static int
write_data(const char *dir, const struct hist_found *f, struct wr_error *err)
{
	const struct hist_series *s = f->s;
	unsigned int i, k = 0;
	char path[PATH_MAX];
	double mean;
	FILE *out;

	snprintf(path, sizeof(path), "%s/series-%ld.dat", dir, s->id);
	out = fopen(path, "w");
	if (out == NULL)
		return wr_err_env(err, -errno, "%s: cannot create: %s", path, strerror(errno));
	for (i = 0; i < s->nb; i++) {
		while (k < f->nb_cp && f->cp[k].idx <= i)
			k++;
		/* The segment of i: after change point k - 1, before k. */
		mean = k < f->nb_cp ? f->cp[k].mean_before : f->nb_cp ?
			f->cp[f->nb_cp - 1].mean_after : 0;
		if (f->nb_cp == 0) {
			unsigned int j;

			for (mean = 0, j = 0; j < s->nb; j++)
				mean += s->p[j].value / s->nb;
		}
		fprintf(out, "%u %.9g %.9g\n", i + 1, s->p[i].value, mean);
	}
	return fclose(out) == 0 ? 0 : wr_err_env(err, -EIO, "%s: write failed", path);
}

/* The commands of one chart, to both terminals. */
static void
gp_series(FILE *f, const struct hist_found *h)
{
	static const char *const terms[][2] = {
		{ "pngcairo size 900,420 noenhanced", "png" },
		{ "svg size 900,420 dynamic noenhanced", "svg" },
	};
	const struct hist_series *s = h->s;
	char title[200];
	unsigned int t, i;

	snprintf(title, sizeof(title), "%s at %s (series %ld)", s->metric, s->point, s->id);
	for (t = 0; t < 2; t++) {
		fprintf(f, "set terminal %s\nset output 'series-%ld.%s'\nset title ",
			terms[t][0], s->id, terms[t][1]);
		rep_gp_string(f, title);
		fprintf(f, "\nunset arrow\nset xlabel 'run'\nset ylabel ");
		rep_gp_string(f, s->metric);
		fprintf(f, "\nset key bottom left\n");
		for (i = 0; i < h->nb_cp; i++)
			fprintf(f, "set arrow from %.1f, graph 0 to %.1f, graph 1 nohead "
				"dt 2 lc rgb '%s'\n", h->cp[i].idx + 0.5, h->cp[i].idx + 0.5,
				hist_worse(s, &h->cp[i]) ? "red" : "forest-green");
		fprintf(f, "plot 'series-%ld.dat' using 1:2 with linespoints pt 7 ps 0.6 "
			"title 'runs', '' using 1:3 with steps lw 2 title 'segment mean'\n",
			s->id);
	}
}

static int
write_script(const char *dir, const struct hist_found *fs, unsigned int nb,
		struct wr_error *err)
{
	char path[PATH_MAX];
	unsigned int i;
	FILE *f;

	snprintf(path, sizeof(path), "%s/history.gp", dir);
	f = fopen(path, "w");
	if (f == NULL)
		return wr_err_env(err, -errno, "%s: cannot create: %s", path, strerror(errno));
	fputs("# wirerate history plot: a chart per series (gnuplot history.gp)\n"
		"set grid\n", f);
	for (i = 0; i < nb; i++)
		gp_series(f, &fs[i]);
	return fclose(f) == 0 ? 0 : wr_err_env(err, -EIO, "%s: write failed", path);
}

/* The SVG gnuplot wrote for s, inline (its XML prolog left out). */
static void
inline_svg(FILE *out, const char *dir, const struct hist_series *s)
{
	char path[PATH_MAX], *buf, *start;
	long len;
	FILE *f;

	snprintf(path, sizeof(path), "%s/series-%ld.svg", dir, s->id);
	f = fopen(path, "r");
	if (f == NULL)
		return;
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	buf = len > 0 ? calloc(1, (size_t)len + 1) : NULL;
	if (buf != NULL && fread(buf, 1, (size_t)len, f) == (size_t)len) {
		start = strstr(buf, "<svg");
		if (start != NULL)
			fputs(start, out);
	}
	free(buf);
	fclose(f);
}

static void
html_series(FILE *out, const char *dir, const struct hist_found *h)
{
	const struct hist_series *s = h->s;
	unsigned int i;
	char name[160];

	fprintf(out, "<section class=\"series\" data-series=\"%ld\">\n<h2>", s->id);
	app_markup_text(out, hist_series_name(s, name, sizeof(name)));
	fprintf(out, "%s</h2>\n<p class=\"setup\">", h->regression ? " &mdash; REGRESSION" : "");
	app_markup_text(out, s->setup);
	fputs("</p>\n", out);
	inline_svg(out, dir, s);
	fputs("\n<table><tr><th>run</th><th>commits</th><th>time</th><th>direction</th>"
		"<th>change</th><th>95% interval</th><th>p</th></tr>\n", out);
	for (i = 0; i < h->nb_cp; i++) {
		const struct wr_cp *c = &h->cp[i];

		fprintf(out, "<tr><td>%u</td><td>", c->idx + 1);
		app_markup_text(out, s->p[c->idx - 1].commit);
		fputs(" &rarr; ", out);
		app_markup_text(out, s->p[c->idx].commit);
		fputs("</td><td>", out);
		app_markup_text(out, s->p[c->idx].time);
		fprintf(out, "</td><td>%s</td><td>%+.2f%%</td><td>%+.2f%% .. %+.2f%%</td>"
			"<td>%.4f</td></tr>\n", hist_worse(s, c) ? "worse" : "better",
			c->change_pct, c->ci_low_pct, c->ci_high_pct, c->p_value);
	}
	fputs("</table>\n</section>\n", out);
}

static int
write_html(const char *dir, const char *db, const struct hist_found *fs,
		unsigned int nb, struct wr_error *err)
{
	char path[PATH_MAX];
	unsigned int i;
	FILE *out;

	snprintf(path, sizeof(path), "%s/history.html", dir);
	out = fopen(path, "w");
	if (out == NULL)
		return wr_err_env(err, -errno, "%s: cannot create: %s", path, strerror(errno));
	fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>wirerate "
		"history</title>\n<style>body{font-family:sans-serif}table{border-collapse:"
		"collapse}td,th{border:1px solid #999;padding:2px 6px}.setup{font-size:"
		"small;color:#555}</style></head><body>\n<h1>wirerate history: ", out);
	app_markup_text(out, db);
	fprintf(out, " (%u series)</h1>\n", nb);
	for (i = 0; i < nb; i++)
		html_series(out, dir, &fs[i]);
	fputs("</body></html>\n", out);
	return fclose(out) == 0 ? 0 : wr_err_env(err, -EIO, "%s: write failed", path);
}

int
hist_plot(const struct hist_args *a, struct hist_db *db, bool html)
{
	struct hist_series *ss;
	struct hist_found *fs;
	struct wr_error err;
	unsigned int nb, i;
	int rc = -1;

	if (hist_analyse_all(db, a->metric, &a->cp, &ss, &fs, &nb, &err) != 0)
		return app_error(PROG, &err);
	if (mkdir(a->out, 0755) != 0 && errno != EEXIST) {
		wr_err_env(&err, -errno, "--out %s: cannot create: %s", a->out, strerror(errno));
		goto out;
	}
	for (i = 0; i < nb; i++)
		if (write_data(a->out, &fs[i], &err) != 0)
			goto out;
	if (write_script(a->out, fs, nb, &err) != 0 ||
			(nb > 0 && rep_gp_run(a->out, "gnuplot", "history.gp", &err) != 0) ||
			(html && write_html(a->out, db->where, fs, nb, &err) != 0))
		goto out;
	printf("%s: %u chart(s)%s in %s\n", db->where, nb, html ? " and history.html" : "",
		a->out);
	rc = 0;
out:
	hist_found_free(ss, fs, nb);
	return rc == 0 ? APP_EXIT_OK : app_error(PROG, &err);
}
