/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The service activation report of a --mode y1564 result (docs/y1564.md):
 * one page, Markdown and HTML, with the configuration, a table per
 * service (each step and the performance test, with its verdict and the
 * failing KPIs) and the performance test's series as a plot (gnuplot).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/fileio.h"
#include "gnuplot.h"
#include "markup.h"
#include "plot.h"
#include "report_y1564.h"
#include "results/y1564json.h"

static double
num(const json_t *o, const char *k)
{
	return json_number_value(json_object_get(o, k));
}

static const char *
str(const json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));

	return s != NULL ? s : "";
}

/* What one page needs: the result, where it came from, its plot. */
struct page {
	const json_t *y;
	const char *path;
	bool plot;
	bool html;
};

/* Text, escaped for HTML where the page is HTML. */
static void
text(FILE *f, const struct page *p, const char *s)
{
	if (p->html)
		app_markup_text(f, s);
	else
		fputs(s, f);
}

/* A row's cells: Markdown "| a | b |" or HTML "<tr><td>a</td>...". */
static void
row(FILE *f, const struct page *p, bool head, const char *const *cells,
		unsigned int n)
{
	unsigned int i;

	fputs(p->html ? "<tr>" : "|", f);
	for (i = 0; i < n; i++) {
		fputs(p->html ? (head ? "<th>" : "<td>") : " ", f);
		text(f, p, cells[i]);
		fputs(p->html ? (head ? "</th>" : "</td>") : " |", f);
	}
	fputs(p->html ? "</tr>\n" : "\n", f);
	if (head && !p->html) {
		fputs("|", f);
		for (i = 0; i < n; i++)
			fputs("---|", f);
		fputs("\n", f);
	}
}

/* A criterion's cell: its value in unit scale, or "-" (not judged). */
static void
crit(char *b, size_t n, const json_t *c, const char *k, double scale,
		const char *unit)
{
	const json_t *v = json_object_get(c, k);

	if (json_is_number(v))
		snprintf(b, n, "%.6g%s", json_number_value(v) * scale, unit);
	else
		snprintf(b, n, "-");
}

static void
config_table(FILE *f, const struct page *p)
{
	static const char *const head[] = { "service", "CIR Mb/s (L2)",
		"EIR Mb/s (L2)", "green", "yellow", "FLR", "FTD", "FDV", "AVAIL" };
	const json_t *s;
	char b[9][48];
	const char *cells[9];
	size_t i;
	unsigned int k;

	for (k = 0; k < 9; k++)
		cells[k] = b[k];
	fputs(p->html ? "<table class=\"config\">\n" : "", f);
	row(f, p, true, head, 9);
	json_array_foreach(json_object_get(p->y, "services"), i, s) {
		const json_t *c = json_object_get(s, "criteria");
		double bits = 8 * num(s, "frame_size");

		snprintf(b[0], 48, "%s", str(s, "name"));
		snprintf(b[1], 48, "%.6g", num(s, "cir_pps") * bits / 1e6);
		snprintf(b[2], 48, "%.6g", num(s, "eir_pps") * bits / 1e6);
		snprintf(b[3], 48, "%s", str(s, "green"));
		snprintf(b[4], 48, "%s", json_object_get(s, "yellow") ? str(s, "yellow") : "-");
		crit(b[5], 48, c, "flr", 100, "%");
		crit(b[6], 48, c, "ftd_ns", 1e-6, " ms");
		crit(b[7], 48, c, "fdv_ns", 1e-6, " ms");
		crit(b[8], 48, c, "avail", 100, "%");
		row(f, p, false, cells, 9);
	}
	fputs(p->html ? "</table>\n" : "\n", f);
}

