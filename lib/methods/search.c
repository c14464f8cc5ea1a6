/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "search.h"

/* Percent below which the frame-loss-rate sequence stops (rounding). */
#define FLR_MIN_PCT 1e-9

/* Bounds of one target from the trials so far (see search.h). */
struct search_bounds {
	double lo;	/* highest passing rate below hi */
	double hi;	/* lowest failing rate */
	bool has_lo;
	bool has_hi;
};

/* Whether trial t meets a target of loss ratio <= ratio (0: no loss). */
static bool
search_pass(const struct wr_search_trial *t, double ratio)
{
	if (t->nb_lost_pkts == 0)
		return true;
	return (double)t->nb_lost_pkts <= ratio * (double)t->nb_sent_pkts;
}

/* hi = lowest failure, lo = highest pass below it (RFC 2544 26.1). */
static void
search_bounds(const struct wr_search *s, double ratio, struct search_bounds *b)
{
	const struct wr_search_trial *t;
	uint32_t i;

	memset(b, 0, sizeof(*b));
	for (i = 0; i < s->nb_trials; i++) {
		t = &s->trials[i];
		if (search_pass(t, ratio))
			continue;
		if (!b->has_hi || t->rate_pps < b->hi) {
			b->hi = t->rate_pps;
			b->has_hi = true;
		}
	}
	for (i = 0; i < s->nb_trials; i++) {
		t = &s->trials[i];
		if (!search_pass(t, ratio))
			continue;
		if (b->has_hi && t->rate_pps >= b->hi)
			continue;
		if (!b->has_lo || t->rate_pps > b->lo) {
			b->lo = t->rate_pps;
			b->has_lo = true;
		}
	}
}

/* Widest [lo, hi] interval that counts as resolved. */
static double
search_width(const struct wr_search_conf *c, double hi)
{
	double rel = c->res_rel * hi;

	return rel > c->res_pps ? rel : c->res_pps;
}

/*
 * Next rate for the target of loss ratio ratio, in *rate; false when the
 * target is resolved (see search.h for the rule).
 */
static bool
search_target_next(const struct wr_search *s, double ratio, double *rate)
{
	const struct wr_search_conf *c = &s->conf;
	struct search_bounds b;

	search_bounds(s, ratio, &b);
	if (!b.has_hi) {
		/* Nothing failed: start, or stay, at the maximum rate. */
		if (b.has_lo && c->max_pps - b.lo <=
				search_width(c, c->max_pps))
			return false;
		*rate = c->max_pps;
		return true;
	}
	if (!b.has_lo) {
		if (b.hi <= c->min_pps)
			return false; /* loss even at the minimum: not found */
		if (b.hi - c->min_pps <= search_width(c, b.hi))
			*rate = c->min_pps;
		else
			*rate = (c->min_pps + b.hi) / 2.0;
		return true;
	}
	if (b.hi - b.lo <= search_width(c, b.hi))
		return false;
	*rate = (b.lo + b.hi) / 2.0;
	return true;
}

/* Loss ratios of the targets: NDR, then PDR when asked for. */
static unsigned int
search_targets(const struct wr_search *s, double ratio[2])
{
	ratio[0] = 0.0;
	ratio[1] = s->conf.pdr_loss_ratio;
	return s->conf.pdr_loss_ratio > 0.0 ? 2 : 1;
}

/* Whether r is a usable rate: finite and positive. */
static bool
search_rate_ok(double r)
{
	return isfinite(r) && r > 0.0;
}

int
wr_search_init(struct wr_search *s, const struct wr_search_conf *conf)
{
	const struct wr_search_conf *c = conf;

	if (s == NULL || c == NULL)
		return -EINVAL;
	if (!search_rate_ok(c->min_pps) || !search_rate_ok(c->max_pps) ||
			c->max_pps < c->min_pps)
		return -EINVAL;
	if (!isfinite(c->res_pps) || !(c->res_pps >= 0.0) ||
			!(c->res_rel >= 0.0 && c->res_rel < 1.0) ||
			(c->res_pps == 0.0 && c->res_rel == 0.0))
		return -EINVAL;
	if (!(c->pdr_loss_ratio >= 0.0 && c->pdr_loss_ratio < 1.0))
		return -EINVAL;
	if (c->max_trials == 0 || c->max_trials > WR_SEARCH_MAX_TRIALS)
		return -EINVAL;
	memset(s, 0, sizeof(*s));
	s->conf = *c;
	return 0;
}

