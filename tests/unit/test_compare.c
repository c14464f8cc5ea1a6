/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for compare.c, tolerance.c and metrics.c: verdicts on
 * crafted baselines (better, worse beyond tolerance, worse inside the
 * noise, incomparable, missing fields, corrupt JSON) and the messages
 * that name the file and the field.
 */
#include <errno.h>
#include <math.h>

#include <rte_common.h>

#include "analysis/alike.h"
#include "analysis/compare.h"
#include "wr_docs.h"
#include "wr_test.h"

static struct wr_tolerances tol;
static struct wr_compare cmp;
static struct wr_error err;
static unsigned int allow;     /* --allow-diff mask of run_cmp */

static int
run_cmp(const json_t *base, const json_t *cur)
{
	err.msg[0] = '\0';
	return wr_compare_docs(base, "base.json", cur, "cur.json", &tol, allow, &cmp,
		&err);
}

static void
test_metrics_extract(void)
{
	struct doc_port ports[2] = {
		{ "tx", 10.0, 0.0, -1 }, { "rx", 0.0, 9.5, 800.0 },
	};
	json_t *doc = doc_make(64, ports, 2, 1000, 4);
	struct wr_metric_values m;

	WR_CHECK(wr_metrics_extract(doc, &m, &err) == 0);
	WR_CHECK_NEAR(m.v[WR_METRIC_TX_MPPS], 10.0, 1e-9);
	WR_CHECK_NEAR(m.v[WR_METRIC_RX_MPPS], 9.5, 1e-9);
	/* 64 B + 20 B on the wire: 9.5 Mpps = 6.384 Gb/s L1, 4.864 L2. */
	WR_CHECK_NEAR(m.v[WR_METRIC_RX_GBPS_L1], 6.384, 1e-9);
	WR_CHECK_NEAR(m.v[WR_METRIC_RX_GBPS_L2], 4.864, 1e-9);
	WR_CHECK_NEAR(m.v[WR_METRIC_LOSS_PCT], 0.4, 1e-12);
	WR_CHECK(m.have[WR_METRIC_LAT_P99]);
	WR_CHECK_NEAR(m.v[WR_METRIC_LAT_P99], 800.0, 1e-9);
	WR_CHECK_NEAR(m.v[WR_METRIC_LAT_P99_9], 1200.0, 1e-9);
	WR_CHECK(!m.have[WR_METRIC_CYCLES_PER_PKT]);
	json_object_set_new(doc, "cpu", json_pack("{s:f}", "cycles_per_pkt", 41.5));
	WR_CHECK(wr_metrics_extract(doc, &m, &err) == 0);
	WR_CHECK(m.have[WR_METRIC_CYCLES_PER_PKT]);
	WR_CHECK_NEAR(m.v[WR_METRIC_CYCLES_PER_PKT], 41.5, 1e-12);
	json_decref(doc);
}

static void
test_metrics_paths(void)
{
	json_t *doc = doc_simple(64, 1.0, 500, 0);
	double v;

	WR_CHECK(wr_metrics_get_number(doc, "totals[0].latency.p99_ns", &v, &err) == 0);
	WR_CHECK_NEAR(v, 500.0, 1e-9);
	WR_CHECK(wr_metrics_get_number(doc, "totals[3].tx_mpps", &v, &err) == -ENOENT);
	WR_CHECK_STR(err.msg, "'totals[3].tx_mpps' is missing");
	WR_CHECK(wr_metrics_get_number(doc, "env.kernel", &v, &err) == -EINVAL);
	WR_CHECK_STR(err.msg, "'env.kernel' is not a number");
	WR_CHECK(wr_metrics_find("latency_p99_9_ns") == WR_METRIC_LAT_P99_9);
	WR_CHECK(wr_metrics_find("nope") == -1);
	json_decref(doc);
}

