/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * wirerate compare [options] BASELINE.json RESULT.json
 *
 * Prints the per-metric table and the verdict; exit 0 pass, 1 regression,
 * 2 bad input (the message names the file and the field). Optionally
 * writes JUnit XML, one test case per metric. No EAL, no hugepages.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>

#include "common/badopt.h"
#include "common/exitcode.h"
#include "base/csv.h"
#include "measure/metrics.h"
#include "analysis/alike.h"
#include "analysis/compare.h"
#include "compare.h"
#include "markup.h"

#define PROG "wirerate compare"

struct cmp_args {
	const char *base;
	const char *cur;
	const char *junit;
	const char *json;             /* --json FILE: the verdict as JSON */
	bool quiet;
	unsigned int allow;           /* --allow-diff keys (analysis/alike.h) */
	struct wr_tolerances tol;
};

/* What JUnit needs: the comparison, or the reason there is none. */
struct junit_ctx {
	const struct cmp_args *a;
	const struct wr_compare *c;   /* NULL on bad input */
	const char *error;
};

/* compare's options: getopt's table and --help are generated from it. */
static const struct cmp_opt {
	const char *name;
	int has_arg;
	int val;
	const char *arg;      /* the value's name in --help; NULL: none */
	const char *help;     /* lines after the first indented by --help */
} cmp_opts[] = {
	{ "tolerances", required_argument, 'f', "FILE", "METRIC = N% | N | "
		"ignore, one a line (docs/ci.md);\nMETRIC may be a group: "
		"throughput, loss, latency, cpu\n[throughput 5%, loss 0.01 points, "
		"latency p50/p90\n20%, p99 30%, p99.9 50%, cycles_per_pkt 5%]" },
	{ "tolerance", required_argument, 't', "M=V", "one setting, repeatable, "
		"applied after the file" },
	{ "allow-diff", required_argument, 'a', "KEY", "compare results that "
		"differ in KEY on purpose\n(repeatable; the report lists each): "
		"KEY is one of" },
	{ "junit", required_argument, 'j', "FILE", "also write JUnit XML: one "
		"test case per metric" },
	{ "json", required_argument, 'J', "FILE", "also write the verdict as JSON "
		"(wirerate-compare/1)" },
	{ "quiet", no_argument, 'q', NULL, "print only the verdict line" },
	{ "help", no_argument, 'h', NULL, "this text" },
};

/* One option's help: "  --name ARG" padded to 22 columns, then its lines. */
static void
usage_opt(FILE *f, const struct cmp_opt *o)
{
	const char *p = o->help, *nl;
	char head[40];

	snprintf(head, sizeof(head), "--%s%s%s", o->name, o->arg ? " " : "",
		o->arg ? o->arg : "");
	fprintf(f, "  %-18s  ", head);
	while ((nl = strchr(p, '\n')) != NULL) {
		fprintf(f, "%.*s\n%22s", (int)(nl - p), p, "");
		p = nl + 1;
	}
	fprintf(f, "%s\n", p);
}

static void
usage(FILE *f)
{
	unsigned int i, k;

	fputs("Usage: wirerate compare [options] BASELINE.json RESULT.json\n"
"\n"
"Judge each metric of RESULT against BASELINE (both written by --json):\n"
"Mpps, Gb/s L1 and L2 (TX and RX), loss %, latency p50/p90/p99/p99.9,\n"
"cycles per packet when both have it. With repeated trials (--repeat) the\n"
"medians are compared, and a change within t95 x the medians' standard\n"
"error (from the trials' MAD, docs/ci.md) is noise, not a regression. A\n"
"figure the baseline has and the result lacks is a regression. Results\n"
"of the test modes are compared per frame size: sweep (the same figures),\n"
"throughput (NDR Mpps and Gb/s, PDR Mpps, latency at the NDR), loss\n"
"(offered Mpps and loss % at each load both reached) and b2b (burst\n"
"length, spread over its trials).\n\n", f);
	for (i = 0; i < RTE_DIM(cmp_opts); i++) {
		usage_opt(f, &cmp_opts[i]);
		for (k = 0; cmp_opts[i].val == 'a' && k < wr_nb_alike_keys; k++)
			fprintf(f, "%24s%-8s %s\n", "", wr_alike_keys[k].name,
				wr_alike_keys[k].what);
	}
	/* Answered by main() for every subcommand (app/common/subcmds.h). */
	fputs("  --version           wirerate's and DPDK's versions\n", f);
	fputs("\nExit status: 0 no regression, 1 regression (or the --junit file could not\n"
"be written), 2 bad input (unreadable or corrupt file, missing field,\n"
"schema mismatch, incomparable results: different kinds or frame sizes,\n"
"or a set-up KEY above that --allow-diff does not name).\n", f);
}

