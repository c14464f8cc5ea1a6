/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdio.h>
#include <string.h>

#include "base/units.h"
#include "measure/hist.h"
#include "measure/stats.h"
#include "modejson.h"
#include "result.h"
#include "stats/collect.h"

json_t *
wr_result_summary_json(const struct wr_trial_summary *s)
{
	json_t *o = json_object();

	json_object_set_new(o, "frame_size", json_integer(s->frame_size));
	json_object_set_new(o, "requested_pps", json_real(s->requested_pps));
	json_object_set_new(o, "achieved_pps", json_real(s->achieved_pps));
	json_object_set_new(o, "gbps_l1", json_real(wr_units_l1_bps(s->achieved_pps,
		s->frame_size) / 1e9));
	json_object_set_new(o, "gbps_l2", json_real(wr_units_l2_bps(s->achieved_pps,
		s->frame_size) / 1e9));
	json_object_set_new(o, "sent_pkts", json_integer((json_int_t)s->sent_pkts));
	json_object_set_new(o, "received_pkts", json_integer((json_int_t)s->received_pkts));
	json_object_set_new(o, "lost_pkts", json_integer(s->lost_pkts));
	json_object_set_new(o, "excess_pkts", json_integer((json_int_t)s->excess_pkts));
	json_object_set_new(o, "loss_ratio", json_real(s->loss_ratio));
	json_object_set_new(o, "duration_s", json_real(s->duration_s));
	json_object_set_new(o, "rate_reached", json_boolean(s->rate_reached));
	if (!s->rate_reached)
		json_object_set_new(o, "rate_short_by", json_string(s->tx_refused ?
			"port" : "generator"));
	if (s->lat_valid) {
		json_object_set_new(o, "latency_mean_ns", json_real(s->lat_mean_ns));
		json_object_set_new(o, "latency_p50_ns", json_real(s->lat_p50_ns));
		json_object_set_new(o, "latency_p99_ns", json_real(s->lat_p99_ns));
		json_object_set_new(o, "latency_max_ns", json_real(s->lat_max_ns));
	}
	return o;
}

void
wr_result_mode_head(json_t *doc, const char *mode, const struct wr_config *cfg,
		uint64_t trial_ms, json_t **trials, json_t **results)
{
	*trials = json_array();
	*results = json_array();
	json_object_set_new(doc, "mode", json_string(mode));
	/* What ran: a sweep's trials last --duration (or --count), the others --trial. */
	json_object_set_new(doc, "trial_s", json_real((double)trial_ms / 1e3));
	if (cfg->mode == WR_MODE_SWEEP && cfg->count_pkts != 0)
		json_object_set_new(doc, "trial_pkts", json_integer((json_int_t)cfg->count_pkts));
	/* RFC 2544 asks 60 s trials; shorter ones are labelled as such. */
	json_object_set_new(doc, "rfc2544_trial_length", json_boolean(trial_ms >= 60000));
	if (cfg->mode == WR_MODE_THROUGHPUT)
		json_object_set_new(doc, "pdr_ratio", json_real(cfg->pdr_ratio));
	json_object_set_new(doc, "trials", *trials);
	json_object_set_new(doc, "results", *results);
}

void
wr_result_trial_record(json_t *trials, const struct wr_trial_summary *s,
		const char *what, const struct wr_run *run)
{
	json_t *o = wr_result_summary_json(s);

	json_object_set_new(o, "what", json_string(what));
	wr_result_add_trial(o, run, false);
	json_array_append_new(trials, o);
}

void
wr_result_point_upstream(json_t *res, json_t *up)
{
	json_object_set_new(res, "direction", json_string("downstream"));
	json_object_set_new(up, "direction", json_string("upstream"));
	json_object_set_new(res, "upstream", up);
}

void
wr_result_point_incomplete(json_t *res, const char *reason)
{
	json_object_set_new(res, "incomplete", json_pack("{s:s}", "reason", reason));
}

json_t *
wr_result_point(uint32_t size)
{
	json_t *res = json_object();

	json_object_set_new(res, "frame_size", json_integer(size));
	return res;
}

/* Whether res is results' last point already (wr_result_point_join). */
static bool
point_joined(const json_t *results, const json_t *res)
{
	size_t n = json_array_size(results);

	return n != 0 && json_array_get(results, n - 1) == res;
}

void
wr_result_point_done(json_t *results, json_t *res)
{
	if (point_joined(results, res))
		json_decref(res);
	else
		json_array_append_new(results, res);
}