static void
test_tolerances(void)
{
	struct wr_tolerances t;
	char *path;

	wr_tolerances_defaults(&t);
	WR_CHECK(t.t[WR_METRIC_RX_MPPS].relative && t.t[WR_METRIC_RX_MPPS].value == 5.0);
	WR_CHECK(!t.t[WR_METRIC_LOSS_PCT].relative);
	WR_CHECK(wr_tolerances_set(&t, "latency = ignore", &err) == 0);
	WR_CHECK(t.t[WR_METRIC_LAT_P50].ignore && t.t[WR_METRIC_LAT_P99_9].ignore);
	WR_CHECK(!t.t[WR_METRIC_RX_MPPS].ignore);
	WR_CHECK(wr_tolerances_set(&t, "rx_mpps=2.5%", &err) == 0);
	WR_CHECK(t.t[WR_METRIC_RX_MPPS].relative && t.t[WR_METRIC_RX_MPPS].value == 2.5);
	WR_CHECK(wr_tolerances_set(&t, "loss_pct = -1", &err) == -EINVAL);
	WR_CHECK_STR(err.msg, "loss_pct = '-1': expected N%");
	WR_CHECK(wr_tolerances_set(&t, "rx_pps = 1%", &err) == -EINVAL);
	WR_CHECK_STR(err.msg, "'rx_pps' is not a metric");
	path = doc_file(NULL, "# CI tolerances\nthroughput = 3%   # all rates\n\n"
		"loss_pct = 0\nlatency_p99 = 10%\n");
	WR_CHECK(wr_tolerances_load(&t, path, &err) == -EINVAL);
	WR_CHECK_STR(err.msg, ":5: 'latency_p99' is not a metric");
	WR_CHECK(t.t[WR_METRIC_TX_GBPS_L2].value == 3.0);
	WR_CHECK(t.t[WR_METRIC_LOSS_PCT].value == 0.0);
	unlink(path);
	free(path);
	WR_CHECK(wr_tolerances_load(&t, "/nonexistent/tol", &err) == -ENOENT);
	WR_CHECK_STR(err.msg, "/nonexistent/tol: cannot read");
}

/* Row of metric id in the last comparison. */
static const struct wr_compare_row *
row(unsigned int id)
{
	return &cmp.rows[id];
}

static void
test_better_and_within(void)
{
	json_t *base = doc_simple(64, 10.0, 1000, 0);
	json_t *cur = doc_simple(64, 12.0, 1100, 0);

	WR_CHECK(run_cmp(base, cur) == 0);
	WR_CHECK(!cmp.regression);
	WR_CHECK(row(WR_METRIC_RX_MPPS)->verdict == WR_VERDICT_IMPROVED);
	WR_CHECK_NEAR(row(WR_METRIC_RX_MPPS)->change_pct, 20.0, 1e-9);
	WR_CHECK(row(WR_METRIC_LAT_P99)->verdict == WR_VERDICT_PASS);   /* +10% < 30% */
	WR_CHECK(row(WR_METRIC_LOSS_PCT)->verdict == WR_VERDICT_PASS);
	WR_CHECK(row(WR_METRIC_CYCLES_PER_PKT)->verdict == WR_VERDICT_SKIPPED);
	WR_CHECK_STR(row(WR_METRIC_CYCLES_PER_PKT)->why, "baseline nor the result");
	WR_CHECK_U64(cmp.frame_size, 64);
	WR_CHECK_U64(cmp.nb[WR_VERDICT_IMPROVED], 6);
	json_decref(base);
	json_decref(cur);
}

