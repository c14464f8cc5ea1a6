/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for mlr.c: the draft's load classification, relevant bounds
 * and conditional throughput on hand-made trials, then whole searches
 * against simulated devices (clean, noisy, a generator that falls short).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "methods/mlr.h"
#include "methods/search.h"
#include "wr_test.h"

static struct wr_mlr_conf
conf_of(double glr, double ger, double gds, double width)
{
	struct wr_mlr_conf c;

	memset(&c, 0, sizeof(c));
	c.min_load = 1000;
	c.max_load = 10e6;
	c.final_s = 1.0;
	c.initial_s = 0.1;
	c.nb_goals = 1;
	c.goals[0] = (struct wr_mlr_goal){ glr, ger, gds, width };
	c.max_trials = WR_MLR_MAX_TRIALS;
	return c;
}

/* Append a trial by hand (what report() records). */
static void
add(struct wr_mlr *m, double load, double dur, double loss, bool valid)
{
	struct wr_mlr_trial *t = &m->trials[m->nb_trials++];

	memset(t, 0, sizeof(*t));
	t->load = load;
	t->offered = valid ? load : load / 2;
	t->duration_s = dur;
	t->measured_s = dur;
	t->loss_ratio = loss;
	t->reached = valid;
}

/* GER 0.5, GDS 3 s: the exceed-ratio arithmetic of the draft. */
static void
test_classification(void)
{
	struct wr_mlr_conf c = conf_of(0.0, 0.5, 3.0, 0.2);
	struct wr_mlr_goal_result r;
	struct wr_mlr m;

	c.min_load = 10;
	WR_CHECK_U64(wr_mlr_init(&m, &c), 0);
	/* 100: 2 s low, 1 s high: pessimistic 1/3 <= 0.5, a lower bound. */
	add(&m, 100, 1, 0, true);
	add(&m, 100, 1, 0.01, true);
	add(&m, 100, 1, 0, true);
	/* 110: 2 s high, 1 s missing: optimistic 2/3 > 0.5, an upper bound. */
	add(&m, 110, 1, 0.2, true);
	add(&m, 110, 1, 0.3, true);
	/* 105: 1 s high, 2 missing: optimistic 1/3, pessimistic 1: undecided. */
	add(&m, 105, 1, 0.1, true);
	/* Short trials are no evidence; a generator-limited one is (its
	 * shortfall is loss): at 120 it is one more upper bound. */
	add(&m, 90, 0.5, 1.0, true);
	add(&m, 120, 1, 0.5, false);
	WR_CHECK_U64(wr_mlr_result(&m, 0, &r), 0);
	WR_CHECK_NEAR(r.rub, 110, 0);
	WR_CHECK_NEAR(r.rlb, 100, 0);
	/* (110 - 100) / 110 = 0.09 <= 0.2 */
	WR_CHECK(r.done);
	/* CT: best 1.5 s of 3 reached at the second best trial (loss 0). */
	WR_CHECK_NEAR(r.cond_throughput, 100, 1e-9);
	WR_CHECK(!r.rlb_is_max && !r.rub_is_min);
}

/* Conditional throughput picks the trial at the (1 - GER) quantile. */
static void
test_cond_throughput(void)
{
	struct wr_mlr_conf c = conf_of(0.005, 0.5, 4.0, 0.2);
	struct wr_mlr_goal_result r;
	struct wr_mlr m;

	WR_CHECK_U64(wr_mlr_init(&m, &c), 0);
	add(&m, 1000, 1, 0.004, true);
	add(&m, 1000, 1, 0.001, true);
	add(&m, 1000, 1, 0.002, true);
	add(&m, 1000, 1, 0.1, true);
	/* sorted 0.001 0.002 0.004 0.1; (1 - 0.5) x 4 = 2 s: the second. */
	WR_CHECK_U64(wr_mlr_result(&m, 0, &r), 0);
	WR_CHECK_NEAR(r.rlb, 1000, 0);
	WR_CHECK_NEAR(r.cond_throughput, 1000 * (1 - 0.002), 1e-9);
	/* No upper bound and the max never tried: not done. */
	WR_CHECK(!r.done);
	/* With GER 0 the same trials are an upper bound (0.1 > 0.005). */
	c.goals[0].exceed_ratio = 0;
	m.conf = c;
	WR_CHECK_U64(wr_mlr_result(&m, 0, &r), 0);
	WR_CHECK_NEAR(r.rub, 1000, 0);
	WR_CHECK_NEAR(r.rlb, 0, 0);
	WR_CHECK(r.rub_is_min);
}

