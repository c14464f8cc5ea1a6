/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --mode conn-rate on screen (docs/tcp.md "Connection modes"): a line
 * per finished trial, then the search's table from the result's
 * "trials" and "conn_rate".
 */
#include <inttypes.h>
#include <stdio.h>

#include "view_mode.h"

static double
num(const json_t *o, const char *k)
{
	return json_number_value(json_object_get(o, k));
}

void
app_view_conn_trial(FILE *f, const struct wr_connrate_trial *t, bool pass)
{
	fprintf(f, "conn-rate %10.1f/s over %6.3f s: attempted %8" PRIu64
		", completed %8" PRIu64 ", failed %6" PRIu64 ", not started %6"
		PRIu64 "  %s\n", t->cps, t->duration_s, t->nb_attempted,
		t->nb_completed, t->nb_failed, t->nb_unsent,
		wr_connrate_limited(t) ? "GENERATOR" : pass ? "pass" : "FAIL");
	fflush(f);
}

/* A rate of o at k, or "-" where the search found none. */
static void
rate(FILE *f, const char *label, const json_t *o, const char *k)
{
	const json_t *x = json_object_get(o, k);

	if (json_is_number(x))
		fprintf(f, "%-34s %12.1f /s\n", label, json_number_value(x));
	else
		fprintf(f, "%-34s %12s\n", label, "-");
}

void
app_view_connrate(FILE *f, const json_t *doc)
{
	const json_t *c = json_object_get(doc, "conn_rate"), *t;
	const char *v = json_string_value(json_object_get(c, "verdict"));
	size_t i;

	fprintf(f, "\nconn-rate results (trials of %.1f s, per port)\n",
		num(doc, "trial_s"));
	fprintf(f, "%12s %10s %10s %8s %12s %s\n", "CPS", "attempted",
		"completed", "failed", "not started", "verdict");
	json_array_foreach(json_object_get(doc, "trials"), i, t)
		fprintf(f, "%12.1f %10.0f %10.0f %8.0f %12.0f %s\n", num(t, "cps"),
			num(t, "attempted"), num(t, "completed"), num(t, "failed"),
			num(json_object_get(t, "unsent"), "total"),
			json_is_true(json_object_get(t, "generator_limited")) ?
			"GENERATOR" : json_is_true(json_object_get(t, "pass")) ?
			"pass" : "FAIL");
	rate(f, "maximum connection rate", c, "max_cps");
	if (num(c, "pdr_ratio") > 0)
		rate(f, "with failures allowed (--pdr)", c, "pdr_cps");
	fprintf(f, "%s%s\n", v != NULL ? v : "no verdict",
		json_is_true(json_object_get(c, "converged")) ? "" :
		" (not converged: --max-trials)");
}