static void
test_worse_beyond_tolerance(void)
{
	json_t *base = doc_simple(1518, 0.8, 1000, 0);
	json_t *cur = doc_simple(1518, 0.74, 1400, 0);    /* -7.5%, +40% */

	WR_CHECK(run_cmp(base, cur) == 0);
	WR_CHECK(cmp.regression);
	WR_CHECK(row(WR_METRIC_RX_MPPS)->verdict == WR_VERDICT_REGRESSION);
	WR_CHECK_NEAR(row(WR_METRIC_RX_MPPS)->change_pct, -7.5, 1e-9);
	WR_CHECK_STR(row(WR_METRIC_RX_MPPS)->why, "worse beyond the 5% tolerance");
	WR_CHECK(row(WR_METRIC_LAT_P99)->verdict == WR_VERDICT_REGRESSION);
	WR_CHECK(row(WR_METRIC_LAT_P99_9)->verdict == WR_VERDICT_PASS);  /* 40% < 50% */
	/* A wider tolerance turns the rates into passes. */
	WR_CHECK(wr_tolerances_set(&tol, "throughput = 8%", &err) == 0);
	WR_CHECK(wr_tolerances_set(&tol, "latency = ignore", &err) == 0);
	WR_CHECK(run_cmp(base, cur) == 0);
	WR_CHECK(!cmp.regression);
	WR_CHECK(row(WR_METRIC_LAT_P99)->verdict == WR_VERDICT_SKIPPED);
	wr_tolerances_defaults(&tol);
	json_decref(base);
	json_decref(cur);
}

static void
test_loss_absolute(void)
{
	json_t *base = doc_simple(64, 1.0, 500, 0);
	json_t *small = doc_simple(64, 1.0, 500, 50);     /* 0.005 points */
	json_t *big = doc_simple(64, 1.0, 500, 300);      /* 0.03 points */

	WR_CHECK(run_cmp(base, small) == 0);
	WR_CHECK(row(WR_METRIC_LOSS_PCT)->verdict == WR_VERDICT_PASS);
	WR_CHECK(isnan(row(WR_METRIC_LOSS_PCT)->change_pct));   /* from 0 */
	WR_CHECK(run_cmp(base, big) == 0);
	WR_CHECK(row(WR_METRIC_LOSS_PCT)->verdict == WR_VERDICT_REGRESSION);
	WR_CHECK(run_cmp(big, base) == 0);
	WR_CHECK(row(WR_METRIC_LOSS_PCT)->verdict == WR_VERDICT_IMPROVED);
	json_decref(base);
	json_decref(small);
	json_decref(big);
}

static void
test_noise(void)
{
	static const double b[] = { 10.0, 9.0, 11.0, 10.5, 9.5 };
	static const double inside[] = { 9.2, 8.8, 9.6, 9.0, 9.3 };   /* med 9.2 */
	static const double outside[] = { 8.0, 8.2, 7.9, 8.1, 8.05 };
	json_t *base = doc_simple(64, 10.0, 1000, 0);
	json_t *c1 = doc_simple(64, 9.2, 1000, 0);
	json_t *c2 = doc_simple(64, 8.0, 1000, 0);

	doc_add_trials(base, 64, b, 5, 1000);
	doc_add_trials(c1, 64, inside, 5, 1000);
	doc_add_trials(c2, 64, outside, 5, 1000);
	WR_CHECK(run_cmp(base, c1) == 0);
	WR_CHECK_U64(row(WR_METRIC_RX_MPPS)->base.n, 5);
	WR_CHECK_NEAR(row(WR_METRIC_RX_MPPS)->base.value, 10.0, 1e-9);  /* median */
	WR_CHECK_NEAR(row(WR_METRIC_RX_MPPS)->change_pct, -8.0, 1e-9);
	WR_CHECK(row(WR_METRIC_RX_MPPS)->verdict == WR_VERDICT_NOISE);
	WR_CHECK_STR(row(WR_METRIC_RX_MPPS)->why, "within the trials' noise: the "
		"medians differ by 0.8, at most 1.032 by chance");
	WR_CHECK(!cmp.regression);
	WR_CHECK(run_cmp(base, c2) == 0);         /* best 8.2 < worst 9.0 */
	WR_CHECK(row(WR_METRIC_RX_MPPS)->verdict == WR_VERDICT_REGRESSION);
	WR_CHECK(cmp.regression);
	json_decref(base);
	json_decref(c1);
	json_decref(c2);
}