void
wr_result_point_join(json_t *results, json_t *res)
{
	if (!point_joined(results, res))
		json_array_append(results, res);
}

void
wr_result_max_from(json_t *res, const char *from)
{
	json_object_set_new(res, "max_from", json_string(from));
}

void
wr_result_sweep(json_t *res, const struct wr_trial_summary *s)
{
	json_t *o = wr_result_summary_json(s);
	json_t *size = json_incref(json_object_get(res, "frame_size"));

	/* A later attempt's summary replaces an earlier one's, every key. */
	json_object_clear(res);
	if (size != NULL)
		json_object_set_new(res, "frame_size", size);
	/* json_object_update() copies the keys: the object is still ours. */
	json_object_update(res, o);
	json_decref(o);
}

void
wr_result_limited(json_t *res, unsigned int limited)
{
	json_object_set_new(res, "generator_limited_trials", json_integer(limited));
}

void
wr_result_search(json_t *res, const struct wr_search_result *r,
		const struct wr_trial_summary *at_ndr, uint32_t size, uint64_t link)
{
	json_object_set_new(res, "ndr_found", json_boolean(r->ndr_found));
	json_object_set_new(res, "ndr_pps", json_real(r->ndr_pps));
	json_object_set_new(res, "ndr_mpps", json_real(r->ndr_pps / 1e6));
	json_object_set_new(res, "ndr_gbps_l1", json_real(wr_units_l1_bps(r->ndr_pps, size) / 1e9));
	json_object_set_new(res, "ndr_gbps_l2", json_real(wr_units_l2_bps(r->ndr_pps, size) / 1e9));
	json_object_set_new(res, "ndr_upper_pps", json_real(r->ndr_upper_pps));
	if (link != 0)
		json_object_set_new(res, "ndr_pct_of_line", json_real(100.0 *
			r->ndr_pps / wr_units_line_rate_pps(link, size)));
	json_object_set_new(res, "pdr_found", json_boolean(r->pdr_found));
	json_object_set_new(res, "pdr_pps", json_real(r->pdr_pps));
	json_object_set_new(res, "converged", json_boolean(r->converged));
	json_object_set_new(res, "search_trials", json_integer(r->nb_trials));
	if (at_ndr->sent_pkts != 0)
		json_object_set_new(res, "at_ndr", wr_result_summary_json(at_ndr));
}

void
wr_result_loss_steps(json_t *res, const struct wr_trial_summary *steps,
		const double *pct, unsigned int n)
{
	json_t *a = json_array();
	unsigned int i;

	for (i = 0; i < n; i++) {
		json_t *o = wr_result_summary_json(&steps[i]);

		json_object_set_new(o, "pct_of_max", json_real(pct[i]));
		json_object_set_new(o, "loss_pct", json_real(100.0 * steps[i].loss_ratio));
		json_array_append_new(a, o);
	}
	json_object_set_new(res, "steps", a);
}

void
wr_result_b2b(json_t *res, const struct wr_b2b_figures *b)
{
	json_t *a = json_array();
	uint64_t sum = 0, lo = UINT64_MAX, hi = 0;
	unsigned int i;

	for (i = 0; i < b->nb_bursts; i++) {
		uint64_t n = b->bursts_pkts[i];

		json_array_append_new(a, json_integer((json_int_t)n));
		sum += n;
		lo = n < lo ? n : lo;
		hi = n > hi ? n : hi;
	}
	json_object_set_new(res, "bursts_pkts", a);
	json_object_set_new(res, "max_tried_pkts", json_integer((json_int_t)b->max_tried_pkts));
	if (b->nb_bursts > 0) {
		json_object_set_new(res, "mean_pkts", json_real((double)sum / b->nb_bursts));
		json_object_set_new(res, "min_pkts", json_integer((json_int_t)lo));
		json_object_set_new(res, "max_pkts", json_integer((json_int_t)hi));
	}
}

/* key (ending in _pps) and its L1 Gbps (KEY_gbps_l1) at size. */
static void
set_rate(json_t *o, const char *key, double pps, uint32_t size)
{
	char k[64];

	json_object_set_new(o, key, json_real(pps));
	snprintf(k, sizeof(k), "%.*s_gbps_l1", (int)(strlen(key) - 4), key);
	json_object_set_new(o, k, json_real(wr_units_l1_bps(pps, size) / 1e9));
}

