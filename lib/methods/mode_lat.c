/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Latency under load (FD.io CSIT's practice): RFC 2544 26.2 measures
 * latency only at the throughput rate, at the edge of loss, where queues
 * are full and the figure says little. After a throughput or MLR search,
 * trials at --lat-loads shares of the rate found (0% being a trickle)
 * record latency percentiles and the whole histogram, with the clock and
 * its resolution beside every figure.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "measure/hist.h"
#include "modes_int.h"
#include "stats/collect.h"

/* "0%": a trickle that queues nowhere, at most the rate found. */
#define LAT_TRICKLE_PPS 10000.0

/*
 * The rate the loads are shares of: MLR's last goal's conditional
 * throughput (CSIT's PDR with the default goals), or the throughput
 * search's PDR when one was asked, else its NDR. 0 when none was found.
 */
static double
base_rate(const json_t *res, const char **from)
{
	const json_t *goals = json_object_get(res, "goals");
	size_t n = json_array_size(goals);

	if (n > 0) {
		*from = "mlr last goal conditional throughput";
		return json_number_value(json_object_get(json_array_get(goals, n - 1),
			"conditional_throughput_pps"));
	}
	if (json_is_true(json_object_get(res, "pdr_found")) &&
			json_number_value(json_object_get(res, "pdr_pps")) !=
			json_number_value(json_object_get(res, "ndr_pps"))) {
		*from = "pdr";
		return json_number_value(json_object_get(res, "pdr_pps"));
	}
	*from = "ndr";
	return json_is_true(json_object_get(res, "ndr_found")) ?
		json_number_value(json_object_get(res, "ndr_pps")) : 0.0;
}

static double
ns_of(const struct wr_run *run, double tsc)
{
	return wr_stats_tsc_to_ns(tsc, run->setup.tsc_hz);
}

/* The non-empty buckets: [low_ns, width_ns, count] each. */
static json_t *
buckets_json(const struct wr_run *run, const struct wr_hist *h)
{
	json_t *a = json_array();
	unsigned int b;

	for (b = 0; b < WR_HIST_NB_BUCKETS; b++) {
		json_t *row;

		if (h->counts[b] == 0)
			continue;
		row = json_array();
		json_array_append_new(row, json_real(ns_of(run,
			(double)wr_hist_bucket_low(b))));
		json_array_append_new(row, json_real(ns_of(run,
			(double)wr_hist_bucket_width(b))));
		json_array_append_new(row, json_integer((json_int_t)h->counts[b]));
		json_array_append_new(a, row);
	}
	return a;
}

/* Latency of the last trial over every RX queue whose streams qualify. */
static json_t *
latency_json(const struct wr_run *run)
{
	static const double pcts[] = { 50, 90, 99, 99.9, 99.99 };
	static struct wr_hist h;
	json_t *o = json_object(), *p = json_object();
	unsigned int i;
	char k[16];

	wr_hist_init(&h);
	wr_collect_lat(run, WR_COLLECT_LAT_VALID, &h);
	json_object_set_new(o, "clock", json_string("TSC (rdtsc): TX stamp to "
		"RX burst, same host"));
	json_object_set_new(o, "tsc_hz", json_integer((json_int_t)run->setup.tsc_hz));
	json_object_set_new(o, "resolution_ns", json_real(ns_of(run, 1.0)));
	json_object_set_new(o, "bucket_relative_width", json_real(1.0 /
		WR_HIST_SUB_COUNT));
	json_object_set_new(o, "count", json_integer((json_int_t)h.nb));
	if (h.nb == 0)
		return o;
	json_object_set_new(o, "min_ns", json_real(ns_of(run, (double)h.min)));
	json_object_set_new(o, "mean_ns", json_real(ns_of(run, wr_hist_mean(&h))));
	json_object_set_new(o, "max_ns", json_real(ns_of(run, (double)h.max)));
	for (i = 0; i < RTE_DIM(pcts); i++) {
		snprintf(k, sizeof(k), "p%g", pcts[i]);
		json_object_set_new(p, k, json_real(ns_of(run,
			(double)wr_hist_percentile(&h, pcts[i]))));
	}
	json_object_set_new(o, "percentiles_ns", p);
	json_object_set_new(o, "histogram", buckets_json(run, &h));
	return o;
}

/* One load level: a trial at pct of base, its latency and loss. */
static int
level(struct mode_ctx *m, uint32_t size, double base, double pct, json_t *levels)
{
	const struct wr_config *cfg = m->run->setup.cfg;
	double pps = pct == 0 ? fmin(LAT_TRICKLE_PPS, base) : base * pct / 100.0;
	uint64_t ms = cfg->lat_trial_ms != 0 ? cfg->lat_trial_ms : cfg->trial_ms;
	struct wr_trial_summary s;
	struct wr_trial t;
	json_t *o;
	int rc;

	wr_mode_trial_at(size, pps, ms, &t);
	rc = wr_mode_trial(m, &t, "latency", &s);
	if (rc != 0)
		return rc;
	o = json_object();
	json_object_set_new(o, "pct", json_real(pct));
	json_object_set_new(o, "intended_pps", json_real(pps));
	json_object_set_new(o, "offered_pps", json_real(s.achieved_pps));
	json_object_set_new(o, "rate_reached", json_boolean(s.rate_reached));
	json_object_set_new(o, "sent_pkts", json_integer((json_int_t)s.sent_pkts));
	json_object_set_new(o, "lost_pkts", json_integer(s.lost_pkts));
	json_object_set_new(o, "duration_s", json_real(s.duration_s));
	json_object_set_new(o, "latency", latency_json(m->run));
	json_array_append_new(levels, o);
	return 0;
}

int
wr_mode_lat_after(struct mode_ctx *m, uint32_t size, json_t *res, int rc)
{
	const struct wr_config *cfg = m->run->setup.cfg;
	json_t *o, *levels;
	const char *from;
	double base;
	unsigned int i;

	if (rc != 0 || cfg->nb_lat_loads == 0)
		return rc;
	base = base_rate(res, &from);
	o = json_object();
	json_object_set_new(res, "latency_under_load", o);
	json_object_set_new(o, "base", json_string(from));
	json_object_set_new(o, "base_pps", json_real(base));
	if (!wr_run_lat_on(m->run)) {
		json_object_set_new(o, "skipped", json_string(cfg->stamp != WR_STAMP_FULL ?
			"frames carry no TX timestamp (--stamp)" : "--latency off"));
		return 0;
	}
	if (base <= 0) {
		json_object_set_new(o, "skipped", json_string("no rate was found"));
		return 0;
	}
	levels = json_array();
	json_object_set_new(o, "levels", levels);
	for (i = 0; i < cfg->nb_lat_loads && rc == 0; i++) {
		m->size_left = cfg->nb_lat_loads - i;
		snprintf(m->prog.phase, sizeof(m->prog.phase), "load %u/%u", i + 1,
			cfg->nb_lat_loads);
		rc = level(m, size, base, cfg->lat_loads_pct[i], levels);
	}
	return rc;
}
