/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for search.c: the RFC 2544 throughput search (NDR, PDR) and
 * the frame-loss-rate sequence, against simulated devices.
 */
#include <errno.h>
#include <math.h>

#include "methods/search.h"
#include "wr_test.h"

#define LINE_64B 14880952.380952381	/* 10 GbE, 64 B frames */
#define TRIAL_S 10.0			/* simulated trial length */

/*
 * A simulated device: no loss up to knee_pps; above it, a loss ratio of
 * slope * (rate - knee) / knee, at most 1, rounded up to whole frames.
 */
struct dut {
	double knee_pps;
	double slope;
};

/* Frames lost by d out of sent at rate. */
static uint64_t
dut_lost(const struct dut *d, double rate, uint64_t sent)
{
	double ratio;

	if (rate <= d->knee_pps)
		return 0;
	ratio = d->slope * (rate - d->knee_pps) / d->knee_pps;
	if (ratio > 1.0)
		ratio = 1.0;
	return (uint64_t)ceil(ratio * (double)sent);
}

/* Run the search s against d to the end; returns the number of trials. */
static uint32_t
run_search(struct wr_search *s, const struct dut *d)
{
	double rate;
	uint64_t sent;
	uint32_t n = 0;
	int rc;

	while ((rc = wr_search_next(s, &rate)) == WR_SEARCH_TRIAL) {
		sent = (uint64_t)ceil(rate * TRIAL_S);
		WR_CHECK_U64(wr_search_report(s, rate, sent,
			dut_lost(d, rate, sent)), 0);
		if (++n > WR_SEARCH_MAX_TRIALS)
			break;
	}
	WR_CHECK_U64(rc, WR_SEARCH_DONE);
	return n;
}

static struct wr_search_conf
conf_of(double min, double max, double res_pps, double res_rel, double pdr,
		uint32_t max_trials)
{
	struct wr_search_conf c = {
		.min_pps = min, .max_pps = max, .res_pps = res_pps,
		.res_rel = res_rel, .pdr_loss_ratio = pdr,
		.max_trials = max_trials,
	};

	return c;
}

/* Rate at which d's loss ratio reaches ratio (the true PDR). */
static double
dut_pdr(const struct dut *d, double ratio)
{
	return d->knee_pps * (1.0 + ratio / d->slope);
}

/* NDR and PDR of d found within the resolution, converged. */
static void
check_search(double knee, double slope, double res_pps, double res_rel,
		double pdr_ratio)
{
	struct wr_search_conf c = conf_of(10000.0, LINE_64B, res_pps, res_rel,
		pdr_ratio, 64);
	struct dut d = { knee, slope };
	struct wr_search_result r;
	struct wr_search s;
	double want_pdr = dut_pdr(&d, pdr_ratio);
	double w_ndr = fmax(res_pps, res_rel * knee) * 1.0001;
	double w_pdr = fmax(res_pps, res_rel * want_pdr) * 1.0001;
	/* Whole frames blur the PDR threshold by 1 / (slope * TRIAL_S) pps. */
	double tol = 2.0 / (slope * TRIAL_S);
	uint32_t n;

	WR_CHECK_U64(wr_search_init(&s, &c), 0);
	n = run_search(&s, &d);
	WR_CHECK_U64(wr_search_result(&s, &r), 0);
	WR_CHECK(r.converged && r.ndr_found);
	WR_CHECK_U64(r.nb_trials, n);
	/* NDR: a measured zero-loss rate at most the resolution below X. */
	WR_CHECK(r.ndr_pps <= knee && r.ndr_upper_pps > knee);
	WR_CHECK_NEAR(r.ndr_pps, knee, w_ndr);
	WR_CHECK(r.ndr_upper_pps - r.ndr_pps <= w_ndr);
	if (pdr_ratio > 0.0) {
		WR_CHECK(r.pdr_found);
		WR_CHECK(r.pdr_pps <= want_pdr + tol &&
			r.pdr_upper_pps > want_pdr - tol);
		WR_CHECK_NEAR(r.pdr_pps, want_pdr, w_pdr + tol);
		WR_CHECK(r.pdr_pps >= r.ndr_pps);
	} else {
		WR_CHECK_NEAR(r.pdr_pps, r.ndr_pps, 0.0);
		WR_CHECK_NEAR(r.pdr_upper_pps, r.ndr_upper_pps, 0.0);
	}
}

