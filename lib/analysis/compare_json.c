/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The verdict of `wirerate compare` as a JSON document (--json FILE), for
 * a CI job that reads it rather than the text: schema wirerate-compare/1.
 */
#include <math.h>

#include "compare.h"

/* A side of a row: null when not measured. */
static json_t *
side_json(const struct wr_compare_side *s)
{
	if (!s->have)
		return json_null();
	return json_pack("{s:f, s:i, s:f, s:f}", "value", s->value, "trials", (int)s->n,
		"min", s->min, "max", s->max);
}

static json_t *
row_json(const struct wr_compare *c, const struct wr_compare_row *r)
{
	char tol[32];

	wr_tolerance_format(&r->tol, tol, sizeof(tol));
	return json_pack("{s:s, s:s, s:o, s:o, s:o, s:s, s:s, s:s}",
		"point", c->points[r->point].name, "metric", wr_metric_defs[r->id].name,
		"baseline", side_json(&r->base), "result", side_json(&r->cur),
		"change_pct", isnan(r->change_pct) ? json_null() :
		json_real(r->change_pct), "tolerance", tol,
		"verdict", wr_compare_verdict_name(r->verdict), "why", r->why);
}

/* An array of n strings of a fixed-size table. */
static json_t *
strings_json(const char (*s)[WR_COMPARE_NOTE_LEN], unsigned int n)
{
	json_t *a = json_array();
	unsigned int i;

	for (i = 0; i < n; i++)
		json_array_append_new(a, json_string(s[i]));
	return a;
}

json_t *
wr_compare_json(const struct wr_compare *c, const char *base_name,
		const char *cur_name)
{
	json_t *rows = json_array(), *regs = json_array();
	unsigned int i;

	for (i = 0; i < c->nb_rows; i++) {
		json_array_append_new(rows, row_json(c, &c->rows[i]));
		if (c->rows[i].verdict == WR_VERDICT_REGRESSION)
			json_array_append_new(regs, json_pack("{s:s, s:s}", "metric",
				wr_metric_defs[c->rows[i].id].name, "point",
				c->points[c->rows[i].point].name));
	}
	return json_pack("{s:s, s:s, s:s, s:s, s:s, s:b, s:i, s:o, s:o, s:o, s:o}",
		"schema", WR_COMPARE_SCHEMA, "baseline", base_name, "result", cur_name,
		"kind", c->kind, "verdict", c->regression ? "regression" :
		c->nb_warnings ? "failed" : "pass", "incomplete", c->incomplete,
		"cross_check_warnings", (int)c->nb_warnings, "regressions", regs,
		"allowed_differences", strings_json(c->allowed, c->nb_allowed),
		"notes", strings_json(c->notes, c->nb_notes), "rows", rows);
}