static int
parse_args(int argc, char **argv, struct cmp_args *a)
{
	struct option opts[RTE_DIM(cmp_opts) + 1];
	const char *sets[64];
	unsigned int nb_sets = 0, i;
	struct wr_error err;
	int c;

	memset(opts, 0, sizeof(opts));
	for (i = 0; i < RTE_DIM(cmp_opts); i++) {
		opts[i].name = cmp_opts[i].name;
		opts[i].has_arg = cmp_opts[i].has_arg;
		opts[i].val = cmp_opts[i].val;
	}
	memset(a, 0, sizeof(*a));
	wr_tolerances_defaults(&a->tol);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'h': usage(stdout); return APP_EXIT_OK;
		case 'f':
			if (wr_tolerances_load(&a->tol, optarg, &err) != 0)
				goto bad;
			break;
		case 't':
			if (nb_sets == RTE_DIM(sets)) {
				return app_usage_error(PROG, "--tolerance: at most %zu",
					RTE_DIM(sets));
			}
			sets[nb_sets++] = optarg;
			break;
		case 'a':
			if (wr_alike_allow(optarg, &a->allow, &err) != 0)
				goto bad;
			break;
		case 'j': a->junit = optarg; break;
		case 'J': a->json = optarg; break;
		case 'q': a->quiet = true; break;
		default:
			return app_bad_option(PROG, opts, argv[optind - 1]);
		}
	}
	for (i = 0; i < nb_sets; i++)
		if (wr_tolerances_set(&a->tol, sets[i], &err) != 0)
			goto bad;
	if (argc - optind != 2)
		return app_usage_error(PROG, "expected BASELINE.json RESULT.json, "
			"got %d file(s) (see wirerate compare --help)", argc - optind);
	a->base = argv[optind];
	a->cur = argv[optind + 1];
	return -1;
bad:
	return app_error(PROG, &err);
}

/* A side's value; "median [min..max] xN" when it comes from trials. */
static const char *
side_str(const struct wr_compare_side *s, char *buf, size_t len)
{
	if (!s->have)
		snprintf(buf, len, "-");
	else if (s->n > 1)
		snprintf(buf, len, "%.6g [%.4g..%.4g] x%u", s->value, s->min,
			s->max, s->n);
	else
		snprintf(buf, len, "%.6g", s->value);
	return buf;
}

static const char *
change_str(const struct wr_compare_row *r, char *buf, size_t len)
{
	if (isnan(r->change_pct))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%+.2f%%", r->change_pct);
	return buf;
}

static void
print_row(FILE *f, const struct wr_compare_row *row)
{
	char b[64], r[64], ch[24], tol[24];

	fprintf(f, "%-17s %28s %28s %9s %9s  %s", wr_metric_defs[row->id].name,
		side_str(&row->base, b, sizeof(b)), side_str(&row->cur, r, sizeof(r)),
		change_str(row, ch, sizeof(ch)),
		wr_tolerance_format(&row->tol, tol, sizeof(tol)),
		wr_compare_verdict_name(row->verdict));
	if (row->verdict == WR_VERDICT_REGRESSION ||
			row->verdict == WR_VERDICT_NOISE ||
			row->verdict == WR_VERDICT_SKIPPED)
		fprintf(f, ": %s", row->why);
	fprintf(f, "\n");
}

