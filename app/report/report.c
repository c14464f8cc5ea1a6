/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * wirerate report [options] RESULT.json...
 *
 * Side-by-side tables of several runs (Markdown and HTML), the per-size
 * table as CSV, and plots against frame size drawn by gnuplot (plot.c).
 * Exit 0 written, 1 writing or plotting failed, 2 bad input. No EAL.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <rte_common.h>

#include "common/badopt.h"
#include "common/exitcode.h"
#include "base/csv.h"
#include "measure/metrics.h"
#include "plot.h"
#include "rep.h"
#include "rep_doc.h"
#include "report.h"
#include "report_y1564.h"
#include "report_campaign.h"
#include "report_fmt.h"
#include "analysis/compare.h"
#include "results/trials.h"

struct rep_args {
	const char *out;        /* directory, NULL: Markdown on stdout only */
	const char *labels;     /* comma-separated, in file order */
	const char *title;
	const char *csv;
	const char *gnuplot;
	int pivot;              /* metric of the label matrix */
	bool no_plots;
};

static void
usage(FILE *f)
{
	fprintf(f,
"Usage: wirerate report [options] RESULT.json...\n"
"\n"
"Tabulate results side by side (Markdown, HTML, CSV), a table per kind:\n"
"runs, repeated runs (--repeat), sweeps, RFC 2544 throughput, frame loss\n"
"rate, back-to-back and MLRsearch (--mode), a row per frame size (and\n"
"offered load); connection runs, a client's and a server's, with each\n"
"file's books, whether they close and the latency per phase.\n"
"Latency under load (--lat-loads) is plotted per level.\n"
"Plot with gnuplot throughput (Mpps, Gb/s) and cycles per packet against\n"
"frame size, NDR/PDR against frame size, loss against offered load and\n"
"back-to-back burst lengths. Runs with the same label form one series;\n"
"labels of the form ROW/COLUMN (e.g. vmxnet3/same-host) also give a\n"
"ROW x COLUMN matrix per frame size. Two-ended results too: a merge\n"
"(wirerate merge --json) or a campaign's cell.json (docs/campaigns.md)\n"
"adds a campaign table, failed cells with their reason.\n"
"\n"
"  --out DIR       write DIR/report.md, report.html, report.csv and the\n"
"                  plots (throughput, cycles, ndr, loss, b2b, mlr,\n"
"                  latency .png/.svg,\n"
"                  those the results call for) [Markdown on stdout]\n"
"  --labels A,B,.. one label per file, in order [the run's --label, else\n"
"                  DRIVER@HOST]\n"
"  --title TEXT    [wirerate report]\n"
"  --pivot METRIC  the figure of the ROW/COLUMN matrix [rx_gbps_l2];\n"
"                  MB/s: the RX L2 rate in 10^6 bytes a second\n"
"  --csv FILE      also write the per-size table as CSV to FILE\n"
"  --no-plots      do not run gnuplot\n"
"  --gnuplot PATH  the gnuplot program [gnuplot]\n"
"  -h, --help\n"
"  --version       wirerate's and DPDK's versions\n"
"\n"
"Exit status: 0 written, 1 writing or plotting failed, 2 bad input.\n");
}

static int
bad(const struct wr_error *err)
{
	return app_error("wirerate report", err);
}

/* --pivot naming no metric: the metrics it takes, from their table. */
static int
bad_pivot(const char *name)
{
	char list[1024];
	size_t n = 0;
	int i;

	list[0] = '\0';
	for (i = 0; i < WR_METRIC_COUNT && n < sizeof(list); i++)
		n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s", i ? ", " : "",
			wr_metric_defs[i].name);
	return app_usage_error("wirerate report", "--pivot %s: not a metric; it takes "
		"%s or %s", name, list, REP_PIVOT_MBYTES_NAME);
}

