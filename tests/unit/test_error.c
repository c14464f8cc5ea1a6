/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for lib/base/error.c (class, errno and message travel
 * together; context is put before a message without changing its class;
 * a message cut at its room ends at a whole UTF-8 character, and
 * lib/base/rpc.c still makes its error reply)
 * and app/common/exitcode.c (the one class -> exit code mapping), with errors
 * from real parsers of each class.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/rpc.h"
#include "base/fileio.h"
#include "config/opts.h"
#include "config/rate.h"
#include "common/badopt.h"
#include "common/exitcode.h"
#include "wr_test.h"

static void
test_set(void)
{
	struct wr_error e;

	wr_err_clear(&e);
	WR_CHECK_U64(e.cls, WR_ERR_NONE);
	WR_CHECK_U64(e.errnum, 0);
	WR_CHECK_U64(strlen(e.msg), 0);
	WR_CHECK(wr_err_usage(&e, -ERANGE, "--x %d: too big", 7) == -ERANGE);
	WR_CHECK_U64(e.cls, WR_ERR_USAGE);
	WR_CHECK_U64(e.errnum, ERANGE);
	WR_CHECK_STR(e.msg, "--x 7: too big");
	WR_CHECK(wr_err_env(&e, -ENOMEM, "no memory") == -ENOMEM);
	WR_CHECK_U64(e.cls, WR_ERR_ENV);
	WR_CHECK_U64(e.errnum, ENOMEM);
	WR_CHECK(wr_err_fail(&e, -EIO, "lost") == -EIO);
	WR_CHECK_U64(e.cls, WR_ERR_FAIL);
	/* No error to fill: the code still comes back. */
	WR_CHECK(wr_err_usage(NULL, -EINVAL, "ignored") == -EINVAL);
	WR_CHECK_STR(wr_err_class_name(WR_ERR_ENV), "environment");
	WR_CHECK_STR(wr_err_class_name(WR_ERR_USAGE), "usage");
	WR_CHECK_STR(wr_err_class_name(WR_ERR_FAIL), "failure");
}

static void
test_prefix(void)
{
	struct wr_error e;
	char big[WR_ERROR_MSG_LEN * 2];

	wr_err_env(&e, -EACCES, "cannot open");
	WR_CHECK(wr_err_prefix(&e, "%s:%u: ", "f.ini", 12u) == -EACCES);
	WR_CHECK(strcmp(e.msg, "f.ini:12: cannot open") == 0);
	WR_CHECK_U64(e.cls, WR_ERR_ENV);
	WR_CHECK_U64(e.errnum, EACCES);
	/* Too long: cut, still terminated, the context kept first. */
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	wr_err_usage(&e, -EINVAL, "%s", big);
	wr_err_prefix(&e, "ctx: ");
	WR_CHECK_U64(strlen(e.msg), WR_ERROR_MSG_LEN - 1);
	WR_CHECK(strncmp(e.msg, "ctx: xxx", 8) == 0);
	/* Context longer than the room: the context alone, cut. */
	wr_err_usage(&e, -EINVAL, "why");
	wr_err_prefix(&e, "%s", big);
	WR_CHECK_U64(strlen(e.msg), WR_ERROR_MSG_LEN - 1);
}

/*
 * A message cut at WR_ERROR_MSG_LEN inside a UTF-8 character ends at the
 * last whole one (a JSON reply needs UTF-8); the reply envelope of a
 * message that is not UTF-8 still comes, with a fixed message.
 */
static void
test_utf8_cut(void)
{
	static const char *const chars[] = { "\xc3\xa9", "\xe2\x82\xac",
		"\xf0\x9f\x98\x80" };  /* e acute, euro, an emoji */
	char pad[WR_ERROR_MSG_LEN], *line;
	struct wr_error e;
	size_t c, k, n;

	for (c = 0; c < RTE_DIM(chars); c++) {
		for (k = 0; k <= strlen(chars[c]); k++) {
			/* The character starts k bytes before the cut. */
			n = WR_ERROR_MSG_LEN - 1 - k;
			memset(pad, 'a', n);
			pad[n] = '\0';
			wr_err_usage(&e, -EINVAL, "%s%s%s", pad, chars[c], chars[c]);
			WR_CHECK_U64(strlen(e.msg), k == strlen(chars[c]) ? n + k : n);
			line = wr_rpc_error(NULL, -32601, e.msg);
			WR_CHECK(line != NULL && strstr(line, "aaa") != NULL);
			free(line);
			wr_err_usage(&e, -EINVAL, "%s%s", pad + 5, chars[c]);
			wr_err_prefix(&e, "ctx: ");
			WR_CHECK_U64(strlen(e.msg), k == strlen(chars[c]) ? n + k : n);
		}
	}
	/* Whole characters stay: nothing to cut. */
	wr_err_usage(&e, -EINVAL, "caf\xc3\xa9 \xe2\x82\xac");
	WR_CHECK_STR(e.msg, "caf\xc3\xa9 \xe2\x82\xac");
	line = wr_rpc_error(NULL, -32601, "bad \xff byte");
	WR_CHECK(line != NULL && strstr(line, "-32601") != NULL &&
		strstr(line, "not valid UTF-8") != NULL);
	free(line);
}