static void
test_ndr_relative(void)
{
	static const double knees[] = {
		10500.0, 123456.0, 812743.8, 5e6, 0.73 * LINE_64B, 14.8e6,
	};
	unsigned int i;

	for (i = 0; i < sizeof(knees) / sizeof(knees[0]); i++) {
		check_search(knees[i], 1.0, 0.0, 0.001, 0.0);
		check_search(knees[i], 3.0, 0.0, 0.0001, 0.0);
	}
}

static void
test_ndr_absolute(void)
{
	check_search(123456.0, 1.0, 100.0, 0.0, 0.0);
	check_search(5e6, 1.0, 1000.0, 0.0, 0.0);
	check_search(5e6, 1.0, 1.0, 0.0, 0.0);
	/* Both given: the wider one decides. */
	check_search(5e6, 1.0, 1000.0, 0.01, 0.0);
	check_search(5e6, 1.0, 100000.0, 0.0001, 0.0);
}

static void
test_pdr(void)
{
	/* Loss grows slowly past the knee: the PDR sits well above NDR. */
	check_search(5e6, 0.02, 0.0, 0.001, 0.005);
	check_search(1e6, 0.05, 0.0, 0.001, 0.005);
	check_search(123456.0, 0.01, 50.0, 0.0, 0.005);
	check_search(0.73 * LINE_64B, 0.5, 0.0, 0.0005, 0.001);
	/* A steep cliff: PDR just above NDR. */
	check_search(5e6, 10.0, 0.0, 0.001, 0.005);
}

/* Binary search cost: about log2(range / resolution) trials per target. */
static void
test_trial_count(void)
{
	struct wr_search_conf c = conf_of(10000.0, LINE_64B, 1000.0, 0.0,
		0.0, 64);
	struct dut d = { 5e6, 1.0 };
	struct wr_search s;
	uint32_t n;

	WR_CHECK_U64(wr_search_init(&s, &c), 0);
	n = run_search(&s, &d);
	/* 1 at max + ceil(log2(14.87e6 / 1000)) = 14 halvings at most. */
	WR_CHECK(n >= 10 && n <= 15);
	c.pdr_loss_ratio = 0.005;
	d.slope = 0.02;
	WR_CHECK_U64(wr_search_init(&s, &c), 0);
	n = run_search(&s, &d);
	WR_CHECK(n <= 30);
}

static void
test_trial_cap(void)
{
	struct wr_search_conf c = conf_of(10000.0, LINE_64B, 0.0, 1e-6, 0.005,
		5);
	struct dut d = { 5e6, 0.02 };
	struct wr_search_result r;
	struct wr_search s;
	double rate;

	WR_CHECK_U64(wr_search_init(&s, &c), 0);
	WR_CHECK_U64(run_search(&s, &d), 5);
	WR_CHECK_U64(wr_search_next(&s, &rate), WR_SEARCH_DONE);
	WR_CHECK_U64(wr_search_result(&s, &r), 0);
	WR_CHECK(!r.converged);
	WR_CHECK_U64(r.nb_trials, 5);
	/* Whatever was found is still a measured, conservative rate. */
	WR_CHECK(r.ndr_found && r.ndr_pps <= 5e6);
	/* A cap of one: only the trial at the maximum rate. */
	c.max_trials = 1;
	WR_CHECK_U64(wr_search_init(&s, &c), 0);
	WR_CHECK_U64(run_search(&s, &d), 1);
	WR_CHECK_U64(wr_search_result(&s, &r), 0);
	WR_CHECK(!r.converged && !r.ndr_found);
	WR_CHECK_NEAR(r.ndr_upper_pps, LINE_64B, 0.0);
	/* The largest cap is accepted and respected. */
	c.max_trials = WR_SEARCH_MAX_TRIALS;
	c.res_rel = 1e-15;
	WR_CHECK_U64(wr_search_init(&s, &c), 0);
	WR_CHECK(run_search(&s, &d) <= WR_SEARCH_MAX_TRIALS);
}

