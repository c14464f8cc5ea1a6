/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Build tool: print the option table (lib/config/optab.c) and the list of
 * subcommands (app/common/subcmds.h) as JSON on stdout, for gen_docs.py, which
 * writes the man page and bash completion from it. Nothing else about an
 * option is written anywhere: a new option in the table reaches --help,
 * the man page, completion and profiles with no other edit.
 */
#include <stdio.h>
#include <stdlib.h>

#include <jansson.h>

#include "config/optab.h"
#include "common/subcmds.h"

static json_t *
values_json(const char *const *v)
{
	json_t *a = json_array();

	for (; v != NULL && *v != NULL; v++)
		json_array_append_new(a, json_string(*v));
	return a;
}

static json_t *
option_json(const struct wr_optdesc *o)
{
	return json_pack("{s:s, s:s?, s:s, s:s, s:s, s:o}",
		"name", o->name, "arg", o->arg, "help", o->help,
		"section", wr_optab_section_title(o->section),
		"profile", wr_optab_profsec_name(o->profile),
		"values", values_json(o->values));
}

static json_t *
table_json(void)
{
	json_t *opts = json_array(), *secs = json_array(), *subs = json_array();
	unsigned int s;
	size_t i;

	for (s = 0; s < WR_OPTSEC_COUNT; s++)
		json_array_append_new(secs, json_string(wr_optab_section_title(s)));
	for (i = 0; i < wr_optab_len; i++)
		json_array_append_new(opts, option_json(&wr_optab[i]));
#define SUB(name, summary) json_array_append_new(subs, \
		json_pack("{s:s, s:s}", "name", #name, "summary", summary));
	APP_SUBCMDS(SUB)
#undef SUB
	return json_pack("{s:o, s:o, s:o}", "sections", secs, "options", opts,
		"subcommands", subs);
}

int
main(void)
{
	json_t *doc = table_json();

	if (doc == NULL || json_dumpf(doc, stdout, JSON_INDENT(1)) != 0) {
		fprintf(stderr, "optdump: could not write the table\n");
		return 1;
	}
	putchar('\n');
	json_decref(doc);
	return 0;
}
