/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * wirerate history add|show|check|plot|html [options] DB [RESULT...]
 *
 * The performance history of CI (docs/history.md): every result kept in a
 * store (an SQLite file, or postgresql://...), each figure in the series
 * of its alike runs, change points found by E-divisive means. Exit 0 ok, 1
 * `check` found a regression (or writing failed), 2 bad input.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "base/suggest.h"
#include "common/badopt.h"
#include "common/exitcode.h"
#include "analyse.h"
#include "history.h"
#include "input.h"
#include "plot.h"
#include "show.h"

#define PROG "wirerate history"

static const struct hist_opt {
	const char *name;
	int val;
	const char *arg;
	const char *help;
} hist_opts[] = {
	{ "commit", 'c', "ID", "add: the commit under test of these results\n"
		"[the result's --label]" },
	{ "metric", 'm', "NAME", "only the series of metrics starting with NAME" },
	{ "min-change", 'M', "PCT", "ignore shifts of the segment means below PCT %"
		" [0]" },
	{ "significance", 'a', "P", "level of the permutation test [0.01]" },
	{ "permutations", 'p', "N", "permutations per tested segment [499]" },
	{ "seed", 's', "N", "seed of the permutations [fixed: reproducible]" },
	{ "junit", 'j', "FILE", "check: also write JUnit XML, a case per series" },
	{ "json", 'J', "FILE", "check: also write the verdict as JSON\n"
		"(wirerate-history-check/1)" },
	{ "out", 'o', "DIR", "plot, html: where the charts and page go [.]" },
	{ "help", 'h', NULL, "this text" },
};

/* The commands, in the order messages list them. */
static const char *const hist_cmds[] = { "add", "show", "check", "plot", "html" };

/* The commands as "a, b or c" into buf. */
static void
cmd_list(char *buf, size_t n)
{
	size_t i, at = 0;

	buf[0] = '\0';
	for (i = 0; i < RTE_DIM(hist_cmds) && at < n; i++) {
		int w = snprintf(buf + at, n - at, "%s%s", i == 0 ? "" :
			i + 1 == RTE_DIM(hist_cmds) ? " or " : ", ", hist_cmds[i]);

		if (w < 0)
			break;
		at += (size_t)w;
	}
}

/* A word that is not a command: say so, the closest one, and all. */
static int
bad_command(const char *cmd)
{
	struct wr_suggest sg;
	char list[64], near[48] = "";
	size_t i;

	cmd_list(list, sizeof(list));
	wr_suggest_init(&sg, cmd, strlen(cmd));
	for (i = 0; i < RTE_DIM(hist_cmds); i++)
		wr_suggest_try(&sg, hist_cmds[i]);
	if (sg.best != NULL)
		snprintf(near, sizeof(near), "did you mean %s? ", sg.best);
	return app_usage_error(PROG, "%s: not a command; %s(the commands: %s)", cmd,
		near, list);
}

static void
usage(FILE *f)
{
	unsigned int i;
	char head[40];
	const char *p, *nl;

	fputs("Usage: wirerate history add [--commit ID] DB RESULT.json...\n"
"       wirerate history show|check|plot|html [options] DB\n\n"
"Keep every result in DB (an SQLite file, created when missing, or\n"
"postgresql://...), one series per metric and point of alike runs (the\n"
"set-up compare requires, and the DPDK version, CPU model and NICs), and\n"
"find the lasting shifts in them (E-divisive means, a permutation test).\n"
"add: results of every kind, merges and campaign cells, each stored once.\n"
"show: every series, its change points and what splits alike series.\n"
"check: exit 1 when the newest point of a series is past a significant\n"
"worsening. plot: a PNG and SVG per series; html: one page of them all.\n\n", f);
	for (i = 0; i < RTE_DIM(hist_opts); i++) {
		snprintf(head, sizeof(head), "--%s%s%s", hist_opts[i].name,
			hist_opts[i].arg ? " " : "", hist_opts[i].arg ? hist_opts[i].arg : "");
		fprintf(f, "  %-18s  ", head);
		for (p = hist_opts[i].help; (nl = strchr(p, '\n')) != NULL; p = nl + 1)
			fprintf(f, "%.*s\n%22s", (int)(nl - p), p, "");
		fprintf(f, "%s\n", p);
	}
	fputs("  --version           wirerate's and DPDK's versions\n", f);
	fputs("\nExit status: 0 ok (check: no regression), 1 check found a regression\n"
"(or a file could not be written), 2 bad input: a file that is not a\n"
"wirerate result or is truncated, a DB of a newer schema (nothing added).\n", f);
}

static int
number(const char *opt, const char *v, double lo, double hi, double *out)
{
	char *end;

	*out = strtod(v, &end);
	if (*v == '\0' || *end != '\0' || !(*out >= lo && *out <= hi)) {
		fprintf(stderr, "%s: --%s %s: expected a number from %g to %g\n", PROG,
			opt, v, lo, hi);
		return -1;
	}
	return 0;
}

static int
parse_opt(int c, struct hist_args *a)
{
	double v;

	switch (c) {
	case 'c': a->commit = optarg; return 0;
	case 'm': a->metric = optarg; return 0;
	case 'j': a->junit = optarg; return 0;
	case 'J': a->json = optarg; return 0;
	case 'o': a->out = optarg; return 0;
	case 'M': return number("min-change", optarg, 0, 1e6, &a->cp.min_change_pct);
	case 'a': return number("significance", optarg, 1e-9, 0.5, &a->cp.alpha);
	case 'p':
		if (number("permutations", optarg, 19, 1e6, &v) != 0)
			return -1;
		a->cp.permutations = (unsigned int)v;
		return 0;
	case 's':
		if (number("seed", optarg, 0, 1.8e19, &v) != 0)
			return -1;
		a->cp.seed = (uint64_t)v;
		return 0;
	default: return -1;
	}
}

static int
parse_args(int argc, char **argv, struct hist_args *a)
{
	struct option opts[RTE_DIM(hist_opts) + 1];
	unsigned int i;
	int c;

	memset(opts, 0, sizeof(opts));
	for (i = 0; i < RTE_DIM(hist_opts); i++) {
		opts[i].name = hist_opts[i].name;
		opts[i].has_arg = hist_opts[i].arg ? required_argument : no_argument;
		opts[i].val = hist_opts[i].val;
	}
	memset(a, 0, sizeof(*a));
	wr_cp_defaults(&a->cp);
	a->out = ".";
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			return APP_EXIT_OK;
		}
		if (c == '?')
			return app_bad_option(PROG, opts, argv[optind - 1]);
		if (parse_opt(c, a) != 0)
			return APP_EXIT_USAGE;
	}
	if (argc - optind < 2) {
		char list[64];

		cmd_list(list, sizeof(list));
		return app_usage_error(PROG, "give a command (%s) and the DB (see "
			"--help)", list);
	}
	a->cmd = argv[optind];
	a->db = argv[optind + 1];
	a->files = argv + optind + 2;
	a->nb_files = (unsigned int)(argc - optind - 2);
	return -1;
}