/* One table per point: a frame size (and load for the loss test). */
static void
print_table(FILE *f, const struct cmp_args *a, const struct wr_compare *c)
{
	unsigned int i, p;

	fprintf(f, "baseline %s\nresult   %s\n", a->base, a->cur);
	if (c->nb_points > 1 || strcmp(c->kind, "run") != 0)
		fprintf(f, "%s results, %u point(s)\n", c->kind, c->nb_points);
	for (p = 0; p < c->nb_points; p++) {
		/* a point not keyed by frame size (a connection run) has size 0
		 * or a name of its own ("concurrency 16") */
		if (c->points[p].load_pct >= 0 || c->points[p].stream_id >= 0 ||
				c->points[p].frame_size == 0 ||
				!isdigit((unsigned char)c->points[p].name[0]))
			fprintf(f, "%s%s\n\n", p ? "\n" : "", c->points[p].name);
		else
			fprintf(f, "%s%u-byte frames\n\n", p ? "\n" : "",
				c->points[p].frame_size);
		fprintf(f, "%-17s %28s %28s %9s %9s  %s\n", "metric", "baseline",
			"result", "change", "tolerance", "verdict");
		for (i = 0; i < c->nb_rows; i++)
			if (c->rows[i].point == p)
				print_row(f, &c->rows[i]);
	}
	for (i = 0; i < c->nb_notes; i++)
		fprintf(f, "note: %s\n", c->notes[i]);
}

static void
print_verdict(FILE *f, const struct wr_compare *c)
{
	unsigned int i;
	const char *sep = "";

	if (c->nb_warnings != 0)
		fprintf(f, "verdict: FAILED: %u cross-check warning(s) (see the notes)\n",
			c->nb_warnings);
	if (c->incomplete)
		fprintf(f, "(a side is INCOMPLETE: written during its run)\n");
	for (i = 0; i < c->nb_allowed; i++)    /* also with --quiet */
		fprintf(f, "allowed difference: %s\n", c->allowed[i]);
	if (!c->regression && c->nb_warnings == 0) {
		fprintf(f, "verdict: PASS (%u pass, %u improved, %u inside the noise, "
			"%u skipped)\n", c->nb[WR_VERDICT_PASS],
			c->nb[WR_VERDICT_IMPROVED], c->nb[WR_VERDICT_NOISE],
			c->nb[WR_VERDICT_SKIPPED]);
		return;
	}
	if (!c->regression)
		return;
	fprintf(f, "verdict: REGRESSION in %u metric(s):", c->nb[WR_VERDICT_REGRESSION]);
	for (i = 0; i < c->nb_rows; i++) {
		if (c->rows[i].verdict != WR_VERDICT_REGRESSION)
			continue;
		fprintf(f, "%s %s", sep, wr_metric_defs[c->rows[i].id].name);
		if (c->nb_points > 1)
			fprintf(f, " at %s", c->points[c->rows[i].point].name);
		if (!c->rows[i].cur.have)
			fprintf(f, " (missing in the result)");
		else if (!isnan(c->rows[i].change_pct))
			fprintf(f, " (%+.2f%%)", c->rows[i].change_pct);
		sep = ",";
	}
	fprintf(f, "\n");
}

/* JUnit class of a point: wirerate.compare.64B, ...64B.90pct for a load. */
static void
junit_class(const struct wr_compare *c, unsigned int p, char *cls, size_t len)
{
	if (c->points[p].stream_id >= 0)
		snprintf(cls, len, "wirerate.compare.%uB.tx%d.%d", c->points[p].frame_size,
			c->points[p].stream_id / 16, c->points[p].stream_id % 16);
	else if (c->points[p].load_pct >= 0)
		snprintf(cls, len, "wirerate.compare.%uB.%gpct", c->points[p].frame_size,
			c->points[p].load_pct);
	else
		snprintf(cls, len, "wirerate.compare.%uB", c->points[p].frame_size);
}