static void
step_row(FILE *f, const struct page *p, const char *name, const json_t *st,
		double bits)
{
	const json_t *g = json_object_get(st, "green"), *y = json_object_get(st, "yellow");
	char b[8][160];
	const char *cells[8];
	unsigned int k;

	for (k = 0; k < 8; k++)
		cells[k] = b[k];
	snprintf(b[0], 160, "%s", name);
	snprintf(b[1], 160, "%.6g", (num(g, "offered_pps") + num(y, "offered_pps")) *
		bits / 1e6);
	snprintf(b[2], 160, "%.0f / %.0f", num(g, "sent_pkts") + num(y, "sent_pkts"),
		num(g, "lost_pkts") + num(y, "lost_pkts"));
	snprintf(b[3], 160, "%.4g%%", 100 * num(st, "flr"));
	wr_y1564_ms_text(st, "ftd_ns", b[4], 160);
	wr_y1564_ms_text(st, "fdv_ns", b[5], 160);
	snprintf(b[6], 160, "%.6g", num(st, "ir_bps") / 1e6);
	wr_y1564_verdict_text(st, b[7], 160);
	row(f, p, false, cells, 8);
}

static void
service_table(FILE *f, const struct page *p, const json_t *s)
{
	static const char *const head[] = { "step", "offered Mb/s", "sent / lost",
		"FLR (green)", "FTD ms", "FDV ms", "IR Mb/s", "verdict" };
	const json_t *st, *perf = json_object_get(s, "perf");
	double bits = 8 * num(s, "frame_size");
	const char *name = str(s, "name");
	const char *v = json_is_true(json_object_get(s, "pass")) ? "PASS" : "FAIL";
	size_t i;

	if (p->html) {
		fputs("<h3>Service ", f);
		text(f, p, name);
		fprintf(f, ": %s</h3>\n<table class=\"service\" id=\"service-", v);
		text(f, p, name);
		fputs("\">\n", f);
	} else {
		fprintf(f, "### Service %s: %s\n\n", name, v);
	}
	row(f, p, true, head, 8);
	json_array_foreach(json_object_get(s, "steps"), i, st)
		step_row(f, p, str(st, "step"), st, bits);
	if (perf != NULL)
		step_row(f, p, "performance", perf, bits);
	fputs(p->html ? "</table>\n" : "\n", f);
	if (perf != NULL)
		fprintf(f, p->html ? "<p>Availability %.4f%%: %.0f s unavailable of "
			"%.0f s, %.0f severely errored seconds.</p>\n" : "Availability "
			"%.4f%%: %.0f s unavailable of %.0f s, %.0f severely errored "
			"seconds.\n\n", 100 * num(perf, "avail"), num(perf, "unavailable_s"),
			num(perf, "seconds"), num(perf, "ses"));
}

static void
page_body(FILE *f, const struct page *p)
{
	const json_t *s;
	size_t i;
	bool pass = json_is_true(json_object_get(p->y, "pass"));

	fprintf(f, p->html ? "<h1>Service activation (ITU-T Y.1564): %s</h1>\n<p>" :
		"# Service activation (ITU-T Y.1564): %s\n\n", pass ? "PASS" : "FAIL");
	text(f, p, p->path);
	fprintf(f, ": steps of %.1f s, performance test of %.0f s, policing margin "
		"%.3g%%, delay ", num(p->y, "step_s"), num(p->y, "perf_s"),
		100 * num(p->y, "police_margin"));
	text(f, p, str(p->y, "delay"));
	fputs(" (", f);
	text(f, p, str(p->y, "delay_clock"));
	fputs("); phase ", f);
	text(f, p, str(p->y, "phase"));
	fputs(p->html ? ".</p>\n<h2>Configuration</h2>\n" : ".\n\n## Configuration\n\n", f);
	config_table(f, p);
	fputs(p->html ? "<h2>Services</h2>\n" : "## Services\n\n", f);
	json_array_foreach(json_object_get(p->y, "services"), i, s)
		service_table(f, p, s);
	if (!p->plot)
		return;
	fputs(p->html ? "<h2>Performance test</h2>\n<p><img src=\"y1564.png\" "
		"alt=\"loss and delay per second\"></p>\n" : "## Performance test\n\n"
		"![loss and delay per second](y1564.png)\n", f);
}

static int
fill_md(FILE *f, const void *ctx)
{
	page_body(f, ctx);
	return ferror(f) ? -EIO : 0;
}

