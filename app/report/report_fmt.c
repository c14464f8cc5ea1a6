/* SPDX-License-Identifier: BSD-3-Clause */
/* The tables of `wirerate report` and their Markdown, HTML and CSV forms. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "base/csv.h"
#include "base/driver.h"
#include "measure/metrics.h"
#include "markup.h"
#include "rep_doc.h"
#include "report_fmt.h"
#include "report_conn.h"
#include "report_mesh.h"
#include "report_streams.h"

/*
 * Decimals of a metric in the tables, one per kind of unit so a column
 * never mixes them: Mpps 4, Gb/s 3, loss % 4, latency ns 0, cycles 1,
 * frame counts 0.
 */
static int
decimals(unsigned int id)
{
	const struct wr_metric_def *d = &wr_metric_defs[id];
	size_t n = strlen(d->name);

	if (n > 5 && strcmp(d->name + n - 5, "_pkts") == 0)
		return 0;
	if (strstr(d->name, "mpps") != NULL)
		return 4;
	if (strcmp(d->group, "loss") == 0)
		return 4;
	if (strcmp(d->group, "latency") == 0)
		return 0;
	if (strcmp(d->group, "cpu") == 0)
		return 1;
	return 3;
}

/* A figure times scale with its spread over the trials, p decimals. */
static void
fmt_scaled(char *buf, const struct rep_run *r, unsigned int id, double scale,
		int p)
{
	if (!r->m.have[id])
		snprintf(buf, REP_CELL, "-");
	else if (r->n > 1)
		snprintf(buf, REP_CELL, "%.*f [%.*f..%.*f]", p, r->m.v[id] * scale,
			p, r->lo.v[id] * scale, p, r->hi.v[id] * scale);
	else
		snprintf(buf, REP_CELL, "%.*f", p, r->m.v[id] * scale);
}

/* A figure with its spread over the trials. */
static void
fmt_figure(char *buf, const struct rep_run *r, unsigned int id)
{
	fmt_scaled(buf, r, id, 1, decimals(id));
}

int
rep_pivot_find(const char *name)
{
	if (strcmp(name, REP_PIVOT_MBYTES_NAME) == 0)
		return REP_PIVOT_MBYTES;
	return wr_metrics_find(name);
}

/* The metric a pivot reads. */
static unsigned int
pivot_metric(int pivot)
{
	return pivot == REP_PIVOT_MBYTES ? WR_METRIC_RX_GBPS_L2 :
		(unsigned int)pivot;
}

/* A pivot's figure of one metric (its own, or MB/s of a Gb/s L2). */
static void
fmt_view(char *buf, const struct rep_run *r, unsigned int id, int pivot)
{
	if (pivot == REP_PIVOT_MBYTES)
		fmt_scaled(buf, r, id, 1e9 / 8 / 1e6, 1);
	else
		fmt_figure(buf, r, id);
}

/* Rows of kind k in report order. */
static unsigned int
rows_of(const struct rep *r, const struct wr_kind *k, unsigned int *rows)
{
	unsigned int i, n = 0;

	for (i = 0; i < r->nb_runs; i++)
		if (r->run[r->order[i]].kind == k)
			rows[n++] = r->order[i];
	return n;
}

/* The table of one kind: label, size (and load), trials, its figures. */
static int
kind_table(const struct rep *r, const struct wr_kind *k, struct rep_doc *doc)
{
	unsigned int rows[REP_MAX_RUNS], nb = rows_of(r, k, rows), i, c, x;
	struct rep_table *t;

	if (nb == 0)
		return 0;
	t = rep_table_new(doc, nb, "%s", k->title);
	if (t == NULL)
		return -ENOMEM;
	x = k->by_load ? 4 : 3;
	t->head[0] = "label";
	t->head[1] = k->key_name != NULL ? k->key_name : "frame B";
	t->head[2] = "trials";
	t->head[3] = "load %";
	for (c = 0; c < k->nb_shown; c++)
		t->head[x + c] = wr_metric_defs[k->shown[c]].label;
	t->nb_cols = x + k->nb_shown;
	for (i = 0; i < nb; i++) {
		const struct rep_run *run = &r->run[rows[i]];

		snprintf(t->cell[i][0], REP_CELL, "%s", run->label);
		if (k->point_name != NULL)
			snprintf(t->cell[i][1], REP_CELL, "-");
		else
			snprintf(t->cell[i][1], REP_CELL, "%u", run->frame_size);
		snprintf(t->cell[i][2], REP_CELL, "%u", run->n);
		if (k->by_load)
			snprintf(t->cell[i][3], REP_CELL, "%.1f", run->load_pct);
		for (c = 0; c < k->nb_shown; c++)
			fmt_figure(t->cell[i][x + c], run, k->shown[c]);
	}
	return 0;
}