static void
test_noise_needs_both_sides(void)
{
	static const double b[] = { 10.0, 9.0, 11.0 };
	json_t *base = doc_simple(64, 10.0, 1000, 0);
	json_t *cur = doc_simple(64, 9.2, 1000, 0);     /* single run */

	doc_add_trials(base, 64, b, 3, 1000);
	WR_CHECK(run_cmp(base, cur) == 0);
	WR_CHECK(row(WR_METRIC_RX_MPPS)->verdict == WR_VERDICT_REGRESSION);
	json_decref(base);
	json_decref(cur);
}

/* The rx_mpps verdict of n trials cur against n trials base (64 B). */
static enum wr_verdict
rx_verdict(const double *base_mpps, const double *cur_mpps, unsigned int n)
{
	json_t *base = doc_simple(64, base_mpps[0], 1000, 0);
	json_t *cur = doc_simple(64, cur_mpps[0], 1000, 0);
	enum wr_verdict v = WR_VERDICT_COUNT;

	doc_add_trials(base, 64, base_mpps, n, 1000);
	doc_add_trials(cur, 64, cur_mpps, n, 1000);
	if (run_cmp(base, cur) == 0)
		v = row(WR_METRIC_RX_MPPS)->verdict;
	json_decref(base);
	json_decref(cur);
	return v;
}

/*
 * Two trials a side: the error estimate is loose (t95(2) = 4.3), but sets
 * that do not overlap at all are not called chance.
 */
static void
test_noise_needs_overlap(void)
{
	static const double b[] = { 10.0, 14.0 };
	static const double apart[] = { 8.0, 8.4 };
	static const double touch[] = { 8.0, 10.0 };

	WR_CHECK(rx_verdict(b, apart, 2) == WR_VERDICT_REGRESSION);
	WR_CHECK(rx_verdict(b, touch, 2) == WR_VERDICT_NOISE);
}

static void
test_incomparable(void)
{
	struct doc_port two[2] = { { "tx+rx", 5, 5, 900 }, { "tx+rx", 5, 5, 900 } };
	json_t *base = doc_simple(64, 10.0, 1000, 0);
	json_t *size = doc_simple(128, 10.0, 1000, 0);
	json_t *vlan = doc_simple(64, 10.0, 1000, 0);
	json_t *roles = doc_make(64, two, 2, 1e6, 0);

	WR_CHECK(run_cmp(base, size) == -EINVAL);
	WR_CHECK_STR(err.msg, "incomparable runs: frame size 64 B in base.json, 128 B "
		"in cur.json");
	json_object_set_new(json_object_get(vlan, "config"), "vlan", json_integer(100));
	WR_CHECK(run_cmp(base, vlan) == -EINVAL);
	WR_CHECK_STR(err.msg, "VLAN tagging (--vlan): untagged in base.json, "
		"VLAN-tagged in cur.json");
	WR_CHECK_STR(err.msg, "--allow-diff vlan)");
	WR_CHECK(run_cmp(base, roles) == -EINVAL);
	WR_CHECK_STR(err.msg, "transmits on 1 and receives on 1 port(s) in base.json, "
		"transmits on 2 and receives on 2 port(s) in cur.json");
	json_decref(base);
	json_decref(size);
	json_decref(vlan);
	json_decref(roles);
}

