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

/* The figures of search s, searched for secs, into res. */
static void
record(struct mode_ctx *m, json_t *res, const struct wr_mlr *s, uint32_t size,
		double secs)
{
	struct wr_mlr_goal_result r[WR_MLR_MAX_GOALS];
	struct wr_mlr_figures f = {
		.nb_goals = s->conf.nb_goals, .goals = s->conf.goals, .results = r,
		.nb_trials = s->nb_trials, .trials = s->trials,
		.final_s = s->conf.final_s, .initial_s = s->conf.initial_s,
		.min_pps = s->conf.min_load, .max_pps = s->conf.max_load,
		.search_s = secs,
	};
	unsigned int g;

	for (g = 0; g < s->conf.nb_goals; g++)
		wr_mlr_result(s, g, &r[g]);
	wr_result_mlr(res, &f, size);
	/* Latency under load takes shares of the last goal's conditional
	 * throughput (CSIT's PDR with the default goals). */
	m->lat_base_from = "mlr last goal conditional throughput";
	m->lat_base_pps = s->conf.nb_goals > 0 ?
		r[s->conf.nb_goals - 1].cond_throughput : 0.0;
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
	record(m, res, &s, size, secs);
	return rc < 0 ? rc : 0;
}
