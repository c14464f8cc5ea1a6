/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Questions on the option table (optab.h): section titles, an option's
 * words, an option by name, getopt's table and an option's --help lines.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "optab.h"

static const char *const section_titles[WR_OPTSEC_COUNT] = {
	[WR_OPTSEC_PORTS] = "Ports and placement",
	[WR_OPTSEC_FRAMES] = "Frames",
	[WR_OPTSEC_RATE] = "Rate",
	[WR_OPTSEC_MODES] = "Test modes (docs/rfc2544.md)",
	[WR_OPTSEC_PROFILE] = "Profile",
	[WR_OPTSEC_RUN] = "Run length and output",
	[WR_OPTSEC_TWOEND] = ("Two ends (sender and receiver in different processes "
		"or hosts;\ndocs/testbeds.md)"),
	[WR_OPTSEC_CAPTURE] = "Capture (docs/accounting.md)",
	[WR_OPTSEC_CONN] = "Connections (TCP; docs/tcp.md)",
};

const char *
wr_optab_section_title(enum wr_optab_section s)
{
	return (unsigned int)s < WR_OPTSEC_COUNT ? section_titles[s] : "";
}

static const char *const profsec_names[WR_PROF_COUNT] = {
	[WR_PROF_NONE] = "", [WR_PROF_PORTS] = "ports",
	[WR_PROF_LCORES] = "lcores", [WR_PROF_FRAMES] = "frames",
	[WR_PROF_RUN] = "run", [WR_PROF_TEST] = "test",
	[WR_PROF_OUTPUT] = "output", [WR_PROF_CAPTURE] = "capture",
	[WR_PROF_CONN] = "conn", [WR_PROF_STREAMS] = "streams",
};

const char *
wr_optab_profsec_name(enum wr_optab_profsec s)
{
	return (unsigned int)s < WR_PROF_COUNT ? profsec_names[s] : "";
}

int
wr_optab_value(int id, const char *v)
{
	const char *const *w = NULL;
	size_t i;

	for (i = 0; i < wr_optab_len; i++)
		if (wr_optab[i].id == id)
			w = wr_optab[i].values;
	for (i = 0; w != NULL && w[i] != NULL; i++)
		if (strcmp(w[i], v) == 0)
			return (int)i;
	return -ENOENT;
}

const char *
wr_optab_word(int id, int i)
{
	const char *const *w = NULL;
	size_t k;

	for (k = 0; k < wr_optab_len; k++)
		if (wr_optab[k].id == id)
			w = wr_optab[k].values;
	for (k = 0; w != NULL && w[k] != NULL; k++)
		if ((int)k == i)
			return w[k];
	return "?";
}

void
wr_optab_values_list(int id, char *buf, size_t n)
{
	const char *const *w = NULL;
	size_t i, len = 0;

	for (i = 0; i < wr_optab_len; i++)
		if (wr_optab[i].id == id)
			w = wr_optab[i].values;
	if (n > 0)
		buf[0] = '\0';
	for (i = 0; w != NULL && w[i] != NULL && len < n; i++) {
		const char *sep = i == 0 ? "" : w[i + 1] == NULL ? " or " : ", ";
		int k = snprintf(buf + len, n - len, "%s%s", sep, w[i]);

		if (k < 0)
			break;
		len += (size_t)k;
	}
}

const struct wr_optdesc *
wr_optab_find(const char *name)
{
	size_t i;

	for (i = 0; i < wr_optab_len; i++)
		if (strcmp(wr_optab[i].name, name) == 0)
			return &wr_optab[i];
	return NULL;
}

void
wr_optab_getopt(struct option *lo)
{
	size_t i;

	for (i = 0; i < wr_optab_len; i++) {
		lo[i].name = wr_optab[i].name;
		lo[i].has_arg = wr_optab[i].has_arg;
		lo[i].flag = NULL;
		lo[i].val = wr_optab[i].id;
	}
	memset(&lo[i], 0, sizeof(lo[i]));
}

/* Column where help text starts: "  --" + name + " " + arg, padded. */
#define HELP_COL 22

/* snprintf at *n into buf[len], *n growing as snprintf counts. */
static void __attribute__((format(printf, 4, 5)))
append(char *buf, size_t len, int *n, const char *fmt, ...)
{
	size_t off = (size_t)*n;
	va_list ap;

	va_start(ap, fmt);
	*n += vsnprintf(off < len ? buf + off : NULL, off < len ? len - off : 0, fmt, ap);
	va_end(ap);
}

int
wr_optab_format(const struct wr_optdesc *o, char *buf, size_t len)
{
	const char *line = o->help, *nl;
	int n = 0;

	if (o->help == NULL || o->help[0] == '\0')
		return -EINVAL;
	append(buf, len, &n, "  --%s%s%s", o->name, o->arg ? " " : "",
		o->arg ? o->arg : "");
	/* A long name gets its help on the next line. */
	if (n + 1 > HELP_COL)
		append(buf, len, &n, "\n%*s", HELP_COL, "");
	else
		append(buf, len, &n, "%*s", HELP_COL - n, "");
	for (;;) {
		nl = strchr(line, '\n');
		append(buf, len, &n, "%.*s\n", nl ? (int)(nl - line) : (int)strlen(line),
			line);
		if (nl == NULL)
			break;
		line = nl + 1;
		append(buf, len, &n, "%*s", HELP_COL, "");
	}
	return n;
}