static void
test_loss_at_min(void)
{
	struct wr_search_conf c = conf_of(10000.0, LINE_64B, 0.0, 0.001,
		0.005, 64);
	struct dut d = { 5000.0, 1.0 };
	struct wr_search_result r;
	struct wr_search s;

	WR_CHECK_U64(wr_search_init(&s, &c), 0);
	run_search(&s, &d);
	WR_CHECK_U64(wr_search_result(&s, &r), 0);
	WR_CHECK(r.converged);
	WR_CHECK(!r.ndr_found && !r.pdr_found);
	WR_CHECK_NEAR(r.ndr_pps, 0.0, 0.0);
	WR_CHECK_NEAR(r.pdr_pps, 0.0, 0.0);
	/* The minimum itself was tried, and failed. */
	WR_CHECK_NEAR(r.ndr_upper_pps, 10000.0, 0.0);
	WR_CHECK_NEAR(s.trials[s.nb_trials - 1].rate_pps, 10000.0, 0.0);
	WR_CHECK_NEAR(s.trials[0].rate_pps, LINE_64B, 0.0);
}

static void
test_no_loss_at_max(void)
{
	struct wr_search_conf c = conf_of(10000.0, LINE_64B, 0.0, 0.001,
		0.005, 64);
	struct dut d = { 2 * LINE_64B, 1.0 };
	struct wr_search_result r;
	struct wr_search s;

	WR_CHECK_U64(wr_search_init(&s, &c), 0);
	WR_CHECK_U64(run_search(&s, &d), 1);
	WR_CHECK_U64(wr_search_result(&s, &r), 0);
	WR_CHECK(r.converged && r.ndr_found && r.pdr_found);
	WR_CHECK_NEAR(r.ndr_pps, LINE_64B, 0.0);
	WR_CHECK_NEAR(r.pdr_pps, LINE_64B, 0.0);
	WR_CHECK_NEAR(r.ndr_upper_pps, 0.0, 0.0);
	/* Loss above NDR but within the PDR ratio at max: PDR is max. */
	d = (struct dut){ 0.999 * LINE_64B, 1.0 };
	WR_CHECK_U64(wr_search_init(&s, &c), 0);
	run_search(&s, &d);
	WR_CHECK_U64(wr_search_result(&s, &r), 0);
	WR_CHECK(r.converged);
	WR_CHECK_NEAR(r.pdr_pps, LINE_64B, 0.0);
	WR_CHECK(r.ndr_pps <= 0.999 * LINE_64B);
	/* min == max: one trial decides. */
	c = conf_of(1e6, 1e6, 1.0, 0.0, 0.0, 64);
	d = (struct dut){ 5e5, 1.0 };
	WR_CHECK_U64(wr_search_init(&s, &c), 0);
	WR_CHECK_U64(run_search(&s, &d), 1);
	WR_CHECK_U64(wr_search_result(&s, &r), 0);
	WR_CHECK(r.converged && !r.ndr_found);
}

/* Trials fed by hand: a failure below a pass is believed, not the pass. */
static void
test_not_monotonic(void)
{
	struct wr_search_conf c = conf_of(1000.0, 1e6, 0.0, 0.01, 0.0, 64);
	struct wr_search_result r;
	struct wr_search s;
	double rate;

	WR_CHECK_U64(wr_search_init(&s, &c), 0);
	WR_CHECK_U64(wr_search_next(&s, &rate), WR_SEARCH_TRIAL);
	WR_CHECK_NEAR(rate, 1e6, 0.0);
	WR_CHECK_U64(wr_search_report(&s, rate, 10000000, 5), 0);
	WR_CHECK_U64(wr_search_next(&s, &rate), WR_SEARCH_TRIAL);
	WR_CHECK_NEAR(rate, 500500.0, 0.0);
	WR_CHECK_U64(wr_search_report(&s, rate, 5005000, 0), 0);
	WR_CHECK_U64(wr_search_next(&s, &rate), WR_SEARCH_TRIAL);
	WR_CHECK_NEAR(rate, 750250.0, 0.0);
	/* The generator fell short: it reports 400k offered, with loss. */
	WR_CHECK_U64(wr_search_report(&s, 400000.0, 4000000, 1), 0);
	WR_CHECK_U64(wr_search_result(&s, &r), 0);
	WR_CHECK(!r.ndr_found);
	WR_CHECK_NEAR(r.ndr_upper_pps, 400000.0, 0.0);
	/* Next trial searches below the lowest failure. */
	WR_CHECK_U64(wr_search_next(&s, &rate), WR_SEARCH_TRIAL);
	WR_CHECK_NEAR(rate, 200500.0, 0.0);
	WR_CHECK_U64(wr_search_report(&s, rate, 2005000, 0), 0);
	WR_CHECK_U64(wr_search_result(&s, &r), 0);
	WR_CHECK(r.ndr_found);
	WR_CHECK_NEAR(r.ndr_pps, 200500.0, 0.0);
	WR_CHECK_U64(s.nb_trials, 4);
	WR_CHECK_NEAR(s.trials[2].rate_pps, 400000.0, 0.0);
	/* The clean trial at 500500 lies above the NDR's upper bound: the
	 * NDR's trial (latency "at the NDR") is the one at 200500. */
	WR_CHECK_U64(wr_search_ndr_trial(&s, &r), 3);
}