/* A relevant lower bound lies below the relevant upper bound. */
static void
test_bound_order(void)
{
	struct wr_mlr_conf c = conf_of(0.0, 0.0, 1.0, 0.01);
	struct wr_mlr_goal_result r;
	struct wr_mlr m;

	c.min_load = 10;
	WR_CHECK_U64(wr_mlr_init(&m, &c), 0);
	add(&m, 200, 1, 0, true);   /* a pass above a failure: not believed */
	add(&m, 150, 1, 0.01, true);
	add(&m, 120, 1, 0, true);
	WR_CHECK_U64(wr_mlr_result(&m, 0, &r), 0);
	WR_CHECK_NEAR(r.rub, 150, 0);
	WR_CHECK_NEAR(r.rlb, 120, 0);
	WR_CHECK(!r.done);
}

/* Device: no loss up to knee, then loss ratio slope x (load - knee) / knee. */
struct dut {
	double knee;
	double slope;
	double noise;       /* chance that a trial loses 1% anyway */
	double gen_max;     /* the generator reaches at most this, 0: any */
	uint64_t prng;
};

/* Run a search against d; returns the trial count, total seconds in *s. */
static uint32_t
run(struct wr_mlr *m, struct dut *d, double *s)
{
	double load, dur, loss;
	uint32_t n = 0;
	int rc;

	*s = 0;
	while ((rc = wr_mlr_next(m, &load, &dur)) == WR_MLR_TRIAL) {
		bool valid = d->gen_max == 0 || load <= d->gen_max;

		loss = load <= d->knee ? 0 : fmin(1, d->slope * (load - d->knee) / d->knee);
		if (d->noise > 0 && (double)(wr_test_prng(&d->prng) >> 11) / 9007199254740992.0 <
				d->noise)
			loss = fmax(loss, 0.01);
		WR_CHECK_U64(wr_mlr_report(m, valid ? load : d->gen_max, dur, loss, valid), 0);
		*s += dur;
		if (++n > WR_MLR_MAX_TRIALS)
			break;
	}
	WR_CHECK_U64(rc, WR_MLR_DONE);
	return n;
}

/* NDR and PDR in one search: each bracketed within its width. */
static void
test_search_clean(void)
{
	struct wr_mlr_conf c = conf_of(0.0, 0.5, 3.0, 0.005);
	struct dut d = { 1.234e6, 0.5, 0, 0, 1 };
	struct wr_mlr_goal_result r;
	double secs, pdr_true = d.knee * (1 + 0.005 / d.slope);
	struct wr_mlr m;
	uint32_t n, i, nb_short = 0;

	c.nb_goals = 2;
	c.goals[1] = (struct wr_mlr_goal){ 0.005, 0.5, 3.0, 0.005 };
	WR_CHECK_U64(wr_mlr_init(&m, &c), 0);
	n = run(&m, &d, &secs);
	WR_CHECK(n > 0 && n < 80);
	WR_CHECK_U64(wr_mlr_result(&m, 0, &r), 0);
	WR_CHECK(r.done && r.rlb <= d.knee && r.rub > d.knee);
	WR_CHECK((r.rub - r.rlb) / r.rub <= 0.005);
	WR_CHECK_NEAR(r.cond_throughput, r.rlb, 0);
	WR_CHECK_U64(wr_mlr_result(&m, 1, &r), 0);
	WR_CHECK(r.done && r.rlb <= pdr_true && r.rub > pdr_true);
	WR_CHECK(r.cond_throughput <= r.rlb && r.cond_throughput >= r.rlb * 0.995);
	/* Short trials narrowed the interval first. */
	for (i = 0; i < m.nb_trials; i++)
		nb_short += m.trials[i].duration_s < c.final_s;
	WR_CHECK(nb_short >= 8);
	WR_CHECK(secs < n * c.final_s);
}