static void
junit_case(FILE *f, const char *cls, const struct wr_compare_row *r)
{
	char b[64], c[64], ch[24], line[512];

	snprintf(line, sizeof(line), "%s: baseline %s, result %s, change %s: %s",
		wr_metric_defs[r->id].name, side_str(&r->base, b, sizeof(b)),
		side_str(&r->cur, c, sizeof(c)), change_str(r, ch, sizeof(ch)), r->why);
	fprintf(f, "  <testcase classname=\"%s\" name=\"%s\" time=\"0\">\n", cls,
		wr_metric_defs[r->id].name);
	if (r->verdict == WR_VERDICT_REGRESSION) {
		fputs("   <failure type=\"regression\" message=\"", f);
		app_markup_text(f, line);
		fputs("\"/>\n", f);
	} else if (r->verdict == WR_VERDICT_SKIPPED) {
		fputs("   <skipped message=\"", f);
		app_markup_text(f, r->why);
		fputs("\"/>\n", f);
	}
	fputs("   <system-out>", f);
	app_markup_text(f, line);
	fputs("</system-out>\n  </testcase>\n", f);
}

static void
junit_props(FILE *f, const struct junit_ctx *j)
{
	unsigned int i;

	fputs("  <properties>\n   <property name=\"baseline\" value=\"", f);
	app_markup_text(f, j->a->base);
	fputs("\"/>\n   <property name=\"result\" value=\"", f);
	app_markup_text(f, j->a->cur);
	fputs("\"/>\n", f);
	for (i = 0; j->c != NULL && i < j->c->nb_allowed; i++) {
		fputs("   <property name=\"allowed_diff\" value=\"", f);
		app_markup_text(f, j->c->allowed[i]);
		fputs("\"/>\n", f);
	}
	for (i = 0; j->c != NULL && i < j->c->nb_notes; i++) {
		fputs("   <property name=\"note\" value=\"", f);
		app_markup_text(f, j->c->notes[i]);
		fputs("\"/>\n", f);
	}
	fputs("  </properties>\n", f);
}

static int
junit_fill(FILE *f, const void *arg)
{
	const struct junit_ctx *j = arg;
	const struct wr_compare *c = j->c;
	/* Cross-check warnings: one more test case, failed (lib/measure/xcheck.h). */
	unsigned int xc = c != NULL && c->nb_warnings > 0;
	unsigned int tests = (c ? c->nb_rows : 1) + xc, i;
	unsigned int fails = (c ? c->nb[WR_VERDICT_REGRESSION] : 0) + xc;
	unsigned int skips = c ? c->nb[WR_VERDICT_SKIPPED] : 0;
	char cls[48];

	if (c != NULL && c->nb_points == 1)
		junit_class(c, 0, cls, sizeof(cls));
	else if (c != NULL)
		snprintf(cls, sizeof(cls), "wirerate.compare.%s", c->kind);
	else
		snprintf(cls, sizeof(cls), "wirerate.compare");
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites "
		"name=\"wirerate compare\" tests=\"%u\" failures=\"%u\" errors=\"%u\" "
		"skipped=\"%u\">\n <testsuite name=\"%s\" tests=\"%u\" failures=\"%u\" "
		"errors=\"%u\" skipped=\"%u\" time=\"0\">\n", tests, fails, !c, skips,
		cls, tests, fails, !c, skips);
	junit_props(f, j);
	for (i = 0; c != NULL && i < c->nb_rows; i++) {
		junit_class(c, c->rows[i].point, cls, sizeof(cls));
		junit_case(f, cls, &c->rows[i]);
	}
	if (xc)
		fprintf(f, "  <testcase classname=\"wirerate.compare\" name=\"cross_checks\" "
			"time=\"0\">\n   <failure type=\"cross-check\" message=\"%u "
			"cross-check warning(s): see the notes\"/>\n  </testcase>\n",
			c->nb_warnings);
	if (c == NULL) {
		fprintf(f, "  <testcase classname=\"%s\" name=\"input\" time=\"0\">\n"
			"   <error type=\"bad-input\" message=\"", cls);
		app_markup_text(f, j->error);
		fputs("\"/>\n  </testcase>\n", f);
	}
	fputs(" </testsuite>\n</testsuites>\n", f);
	return ferror(f) ? -EIO : 0;
}