/*
 * --pdr on a device whose loss is not monotonic: a PDR-stage trial above
 * the NDR's upper bound is clean. The NDR's trial is the one at the NDR
 * rate, not that highest clean one.
 */
static void
test_ndr_trial_pdr(void)
{
	struct wr_search_conf c = conf_of(1000.0, 1e6, 0.0, 0.01, 0.01, 64);
	struct wr_search_result r;
	struct wr_search s;
	double rate;
	uint64_t sent, lost;
	uint32_t i, top = 0;
	int n;

	WR_CHECK_U64(wr_search_init(&s, &c), 0);
	while (wr_search_next(&s, &rate) == WR_SEARCH_TRIAL && s.nb_trials < 64) {
		sent = (uint64_t)(rate * TRIAL_S);
		/* 0.5% loss from 300k up (passes the 1% PDR), none below, and
		 * none in a band at 700k..800k. */
		lost = rate < 3e5 || (rate >= 7e5 && rate < 8e5) ? 0 : sent / 200;
		if (rate >= 9e5)
			lost = sent / 10;
		WR_CHECK_U64(wr_search_report(&s, rate, sent, lost), 0);
	}
	WR_CHECK_U64(wr_search_result(&s, &r), 0);
	WR_CHECK(r.ndr_found && r.ndr_upper_pps < 7e5);
	for (i = 0; i < s.nb_trials; i++)
		if (s.trials[i].nb_lost_pkts == 0 && s.trials[i].rate_pps > r.ndr_upper_pps)
			top = i;
	WR_CHECK(top != 0);           /* the scenario: clean above the NDR */
	n = wr_search_ndr_trial(&s, &r);
	WR_CHECK(n >= 0 && (uint32_t)n != top);
	if (n >= 0) {
		WR_CHECK_NEAR(s.trials[n].rate_pps, r.ndr_pps, 0.0);
		WR_CHECK_U64(s.trials[n].nb_lost_pkts, 0);
	}
	r.ndr_found = false;
	WR_CHECK(wr_search_ndr_trial(&s, &r) == -1);
}

/* A loss ratio exactly at the PDR ratio passes PDR, and only PDR. */
static void
test_pdr_boundary(void)
{
	struct wr_search_conf c = conf_of(1000.0, 1e6, 0.0, 0.01, 0.005, 64);
	struct wr_search_result r;
	struct wr_search s;
	double rate;

	WR_CHECK_U64(wr_search_init(&s, &c), 0);
	WR_CHECK_U64(wr_search_next(&s, &rate), WR_SEARCH_TRIAL);
	WR_CHECK_U64(wr_search_report(&s, rate, 1000, 5), 0);
	WR_CHECK_U64(wr_search_result(&s, &r), 0);
	WR_CHECK(!r.ndr_found && r.pdr_found);
	WR_CHECK_NEAR(r.pdr_pps, 1e6, 0.0);
	WR_CHECK_NEAR(r.ndr_upper_pps, 1e6, 0.0);
	WR_CHECK_NEAR(r.pdr_upper_pps, 0.0, 0.0);
	/* One frame more and it fails. */
	WR_CHECK_U64(wr_search_init(&s, &c), 0);
	WR_CHECK_U64(wr_search_next(&s, &rate), WR_SEARCH_TRIAL);
	WR_CHECK_U64(wr_search_report(&s, rate, 1000, 6), 0);
	WR_CHECK_U64(wr_search_result(&s, &r), 0);
	WR_CHECK(!r.ndr_found && !r.pdr_found);
}