static void
test_missing_fields(void)
{
	json_t *base = doc_simple(64, 10.0, 1000, 0);
	json_t *cur = doc_simple(64, 10.0, 1000, 0);

	json_object_del(json_array_get(json_object_get(cur, "totals"), 0), "rx_mpps");
	WR_CHECK(run_cmp(base, cur) == -EINVAL);
	WR_CHECK_STR(err.msg, "cur.json: field 'totals[0].rx_mpps' is missing");
	json_object_del(json_object_get(base, "config"), "frame_size");
	WR_CHECK(run_cmp(base, cur) == -EINVAL);
	WR_CHECK_STR(err.msg, "base.json: field 'config.frame_size' is missing");
	json_decref(cur);
	cur = doc_simple(64, 10.0, 1000, 0);
	json_object_set_new(json_object_get(cur, "accounting"), "lost_pkts",
		json_string("many"));
	json_decref(base);
	base = doc_simple(64, 10.0, 1000, 0);
	WR_CHECK(run_cmp(base, cur) == -EINVAL);
	WR_CHECK_STR(err.msg, "cur.json: field 'accounting.lost_pkts' is not a number");
	json_object_set_new(json_object_get(cur, "accounting"), "lost_pkts",
		json_integer(0));
	json_object_del(cur, "ports");
	WR_CHECK(run_cmp(base, cur) == -EINVAL);
	WR_CHECK_STR(err.msg, "cur.json: field 'ports' is missing");
	json_decref(base);
	json_decref(cur);
}

static void
test_load(void)
{
	json_t *good = doc_simple(64, 10.0, 1000, 0), *doc = NULL;
	char *p_good = doc_file(good, NULL);
	char *p_corrupt = doc_file(NULL, "{\"schema\": \"wirerate-result/1\",\n"
		"  \"totals\": [1, 2,\n");
	char *p_schema = doc_file(NULL, "{\"schema\": \"wirerate-result/2\"}");
	char *p_other = doc_file(NULL, "[1, 2, 3]");

	WR_CHECK(wr_compare_load(p_good, &doc, &err) == 0);
	WR_CHECK(doc != NULL && json_equal(doc, good));   /* schema round trip */
	json_decref(doc);
	WR_CHECK(wr_compare_load(p_corrupt, &doc, &err) == -EINVAL);
	WR_CHECK(doc == NULL);
	WR_CHECK_STR(err.msg, p_corrupt);
	WR_CHECK_STR(err.msg, ":3:0: not valid JSON");
	WR_CHECK(wr_compare_load(p_schema, &doc, &err) == -EINVAL);
	WR_CHECK_STR(err.msg, "schema mismatch: field 'schema' is \"wirerate-result/2\"");
	WR_CHECK(wr_compare_load(p_other, &doc, &err) == -EINVAL);
	WR_CHECK_STR(err.msg, "field 'schema' is missing");
	WR_CHECK(wr_compare_load("/nonexistent.json", &doc, &err) == -EINVAL);
	WR_CHECK_STR(err.msg, "/nonexistent.json: cannot read");
	unlink(p_good);
	unlink(p_corrupt);
	unlink(p_schema);
	unlink(p_other);
	free(p_good);
	free(p_corrupt);
	free(p_schema);
	free(p_other);
	json_decref(good);
}

static void
test_notes(void)
{
	json_t *base = doc_simple(64, 10.0, 1000, 0);
	json_t *cur = doc_simple(64, 10.0, 1000, 0);

	json_object_set_new(json_object_get(cur, "env"), "hostname", json_string("lab2"));
	json_object_set_new(json_array_get(json_object_get(cur, "ports"), 0),
		"driver", json_string("net_e1000_em"));
	WR_CHECK(run_cmp(base, cur) == 0);
	WR_CHECK_U64(cmp.nb_notes, 2);
	WR_CHECK_STR(cmp.notes[0], "env.hostname differs: \"lab1\" in the baseline, "
		"\"lab2\" in the result");
	WR_CHECK_STR(cmp.notes[1], "ports[0].driver differs");
	WR_CHECK_U64(cmp.nb[WR_VERDICT_PASS], 11);
	json_decref(base);
	json_decref(cur);
}

/* A one-point document of a test mode (kinds.c) around result r. */
static json_t *
mode_doc(const char *mode, json_t *r)
{
	json_t *doc = doc_simple(64, 10.0, 1000, 0);

	json_object_set_new(doc, "mode", json_string(mode));
	json_object_set_new(r, "frame_size", json_integer(64));
	json_object_set_new(doc, "results", json_pack("[o]", r));
	return doc;
}