/* Read every file first: one bad file and nothing is added. */
static int
cmd_add(const struct hist_args *a, struct hist_db *db)
{
	struct hist_result *rs = calloc(a->nb_files ? a->nb_files : 1, sizeof(*rs));
	struct wr_error err;
	unsigned int i, nb = 0, failed_cells = 0;
	int rc = 0, added;

	if (rs == NULL)
		return APP_EXIT_FAILED;
	for (i = 0; i < a->nb_files && rc == 0; i++) {
		rc = hist_input_read(a->files[i], a->commit, &rs[nb], &err);
		if (rc == 1) {
			hist_input_free(&rs[nb]);
			failed_cells++;
			rc = 0;
		} else if (rc == 0) {
			nb++;
		} else {
			hist_input_free(&rs[nb]);
		}
	}
	if (rc == 0) {
		added = hist_db_add(db, rs, nb, &err);
		if (added < 0)
			rc = -EIO;
		else
			printf("%s: added %d result(s), %u stored already, %u failed "
				"campaign cell(s) without figures\n", db->where, added,
				nb - (unsigned int)added, failed_cells);
	}
	for (i = 0; i < nb; i++)
		hist_input_free(&rs[i]);
	free(rs);
	return rc == 0 ? APP_EXIT_OK : app_error(PROG, &err);
}

int
app_history_main(int argc, char **argv)
{
	struct hist_args a;
	struct hist_db db;
	struct wr_error err;
	size_t i;
	int rc;

	rc = parse_args(argc, argv, &a);
	if (rc >= 0)
		return rc;
	for (i = 0; i < RTE_DIM(hist_cmds); i++)
		if (strcmp(a.cmd, hist_cmds[i]) == 0)
			break;
	if (i == RTE_DIM(hist_cmds))
		return bad_command(a.cmd);
	if (strcmp(a.cmd, "add") != 0 && a.nb_files != 0) {
		fprintf(stderr, "%s %s: takes the DB only, not %s\n", PROG, a.cmd, a.files[0]);
		return APP_EXIT_USAGE;
	}
	if (hist_db_open(&db, a.db, strcmp(a.cmd, "add") == 0, &err) != 0) {
		rc = app_error(PROG, &err);
		if (strcmp(a.cmd, "check") == 0)
			hist_report_bad_input(&a, err.msg);
		return rc;
	}
	if (strcmp(a.cmd, "add") == 0)
		rc = cmd_add(&a, &db);
	else if (strcmp(a.cmd, "show") == 0 || strcmp(a.cmd, "check") == 0)
		rc = hist_show_check(&a, &db, strcmp(a.cmd, "check") == 0);
	else
		rc = hist_plot(&a, &db, strcmp(a.cmd, "html") == 0);
	hist_db_close(&db);
	return rc;
}