static void
test_protocol(void)
{
	struct wr_search_conf c = conf_of(1000.0, 1e6, 0.0, 0.01, 0.0, 64);
	struct wr_search s;
	double rate = 0.0, again = 0.0;

	WR_CHECK_U64(wr_search_init(&s, &c), 0);
	/* No report before a trial was handed out. */
	WR_CHECK(wr_search_report(&s, 1e6, 100, 0) == -EINVAL);
	WR_CHECK_U64(wr_search_next(&s, &rate), WR_SEARCH_TRIAL);
	WR_CHECK_U64(wr_search_next(&s, &again), WR_SEARCH_TRIAL);
	WR_CHECK_NEAR(again, rate, 0.0);
	WR_CHECK(wr_search_report(&s, rate, 0, 0) == -EINVAL);
	WR_CHECK(wr_search_report(&s, rate, 10, 11) == -EINVAL);
	WR_CHECK(wr_search_report(&s, NAN, 10, 0) == -EINVAL);
	WR_CHECK(wr_search_report(&s, INFINITY, 10, 0) == -EINVAL);
	WR_CHECK(wr_search_report(&s, 0.0, 10, 0) == -EINVAL);
	WR_CHECK(wr_search_report(NULL, rate, 10, 0) == -EINVAL);
	WR_CHECK_U64(s.nb_trials, 0);
	WR_CHECK_U64(wr_search_report(&s, rate, 10, 10), 0);
	WR_CHECK(wr_search_report(&s, rate, 10, 0) == -EINVAL);
	WR_CHECK_U64(s.nb_trials, 1);
	WR_CHECK(wr_search_next(NULL, &rate) == -EINVAL);
	WR_CHECK(wr_search_next(&s, NULL) == -EINVAL);
	WR_CHECK(wr_search_result(NULL, NULL) == -EINVAL);
}

static void
test_init_errors(void)
{
	struct wr_search_conf ok = conf_of(1000.0, 1e6, 10.0, 0.01, 0.005, 64);
	struct wr_search_conf c;
	struct wr_search s;

	WR_CHECK_U64(wr_search_init(&s, &ok), 0);
	WR_CHECK(wr_search_init(NULL, &ok) == -EINVAL);
	WR_CHECK(wr_search_init(&s, NULL) == -EINVAL);
	c = ok; c.min_pps = 0.0;
	WR_CHECK(wr_search_init(&s, &c) == -EINVAL);
	c = ok; c.min_pps = NAN;
	WR_CHECK(wr_search_init(&s, &c) == -EINVAL);
	c = ok; c.max_pps = INFINITY;
	WR_CHECK(wr_search_init(&s, &c) == -EINVAL);
	c = ok; c.max_pps = 999.0;
	WR_CHECK(wr_search_init(&s, &c) == -EINVAL);
	c = ok; c.res_pps = 0.0; c.res_rel = 0.0;
	WR_CHECK(wr_search_init(&s, &c) == -EINVAL);
	c = ok; c.res_pps = -1.0;
	WR_CHECK(wr_search_init(&s, &c) == -EINVAL);
	c = ok; c.res_pps = INFINITY;
	WR_CHECK(wr_search_init(&s, &c) == -EINVAL);
	c = ok; c.res_rel = 1.0;
	WR_CHECK(wr_search_init(&s, &c) == -EINVAL);
	c = ok; c.res_rel = NAN;
	WR_CHECK(wr_search_init(&s, &c) == -EINVAL);
	c = ok; c.pdr_loss_ratio = -0.1;
	WR_CHECK(wr_search_init(&s, &c) == -EINVAL);
	c = ok; c.pdr_loss_ratio = 1.0;
	WR_CHECK(wr_search_init(&s, &c) == -EINVAL);
	c = ok; c.max_trials = 0;
	WR_CHECK(wr_search_init(&s, &c) == -EINVAL);
	c = ok; c.max_trials = WR_SEARCH_MAX_TRIALS + 1;
	WR_CHECK(wr_search_init(&s, &c) == -EINVAL);
}