static int
kind_tables(const struct rep *r, struct rep_doc *doc)
{
	unsigned int i;

	for (i = 0; i < wr_nb_kinds; i++)
		if (kind_table(r, &wr_kinds[i], doc) != 0)
			return -ENOMEM;
	return 0;
}

/*
 * Index of name[0..len-1] in list[0..*n-1], appended when new (up to max).
 * Entries are labels (compared up to their '/') or column names.
 */
static int
intern(const char **list, unsigned int *n, unsigned int max, const char *name,
		size_t len)
{
	unsigned int i;

	for (i = 0; i < *n; i++)
		if (strcspn(list[i], "/") == len && strncmp(list[i], name, len) == 0)
			return (int)i;
	if (*n == max)
		return -1;
	list[*n] = name;
	return (int)(*n)++;
}

/*
 * The matrix figure of a row: an RX rate of a run that received nothing
 * (TX only) is its TX twin, marked, as the throughput plot shows it.
 */
static void
fmt_pivot(char *buf, const struct rep_run *run, int pivot)
{
	unsigned int id = pivot_metric(pivot), tx = id;

	if (id == WR_METRIC_RX_MPPS)
		tx = WR_METRIC_TX_MPPS;
	else if (id == WR_METRIC_RX_GBPS_L1 || id == WR_METRIC_RX_GBPS_L2)
		tx = id - (WR_METRIC_RX_GBPS_L1 - WR_METRIC_TX_GBPS_L1);
	if (tx == id || !run->m.have[WR_METRIC_RX_MPPS] ||
			run->m.v[WR_METRIC_RX_MPPS] > 0 || !run->m.have[tx]) {
		fmt_view(buf, run, id, pivot);
		return;
	}
	fmt_view(buf, run, tx, pivot);
	strncat(buf, " (TX)", REP_CELL - strlen(buf) - 1);
}

/* One ROW x COLUMN table of metric for the runs of one frame size. */
static int
matrix_table(const struct rep *r, int metric, unsigned int size,
		const char **rows, unsigned int nb_rows, const char **cols,
		unsigned int nb_cols, struct rep_doc *doc)
{
	struct rep_table *t = rep_table_new(doc, nb_rows, "%s at %u-byte frames "
		"(label ROW/COLUMN)", metric == REP_PIVOT_MBYTES ? "RX MB/s L2" :
		wr_metric_defs[metric].label, size);
	unsigned int i, k;

	if (t == NULL)
		return -ENOMEM;
	t->nb_cols = nb_cols + 1;
	t->head[0] = "";
	for (i = 0; i < nb_cols; i++)
		t->head[i + 1] = cols[i];
	for (i = 0; i < nb_rows; i++) {
		snprintf(t->cell[i][0], REP_CELL, "%.*s",
			(int)strcspn(rows[i], "/"), rows[i]);
		for (k = 1; k <= nb_cols; k++)
			snprintf(t->cell[i][k], REP_CELL, "-");
	}
	for (k = 0; k < r->nb_runs; k++) {
		const struct rep_run *run = &r->run[k];
		const char *slash = strchr(run->label, '/');
		int row, col;

		if (run->frame_size != size || !run->m.have[pivot_metric(metric)])
			continue;
		row = intern(rows, &nb_rows, nb_rows, run->label, slash - run->label);
		col = intern(cols, &nb_cols, nb_cols, slash + 1, strlen(slash + 1));
		if (row >= 0 && col >= 0)
			fmt_pivot(t->cell[row][col + 1], run, metric);
	}
	return 0;
}

