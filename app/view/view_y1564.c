/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The --mode y1564 tables (docs/y1564.md): per service its configuration
 * steps and performance test, each with its verdict and the failing KPI
 * against its criterion. Fits 80 columns.
 */
#include <stdio.h>
#include <string.h>

#include "results/y1564json.h"
#include "view_methods.h"

static double
num(const json_t *o, const char *k)
{
	return json_number_value(json_object_get(o, k));
}

static void
row(FILE *f, const char *step, const json_t *o)
{
	char ftd[16], fdv[16], v[96];
	const json_t *g = json_object_get(o, "green"), *y = json_object_get(o, "yellow");
	double sent = num(g, "sent_pkts") + num(y, "sent_pkts");
	double lost = num(g, "lost_pkts") + num(y, "lost_pkts");

	wr_y1564_ms_text(o, "ftd_ns", ftd, sizeof(ftd));
	wr_y1564_ms_text(o, "fdv_ns", fdv, sizeof(fdv));
	wr_y1564_verdict_text(o, v, sizeof(v));
	fprintf(f, "  %-9s %9.0f %7.0f %8.5f %8s %7s %7.3f  %s\n", step, sent, lost,
		num(o, "flr"), ftd, fdv, num(o, "ir_bps") / 1e6, v);
}

static void
service(FILE *f, const json_t *s)
{
	const json_t *steps = json_object_get(s, "steps"), *st, *perf;
	size_t i;

	fprintf(f, "\nservice %s: CIR %.6g Mb/s, EIR %.6g Mb/s (L2), %s\n",
		json_string_value(json_object_get(s, "name")),
		num(s, "cir_pps") * num(s, "frame_size") * 8 / 1e6,
		num(s, "eir_pps") * num(s, "frame_size") * 8 / 1e6,
		json_is_true(json_object_get(s, "pass")) ? "PASS" : "FAIL");
	fprintf(f, "  %-9s %9s %7s %8s %8s %7s %7s  %s\n", "step", "sent", "lost",
		"FLR", "FTD ms", "FDV ms", "IR Mb/s", "verdict");
	json_array_foreach(steps, i, st)
		row(f, json_string_value(json_object_get(st, "step")), st);
	perf = json_object_get(s, "perf");
	if (perf == NULL)
		return;
	row(f, "perf", perf);
	fprintf(f, "  availability %.4f%%: %.0f s unavailable of %.0f s (%.0f "
		"severely errored)\n", 100 * num(perf, "avail"), num(perf, "unavailable_s"),
		num(perf, "seconds"), num(perf, "ses"));
}

void
app_view_y1564(FILE *f, const json_t *y)
{
	const json_t *list = json_object_get(y, "services"), *s;
	size_t i;

	fprintf(f, "\nITU-T Y.1564 service activation (steps of %.1f s, performance "
		"test %.0f s, delay %s)\n", num(y, "step_s"), num(y, "perf_s"),
		json_string_value(json_object_get(y, "delay")));
	json_array_foreach(list, i, s)
		service(f, s);
	fprintf(f, "\nservice activation: %s\n", json_is_true(json_object_get(y,
		"pass")) ? "PASS (every service, every step)" : "FAIL");
}
