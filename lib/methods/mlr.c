/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "mlr.h"

/* Load classification of one goal at one load (mlr.h). */
enum cls {
	CLS_NONE = 0,        /* no full-length trial there */
	CLS_LOWER,
	CLS_UPPER,
	CLS_UNDECIDED,
};


static bool
goal_ok(const struct wr_mlr_goal *g)
{
	return g->loss_ratio >= 0 && g->loss_ratio < 1 && g->exceed_ratio >= 0 &&
		g->exceed_ratio < 1 && g->duration_sum_s > 0 &&
		isfinite(g->duration_sum_s) && g->width > 0 && g->width < 1;
}

int
wr_mlr_init(struct wr_mlr *m, const struct wr_mlr_conf *c)
{
	unsigned int i;

	if (m == NULL || c == NULL || !isfinite(c->min_load) || c->min_load <= 0 ||
			!isfinite(c->max_load) || c->max_load < c->min_load ||
			!(c->final_s > 0) || !(c->initial_s > 0) ||
			c->initial_s > c->final_s || c->nb_goals == 0 ||
			c->nb_goals > WR_MLR_MAX_GOALS || c->max_trials == 0 ||
			c->max_trials > WR_MLR_MAX_TRIALS)
		return -EINVAL;
	for (i = 0; i < c->nb_goals; i++)
		if (!goal_ok(&c->goals[i]))
			return -EINVAL;
	memset(m, 0, sizeof(*m));
	m->conf = *c;
	return 0;
}

/* Whether trial t is full-length: only those classify a load. */
static bool
full(const struct wr_mlr *m, const struct wr_mlr_trial *t)
{
	return t->duration_s >= m->conf.final_s;
}

/* The draft's load classification of goal g at load (exact match). */
static enum cls
classify(const struct wr_mlr *m, const struct wr_mlr_goal *g, double load)
{
	double pos = 0, neg = 0, miss, whole;
	uint32_t i;

	for (i = 0; i < m->nb_trials; i++) {
		const struct wr_mlr_trial *t = &m->trials[i];

		if (t->load != load || !full(m, t))
			continue;
		if (t->loss_ratio > g->loss_ratio)
			neg += t->duration_s;
		else
			pos += t->duration_s;
	}
	if (pos + neg == 0)
		return CLS_NONE;
	miss = fmax(0.0, g->duration_sum_s - pos - neg);
	whole = pos + neg + miss;
	if (neg / whole > g->exceed_ratio)
		return CLS_UPPER;
	if ((neg + miss) / whole <= g->exceed_ratio)
		return CLS_LOWER;
	return CLS_UNDECIDED;
}

/* Conditional throughput at load (a lower bound of g). */
static double
cond_throughput(const struct wr_mlr *m, const struct wr_mlr_goal *g,
		double load)
{
	double loss[WR_MLR_MAX_TRIALS], dur[WR_MLR_MAX_TRIALS], sum = 0, q, cum = 0;
	uint32_t i, j, n = 0;

	for (i = 0; i < m->nb_trials; i++) {
		const struct wr_mlr_trial *t = &m->trials[i];

		if (t->load != load || !full(m, t))
			continue;
		/* Insertion by loss ratio, best first. */
		for (j = n; j > 0 && loss[j - 1] > t->loss_ratio; j--) {
			loss[j] = loss[j - 1];
			dur[j] = dur[j - 1];
		}
		loss[j] = t->loss_ratio;
		dur[j] = t->duration_s;
		sum += t->duration_s;
		n++;
	}
	q = (1.0 - g->exceed_ratio) * fmax(g->duration_sum_s, sum);
	for (i = 0; i < n; i++) {
		cum += dur[i];
		if (cum >= q)
			return load * (1.0 - loss[i]);
	}
	return n > 0 ? load * (1.0 - loss[n - 1]) : 0.0;
}

int
wr_mlr_result(const struct wr_mlr *m, unsigned int gi,
		struct wr_mlr_goal_result *r)
{
	const struct wr_mlr_goal *g;
	uint32_t i;

	if (m == NULL || r == NULL || gi >= m->conf.nb_goals)
		return -EINVAL;
	g = &m->conf.goals[gi];
	memset(r, 0, sizeof(*r));
	for (i = 0; i < m->nb_trials; i++) {
		double l = m->trials[i].load;

		if (classify(m, g, l) == CLS_UPPER && (r->rub == 0 || l < r->rub))
			r->rub = l;
	}
	for (i = 0; i < m->nb_trials; i++) {
		double l = m->trials[i].load;

		if (classify(m, g, l) == CLS_LOWER && (r->rub == 0 || l < r->rub) &&
				l > r->rlb)
			r->rlb = l;
	}
	r->rlb_is_max = r->rub == 0 && r->rlb >= m->conf.max_load;
	r->rub_is_min = r->rub != 0 && r->rub <= m->conf.min_load;
	r->done = r->rlb_is_max || r->rub_is_min || (r->rlb != 0 && r->rub != 0 &&
		(r->rub - r->rlb) / r->rub <= g->width);
	if (r->rlb != 0)
		r->cond_throughput = cond_throughput(m, g, r->rlb);
	return 0;
}

/*
 * The short-stage interval of goal g from every trial, short or
 * full: hi the lowest load that lost more than GLR, lo the highest load
 * below hi that did not (0: none).
 */