static int
parse_args(int argc, char **argv, struct rep_args *a)
{
	static const struct option opts[] = {
		{ "out", required_argument, NULL, 'o' },
		{ "labels", required_argument, NULL, 'l' },
		{ "title", required_argument, NULL, 't' },
		{ "pivot", required_argument, NULL, 'p' },
		{ "csv", required_argument, NULL, 'c' },
		{ "no-plots", no_argument, NULL, 'n' },
		{ "gnuplot", required_argument, NULL, 'g' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(a, 0, sizeof(*a));
	a->title = "wirerate report";
	a->gnuplot = "gnuplot";
	a->pivot = WR_METRIC_RX_GBPS_L2;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'h': usage(stdout); return APP_EXIT_OK;
		case 'o': a->out = optarg; break;
		case 'l': a->labels = optarg; break;
		case 't': a->title = optarg; break;
		case 'c': a->csv = optarg; break;
		case 'n': a->no_plots = true; break;
		case 'g': a->gnuplot = optarg; break;
		case 'p':
			a->pivot = rep_pivot_find(optarg);
			if (a->pivot < 0)
				return bad_pivot(optarg);
			break;
		default:
			return app_bad_option("wirerate report", opts, argv[optind - 1]);
		}
	}
	if (optind >= argc)
		return app_usage_error("wirerate report", "no result files (see "
			"wirerate report --help)");
	if ((unsigned int)(argc - optind) > REP_MAX_RUNS)
		return app_usage_error("wirerate report", "too many result files "
			"(at most 256)");
	return -1;
}

/* Label of a file: its --label, else the first driver and the host; a
 * result written during its run (stop_reason running) says so. */
static void
default_label(const json_t *doc, char *label)
{
	const json_t *l = json_object_get(doc, "label");
	const json_t *drv = wr_metrics_get(doc, "ports[0].driver");
	const json_t *host = wr_metrics_get(doc, "env.hostname");
	const char *why = json_string_value(json_object_get(doc, "stop_reason"));
	const char *tag = why != NULL && strcmp(why, "running") == 0 ?
		" (INCOMPLETE)" : "";

	if (json_is_string(l))
		snprintf(label, WR_LABEL_LEN, "%.*s%s", WR_LABEL_LEN - 16,
			json_string_value(l), tag);
	else
		snprintf(label, WR_LABEL_LEN, "%.40s@%.40s%s",
			json_is_string(drv) ? json_string_value(drv) : "?",
			json_is_string(host) ? json_string_value(host) : "?", tag);
}

/* A row of path's point p (kind k), labelled label. */
static void
add_row(struct rep *r, const char *path, const struct wr_kind *k,
		const struct wr_point *p, const char *label)
{
	struct rep_run *run = &r->run[r->nb_runs++];

	run->path = path;
	run->doc = r->docs[r->nb_files];
	run->file = r->nb_files;
	run->kind = k;
	snprintf(run->label, sizeof(run->label), "%s", label);
	run->frame_size = p->frame_size;
	run->load_pct = p->load_pct;
	run->n = p->n;
	run->m = p->m;
	run->lo = p->lo;
	run->hi = p->hi;
}

/*
 * One file: a row per point of its kind (a run has one, a sweep one per
 * size). A file written during a test mode's first point has no finished
 * point: one row without figures, at the size in progress, shows it.
 */
static int
load_file(struct rep *r, const char *path, struct wr_error *err)
{
	static struct wr_points pts;
	char label[WR_LABEL_LEN];
	json_t *doc;
	unsigned int i;
	uint64_t size = 0;

	if (wr_compare_load(path, &doc, err) != 0)
		return -EINVAL;
	r->docs[r->nb_files] = doc;
	if (wr_kind_points(doc, &pts, err) != 0)
		return wr_err_prefix(err, "%s: ", path);
	if (r->nb_runs + pts.nb + 1 > REP_MAX_RUNS)
		return wr_err_usage(err, -EINVAL, "%s: more than %u rows in all", path, REP_MAX_RUNS);
	default_label(doc, label);
	if (pts.nb == 0) {
		memset(&pts.p[0], 0, sizeof(pts.p[0]));
		/* absent: size 0, the row still says INCOMPLETE */
		(void)wr_metrics_get_count(doc, "frame_size", UINT16_MAX, &size, err);
		pts.p[0].frame_size = (unsigned int)size;
		pts.p[0].load_pct = -1;
		pts.p[0].stream_id = -1;
		add_row(r, path, pts.kind, &pts.p[0], label);
	}
	for (i = 0; i < pts.nb; i++)
		/* compare judges streams; tables are per run */
		if (pts.p[i].stream_id < 0)
			add_row(r, path, pts.kind, &pts.p[i], label);
	r->nb_files++;
	return 0;
}