int
wr_search_next(struct wr_search *s, double *rate_pps)
{
	double ratio[2];
	unsigned int i, n;

	if (s == NULL || rate_pps == NULL)
		return -EINVAL;
	if (s->pending) {
		*rate_pps = s->pending_pps;
		return WR_SEARCH_TRIAL;
	}
	if (s->nb_trials >= s->conf.max_trials)
		return WR_SEARCH_DONE;
	n = search_targets(s, ratio);
	for (i = 0; i < n; i++) {
		if (search_target_next(s, ratio[i], &s->pending_pps)) {
			s->pending = true;
			*rate_pps = s->pending_pps;
			return WR_SEARCH_TRIAL;
		}
	}
	return WR_SEARCH_DONE;
}

int
wr_search_report(struct wr_search *s, double rate_pps, uint64_t nb_sent,
		uint64_t nb_lost)
{
	struct wr_search_trial *t;

	if (s == NULL || !s->pending || !search_rate_ok(rate_pps) ||
			nb_sent == 0 || nb_lost > nb_sent)
		return -EINVAL;
	t = &s->trials[s->nb_trials++];
	t->rate_pps = rate_pps;
	t->nb_sent_pkts = nb_sent;
	t->nb_lost_pkts = nb_lost;
	s->pending = false;
	return 0;
}

uint64_t
wr_search_evidence_loss(bool reached, uint64_t nb_sent, int64_t lost_pkts)
{
	uint64_t lost = lost_pkts > 0 ? (uint64_t)lost_pkts : 0;

	if (lost > nb_sent)
		lost = nb_sent; /* duplicates cannot make loss exceed what was sent */
	return reached ? lost : nb_sent;
}

int
wr_search_result(const struct wr_search *s, struct wr_search_result *res)
{
	struct search_bounds b[2];
	double ratio[2], unused;
	unsigned int i, n;

	if (s == NULL || res == NULL)
		return -EINVAL;
	memset(res, 0, sizeof(*res));
	res->converged = true;
	n = search_targets(s, ratio);
	for (i = 0; i < n; i++) {
		search_bounds(s, ratio[i], &b[i]);
		if (search_target_next(s, ratio[i], &unused))
			res->converged = false;
	}
	if (n == 1)
		b[1] = b[0];
	res->ndr_pps = b[0].has_lo ? b[0].lo : 0.0;
	res->ndr_upper_pps = b[0].has_hi ? b[0].hi : 0.0;
	res->ndr_found = b[0].has_lo;
	res->pdr_pps = b[1].has_lo ? b[1].lo : 0.0;
	res->pdr_upper_pps = b[1].has_hi ? b[1].hi : 0.0;
	res->pdr_found = b[1].has_lo;
	res->nb_trials = s->nb_trials;
	return 0;
}

int
wr_search_flr_init(struct wr_search_flr *f, double max_pps, double step_pct)
{
	if (f == NULL || !search_rate_ok(max_pps) ||
			!(step_pct > 0.0 && step_pct <= 10.0))
		return -EINVAL;
	memset(f, 0, sizeof(*f));
	f->max_pps = max_pps;
	f->step_pct = step_pct;
	return 0;
}

int
wr_search_flr_next(struct wr_search_flr *f, double *rate_pps, double *pct)
{
	/* RFC 2544 26.3: 100% first, then down by at most 10% a trial. */
	double p;

	if (f == NULL || rate_pps == NULL)
		return -EINVAL;
	if (f->done)
		return WR_SEARCH_DONE;
	p = 100.0 - (double)f->step_idx * f->step_pct;
	if (p < FLR_MIN_PCT) {
		f->done = true;
		return WR_SEARCH_DONE;
	}
	f->pending = true;
	*rate_pps = f->max_pps * p / 100.0;
	if (pct != NULL)
		*pct = p;
	return WR_SEARCH_TRIAL;
}

int
wr_search_flr_report(struct wr_search_flr *f, uint64_t nb_sent,
		uint64_t nb_lost)
{
	if (f == NULL || !f->pending || nb_sent == 0 || nb_lost > nb_sent)
		return -EINVAL;
	f->pending = false;
	f->step_idx++;
	/* RFC 2544 26.3: stop after two successive trials without loss. */
	f->nb_clean_in_row = nb_lost == 0 ? f->nb_clean_in_row + 1 : 0;
	if (f->nb_clean_in_row >= 2)
		f->done = true;
	return 0;
}

int
wr_search_ndr_trial(const struct wr_search *s, const struct wr_search_result *res)
{
	uint32_t i;

	for (i = 0; res->ndr_found && i < s->nb_trials; i++)
		if (s->trials[i].rate_pps == res->ndr_pps &&
				search_pass(&s->trials[i], 0.0))
			return (int)i;
	return -1;
}