static int
fill_html(FILE *f, const void *ctx)
{
	fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Service "
		"activation</title><style>table{border-collapse:collapse}td,th{border:"
		"1px solid #999;padding:2px 6px}</style></head><body>\n", f);
	page_body(f, ctx);
	fputs("</body></html>\n", f);
	return ferror(f) ? -EIO : 0;
}

/* The series: a block per service, t, loss % and FTD ms per point. */
/* A comment line of the data file: a newline in s must not start a row. */
static void
data_comment(FILE *f, const char *s)
{
	fputs("# ", f);
	for (; *s != '\0'; s++)
		fputc((unsigned char)*s < 0x20 ? ' ' : *s, f);
	fputc('\n', f);
}

static int
fill_data(FILE *f, const void *ctx)
{
	const struct page *p = ctx;
	const json_t *s;
	size_t i, k;

	json_array_foreach(json_object_get(p->y, "services"), i, s) {
		const json_t *ser = json_object_get(json_object_get(s, "perf"), "series");
		const json_t *t = json_object_get(ser, "t_s");

		data_comment(f, str(s, "name"));
		for (k = 0; k < json_array_size(t); k++) {
			double sent = json_number_value(json_array_get(json_object_get(ser,
				"sent_pkts"), k));
			double lost = json_number_value(json_array_get(json_object_get(ser,
				"lost_pkts"), k));
			const json_t *ftd = json_array_get(json_object_get(ser, "ftd_ns"), k);

			fprintf(f, "%.0f %.6g ", json_number_value(json_array_get(t, k)),
				sent > 0 ? 100 * lost / sent : 0);
			if (json_is_number(ftd))
				fprintf(f, "%.6g\n", json_number_value(ftd) / 1e6);
			else
				fputs("?\n", f);
		}
		fputs("\n\n", f);
	}
	return ferror(f) ? -EIO : 0;
}

static int
fill_script(FILE *f, const void *ctx)
{
	const struct page *p = ctx;
	const json_t *s;
	size_t i;

	fputs("set terminal pngcairo size 900,420 noenhanced\nset output 'y1564.png'\n"
		"set xlabel 'seconds of the performance test'\n"
		"set ylabel 'frames lost (%)'\nset y2label 'FTD (ms)'\nset y2tics\n"
		"set key outside right\nset grid\nplot ", f);
	json_array_foreach(json_object_get(p->y, "services"), i, s) {
		fprintf(f, "%s'y1564.dat' index %zu using 1:2 with lines title ",
			i ? ", " : "", i);
		rep_gp_string(f, str(s, "name"));
		fprintf(f, ", 'y1564.dat' index %zu using 1:3 axes x1y2 with lines dt 2 "
			"title ", i);
		rep_gp_string(f, str(s, "name"));
		fputs(" . ' FTD'", f);
	}
	fputs("\n", f);
	return ferror(f) ? -EIO : 0;
}

/* dir/name written atomically with fill. */
static int
write_in(const char *dir, const char *name, wr_file_fill_t fill, const void *ctx,
		struct wr_error *err)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (wr_file_write(path, fill, ctx, err) != 0)
		return -EIO;
	printf("wrote %s\n", path);
	return 0;
}

bool
rep_y1564_is(const json_t *doc)
{
	return json_is_object(json_object_get(doc, "y1564"));
}

int
rep_y1564_page(const char *path, const json_t *doc, const char *out,
		const char *gnuplot, struct wr_error *err)
{
	struct page p = { json_object_get(doc, "y1564"), path, false, false };
	bool series = json_object_get(json_object_get(json_array_get(json_object_get(
		p.y, "services"), 0), "perf"), "series") != NULL;

	if (out == NULL) {
		page_body(stdout, &p);
		return 0;
	}
	if (series && gnuplot != NULL) {
		if (write_in(out, "y1564.dat", fill_data, &p, err) != 0 ||
				write_in(out, "y1564.gp", fill_script, &p, err) != 0 ||
				rep_gp_run(out, gnuplot, "y1564.gp", err) != 0)
			return -EIO;
		p.plot = true;
	}
	if (write_in(out, "report.md", fill_md, &p, err) != 0)
		return -EIO;
	p.html = true;
	return write_in(out, "report.html", fill_html, &p, err);
}