/* Matrices when every label reads ROW/COLUMN; one per frame size. */
static int
matrix_tables(const struct rep *r, int metric, struct rep_doc *doc)
{
	const char *rows[REP_MAX_RUNS], *cols[REP_MAX_COLS - 1];
	unsigned int nb_rows = 0, nb_cols = 0, k, prev = 0, size;

	for (k = 0; k < r->nb_runs; k++) {
		const char *label = r->run[k].label, *slash = strchr(label, '/');

		if (slash == NULL || slash == label || slash[1] == '\0' ||
				strchr(slash + 1, '/') != NULL ||
				intern(rows, &nb_rows, REP_MAX_RUNS, label, slash - label) < 0 ||
				intern(cols, &nb_cols, RTE_DIM(cols), slash + 1,
				strlen(slash + 1)) < 0)
			return 0;
	}
	for (;;) {                       /* each frame size, ascending */
		size = 0;
		for (k = 0; k < r->nb_runs; k++)
			if (r->run[k].frame_size > prev &&
					(size == 0 || r->run[k].frame_size < size))
				size = r->run[k].frame_size;
		if (size == 0)
			return 0;
		if (matrix_table(r, metric, size, rows, nb_rows, cols, nb_cols, doc) != 0)
			return -ENOMEM;
		prev = size;
	}
}

/* Ports of a run in one cell: id, driver, device, PCI id, MTU, link. */
static void
fmt_ports(char *buf, const json_t *doc)
{
	const json_t *p;
	size_t i, used = 0;

	buf[0] = '\0';
	json_array_foreach(json_object_get(doc, "ports"), i, p) {
		const json_t *pci = json_object_get(p, "pci_id");
		const json_t *v3 = json_object_get(p, "vmxnet3_version");
		const json_t *dev = json_object_get(p, "device");
		const json_t *drv = json_object_get(p, "driver");

		used += (size_t)snprintf(buf + used, REP_CELL - used,
			"%s%" JSON_INTEGER_FORMAT " %s%s %s%s%s%s%s MTU %" JSON_INTEGER_FORMAT
			" link %" JSON_INTEGER_FORMAT " Mb/s", i ? "; " : "",
			json_integer_value(json_object_get(p, "port_id")),
			json_is_string(drv) ? json_string_value(drv) : "?",
			wr_driver_no_wire(json_string_value(drv)) ? " (no wire)" : "",
			json_is_string(dev) ? json_string_value(dev) : "",
			json_is_string(pci) ? " " : "",
			json_is_string(pci) ? json_string_value(pci) : "",
			json_is_string(v3) ? " vmxnet3 v" : "",
			json_is_string(v3) ? json_string_value(v3) : "",
			json_integer_value(json_object_get(p, "mtu")),
			json_integer_value(json_object_get(p, "link_speed_mbps")));
		if (used >= REP_CELL - 1)
			break;
	}
}

static const char *
env_str(const json_t *doc, const char *path)
{
	const json_t *v = wr_metrics_get(doc, path);

	return json_is_string(v) ? json_string_value(v) : "-";
}

/* "64, 512" into buf: the frame sizes of the rows of file f. */
static void
fmt_sizes(char *buf, const struct rep *r, unsigned int f)
{
	unsigned int k, prev = 0;
	size_t used = 0;

	buf[0] = '\0';
	for (k = 0; k < r->nb_runs && used < REP_CELL; k++) {
		const struct rep_run *run = &r->run[r->order[k]];

		if (run->file != f || run->frame_size == prev)
			continue;
		used += (size_t)snprintf(buf + used, REP_CELL - used, "%s%u",
			used ? ", " : "", run->frame_size);
		prev = run->frame_size;
	}
}

/* The row of file f that comes first in the report, or NULL. */
static const struct rep_run *
first_row(const struct rep *r, unsigned int f)
{
	unsigned int k;

	for (k = 0; k < r->nb_runs; k++)
		if (r->run[r->order[k]].file == f)
			return &r->run[r->order[k]];
	return NULL;
}