static json_t *
goal_json(const struct wr_mlr_goal *goal, const struct wr_mlr_goal_result *r,
		uint32_t size)
{
	json_t *o = json_object();

	json_object_set_new(o, "loss_ratio", json_real(goal->loss_ratio));
	json_object_set_new(o, "exceed_ratio", json_real(goal->exceed_ratio));
	json_object_set_new(o, "duration_sum_s", json_real(goal->duration_sum_s));
	json_object_set_new(o, "width", json_real(goal->width));
	set_rate(o, "rlb_pps", r->rlb, size);
	set_rate(o, "rub_pps", r->rub, size);
	set_rate(o, "conditional_throughput_pps", r->cond_throughput, size);
	json_object_set_new(o, "done", json_boolean(r->done));
	json_object_set_new(o, "no_loss_up_to_max", json_boolean(r->rlb_is_max));
	json_object_set_new(o, "loss_at_min", json_boolean(r->rub_is_min));
	return o;
}

/* Every trial as the search saw it: intended and offered apart. */
static json_t *
mlr_trials_json(const struct wr_mlr_figures *f)
{
	json_t *a = json_array();
	uint32_t i;

	for (i = 0; i < f->nb_trials; i++) {
		const struct wr_mlr_trial *t = &f->trials[i];
		json_t *o = json_object();

		json_object_set_new(o, "intended_pps", json_real(t->load));
		json_object_set_new(o, "offered_pps", json_real(t->offered));
		json_object_set_new(o, "duration_s", json_real(t->duration_s));
		json_object_set_new(o, "measured_s", json_real(t->measured_s));
		json_object_set_new(o, "full_length", json_boolean(t->duration_s >=
			f->final_s));
		json_object_set_new(o, "loss_ratio", json_real(t->loss_ratio));
		json_object_set_new(o, "rate_reached", json_boolean(t->reached));
		json_object_set_new(o, "goal", json_integer(t->goal));
		json_array_append_new(a, o);
	}
	return a;
}

void
wr_result_mlr(json_t *res, const struct wr_mlr_figures *f, uint32_t size)
{
	json_t *goals = json_array();
	unsigned int g, limited = 0;
	bool done = true;
	uint32_t i;

	for (g = 0; g < f->nb_goals; g++) {
		done &= f->results[g].done;
		json_array_append_new(goals, goal_json(&f->goals[g], &f->results[g], size));
	}
	for (i = 0; i < f->nb_trials; i++)
		limited += !f->trials[i].reached;
	json_object_set_new(res, "goals", goals);
	json_object_set_new(res, "final_trial_s", json_real(f->final_s));
	json_object_set_new(res, "initial_trial_s", json_real(f->initial_s));
	json_object_set_new(res, "min_pps", json_real(f->min_pps));
	json_object_set_new(res, "max_pps", json_real(f->max_pps));
	json_object_set_new(res, "search_trials", json_integer(f->nb_trials));
	json_object_set_new(res, "search_s", json_real(f->search_s));
	json_object_set_new(res, "converged", json_boolean(done));
	wr_result_limited(res, limited);
	json_object_set_new(res, "mlr_trials", mlr_trials_json(f));
}

json_t *
wr_result_lat_head(json_t *res, const char *from, double base, const char *skipped)
{
	json_t *o = json_object(), *levels;

	json_object_set_new(res, "latency_under_load", o);
	json_object_set_new(o, "base", json_string(from));
	json_object_set_new(o, "base_pps", json_real(base));
	if (skipped != NULL) {
		json_object_set_new(o, "skipped", json_string(skipped));
		return NULL;
	}
	levels = json_array();
	json_object_set_new(o, "levels", levels);
	return levels;
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
	if (h.nb == 0) {
		json_decref(p);
		return o;
	}
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

void
wr_result_lat_level(json_t *levels, double pct, double pps,
		const struct wr_trial_summary *s, const struct wr_run *run)
{
	json_t *o = json_object();

	json_object_set_new(o, "pct", json_real(pct));
	json_object_set_new(o, "intended_pps", json_real(pps));
	json_object_set_new(o, "offered_pps", json_real(s->achieved_pps));
	json_object_set_new(o, "rate_reached", json_boolean(s->rate_reached));
	if (!s->rate_reached)
		json_object_set_new(o, "rate_short_by", json_string(s->tx_refused ?
			"port" : "generator"));
	json_object_set_new(o, "sent_pkts", json_integer((json_int_t)s->sent_pkts));
	json_object_set_new(o, "lost_pkts", json_integer(s->lost_pkts));
	json_object_set_new(o, "duration_s", json_real(s->duration_s));
	json_object_set_new(o, "latency", latency_json(run));
	json_array_append_new(levels, o);
}