static void
short_interval(const struct wr_mlr *m, const struct wr_mlr_goal *g,
		double *lo, double *hi)
{
	uint32_t i;

	*lo = *hi = 0;
	for (i = 0; i < m->nb_trials; i++) {
		const struct wr_mlr_trial *t = &m->trials[i];

		if (t->loss_ratio > g->loss_ratio && (*hi == 0 || t->load < *hi))
			*hi = t->load;
	}
	for (i = 0; i < m->nb_trials; i++) {
		const struct wr_mlr_trial *t = &m->trials[i];

		if (t->loss_ratio <= g->loss_ratio && t->load > *lo &&
				(*hi == 0 || t->load < *hi))
			*lo = t->load;
	}
}

/* Step 1: the next short trial of goal g, or 0 once its interval holds. */
static double
short_next(const struct wr_mlr *m, const struct wr_mlr_goal *g)
{
	double lo, hi;

	if (m->conf.initial_s >= m->conf.final_s)
		return 0;
	short_interval(m, g, &lo, &hi);
	if (lo == 0 && hi == 0)
		return m->conf.max_load;
	if (hi == 0 || lo >= m->conf.max_load)
		return 0;     /* no loss up to the maximum */
	if (lo == 0)
		return hi <= m->conf.min_load ? 0 :
			fmax(m->conf.min_load, (m->conf.min_load + hi) / 2);
	return (hi - lo) / hi <= g->width ? 0 : (lo + hi) / 2;
}

/* The lowest undecided load strictly inside (lo, hi); 0 when none. */
static double
undecided(const struct wr_mlr *m, const struct wr_mlr_goal *g, double lo,
		double hi)
{
	double best = 0;
	uint32_t i;

	for (i = 0; i < m->nb_trials; i++) {
		double l = m->trials[i].load;

		if (l > lo && (hi == 0 || l < hi) && (best == 0 || l < best) &&
				classify(m, g, l) == CLS_UNDECIDED)
			best = l;
	}
	return best;
}

/* Step 2: the next full-length trial of goal gi (not done). */
static double
full_next(struct wr_mlr *m, unsigned int gi, const struct wr_mlr_goal_result *r)
{
	const struct wr_mlr_goal *g = &m->conf.goals[gi];
	double slo, shi, u = undecided(m, g, r->rlb, r->rub), step;

	if (u != 0)
		return u;
	short_interval(m, g, &slo, &shi);
	if (r->rlb != 0 && r->rub != 0)
		return (r->rlb + r->rub) / 2;
	if (r->rlb == 0 && r->rub == 0)
		return slo != 0 ? slo : shi != 0 ? m->conf.min_load : m->conf.max_load;
	/* One side proven: try the short stage's other end, then widen. */
	step = g->width * (double)(1u << RTE_MIN(m->widen[gi], 20u));
	m->widen[gi]++;
	if (r->rub == 0)
		return fmin(m->conf.max_load, shi > r->rlb && classify(m, g, shi) ==
			CLS_NONE ? shi : r->rlb * (1 + step));
	return fmax(m->conf.min_load, slo != 0 && slo < r->rub &&
		classify(m, g, slo) == CLS_NONE ? slo : r->rub * (1 - step));
}

int
wr_mlr_next(struct wr_mlr *m, double *load, double *duration_s)
{
	struct wr_mlr_goal_result r;
	unsigned int gi;
	double l;

	if (m == NULL || load == NULL || duration_s == NULL)
		return -EINVAL;
	if (m->pending) {
		*load = m->pending_load;
		*duration_s = m->pending_s;
		return WR_MLR_TRIAL;
	}
	if (m->nb_trials >= m->conf.max_trials)
		return WR_MLR_DONE;
	for (gi = 0; gi < m->conf.nb_goals; gi++) {
		wr_mlr_result(m, gi, &r);
		if (r.done)
			continue;
		/* Short trials only until full-length ones have begun. */
		l = r.rlb != 0 || r.rub != 0 || undecided(m, &m->conf.goals[gi],
			0, 0) != 0 ? 0 : short_next(m, &m->conf.goals[gi]);
		m->pending_s = l != 0 ? m->conf.initial_s : m->conf.final_s;
		if (l == 0)
			l = full_next(m, gi, &r);
		m->goal = gi;
		m->pending = true;
		m->pending_load = l;
		*load = l;
		*duration_s = m->pending_s;
		return WR_MLR_TRIAL;
	}
	return WR_MLR_DONE;
}

int
wr_mlr_report(struct wr_mlr *m, double offered, double duration_s,
		double loss_ratio, bool reached)
{
	struct wr_mlr_trial *t;

	if (m == NULL || !m->pending || m->nb_trials >= WR_MLR_MAX_TRIALS ||
			!(offered >= 0) || !isfinite(offered) || !(duration_s > 0) ||
			!(loss_ratio >= 0 && loss_ratio <= 1))
		return -EINVAL;
	t = &m->trials[m->nb_trials++];
	t->load = m->pending_load;
	t->offered = offered;
	/* Classification counts the intended duration (the draft's trial
	 * duration attribute); the measured one is kept for the record. */
	t->duration_s = m->pending_s;
	t->measured_s = duration_s;
	/*
	 * The draft's trial loss counts against the intended load: frames the
	 * generator could not offer at it were not forwarded at it either, so
	 * the load is high-loss and the search moves below what the generator
	 * can offer instead of stalling at an unreachable maximum.
	 */
	if (!reached && offered < t->load)
		loss_ratio = fmax(loss_ratio, 1.0 - offered / t->load);
	t->loss_ratio = loss_ratio;
	t->reached = reached;
	t->goal = m->goal;
	m->pending = false;
	return 0;
}