/* Run the frame-loss-rate sequence against d; percentages into pcts. */
static unsigned int
run_flr(struct wr_search_flr *f, const struct dut *d, double *pcts,
		unsigned int max)
{
	unsigned int n = 0;
	double rate, pct;
	uint64_t sent;

	while (wr_search_flr_next(f, &rate, &pct) == WR_SEARCH_TRIAL &&
			n < max) {
		WR_CHECK_NEAR(rate, f->max_pps * pct / 100.0, 1e-6);
		pcts[n++] = pct;
		sent = (uint64_t)ceil(rate * TRIAL_S);
		WR_CHECK_U64(wr_search_flr_report(f, sent,
			dut_lost(d, rate, sent)), 0);
	}
	return n;
}

static void
test_flr(void)
{
	struct wr_search_flr f;
	struct dut d = { 0.65 * LINE_64B, 1.0 };
	double pcts[64], rate;
	unsigned int n;

	/* 100, 90, 80, 70 lose; 60 and 50 do not: stop (RFC 2544 26.3). */
	WR_CHECK_U64(wr_search_flr_init(&f, LINE_64B, 10.0), 0);
	n = run_flr(&f, &d, pcts, 64);
	WR_CHECK_U64(n, 6);
	WR_CHECK_NEAR(pcts[0], 100.0, 0.0);
	WR_CHECK_NEAR(pcts[3], 70.0, 1e-12);
	WR_CHECK_NEAR(pcts[5], 50.0, 1e-12);
	WR_CHECK_U64(wr_search_flr_next(&f, &rate, NULL), WR_SEARCH_DONE);
	/* Steps of 2.5%: 100 .. 67.5 lose, 65 and 62.5 do not. */
	d.knee_pps = 0.651 * LINE_64B;
	WR_CHECK_U64(wr_search_flr_init(&f, LINE_64B, 2.5), 0);
	n = run_flr(&f, &d, pcts, 64);
	WR_CHECK_U64(n, 16);
	WR_CHECK_NEAR(pcts[15], 62.5, 1e-12);
	/* Loss everywhere: 100 down to 10, then nothing left. */
	d.knee_pps = 1.0;
	WR_CHECK_U64(wr_search_flr_init(&f, LINE_64B, 10.0), 0);
	WR_CHECK_U64(run_flr(&f, &d, pcts, 64), 10);
	WR_CHECK_NEAR(pcts[9], 10.0, 1e-12);
	WR_CHECK_U64(wr_search_flr_init(&f, LINE_64B, 3.0), 0);
	WR_CHECK_U64(run_flr(&f, &d, pcts, 64), 34);
	WR_CHECK_NEAR(pcts[33], 1.0, 1e-12);
	/* No loss at all: 100 and 90, done. */
	d.knee_pps = 2 * LINE_64B;
	WR_CHECK_U64(wr_search_flr_init(&f, LINE_64B, 10.0), 0);
	WR_CHECK_U64(run_flr(&f, &d, pcts, 64), 2);
}