/* One trial in 5 loses 1% at any load: GER 0.5 and 5 s sums see through
 * it; GER 0 (one bad second sinks a load) ends far lower. */
static void
test_search_noisy(void)
{
	struct wr_mlr_conf c = conf_of(0.0, 0.5, 5.0, 0.01);
	struct dut d = { 2e6, 1.0, 0.2, 0, 42 };
	struct wr_mlr_goal_result r, r0;
	struct wr_mlr m;
	double secs;

	WR_CHECK_U64(wr_mlr_init(&m, &c), 0);
	run(&m, &d, &secs);
	WR_CHECK_U64(wr_mlr_result(&m, 0, &r), 0);
	WR_CHECK(r.done && r.rlb <= d.knee && r.rlb >= d.knee * 0.97);
	c.goals[0].exceed_ratio = 0;
	d.prng = 42;
	WR_CHECK_U64(wr_mlr_init(&m, &c), 0);
	run(&m, &d, &secs);
	WR_CHECK_U64(wr_mlr_result(&m, 0, &r0), 0);
	WR_CHECK(r0.rlb < r.rlb);
}

/*
 * One trial in three falls short of its load (a stalled generator) and
 * reports heavy loss: the exceed ratio weighs those trials like any other
 * high-loss one and the bounds still bracket the knee. A generator that
 * reaches nothing makes every load an upper bound: loss at the minimum.
 */
static void
test_search_generator_short(void)
{
	struct wr_mlr_conf c = conf_of(0.0, 0.5, 2.0, 0.01);
	struct dut d = { 3e6, 1.0, 0, 0, 1 };
	struct wr_mlr_goal_result r;
	double load, dur, loss;
	struct wr_mlr m;
	uint32_t n = 0, invalid = 0;

	WR_CHECK_U64(wr_mlr_init(&m, &c), 0);
	while (wr_mlr_next(&m, &load, &dur) == WR_MLR_TRIAL && n++ < 400) {
		bool valid = n % 3 != 0;

		loss = valid ? (load <= d.knee ? 0 : fmin(1, (load - d.knee) / d.knee)) : 0.5;
		invalid += !valid;
		WR_CHECK_U64(wr_mlr_report(&m, valid ? load : load * 0.7, dur, loss,
			valid), 0);
	}
	WR_CHECK_U64(wr_mlr_result(&m, 0, &r), 0);
	WR_CHECK(r.done && r.rlb <= d.knee && r.rub > d.knee && invalid > 3);
	WR_CHECK((r.rub - r.rlb) / r.rub <= 0.01);
	d.gen_max = 1.0;            /* reaches nothing */
	WR_CHECK_U64(wr_mlr_init(&m, &c), 0);
	run(&m, &d, &dur);
	WR_CHECK_U64(wr_mlr_result(&m, 0, &r), 0);
	WR_CHECK(r.done && r.rub_is_min && r.rlb == 0);
}

/*
 * A generator capped below the maximum (line rate or
 * --rate 100% above what it can offer) on a device that never loses: the
 * shortfall above the cap is loss, so the search moves down and brackets
 * the cap (the load where the shortfall reaches each goal's loss ratio)
 * within the goal width, with far fewer trials than the limit. The trials record the offered load apart.
 */