/* Row of metric id at point 0, or NULL. */
static const struct wr_compare_row *
row_of(unsigned int id)
{
	unsigned int i;

	for (i = 0; i < cmp.nb_rows; i++)
		if (cmp.rows[i].id == id && cmp.rows[i].point == 0)
			return &cmp.rows[i];
	return NULL;
}

static json_t *
tput(bool found, double ndr_mpps)
{
	return json_pack("{s:b, s:f, s:f, s:b, s:f}", "ndr_found", found,
		"ndr_mpps", ndr_mpps, "ndr_gbps_l1", ndr_mpps * 0.672,
		"pdr_found", found, "pdr_pps", ndr_mpps * 1.01e6);
}

static json_t *
mlr(double ct_pps)
{
	return json_pack("{s:[{s:f, s:f, s:f}]}", "goals", "loss_ratio", 0.0,
		"conditional_throughput_pps", ct_pps,
		"conditional_throughput_gbps_l1", ct_pps * 672e-9);
}

static json_t *
b2b(bool passed)
{
	return passed ? json_pack("{s:f, s:f, s:f, s:[i, i]}", "mean_pkts", 900.0,
		"min_pkts", 800.0, "max_pkts", 1000.0, "bursts_pkts", 800, 1000) :
		json_pack("{s:[]}", "bursts_pkts");
}

/* The spread behind the noise rule: robust, and narrower with more trials. */
static void
test_median_se(void)
{
	static const double v[] = { 10.0, 10.1, 9.9, 10.05, 5.0 };
	double far[] = { 10.0, 10.1, 9.9, 10.05, 0.001 };
	double se = wr_trials_median_se(v, 5);

	/* MAD 0.1: 1.2533 * 1.4826 * 0.1 / sqrt(5) */
	WR_CHECK_NEAR(se, 0.0830988, 1e-6);
	WR_CHECK_NEAR(wr_trials_median_se(far, 5), se, 1e-12); /* outlier's size */
	WR_CHECK(isnan(wr_trials_median_se(v, 1)));
	WR_CHECK_NEAR(wr_trials_median_se((const double[]){ 1, 2, 3, 4, 5, 1, 2, 3,
		4, 5 }, 10), 1.2533 * 1.4826 * 1.0 / sqrt(10.0), 1e-9);
}

/*
 * One slow outlier among 5 baseline trials used to
 * stretch the baseline's range down to it, so a 15% drop of every result
 * trial was "inside the spread". Noise is judged from the medians' errors.
 */
static void
test_outlier_regression(void)
{
	static const double b[] = { 10.0, 10.1, 9.9, 10.05, 5.0 };
	static const double c[] = { 8.5, 8.55, 8.45, 8.5, 8.6 };   /* -15% */
	json_t *base = doc_simple(64, 10.0, 1000, 0);
	json_t *cur = doc_simple(64, 8.5, 1000, 0);

	doc_add_trials(base, 64, b, 5, 1000);
	doc_add_trials(cur, 64, c, 5, 1000);
	WR_CHECK(run_cmp(base, cur) == 0);
	WR_CHECK_NEAR(row(WR_METRIC_RX_MPPS)->change_pct, -15.0, 1e-9);
	WR_CHECK(row(WR_METRIC_RX_MPPS)->verdict == WR_VERDICT_REGRESSION);
	WR_CHECK(row(WR_METRIC_TX_GBPS_L1)->verdict == WR_VERDICT_REGRESSION);
	WR_CHECK(cmp.regression);
	json_decref(base);
	json_decref(cur);
}

