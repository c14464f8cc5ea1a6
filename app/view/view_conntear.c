/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --mode conn-teardown on screen (docs/connteardown.md): a line per
 * finished trial, then the search's table from the result's "trials"
 * and "conn_teardown".
 */
#include <stdio.h>

#include "view_mode.h"

static double
num(const json_t *o, const char *k)
{
	return json_number_value(json_object_get(o, k));
}

/* The verdict word of trial t. */
static const char *
word(const json_t *t)
{
	if (json_is_true(json_object_get(t, "generator_limited")))
		return "GENERATOR";
	return json_is_true(json_object_get(t, "pass")) ? "pass" : "FAIL";
}

void
app_view_conntear_trial(FILE *f, const json_t *t)
{
	fprintf(f, "conn-teardown %10.1f/s: held %8.0f, closes attempted %8.0f, "
		"completed %8.0f, failed %6.0f (timed out %.0f), open %.0f, not "
		"closed %.0f; %.3f s  %s\n", num(t, "cps"), num(t, "held"),
		num(t, "attempted"), num(t, "completed"), num(t, "failed"),
		num(t, "timed_out"), num(t, "open"), num(t, "unsent"),
		num(t, "close_s"), word(t));
	fflush(f);
}

void
app_view_conntear(FILE *f, const json_t *doc)
{
	const json_t *c = json_object_get(doc, "conn_teardown"), *t;
	const json_t *max = json_object_get(c, "max_cps");
	const char *v = json_string_value(json_object_get(c, "verdict"));
	size_t i;

	fprintf(f, "\nconn-teardown results (%.0f connections per port a "
		"trial; closes/s per port)\n", num(c, "connections"));
	fprintf(f, "%12s %8s %10s %10s %8s %6s %10s %s\n", "closes/s", "held",
		"attempted", "completed", "failed", "open", "close s", "verdict");
	json_array_foreach(json_object_get(doc, "trials"), i, t)
		fprintf(f, "%12.1f %8.0f %10.0f %10.0f %8.0f %6.0f %10.3f %s\n",
			num(t, "cps"), num(t, "held"), num(t, "attempted"),
			num(t, "completed"), num(t, "failed"), num(t, "open"),
			num(t, "close_s"), word(t));
	if (json_is_number(max))
		fprintf(f, "%-34s %12.1f /s\n", "tear-down rate",
			json_number_value(max));
	else
		fprintf(f, "%-34s %12s\n", "tear-down rate", "-");
	fprintf(f, "%s%s\n", v != NULL ? v : "no verdict",
		json_is_true(json_object_get(c, "converged")) ? "" :
		" (not converged: --max-trials)");
}