/* A clean trial then a lossy one: the count of clean trials restarts. */
static void
test_flr_reset_and_errors(void)
{
	struct wr_search_flr f;
	double rate, again;
	int i;

	WR_CHECK_U64(wr_search_flr_init(&f, 1e6, 10.0), 0);
	WR_CHECK(wr_search_flr_report(&f, 100, 0) == -EINVAL);
	WR_CHECK_U64(wr_search_flr_next(&f, &rate, NULL), WR_SEARCH_TRIAL);
	WR_CHECK_U64(wr_search_flr_next(&f, &again, NULL), WR_SEARCH_TRIAL);
	WR_CHECK_NEAR(again, rate, 0.0);
	WR_CHECK_NEAR(rate, 1e6, 0.0);
	WR_CHECK(wr_search_flr_report(&f, 0, 0) == -EINVAL);
	WR_CHECK(wr_search_flr_report(&f, 10, 11) == -EINVAL);
	WR_CHECK_U64(wr_search_flr_report(&f, 100, 0), 0); /* 100%: clean */
	WR_CHECK_U64(wr_search_flr_next(&f, &rate, NULL), WR_SEARCH_TRIAL);
	WR_CHECK_U64(wr_search_flr_report(&f, 100, 1), 0);	/* 90%: loss */
	for (i = 0; i < 2; i++) {
		WR_CHECK_U64(wr_search_flr_next(&f, &rate, NULL),
			WR_SEARCH_TRIAL);
		WR_CHECK_U64(wr_search_flr_report(&f, 100, 0), 0);
	}
	WR_CHECK_NEAR(rate, 700000.0, 1e-6);
	WR_CHECK_U64(wr_search_flr_next(&f, &rate, NULL), WR_SEARCH_DONE);
	WR_CHECK(wr_search_flr_init(NULL, 1e6, 10.0) == -EINVAL);
	WR_CHECK(wr_search_flr_init(&f, 0.0, 10.0) == -EINVAL);
	WR_CHECK(wr_search_flr_init(&f, NAN, 10.0) == -EINVAL);
	WR_CHECK(wr_search_flr_init(&f, 1e6, 0.0) == -EINVAL);
	WR_CHECK(wr_search_flr_init(&f, 1e6, 10.5) == -EINVAL);
	WR_CHECK(wr_search_flr_init(&f, 1e6, NAN) == -EINVAL);
	WR_CHECK(wr_search_flr_next(NULL, &rate, NULL) == -EINVAL);
	WR_CHECK(wr_search_flr_next(&f, NULL, NULL) == -EINVAL);
}

/*
 * A generator-limited trial is a failure for every target: with a PDR of
 * 0.5%, a lossless but limited trial must not raise the PDR (it once
 * counted as 1 lost frame, under the PDR's ratio).
 */
static void
test_limited_trial(void)
{
	struct wr_search_conf c = { .max_pps = 1e6, .min_pps = 1e3,
		.res_rel = 0.01, .pdr_loss_ratio = 0.005, .max_trials = 64 };
	struct wr_search_result r;
	struct wr_search s;
	double rate;

	WR_CHECK_U64(wr_search_evidence_loss(true, 1000, 0), 0);
	WR_CHECK_U64(wr_search_evidence_loss(true, 1000, -5), 0);
	WR_CHECK_U64(wr_search_evidence_loss(true, 1000, 7), 7);
	WR_CHECK_U64(wr_search_evidence_loss(true, 10, 70), 10);
	WR_CHECK_U64(wr_search_evidence_loss(false, 1000, 0), 1000);
	WR_CHECK_U64(wr_search_evidence_loss(false, 1000, 3), 1000);
	/* A device without loss, a generator that falls short above 500 kpps. */
	WR_CHECK(wr_search_init(&s, &c) == 0);
	while (wr_search_next(&s, &rate) == WR_SEARCH_TRIAL)
		WR_CHECK(wr_search_report(&s, rate, 100000,
			wr_search_evidence_loss(rate <= 5e5, 100000, 0)) == 0);
	WR_CHECK(wr_search_result(&s, &r) == 0);
	WR_CHECK(r.ndr_pps <= 5e5);
	WR_CHECK(r.pdr_pps <= 5e5);
	WR_CHECK(r.ndr_pps >= 5e5 * 0.98);
}

int
main(void)
{
	WR_TEST_RUN(test_ndr_relative);
	WR_TEST_RUN(test_ndr_trial_pdr);
	WR_TEST_RUN(test_ndr_absolute);
	WR_TEST_RUN(test_pdr);
	WR_TEST_RUN(test_trial_count);
	WR_TEST_RUN(test_trial_cap);
	WR_TEST_RUN(test_loss_at_min);
	WR_TEST_RUN(test_no_loss_at_max);
	WR_TEST_RUN(test_not_monotonic);
	WR_TEST_RUN(test_pdr_boundary);
	WR_TEST_RUN(test_protocol);
	WR_TEST_RUN(test_init_errors);
	WR_TEST_RUN(test_flr);
	WR_TEST_RUN(test_flr_reset_and_errors);
	WR_TEST_RUN(test_limited_trial);
	return wr_test_summary();
}