/* The mapping of docs/reliability.md: usage 2, environment and failure 1. */
static void
test_exit_codes(void)
{
	struct wr_error e;

	wr_err_usage(&e, -EINVAL, "bad");
	WR_CHECK_U64(app_exit_code(&e), APP_EXIT_USAGE);
	/* The class decides, not the errno. */
	wr_err_usage(&e, -ENOENT, "no such profile");
	WR_CHECK_U64(app_exit_code(&e), APP_EXIT_USAGE);
	wr_err_env(&e, -EINVAL, "the PMD refused the configuration");
	WR_CHECK_U64(app_exit_code(&e), APP_EXIT_FAILED);
	wr_err_fail(&e, -EINVAL, "a trial did not end");
	WR_CHECK_U64(app_exit_code(&e), APP_EXIT_FAILED);
	wr_err_clear(&e);
	WR_CHECK_U64(app_exit_code(&e), APP_EXIT_FAILED);
	WR_CHECK_U64(app_exit_code(NULL), APP_EXIT_FAILED);
}

static int
fill_nothing(FILE *f, const void *ctx)
{
	(void)f;
	(void)ctx;
	return 0;
}

/* Classes chosen where the failure is understood, end to end. */
static void
test_classes_from_sites(void)
{
	static struct wr_config cfg;
	const char *argv[] = { "wirerate", "--rate", "10GBps", NULL };
	struct wr_rate r;
	struct wr_error e;

	/* A bad option value: usage, its context added on the way up. */
	wr_config_defaults(&cfg);
	WR_CHECK(wr_opts_parse(3, (char **)(uintptr_t)argv, &cfg, &e) < 0);
	WR_CHECK_U64(e.cls, WR_ERR_USAGE);
	WR_CHECK_STR(e.msg, "--rate: bad rate '10GBps'");
	WR_CHECK(wr_rate_parse("fast", &r, &e) == -EINVAL);
	WR_CHECK_U64(app_exit_code(&e), APP_EXIT_USAGE);
	/* A file that cannot be written: the machine's side, exit 1. */
	WR_CHECK(wr_file_write("/nonexistent-dir/r.json", fill_nothing, NULL,
		&e) == -ENOENT);
	WR_CHECK_U64(e.cls, WR_ERR_ENV);
	WR_CHECK_U64(e.errnum, ENOENT);
	WR_CHECK_STR(e.msg, "/nonexistent-dir/r.json: cannot create a temporary in /nonexistent-dir");
	WR_CHECK_U64(app_exit_code(&e), APP_EXIT_FAILED);
}

/* A subcommand's refused option: no value, abbreviation, near name. */
static void
test_bad_option(void)
{
	static const struct option opts[] = {
		{ "json", required_argument, NULL, 'j' },
		{ "jobs", required_argument, NULL, 'J' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "tolerance", required_argument, NULL, 't' },
		{ NULL, 0, NULL, 0 },
	};
	char m[256];

	app_bad_option_msg("wirerate x", opts, "--json", m, sizeof(m));
	WR_CHECK_STR(m, "--json: needs a value (see wirerate x --help)");
	app_bad_option_msg("wirerate x", opts, "--qu=1", m, sizeof(m));
	WR_CHECK_STR(m, "--quiet: takes no value");
	app_bad_option_msg("wirerate x", opts, "--j", m, sizeof(m));
	WR_CHECK_STR(m, "--j: abbreviates several options (--json or --jobs); "
		"write one out");
	app_bad_option_msg("wirerate x", opts, "--tolerence=5", m, sizeof(m));
	WR_CHECK_STR(m, "--tolerence=5: unknown option; did you mean --tolerance?");
	app_bad_option_msg("wirerate x", opts, "--zzzzzzzz", m, sizeof(m));
	WR_CHECK_STR(m, "--zzzzzzzz: unknown option (see wirerate x --help)");
	WR_CHECK(strstr(m, "did you mean") == NULL);
	app_bad_option_msg("wirerate x", opts, "-x", m, sizeof(m));
	WR_CHECK_STR(m, "-x: unknown option");
	/* Truncated, still a string. */
	app_bad_option_msg("wirerate x", opts, "--tolerence", m, 8);
	WR_CHECK(strlen(m) == 7);
}

int
main(void)
{
	WR_TEST_RUN(test_set);
	WR_TEST_RUN(test_prefix);
	WR_TEST_RUN(test_utf8_cut);
	WR_TEST_RUN(test_exit_codes);
	WR_TEST_RUN(test_classes_from_sites);
	WR_TEST_RUN(test_bad_option);
	return wr_test_summary();
}