/* Three pairs of one noisy configuration: medians 2-7% apart, all noise. */
static void
test_same_config_pairs(void)
{
	static const double pairs[3][2][5] = {
		{ { 10, 8, 12, 9, 11 }, { 9.3, 7.5, 11, 8.4, 10.2 } },
		{ { 9.5, 11.2, 8.1, 10.4, 9.9 }, { 10.6, 8.8, 9.2, 12.0, 9.6 } },
		{ { 10.2, 9.1, 11.5, 8.7, 10.0 }, { 9.0, 10.9, 9.4, 8.2, 11.8 } },
	};
	unsigned int i;

	for (i = 0; i < RTE_DIM(pairs); i++) {
		WR_CHECK(rx_verdict(pairs[i][0], pairs[i][1], 5) != WR_VERDICT_REGRESSION);
		WR_CHECK(!cmp.regression);
		WR_CHECK(rx_verdict(pairs[i][1], pairs[i][0], 5) != WR_VERDICT_REGRESSION);
		WR_CHECK(!cmp.regression);
	}
}

/* Set key of cur's config to v (a new reference). */
static void
set_cfg(json_t *doc, const char *key, json_t *v)
{
	json_object_set_new(json_object_get(doc, "config"), key, v);
}

/*
 * Runs of another set-up are refused (exit 2) naming
 * what differs, unless the comparison allows it by name; then the
 * difference is listed with the verdict.
 */
static void
test_unlike_runs(void)
{
	static const struct {
		const char *key, *cfg, *val, *says;
	} cases[] = {
		{ "mix", "mix", "imix", "frame size mix (--mix, IMIX): none (one "
			"frame size) in base.json, imix in cur.json" },
		{ "l3", "l3", "ipv6", "IP version (--ipv6): ipv4 in base.json, ipv6" },
		{ "rate", "rate", "1Mpps", "rate (--rate): unpaced in base.json, "
			"1Mpps in cur.json" },
		{ "stamp", "stamp", "seq", "--stamp): full in base.json, seq in" },
		{ "latency", "latency", "off", "(--latency): auto in base.json, off" },
	};
	json_t *base = doc_simple(64, 10.0, 1000, 0), *cur;
	unsigned int i, m = 0;

	for (i = 0; i < RTE_DIM(cases); i++) {
		cur = doc_simple(64, 10.0, 1000, 0);
		set_cfg(cur, cases[i].cfg, json_string(cases[i].val));
		WR_CHECK(run_cmp(base, cur) == -EINVAL);
		WR_CHECK_STR(err.msg, "incomparable runs: ");
		WR_CHECK_STR(err.msg, cases[i].says);
		WR_CHECK_STR(err.msg, "--allow-diff");
		WR_CHECK_STR(err.msg, cases[i].key);
		m = 0;
		WR_CHECK(wr_alike_allow(cases[i].key, &m, &err) == 0);
		allow = m;
		WR_CHECK(run_cmp(base, cur) == 0);
		WR_CHECK_U64(cmp.nb_allowed, 1);
		WR_CHECK_STR(cmp.allowed[0], cases[i].val);
		WR_CHECK_STR(cmp.allowed[0], "(--allow-diff ");
		allow = 0;
		json_decref(cur);
	}
	/* Flows and the streams' pattern; every difference named at once. */
	cur = doc_simple(64, 10.0, 1000, 0);
	set_cfg(cur, "flows", json_integer(64));
	json_object_set_new(base, "tx_streams", json_pack("[{s:i, s:s}]",
		"stream_id", 0, "pattern", "constant"));
	json_object_set_new(cur, "tx_streams", json_pack("[{s:i, s:s}]",
		"stream_id", 0, "pattern", "burst:32/1ms"));
	WR_CHECK(run_cmp(base, cur) == -EINVAL);
	WR_CHECK_STR(err.msg, "[constant] in base.json, [burst:32/1ms] in cur.json");
	WR_CHECK_STR(err.msg, "flows (--flows, field ranges): 1 in base.json, 64 in cur.json");
	WR_CHECK_STR(err.msg, "--allow-diff pattern --allow-diff flows)");
	m = 0;
	WR_CHECK(wr_alike_allow("flows", &m, &err) == 0);
	allow = m;
	WR_CHECK(run_cmp(base, cur) == -EINVAL);          /* pattern still differs */
	WR_CHECK_STR(err.msg, "--allow-diff pattern)");
	WR_CHECK(strstr(err.msg, "--flows") == NULL);
	WR_CHECK(wr_alike_allow("pattern", &m, &err) == 0);
	allow = m;
	WR_CHECK(run_cmp(base, cur) == 0);
	WR_CHECK_U64(cmp.nb_allowed, 2);
	allow = 0;
	WR_CHECK(wr_alike_allow("size", &m, &err) == -EINVAL);
	WR_CHECK_STR(err.msg, "--allow-diff size: not a key; accepted: mix, l3, rate");
	json_decref(base);
	json_decref(cur);
}

