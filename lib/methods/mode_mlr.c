/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --mode mlr: the trial driver of MLRsearch (mlr.h). Each trial the search
 * asks for runs at its intended load for its duration, up to three times
 * while the generator falls short of that load (wr_mode_trial: a stalled
 * worker is not the device); the load offered is measured apart, and a
 * trial still short after its attempts counts the shortfall as loss
 * (mlr.h), so the search moves below a maximum the generator cannot offer.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/units.h"
#include "mlr.h"
#include "modes_int.h"

/* Lowest load tried, as a fraction of the maximum (as throughput). */
#define MLR_MIN_FRACTION 0.001
/* Trials per goal the search may run: enough for CSIT's 21 s sums. */
#define MLR_TRIALS_PER_GOAL 64u
/* Short trials: --trial / 10, at least this long. */
#define MLR_MIN_INITIAL_S 0.1

static void
conf_from(const struct wr_config *cfg, double max, struct wr_mlr_conf *c)
{
	memset(c, 0, sizeof(*c));
	c->max_load = max;
	c->min_load = max * MLR_MIN_FRACTION;
	c->final_s = (double)cfg->trial_ms / 1e3;
	c->initial_s = cfg->mlr_initial_ms != 0 ? (double)cfg->mlr_initial_ms / 1e3 :
		RTE_MAX(c->final_s / 10, MLR_MIN_INITIAL_S);
	if (c->initial_s > c->final_s)
		c->initial_s = c->final_s;
	c->nb_goals = cfg->nb_goals;
	memcpy(c->goals, cfg->goals, sizeof(c->goals));
	c->max_trials = wr_mode_mlr_max_trials(cfg);
}

uint32_t
wr_mode_mlr_max_trials(const struct wr_config *cfg)
{
	return RTE_MIN(WR_MLR_MAX_TRIALS, MLR_TRIALS_PER_GOAL * cfg->nb_goals);
}

static void
set_rate(json_t *o, const char *key, double pps, uint32_t size)
{
	char k[64];

	json_object_set_new(o, key, json_real(pps));
	snprintf(k, sizeof(k), "%.*s_gbps_l1", (int)(strlen(key) - 4), key);
	json_object_set_new(o, k, json_real(wr_units_l1_bps(pps, size) / 1e9));
}

static json_t *
goal_json(const struct wr_mlr *s, unsigned int g, uint32_t size)
{
	const struct wr_mlr_goal *goal = &s->conf.goals[g];
	struct wr_mlr_goal_result r;
	json_t *o = json_object();

	wr_mlr_result(s, g, &r);
	json_object_set_new(o, "loss_ratio", json_real(goal->loss_ratio));
	json_object_set_new(o, "exceed_ratio", json_real(goal->exceed_ratio));
	json_object_set_new(o, "duration_sum_s", json_real(goal->duration_sum_s));
	json_object_set_new(o, "width", json_real(goal->width));
	set_rate(o, "rlb_pps", r.rlb, size);
	set_rate(o, "rub_pps", r.rub, size);
	set_rate(o, "conditional_throughput_pps", r.cond_throughput, size);
	json_object_set_new(o, "done", json_boolean(r.done));
	json_object_set_new(o, "no_loss_up_to_max", json_boolean(r.rlb_is_max));
	json_object_set_new(o, "loss_at_min", json_boolean(r.rub_is_min));
	return o;
}

/* Every trial as the search saw it: intended and offered apart. */
static json_t *
trials_json(const struct wr_mlr *s)
{
	json_t *a = json_array();
	uint32_t i;

	for (i = 0; i < s->nb_trials; i++) {
		const struct wr_mlr_trial *t = &s->trials[i];
		json_t *o = json_object();

		json_object_set_new(o, "intended_pps", json_real(t->load));
		json_object_set_new(o, "offered_pps", json_real(t->offered));
		json_object_set_new(o, "duration_s", json_real(t->duration_s));
		json_object_set_new(o, "measured_s", json_real(t->measured_s));
		json_object_set_new(o, "full_length", json_boolean(t->duration_s >=
			s->conf.final_s));
		json_object_set_new(o, "loss_ratio", json_real(t->loss_ratio));
		json_object_set_new(o, "rate_reached", json_boolean(t->reached));
		json_object_set_new(o, "goal", json_integer(t->goal));
		json_array_append_new(a, o);
	}
	return a;
}

static void
result_json(json_t *res, const struct wr_mlr *s, uint32_t size, double secs)
{
	json_t *goals = json_array();
	unsigned int g, limited = 0;
	bool done = true;
	uint32_t i;

	for (g = 0; g < s->conf.nb_goals; g++) {
		json_t *o = goal_json(s, g, size);

		done &= json_is_true(json_object_get(o, "done"));
		json_array_append_new(goals, o);
	}
	for (i = 0; i < s->nb_trials; i++)
		limited += !s->trials[i].reached;
	json_object_set_new(res, "goals", goals);
	json_object_set_new(res, "final_trial_s", json_real(s->conf.final_s));
	json_object_set_new(res, "initial_trial_s", json_real(s->conf.initial_s));
	json_object_set_new(res, "min_pps", json_real(s->conf.min_load));
	json_object_set_new(res, "max_pps", json_real(s->conf.max_load));
	json_object_set_new(res, "search_trials", json_integer(s->nb_trials));
	json_object_set_new(res, "search_s", json_real(secs));
	json_object_set_new(res, "converged", json_boolean(done));
	json_object_set_new(res, "generator_limited_trials", json_integer(limited));
	json_object_set_new(res, "mlr_trials", trials_json(s));
}

int
wr_mode_mlr(struct mode_ctx *m, uint32_t size, json_t *res)
{
	static struct wr_mlr s;   /* ~30 kB: not on the stack */
	struct wr_trial_summary sum;
	struct wr_mlr_conf c;
	struct wr_trial t;
	double load, dur, secs = 0, loss;
	int rc;

	rc = wr_mode_max_rate(m, size, &load, res);
	if (rc != 0)
		return rc;
	conf_from(m->run->setup.cfg, load, &c);
	if (wr_mlr_init(&s, &c) != 0) {
		return wr_err_usage(m->err, -EINVAL, "--mode mlr: goals or durations "
			"out of range");
	}
	while ((rc = wr_mlr_next(&s, &load, &dur)) == WR_MLR_TRIAL) {
		/* The trial cap bounds the search; latency trials follow it. */
		m->size_left = c.max_trials - s.nb_trials + m->run->setup.cfg->nb_lat_loads;
		snprintf(m->prog.phase, sizeof(m->prog.phase), "goal %u/%u %s",
			s.goal + 1, c.nb_goals, dur < c.final_s ? "short" : "final");
		wr_mode_trial_at(size, load, (uint64_t)(dur * 1e3 + 0.5), &t);
		rc = wr_mode_trial(m, &t, dur < c.final_s ? "mlr short" : "mlr", &sum);
		if (rc != 0)
			break;
		loss = sum.sent_pkts == 0 || sum.lost_pkts <= 0 ? 0 :
			(double)sum.lost_pkts / (double)sum.sent_pkts;
		secs += sum.duration_s;
		rc = wr_mlr_report(&s, sum.achieved_pps, sum.duration_s > 0 ?
			sum.duration_s : dur, loss, sum.rate_reached && sum.sent_pkts > 0);
		if (rc != 0)
			break;
	}
	result_json(res, &s, size, secs);
	return rc < 0 ? rc : 0;
}
