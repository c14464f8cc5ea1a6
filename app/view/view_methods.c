/* SPDX-License-Identifier: BSD-3-Clause */
/* Result tables of MLRsearch (--mode mlr) and of latency under load. */
#include <stdbool.h>
#include <string.h>

#include "view_methods.h"

static double
num(const json_t *o, const char *k)
{
	return json_number_value(json_object_get(o, k));
}

/* One row per size and goal, 80 columns; what the marks mean under it. */
void
app_view_mlr(FILE *f, const json_t *results)
{
	bool open = false;
	size_t i, g;
	json_t *r, *o;

	fprintf(f, "%4s %-20s %9s %9s %9s %7s %6s %8s\n", "size", "goal",
		"cond Mpps", "RLB Mpps", "RUB Mpps", "Gb/s L1", "trials", "search s");
	json_array_foreach(results, i, r) {
		json_array_foreach(json_object_get(r, "goals"), g, o) {
			bool done = json_is_true(json_object_get(o, "done"));
			char goal[64];

			open |= !done;
			snprintf(goal, sizeof(goal), "%g:%g:%gs:%g", num(o, "loss_ratio"),
				num(o, "exceed_ratio"), num(o, "duration_sum_s"),
				num(o, "width"));
			fprintf(f, "%4.0f %-20s %9.4f %9.4f %9.4f %7.3f %6.0f %8.1f%s\n",
				num(r, "frame_size"), goal,
				num(o, "conditional_throughput_pps") / 1e6,
				num(o, "rlb_pps") / 1e6, num(o, "rub_pps") / 1e6,
				num(o, "conditional_throughput_gbps_l1"),
				num(r, "search_trials"), num(r, "search_s"), done ? "" : "*");
		}
		if (num(r, "generator_limited_trials") > 0)
			fprintf(f, "%4s %.0f trials fell short of their intended load: "
				"the shortfall counted as loss\n", "",
				num(r, "generator_limited_trials"));
	}
	fprintf(f, "goal: loss ratio:exceed ratio:duration sum:width%s\n",
		open ? "; * not done" : "");
}

/* A latency-under-load table of 78 columns: "*" marks a load not reached. */
void
app_view_lat_load(FILE *f, const json_t *results)
{
	size_t i, j;
	json_t *r, *l, *lat;
	bool short_load = false, refused = false;
	json_t *port = json_string("port");

	json_array_foreach(results, i, r) {
		json_t *o = json_object_get(r, "latency_under_load");

		if (o == NULL || json_object_get(o, "levels") == NULL)
			continue;
		fprintf(f, "\nlatency under load, %.0f B, %% of %s %.4f Mpps "
			"(TSC, ns; buckets within 1/32):\n%8s %12s %10s %10s %10s "
			"%10s %10s\n", num(r, "frame_size"),
			json_string_value(json_object_get(o, "base")),
			num(o, "base_pps") / 1e6, "% load", "offered Mpps", "min",
			"p50", "p99", "p99.9", "max");
		json_array_foreach(json_object_get(o, "levels"), j, l) {
			const json_t *p;

			lat = json_object_get(l, "latency");
			p = json_object_get(lat, "percentiles_ns");
			bool reached = json_is_true(json_object_get(l, "rate_reached"));

			short_load |= !reached;
			refused |= !reached && json_equal(json_object_get(l,
				"rate_short_by"), port);
			fprintf(f, "%8.1f %12.4f %10.0f %10.0f %10.0f %10.0f %10.0f%s\n",
				num(l, "pct"), num(l, "offered_pps") / 1e6,
				num(lat, "min_ns"), num(p, "p50"), num(p, "p99"),
				num(p, "p99.9"), num(lat, "max_ns"), reached ? "" : " *");
		}
	}
	if (short_load)
		fprintf(f, "* rate not reached: %s\n", refused ?
			"the port refused TX (back-pressure) at this load" :
			"the generator fell short of this load");
	json_decref(port);
}