/*
 * A headline the baseline has and the result lacks is a regression named
 * in the verdict; one that neither has is skipped.
 */
static void
test_vanished_headline(void)
{
	json_t *docs[][2] = {
		{ mode_doc("throughput", tput(true, 5.0)),
			mode_doc("throughput", tput(false, 0)) },
		{ mode_doc("mlr", mlr(5e6)), mode_doc("mlr", mlr(0)) },
		{ mode_doc("b2b", b2b(true)), mode_doc("b2b", b2b(false)) },
	};
	static const unsigned int head[] = {
		WR_METRIC_NDR_MPPS, WR_METRIC_NDR_MPPS, WR_METRIC_B2B_PKTS,
	};
	const struct wr_compare_row *r;
	unsigned int i;

	for (i = 0; i < RTE_DIM(docs); i++) {
		WR_CHECK(run_cmp(docs[i][0], docs[i][1]) == 0);
		r = row_of(head[i]);
		WR_CHECK(r != NULL && r->verdict == WR_VERDICT_REGRESSION);
		if (r != NULL)
			WR_CHECK_STR(r->why, "missing in the result");
		WR_CHECK(cmp.regression);
		WR_CHECK(run_cmp(docs[i][1], docs[i][1]) == 0);  /* neither has it */
		r = row_of(head[i]);
		WR_CHECK(r != NULL && r->verdict == WR_VERDICT_SKIPPED);
		WR_CHECK(!cmp.regression);
		WR_CHECK(run_cmp(docs[i][1], docs[i][0]) == 0);  /* found again */
		WR_CHECK(row_of(head[i])->verdict == WR_VERDICT_SKIPPED);
		WR_CHECK(!cmp.regression);
		tol.t[head[i]].ignore = true;                    /* expected: ignored */
		WR_CHECK(run_cmp(docs[i][0], docs[i][1]) == 0);
		WR_CHECK(row_of(head[i])->verdict == WR_VERDICT_SKIPPED);
		WR_CHECK_STR(row_of(head[i])->why, "ignored");
		wr_tolerances_defaults(&tol);
		json_decref(docs[i][0]);
		json_decref(docs[i][1]);
	}
}

int
main(void)
{
	wr_tolerances_defaults(&tol);
	WR_TEST_RUN(test_metrics_extract);
	WR_TEST_RUN(test_metrics_paths);
	WR_TEST_RUN(test_tolerances);
	WR_TEST_RUN(test_better_and_within);
	WR_TEST_RUN(test_worse_beyond_tolerance);
	WR_TEST_RUN(test_loss_absolute);
	WR_TEST_RUN(test_noise);
	WR_TEST_RUN(test_noise_needs_both_sides);
	WR_TEST_RUN(test_noise_needs_overlap);
	WR_TEST_RUN(test_incomparable);
	WR_TEST_RUN(test_missing_fields);
	WR_TEST_RUN(test_load);
	WR_TEST_RUN(test_notes);
	WR_TEST_RUN(test_vanished_headline);
	WR_TEST_RUN(test_unlike_runs);
	WR_TEST_RUN(test_median_se);
	WR_TEST_RUN(test_outlier_regression);
	WR_TEST_RUN(test_same_config_pairs);
	return wr_test_summary();
}