static int
write_junit(const struct cmp_args *a, const struct wr_compare *c, const char *error)
{
	struct junit_ctx j = { a, c, error };
	struct wr_error err;

	if (a->junit == NULL)
		return 0;
	if (wr_file_write(a->junit, junit_fill, &j, &err) != 0) {
		wr_err_prefix(&err, "--junit ");
		return app_error(PROG, &err);
	}
	return 0;
}

static int
json_fill(FILE *f, const void *arg)
{
	return json_dumpf(arg, f, JSON_INDENT(1)) != 0 || fputc('\n', f) == EOF ||
		ferror(f) ? -EIO : 0;
}

/* --json FILE: the comparison, or {"verdict": "bad-input", "error": ...}. */
static int
write_json(const struct cmp_args *a, const struct wr_compare *c, const char *error)
{
	struct wr_error err;
	json_t *doc;
	int rc;

	if (a->json == NULL)
		return 0;
	doc = c != NULL ? wr_compare_json(c, a->base, a->cur) :
		json_pack("{s:s, s:s, s:s}", "schema", WR_COMPARE_SCHEMA,
		"verdict", "bad-input", "error", error);
	if (doc == NULL) {
		wr_err_env(&err, -ENOMEM, "--json %s: no memory", a->json);
		return app_error(PROG, &err);
	}
	rc = wr_file_write(a->json, json_fill, doc, &err);
	json_decref(doc);
	if (rc != 0) {
		wr_err_prefix(&err, "--json ");
		return app_error(PROG, &err);
	}
	return 0;
}

/* A two-ended run's RX figures and loss are its far end's (--peer). */
static void
far_note(FILE *f, const char *which, const json_t *doc)
{
	if (wr_metrics_from_far(doc))
		fprintf(f, "%s: two ends (--peer): rx_* and loss_pct are the far "
			"end's counts\n", which);
}

/* Bad input: say why (and in JUnit and JSON, so the CI page shows it). */
static int
bad_input(const struct cmp_args *a, const struct wr_error *err)
{
	int rc = app_error(PROG, err);

	write_junit(a, NULL, err->msg);
	write_json(a, NULL, err->msg);
	return rc;
}

int
app_compare_main(int argc, char **argv)
{
	static struct wr_compare cmp;
	struct cmp_args a;
	json_t *base = NULL, *cur = NULL;
	struct wr_error err;
	int rc;

	rc = parse_args(argc, argv, &a);
	if (rc >= 0)
		return rc;
	if (wr_compare_load(a.base, &base, &err) != 0 ||
			wr_compare_load(a.cur, &cur, &err) != 0 ||
			wr_compare_docs(base, a.base, cur, a.cur, &a.tol, a.allow,
			&cmp, &err) != 0) {
		rc = bad_input(&a, &err);
	} else {
		if (!a.quiet) {
			far_note(stdout, "baseline", base);
			far_note(stdout, "result", cur);
			print_table(stdout, &a, &cmp);
		}
		print_verdict(stdout, &cmp);
		rc = cmp.regression || cmp.nb_warnings ? APP_EXIT_FAILED : APP_EXIT_OK;
		if (write_junit(&a, &cmp, NULL) != 0 || write_json(&a, &cmp, NULL) != 0)
			rc = APP_EXIT_FAILED;
	}
	json_decref(base);
	json_decref(cur);
	return rc;
}