static int
env_table(const struct rep *r, struct rep_doc *doc)
{
	static const char *const head[] = { "label", "kind", "frame B", "file",
		"ports", "CPU", "TSC Hz", "kernel", "host", "wirerate / DPDK",
		"profile", "date (UTC)" };
	struct rep_table *t = rep_table_new(doc, r->nb_files, "Environment");
	unsigned int k, c;

	if (t == NULL)
		return -ENOMEM;
	for (c = 0; c < RTE_DIM(head); c++)
		t->head[c] = head[c];
	t->nb_cols = RTE_DIM(head);
	t->text = true;
	for (k = 0; k < r->nb_files; k++) {
		const struct rep_run *run = first_row(r, k);
		char (*row)[REP_CELL] = t->cell[k];
		const json_t *hz;

		if (run == NULL)
			continue;
		hz = wr_metrics_get(run->doc, "env.tsc_hz");
		snprintf(row[0], REP_CELL, "%s", run->label);
		snprintf(row[1], REP_CELL, "%s", run->kind->name);
		fmt_sizes(row[2], r, k);
		snprintf(row[3], REP_CELL, "%s", run->path);
		fmt_ports(row[4], run->doc);
		snprintf(row[5], REP_CELL, "%s", env_str(run->doc, "env.cpu_model"));
		snprintf(row[6], REP_CELL, "%.0f", json_number_value(hz));
		snprintf(row[7], REP_CELL, "%s", env_str(run->doc, "env.kernel"));
		snprintf(row[8], REP_CELL, "%s", env_str(run->doc, "env.hostname"));
		snprintf(row[9], REP_CELL, "%s / %s", env_str(run->doc,
			"env.wirerate_version"), env_str(run->doc, "env.dpdk_version"));
		snprintf(row[10], REP_CELL, "%s", env_str(run->doc, "env.profile"));
		snprintf(row[11], REP_CELL, "%s", env_str(run->doc, "env.date_utc"));
	}
	return 0;
}

int
rep_doc_build(const struct rep *r, int metric, struct rep_doc *doc)
{
	if (kind_tables(r, doc) != 0 || matrix_tables(r, metric, doc) != 0 ||
			rep_stream_tables(r, doc) != 0 || rep_conn_tables(r, doc) != 0 ||
			rep_mesh_tables(r, doc) != 0 ||
			env_table(r, doc) != 0)
		return -ENOMEM;
	return 0;
}

/*
 * Text in Markdown (labels, paths, titles, cells): every ASCII punctuation
 * mark that can start emphasis, code, a link or image, raw HTML, an entity
 * or end a table cell or heading is escaped with a backslash (CommonMark
 * 2.4), so a label renders as the text it is; a newline would end the row.
 */
static void
md_text(FILE *f, const char *s)
{
	for (; *s != '\0'; s++) {
		if (strchr("\\`*_<>|&![]~#", *s) != NULL)
			fputc('\\', f);
		fputc(*s == '\n' ? ' ' : *s, f);
	}
}

static void
md_table(FILE *f, const struct rep_table *t)
{
	unsigned int r, c;

	fputs("\n## ", f);
	md_text(f, t->title);
	fputs("\n\n|", f);
	for (c = 0; c < t->nb_cols; c++) {
		fputc(' ', f);
		md_text(f, t->head[c]);
		fputs(" |", f);
	}
	fputs("\n|", f);
	for (c = 0; c < t->nb_cols; c++)
		fputs(c == 0 || t->text ? "---|" : "---:|", f);
	for (r = 0; r < t->nb_rows; r++) {
		fputs("\n|", f);
		for (c = 0; c < t->nb_cols; c++) {
			fputc(' ', f);
			md_text(f, t->cell[r][c]);
			fputs(" |", f);
		}
	}
	fputc('\n', f);
}

bool
rep_doc_no_wire(const json_t *doc)
{
	const json_t *p;
	size_t i;

	json_array_foreach(json_object_get(doc, "ports"), i, p)
		if (wr_driver_no_wire(json_string_value(json_object_get(p,
				"driver"))))
			return true;
	return false;
}

/* Said once under the title when a port has no wire. */
#define NO_WIRE_NOTE " Ports marked (no wire) are in memory (ring, null, " \
	"memif, vhost, virtio-user): their Gb/s is bytes passed in memory, " \
	"not a line rate to set beside a NIC's."

/* Said once under the title when an input is two-ended. */
#define FAR_NOTE " A two-ended run (--peer) with no receive port at the " \
	"sender: RX and loss are the far end's counts."

