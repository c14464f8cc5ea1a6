/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The --mode addr-capacity and addr-learning tables of a result's
 * "rfc2889" object (docs/rfc2889.md): one line per trial, then what the
 * search found.
 */
#include <stdbool.h>
#include <stdio.h>

#include "view_methods.h"

static double
num(const json_t *o, const char *k)
{
	return json_number_value(json_object_get(o, k));
}

static const char *
str(const json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));

	return s != NULL ? s : "?";
}

/* The trials, one line each. */
static void
trials(FILE *f, const json_t *y)
{
	const json_t *t;
	size_t i;

	fprintf(f, "%10s %12s %10s %10s %10s %8s %s\n", "addresses", "learn pps",
		"test sent", "delivered", "flooded", "reset s", "verdict");
	json_array_foreach(json_object_get(y, "trials"), i, t)
		fprintf(f, "%10.0f %12.0f %10.0f %10.0f %10.0f %8.3f %s\n",
			num(t, "addresses"), num(t, "learn_pps"), num(t, "test_sent"),
			num(t, "test_received"), num(t, "flooded"), num(t, "reset_s"),
			json_is_true(json_object_get(t, "pass")) ? "pass" : "FAIL");
}

void
app_view_rfc2889(FILE *f, const json_t *y)
{
	const json_t *r = json_object_get(y, "result");
	bool cap = json_object_get(r, "capacity_addresses") != NULL;

	fprintf(f, "\nRFC 2889 %s: %s (ports: learning %.0f, test %.0f, "
		"monitoring %.0f)\n", str(y, "section"), cap ? "address caching "
		"capacity" : "address learning rate",
		num(json_object_get(json_object_get(y, "ports"), "learning"), "index"),
		num(json_object_get(json_object_get(y, "ports"), "test"), "index"),
		num(json_object_get(json_object_get(y, "ports"), "monitoring"), "index"));
	trials(f, y);
	if (r == NULL) {
		fprintf(f, "no result: the search did not finish\n");
		return;
	}
	if (!json_is_true(json_object_get(r, "found")))
		fprintf(f, "not found: even the smallest %s failed\n",
			cap ? "count" : "rate");
	else if (cap)
		fprintf(f, "capacity: %.0f addresses%s%s\n", num(r, "capacity_addresses"),
			json_is_true(json_object_get(r, "at_max")) ? " (at least: the "
			"largest count tried passed)" : "",
			json_is_true(json_object_get(r, "converged")) ? "" :
			" (not resolved: trial cap)");
	else
		fprintf(f, "learning rate: %.0f frames/s for %.0f addresses%s%s\n",
			num(r, "learning_rate_pps"), num(r, "addresses"),
			json_is_true(json_object_get(r, "at_max")) ? " (at least: the "
			"fastest rate tried passed)" : "",
			json_is_true(json_object_get(r, "converged")) ? "" :
			" (not resolved: trial cap)");
}