/* --labels A,B,C onto the runs, one each, in order. */
static int
apply_labels(struct rep *r, const char *labels, struct wr_error *err)
{
	const char *p = labels;
	unsigned int i;

	unsigned int k;

	for (i = 0; i < r->nb_files; i++) {
		size_t n = strcspn(p, ",");

		if (*p == '\0' || n == 0 || n >= WR_LABEL_LEN)
			break;
		for (k = 0; k < r->nb_runs; k++)
			if (r->run[k].file == i)
				snprintf(r->run[k].label, WR_LABEL_LEN, "%.*s", (int)n, p);
		p += n + (p[n] == ',');
	}
	if (i != r->nb_files || *p != '\0')
		return wr_err_usage(err, -EINVAL, "--labels %s: expected %u non-empty labels "
			"separated by commas, one per result file", labels, r->nb_files);
	return 0;
}

/* Control characters would break table rows and gnuplot lines. */
static void
clean_label(char *s)
{
	for (; *s != '\0'; s++)
		if ((unsigned char)*s < 0x20)
			*s = ' ';
}

/* Whether row k sorts before row p: by series, frame size, load (high first). */
static bool
row_before(const struct rep *r, unsigned int k, unsigned int p)
{
	const struct rep_run *a = &r->run[k], *b = &r->run[p];

	if (r->series_of[k] != r->series_of[p])
		return r->series_of[k] < r->series_of[p];
	if (a->frame_size != b->frame_size)
		return a->frame_size < b->frame_size;
	return a->load_pct > b->load_pct;
}

/* Series = distinct labels in first-seen order; order = by series, size. */
static void
make_order(struct rep *r)
{
	unsigned int i, j, s;

	r->nb_series = 0;
	for (i = 0; i < r->nb_runs; i++) {
		clean_label(r->run[i].label);
		for (s = 0; s < r->nb_series; s++)
			if (strcmp(r->series[s], r->run[i].label) == 0)
				break;
		if (s == r->nb_series)
			r->series[r->nb_series++] = r->run[i].label;
		r->series_of[i] = s;
		r->order[i] = i;
	}
	for (i = 1; i < r->nb_runs; i++) {          /* insertion sort, stable */
		unsigned int k = r->order[i];

		for (j = i; j > 0; j--) {
			unsigned int p = r->order[j - 1];

			if (!row_before(r, k, p))
				break;
			r->order[j] = p;
		}
		r->order[j] = k;
	}
}


static int
fill_md(FILE *f, const void *doc)
{
	rep_doc_markdown(f, doc);
	return ferror(f) ? -EIO : 0;
}

static int
fill_html(FILE *f, const void *doc)
{
	rep_doc_html(f, doc);
	return ferror(f) ? -EIO : 0;
}

static int
fill_csv(FILE *f, const void *r)
{
	return rep_csv(f, r);
}

/* Write dir/name (or path when dir is NULL) atomically with fill. */
static int
write_out(const char *dir, const char *name, wr_file_fill_t fill, const void *ctx)
{
	struct wr_error err;
	char path[PATH_MAX];

	if (dir != NULL)
		snprintf(path, sizeof(path), "%s/%s", dir, name);
	else
		snprintf(path, sizeof(path), "%s", name);
	if (wr_file_write(path, fill, ctx, &err) != 0)
		return bad(&err);
	printf("wrote %s\n", path);
	return 0;
}