void
rep_doc_markdown(FILE *f, const struct rep_doc *doc)
{
	unsigned int i;

	fprintf(f, "# ");
	md_text(f, doc->title);
	fprintf(f, "\n\nThroughput sums the ports; loss is lost / sent over the "
		"streams; latency percentiles are the worst port's.%s%s\n",
		doc->far ? FAR_NOTE : "", doc->no_wire ? NO_WIRE_NOTE : "");
	for (i = 0; i < doc->nb_tables; i++)
		md_table(f, &doc->tables[i]);
	for (i = 0; i < doc->nb_plots; i++) {
		fputs("\n## ", f);
		md_text(f, doc->plot_title[i]);
		fputs("\n\n![", f);
		md_text(f, doc->plot_title[i]);
		fprintf(f, "](%s.png)\n\n[SVG](%s.svg)\n", doc->plot_name[i],
			doc->plot_name[i]);
	}
}

static void
html_table(FILE *f, const struct rep_table *t)
{
	unsigned int r, c;

	fputs("<h2>", f);
	app_markup_text(f, t->title);
	fputs("</h2>\n<table>\n<tr>", f);
	for (c = 0; c < t->nb_cols; c++) {
		fputs("<th>", f);
		app_markup_text(f, t->head[c]);
		fputs("</th>", f);
	}
	fputs("</tr>\n", f);
	for (r = 0; r < t->nb_rows; r++) {
		fputs("<tr>", f);
		for (c = 0; c < t->nb_cols; c++) {
			fputs(t->text ? "<td class=\"text\">" : "<td>", f);
			app_markup_text(f, t->cell[r][c]);
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

static void
html_figure(FILE *f, const char *name, const char *caption)
{
	fprintf(f, "<h2>%s</h2>\n<figure><img src=\"%s.png\" alt=\"%s\">\n"
		"<figcaption>%s (<a href=\"%s.svg\">SVG</a>)</figcaption></figure>\n",
		caption, name, caption, caption, name);
}

void
rep_doc_html(FILE *f, const struct rep_doc *doc)
{
	unsigned int i;

	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		"<title>", f);
	app_markup_text(f, doc->title);
	fputs("</title>\n<style>\nbody { font-family: sans-serif; }\n"
		"table { border-collapse: collapse; }\n"
		"th, td { border: 1px solid #999; padding: 2px 6px; text-align: right; }\n"
		"td:first-child, th:first-child, td.text { text-align: left; }\n"
		"img { max-width: 100%; }\n</style>\n</head>\n<body>\n<h1>", f);
	app_markup_text(f, doc->title);
	fprintf(f, "</h1>\n<p>Throughput sums the ports; loss is lost / sent over "
		"the streams; latency percentiles are the worst port's.%s%s</p>\n",
		doc->far ? FAR_NOTE : "", doc->no_wire ? NO_WIRE_NOTE : "");
	for (i = 0; i < doc->nb_tables; i++)
		html_table(f, &doc->tables[i]);
	for (i = 0; i < doc->nb_plots; i++)
		html_figure(f, doc->plot_name[i], doc->plot_title[i]);
	fputs("</body>\n</html>\n", f);
}

static void
csv_num(FILE *f, bool have, double v)
{
	if (have)
		fprintf(f, ",%.9g", v);
	else
		fputc(',', f);
}

int
rep_csv(FILE *f, const struct rep *r)
{
	unsigned int k, id;

	fputs("label,file,kind,frame_size,load_pct,trials", f);
	for (id = 0; id < WR_METRIC_COUNT; id++)
		fprintf(f, ",%s,%s_min,%s_max", wr_metric_defs[id].name,
			wr_metric_defs[id].name, wr_metric_defs[id].name);
	fputc('\n', f);
	for (k = 0; k < r->nb_runs; k++) {
		const struct rep_run *run = &r->run[r->order[k]];

		wr_csv_field(f, run->label);
		fputc(',', f);
		wr_csv_field(f, run->path);
		fprintf(f, ",%s,%u,", run->kind->name, run->frame_size);
		if (run->load_pct >= 0)
			fprintf(f, "%g", run->load_pct);
		fprintf(f, ",%u", run->n);
		for (id = 0; id < WR_METRIC_COUNT; id++) {
			csv_num(f, run->m.have[id], run->m.v[id]);
			csv_num(f, run->m.have[id], run->lo.v[id]);
			csv_num(f, run->m.have[id], run->hi.v[id]);
		}
		fputc('\n', f);
	}
	return ferror(f) ? -EIO : 0;
}
