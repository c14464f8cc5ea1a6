/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "base/suggest.h"
#include "badopt.h"
#include "exitcode.h"

/* The names opts has that start with the len bytes of name, as
 * "--a or --b" into buf; returns how many. */
static unsigned int
prefixed(const struct option *opts, const char *name, size_t len, char *buf,
		size_t n)
{
	unsigned int nb = 0, k = 0, i;
	size_t at = 0;

	for (i = 0; opts[i].name != NULL; i++)
		nb += strncmp(opts[i].name, name, len) == 0;
	buf[0] = '\0';
	for (i = 0; opts[i].name != NULL && at < n; i++) {
		int w;

		if (strncmp(opts[i].name, name, len) != 0)
			continue;
		k++;
		w = snprintf(buf + at, n - at, "%s--%s", k == 1 ? "" :
			k == nb ? " or " : ", ", opts[i].name);
		if (w < 0)
			break;
		at += (size_t)w;
	}
	return nb;
}

void
app_bad_option_msg(const char *prog, const struct option *opts, const char *arg,
		char *buf, size_t n)
{
	const char *name = arg + 2;
	size_t len = strcspn(name, "=");
	struct wr_suggest sg;
	char several[160];
	unsigned int i;

	if (strncmp(arg, "--", 2) != 0 || len == 0) {
		snprintf(buf, n, "%s: unknown option (see %s --help)", arg, prog);
		return;
	}
	for (i = 0; opts[i].name != NULL; i++)
		if (strlen(opts[i].name) == len && strncmp(opts[i].name, name, len) == 0)
			break;
	/* getopt_long also refuses an abbreviation of one option so used. */
	if (opts[i].name == NULL && prefixed(opts, name, len, several,
			sizeof(several)) == 1)
		for (i = 0; strncmp(opts[i].name, name, len) != 0; i++)
			;
	if (opts[i].name != NULL) {
		snprintf(buf, n, "--%s: %s (see %s --help)", opts[i].name,
			opts[i].has_arg == no_argument ? "takes no value" :
			"needs a value", prog);
		return;
	}
	if (prefixed(opts, name, len, several, sizeof(several)) > 1) {
		snprintf(buf, n, "%s: abbreviates several options (%s); write one "
			"out (see %s --help)", arg, several, prog);
		return;
	}
	wr_suggest_init(&sg, name, len);
	for (i = 0; opts[i].name != NULL; i++)
		wr_suggest_try(&sg, opts[i].name);
	if (sg.best != NULL)
		snprintf(buf, n, "%s: unknown option; did you mean --%s? (see %s "
			"--help)", arg, sg.best, prog);
	else
		snprintf(buf, n, "%s: unknown option (see %s --help)", arg, prog);
}

int
app_bad_option(const char *prog, const struct option *opts, const char *arg)
{
	char msg[384];

	app_bad_option_msg(prog, opts, arg, msg, sizeof(msg));
	return app_usage_error(prog, "%s", msg);
}