static void
test_search_generator_capped(void)
{
	struct wr_mlr_conf c = conf_of(0.0, 0.5, 2.0, 0.01);
	struct dut d = { 1e9, 1.0, 0, 4.2e6, 1 };
	struct wr_mlr_goal_result r;
	struct wr_mlr m;
	unsigned int g;
	uint32_t n, i, short_of = 0;
	double secs;

	c.nb_goals = 2;
	c.goals[1] = (struct wr_mlr_goal){ 0.005, 0.5, 2.0, 0.01 };
	WR_CHECK_U64(wr_mlr_init(&m, &c), 0);
	n = run(&m, &d, &secs);
	WR_CHECK(n > 0 && n < 60);
	/* A goal of loss ratio l fails where the shortfall exceeds l. */
	for (g = 0; g < 2; g++) {
		double edge = d.gen_max / (1 - c.goals[g].loss_ratio);

		WR_CHECK_U64(wr_mlr_result(&m, g, &r), 0);
		WR_CHECK(r.done && !r.rlb_is_max && r.rlb <= edge && r.rub > edge);
		WR_CHECK((r.rub - r.rlb) / r.rub <= 0.01);
	}
	for (i = 0; i < m.nb_trials; i++) {
		const struct wr_mlr_trial *t = &m.trials[i];

		if (t->reached)
			continue;
		short_of++;
		WR_CHECK_NEAR(t->offered, d.gen_max, 0);
		WR_CHECK_NEAR(t->loss_ratio, 1 - d.gen_max / t->load, 1e-12);
	}
	WR_CHECK(short_of >= 3);
}

/* Loss at the minimum, none at the maximum: both ends are results. */
static void
test_search_ends(void)
{
	struct wr_mlr_conf c = conf_of(0.0, 0.5, 2.0, 0.01);
	struct dut low = { 10, 1.0, 0, 0, 1 }, high = { 1e9, 1.0, 0, 0, 1 };
	struct wr_mlr_goal_result r;
	struct wr_mlr m;
	double secs;

	WR_CHECK_U64(wr_mlr_init(&m, &c), 0);
	run(&m, &low, &secs);
	WR_CHECK_U64(wr_mlr_result(&m, 0, &r), 0);
	WR_CHECK(r.done && r.rub_is_min && r.rlb == 0);
	WR_CHECK_U64(wr_mlr_init(&m, &c), 0);
	run(&m, &high, &secs);
	WR_CHECK_U64(wr_mlr_result(&m, 0, &r), 0);
	WR_CHECK(r.done && r.rlb_is_max && r.rlb == c.max_load);
}

/* Loss ratio of d at load, with its noise drawn from d->prng. */
static double
dut_loss(struct dut *d, double load)
{
	double loss = load <= d->knee ? 0 : fmin(1, d->slope * (load - d->knee) / d->knee);

	if (d->noise > 0 && (double)(wr_test_prng(&d->prng) >> 11) / 9007199254740992.0 <
			d->noise)
		loss = fmax(loss, 0.01);
	return loss;
}

/* RFC 2544 binary search (search.h), 1 s trials: NDR, PDR, seconds. */
static void
binary(struct dut *d, double *ndr, double *pdr, double *secs)
{
	struct wr_search_conf c = { .min_pps = 10e3, .max_pps = 10e6, .res_rel = 0.01,
		.pdr_loss_ratio = 0.005, .max_trials = WR_SEARCH_MAX_TRIALS };
	struct wr_search_result r;
	struct wr_search s;
	double load;
	uint64_t sent;

	WR_CHECK_U64(wr_search_init(&s, &c), 0);
	*secs = 0;
	while (wr_search_next(&s, &load) == WR_SEARCH_TRIAL) {
		sent = (uint64_t)load;
		WR_CHECK_U64(wr_search_report(&s, load, sent,
			(uint64_t)ceil(dut_loss(d, load) * (double)sent)), 0);
		*secs += 1.0;
	}
	wr_search_result(&s, &r);
	*ndr = r.ndr_pps;
	*pdr = r.pdr_pps;
}

