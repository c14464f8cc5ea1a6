/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <string.h>

#include "rfc2889.h"

int
wr_count_search_init(struct wr_count_search *s,
		const struct wr_count_search_conf *c, struct wr_error *err)
{
	if (c->min_nb < 1)
		return wr_err_usage(err, -EINVAL, "address search: the smallest "
			"count must be at least 1");
	if (c->max_nb < c->min_nb)
		return wr_err_usage(err, -EINVAL, "address search: the largest "
			"count (%u) is below the smallest (%u)", c->max_nb, c->min_nb);
	if (c->res_nb < 1)
		return wr_err_usage(err, -EINVAL, "address search: the resolution "
			"must be at least 1 address");
	if (c->max_trials < 1 || c->max_trials > WR_COUNT_SEARCH_MAX_TRIALS)
		return wr_err_usage(err, -EINVAL, "address search: the trial cap "
			"%u is outside 1..%u", c->max_trials,
			WR_COUNT_SEARCH_MAX_TRIALS);
	memset(s, 0, sizeof(*s));
	s->conf = *c;
	return 0;
}

/* Whether nothing is left to try. */
static bool
resolved(const struct wr_count_search *s)
{
	const struct wr_count_search_conf *c = &s->conf;

	if (s->has_lo && !s->has_hi)
		return true;	/* max_nb passed */
	if (s->has_hi && s->hi <= c->min_nb)
		return true;	/* min_nb failed */
	return s->has_lo && s->has_hi && s->hi - s->lo <= c->res_nb;
}

enum wr_search_step
wr_count_search_next(struct wr_count_search *s, uint32_t *nb)
{
	const struct wr_count_search_conf *c = &s->conf;
	uint32_t lo;

	if (s->nb_trials >= c->max_trials || resolved(s))
		return WR_SEARCH_DONE;
	if (!s->has_hi) {
		s->next_nb = c->max_nb;
	} else if (!s->has_lo && s->hi - c->min_nb <= c->res_nb) {
		s->next_nb = c->min_nb;	/* the last chance of a pass */
	} else {
		lo = s->has_lo ? s->lo : c->min_nb;
		s->next_nb = lo + (s->hi - lo) / 2;
		if (s->next_nb == lo && s->has_lo)
			s->next_nb++;
	}
	*nb = s->next_nb;
	return WR_SEARCH_TRIAL;
}

/* Largest pass below hi among every trial. */
static bool
best_pass(const struct wr_count_search *s, uint32_t *nb)
{
	bool any = false;
	uint32_t t;

	for (t = 0; t < s->nb_trials; t++) {
		const struct wr_count_trial *x = &s->trials[t];

		if (x->pass && (!s->has_hi || x->nb < s->hi) && (!any || x->nb > *nb)) {
			*nb = x->nb;
			any = true;
		}
	}
	return any;
}

int
wr_count_search_report(struct wr_count_search *s, bool pass)
{
	uint32_t nb = s->next_nb;

	if (s->nb_trials >= s->conf.max_trials)
		return -ENOSPC;
	s->trials[s->nb_trials].nb = nb;
	s->trials[s->nb_trials].pass = pass;
	s->nb_trials++;
	if (!pass && (!s->has_hi || nb < s->hi)) {
		s->hi = nb;
		s->has_hi = true;
	}
	/* lo: the largest pass below hi (one at or above a failure is not
	 * believed). */
	s->has_lo = best_pass(s, &s->lo);
	return 0;
}

void
wr_count_search_result(const struct wr_count_search *s,
		struct wr_count_result *r)
{
	memset(r, 0, sizeof(*r));
	r->found = best_pass(s, &r->capacity_nb);
	r->converged = resolved(s);
	r->at_max = r->found && !s->has_hi;
	r->fail_nb = s->has_hi ? s->hi : 0;
}

bool
wr_rfc2889_pass(const struct wr_rfc2889_counts *c)
{
	return c->flooded_pkts == 0 && c->test_sent_pkts > 0 &&
		c->test_rx_pkts >= c->test_sent_pkts;
}

double
wr_rfc2889_trial_s(const struct wr_rfc2889_timing *t)
{
	return (double)t->nb / t->learn_pps + t->settle_s +
		(double)t->nb / t->test_pps;
}

int
wr_rfc2889_check_aging(const struct wr_rfc2889_timing *t, double aging_s,
		struct wr_error *err)
{
	double trial_s;

	if (t->learn_pps <= 0 || t->test_pps <= 0)
		return wr_err_usage(err, -EINVAL, "address trial: the learning "
			"and test rates must be above 0 frames/s");
	trial_s = wr_rfc2889_trial_s(t);
	if (aging_s > 0 && trial_s >= aging_s)
		return wr_err_usage(err, -EINVAL, "--aging %.3f s: a trial of %u "
			"addresses takes %.3f s, not inside the ageing time (raise "
			"the rates or lower the count)", aging_s, t->nb, trial_s);
	return 0;
}