/* The report directory: plots first (the pages say whether they exist). */
static int
emit_dir(const struct rep *r, const struct rep_args *a, struct rep_doc *doc)
{
	struct wr_error err;
	int rc = APP_EXIT_OK;

	if (mkdir(a->out, 0755) != 0 && errno != EEXIST) {
		fprintf(stderr, "wirerate report: error: --out %s: cannot create: "
			"%s\n", a->out, strerror(errno));
		return APP_EXIT_FAILED;
	}
	if (!a->no_plots) {
		if (rep_plot(r, a->out, a->gnuplot, a->title, doc, &err) != 0)
			rc = bad(&err);
	}
	if (write_out(a->out, "report.md", fill_md, doc) != 0 ||
			write_out(a->out, "report.html", fill_html, doc) != 0 ||
			write_out(a->out, "report.csv", fill_csv, r) != 0)
		rc = APP_EXIT_FAILED;
	return rc;
}

static int
emit(const struct rep *r, const struct rep_args *a)
{
	struct rep_doc doc;
	int rc = APP_EXIT_OK;
	unsigned int i;

	memset(&doc, 0, sizeof(doc));
	doc.title = a->title;
	for (i = 0; i < r->nb_files; i++) {
		doc.far |= wr_metrics_from_far(r->docs[i]);
		doc.no_wire |= rep_doc_no_wire(r->docs[i]);
	}
	if (rep_doc_build(r, a->pivot, &doc) != 0 ||
			rep_campaign_table(r, &doc) != 0) {
		fprintf(stderr, "wirerate report: error: no memory for the tables\n");
		return APP_EXIT_FAILED;
	}
	if (a->out == NULL)
		rep_doc_markdown(stdout, &doc);
	else
		rc = emit_dir(r, a, &doc);
	if (a->csv != NULL && write_out(NULL, a->csv, fill_csv, r) != 0)
		rc = APP_EXIT_FAILED;
	rep_doc_free(&doc);
	return rc;
}

/*
 * One --mode y1564 result: its service activation page (report_y1564.c);
 * any other file (a run, a merge, a cell, or one that does not load): -1,
 * the tables of every kind, whose loaders say what is wrong with it.
 */
static int
y1564_page(const char *path, const struct rep_args *a)
{
	struct wr_error err;
	json_t *doc;
	int rc;

	/* A glance first: a merge or a cell is not a result compare loads. */
	doc = json_load_file(path, 0, NULL);
	rc = rep_y1564_is(doc);
	json_decref(doc);
	if (!rc)
		return -1;
	if (wr_compare_load(path, &doc, &err) != 0)
		return bad(&err);
	if (a->out != NULL && mkdir(a->out, 0755) != 0 && errno != EEXIST) {
		fprintf(stderr, "wirerate report: error: --out %s: cannot create: "
			"%s\n", a->out, strerror(errno));
		json_decref(doc);
		return APP_EXIT_FAILED;
	}
	rc = rep_y1564_page(path, doc, a->out, a->no_plots ? NULL : a->gnuplot, &err);
	json_decref(doc);
	return rc != 0 ? bad(&err) : APP_EXIT_OK;
}

int
app_report_main(int argc, char **argv)
{
	static struct rep r;
	struct rep_args a;
	struct wr_error err;
	unsigned int i;
	int rc;

	rc = parse_args(argc, argv, &a);
	if (rc >= 0)
		return rc;
	memset(&r, 0, sizeof(r));
	if (argc - optind == 1 && (rc = y1564_page(argv[optind], &a)) >= 0)
		return rc;
	for (; optind < argc; optind++) {
		rc = rep_campaign_load(&r, argv[optind], &err);
		if (rc == 1)
			rc = load_file(&r, argv[optind], &err);
		if (rc != 0) {
			rc = bad(&err);
			goto out;
		}
	}
	if (a.labels != NULL && apply_labels(&r, a.labels, &err) != 0) {
		rc = bad(&err);
		goto out;
	}
	make_order(&r);
	rc = emit(&r, &a);
out:
	for (i = 0; i <= r.nb_files && i < REP_MAX_RUNS; i++)
		json_decref(r.docs[i]);
	rep_campaign_free(&r);
	return rc;
}