/* MLRsearch at the same precision: goal widths of 1%, 1 s final trials. */
static void
mlr(struct dut *d, double ger, double gds, double *ndr, double *pdr, double *secs)
{
	struct wr_mlr_conf c = conf_of(0.0, ger, gds, 0.01);
	struct wr_mlr_goal_result r;
	struct wr_mlr m;

	c.min_load = 10e3;
	c.nb_goals = 2;
	c.goals[1] = (struct wr_mlr_goal){ 0.005, ger, gds, 0.01 };
	WR_CHECK_U64(wr_mlr_init(&m, &c), 0);
	run(&m, d, secs);
	wr_mlr_result(&m, 0, &r);
	*ndr = r.cond_throughput;
	wr_mlr_result(&m, 1, &r);
	*pdr = r.cond_throughput;
}

static double
spread(const double *v, unsigned int n)
{
	double lo = v[0], hi = v[0];
	unsigned int i;

	for (i = 1; i < n; i++) {
		lo = fmin(lo, v[i]);
		hi = fmax(hi, v[i]);
	}
	return hi - lo;
}

/*
 * The same simulated devices through both searches at the same precision
 * (docs/rfc2544.md quotes these figures): a clean device, where short
 * trials save MLRsearch seconds, and one that loses 1% in one trial of 5
 * at any load, over 5 seeds: the binary search's NDR falls wherever a
 * noisy trial lands, MLRsearch (CSIT's exceed ratio 0.5, 21 s sums) stays.
 */
static void
test_versus_binary(void)
{
	struct dut clean = { 1.234e6, 0.5, 0, 0, 1 };
	double bn, bp, bs, mn, mp, ms, b_ndr[5], m_ndr[5], b_s = 0, m_s = 0;
	unsigned int i;

	binary(&clean, &bn, &bp, &bs);
	mlr(&clean, 0.0, 1.0, &mn, &mp, &ms);
	printf("clean: binary NDR %.0f PDR %.0f in %.1f s; mlr NDR %.0f PDR %.0f in %.1f s\n",
		bn, bp, bs, mn, mp, ms);
	WR_CHECK(fabs(mn - bn) <= 0.01 * clean.knee && fabs(mp - bp) <= 0.02 * bp);
	WR_CHECK(ms < bs);
	for (i = 0; i < 5; i++) {
		struct dut noisy = { 1.234e6, 0.5, 0.2, 0, 100 + i };

		binary(&noisy, &b_ndr[i], &bp, &bs);
		noisy.prng = 100 + i;
		mlr(&noisy, 0.5, 21.0, &m_ndr[i], &mp, &ms);
		b_s += bs;
		m_s += ms;
		printf("noisy seed %u: binary NDR %.0f (%.0f s), mlr NDR %.0f (%.0f s)\n",
			i, b_ndr[i], bs, m_ndr[i], ms);
	}
	printf("noisy: NDR spread binary %.0f, mlr %.0f; mean seconds %.1f vs %.1f\n",
		spread(b_ndr, 5), spread(m_ndr, 5), b_s / 5, m_s / 5);
	WR_CHECK(spread(m_ndr, 5) < spread(b_ndr, 5));
	for (i = 0; i < 5; i++)
		WR_CHECK(m_ndr[i] >= 0.9 * clean.knee && m_ndr[i] <= clean.knee);
}

static void
test_protocol(void)
{
	struct wr_mlr_conf c = conf_of(0.0, 0.5, 1.0, 0.01);
	struct wr_mlr m;
	double l1, d1, l2, d2;

	WR_CHECK_U64(wr_mlr_init(&m, &c), 0);
	WR_CHECK_U64(wr_mlr_report(&m, 1, 1, 0, true), (uint64_t)-EINVAL);
	WR_CHECK_U64(wr_mlr_next(&m, &l1, &d1), WR_MLR_TRIAL);
	WR_CHECK_U64(wr_mlr_next(&m, &l2, &d2), WR_MLR_TRIAL);
	WR_CHECK(l1 == l2 && d1 == d2 && l1 == c.max_load && d1 == c.initial_s);
	WR_CHECK_U64(wr_mlr_report(&m, l1, d1, 1.5, true), (uint64_t)-EINVAL);
	WR_CHECK_U64(wr_mlr_report(&m, l1, d1, 0.5, true), 0);
	c.initial_s = 2.0;
	WR_CHECK_U64(wr_mlr_init(&m, &c), (uint64_t)-EINVAL);
	c = conf_of(0.0, 1.0, 1.0, 0.01);
	WR_CHECK_U64(wr_mlr_init(&m, &c), (uint64_t)-EINVAL);
	c = conf_of(0.0, 0.5, 1.0, 0.0);
	WR_CHECK_U64(wr_mlr_init(&m, &c), (uint64_t)-EINVAL);
	c = conf_of(0.0, 0.5, 1.0, 0.01);
	c.nb_goals = 0;
	WR_CHECK_U64(wr_mlr_init(&m, &c), (uint64_t)-EINVAL);
	/* Same initial and final duration: no short stage. */
	c = conf_of(0.0, 0.5, 1.0, 0.01);
	c.initial_s = c.final_s;
	WR_CHECK_U64(wr_mlr_init(&m, &c), 0);
	WR_CHECK_U64(wr_mlr_next(&m, &l1, &d1), WR_MLR_TRIAL);
	WR_CHECK(d1 == c.final_s);
}

static void
test_parse(void)
{
	struct wr_mlr_goal g[WR_MLR_MAX_GOALS];
	unsigned int n;
	struct wr_error err;

	WR_CHECK_U64(wr_mlr_goals_parse("0:0.5:21s:0.005,0.005:0.5:500ms:0.01", g,
		&n, &err), 0);
	WR_CHECK_U64(n, 2);
	WR_CHECK_NEAR(g[1].loss_ratio, 0.005, 0);
	WR_CHECK_NEAR(g[1].duration_sum_s, 0.5, 1e-12);
	WR_CHECK_NEAR(g[0].duration_sum_s, 21, 1e-12);
	WR_CHECK_NEAR(g[1].width, 0.01, 0);
	WR_CHECK_U64(wr_mlr_goals_parse("0:0.5:21s", g, &n, &err),
		(uint64_t)-EINVAL);
	WR_CHECK(strstr(err.msg, "LOSS:EXCEED:SUM:WIDTH") != NULL);
	WR_CHECK_U64(wr_mlr_goals_parse("1.5:0.5:1:0.1", g, &n, &err),
		(uint64_t)-EINVAL);
	WR_CHECK(strstr(err.msg, "loss ratio '1.5'") != NULL);
	WR_CHECK_U64(wr_mlr_goals_parse("0:0.5:soon:0.1", g, &n, &err),
		(uint64_t)-EINVAL);
	WR_CHECK(strstr(err.msg, "duration sum 'soon'") != NULL);
	WR_CHECK_U64(wr_mlr_goals_parse("0:0.5:1:0", g, &n, &err),
		(uint64_t)-EINVAL);
	WR_CHECK(strstr(err.msg, "width must be above 0") != NULL);
	WR_CHECK_U64(wr_mlr_goals_parse("0:0.5:1:0.1:9", g, &n, &err),
		(uint64_t)-EINVAL);
	wr_mlr_default_goals(g, &n);
	WR_CHECK_U64(n, 2);
	WR_CHECK(g[0].loss_ratio == 0 && g[1].loss_ratio == 0.005 &&
		g[1].exceed_ratio == 0.5 && g[0].duration_sum_s == 21);
}

int
main(void)
{
	WR_TEST_RUN(test_classification);
	WR_TEST_RUN(test_cond_throughput);
	WR_TEST_RUN(test_bound_order);
	WR_TEST_RUN(test_search_clean);
	WR_TEST_RUN(test_search_noisy);
	WR_TEST_RUN(test_search_generator_short);
	WR_TEST_RUN(test_search_generator_capped);
	WR_TEST_RUN(test_search_ends);
	WR_TEST_RUN(test_versus_binary);
	WR_TEST_RUN(test_protocol);
	WR_TEST_RUN(test_parse);
	return wr_test_summary();
}
