/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for the pure parts of --mode y1564 (results/y1564.c) and of its
 * services (config/service.c): the step plan, the colour split of the
 * CIR+EIR and policing steps, the verdicts, availability by Y.1563's
 * ten-second rule and the bounded series.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "config/service.h"
#include "results/y1564.h"
#include "results/y1564json.h"
#include "wr_test_opts.h"
#include "wr_test.h"

static void
test_plan(void)
{
	const double pct[] = { 25, 50, 75, 100 };
	struct wr_y1564_step s[WR_Y1564_MAX_STEPS];
	unsigned int n = wr_y1564_plan(1000, 500, pct, 4, s, WR_Y1564_MAX_STEPS);

	WR_CHECK_U64(n, 6);
	WR_CHECK(s[0].kind == WR_Y1564_CIR && s[0].green_pps == 250 && s[0].yellow_pps == 0);
	WR_CHECK_STR(s[3].name, "cir 100%");
	WR_CHECK(s[3].green_pps == 1000);
	/* 8.1.2 B.1: green at CIR, yellow at EIR. */
	WR_CHECK(s[4].kind == WR_Y1564_EIR && s[4].green_pps == 1000 && s[4].yellow_pps == 500);
	/* C.1: yellow at 1.25 EIR. */
	WR_CHECK(s[5].kind == WR_Y1564_POLICE && s[5].green_pps == 1000);
	WR_CHECK_NEAR(s[5].yellow_pps, 625, 1e-9);
	/* An EIR below 20 % of the CIR: the overshoot is a quarter of the CIR. */
	n = wr_y1564_plan(1000, 100, pct, 4, s, WR_Y1564_MAX_STEPS);
	WR_CHECK_NEAR(s[n - 1].yellow_pps, 350, 1e-9);
	/* No EIR: no CIR+EIR step; policing all green at 1.25 CIR (C.2). */
	n = wr_y1564_plan(1000, 0, pct, 2, s, WR_Y1564_MAX_STEPS);
	WR_CHECK_U64(n, 3);
	WR_CHECK(s[2].kind == WR_Y1564_POLICE && s[2].green_pps == 1250 && s[2].yellow_pps == 0);
	/* Bounded by the room given. */
	WR_CHECK_U64(wr_y1564_plan(1000, 500, pct, 4, s, 3), 3);
}

static struct wr_y1564_crit
crit(double eir)
{
	return (struct wr_y1564_crit){ .flr = 0.001, .ftd_ns = 10e6, .fdv_ns = 2e6,
		.avail = 0.999, .margin = 0.05, .cir_pps = 1000, .eir_pps = eir };
}

/*
 * No latency: FTD and FDV are not measured, never passed; the step does
 * not pass unless the user skipped them, and they stay listed.
 */
static void
test_unmeasured(struct wr_y1564_crit *c, struct wr_y1564_meas *m)
{
	struct wr_y1564_verdict v;

	m->lat_valid = false;
	wr_y1564_judge(WR_Y1564_CIR, c, m, &v);
	WR_CHECK(!v.pass && v.nb_fails == 0 && v.nb_unmeasured == 2);
	WR_CHECK(strcmp(v.unmeasured[0], "FTD") == 0 && strcmp(v.unmeasured[1], "FDV") == 0);
	c->skip_unmeasured = true;
	wr_y1564_judge(WR_Y1564_CIR, c, m, &v);
	WR_CHECK(v.pass && v.nb_unmeasured == 2);
	/* Only criteria given are listed. */
	c->skip_unmeasured = false;
	c->ftd_ns = WR_SERVICE_NO_CRITERION;
	wr_y1564_judge(WR_Y1564_CIR, c, m, &v);
	WR_CHECK(!v.pass && v.nb_unmeasured == 1 && strcmp(v.unmeasured[0], "FDV") == 0);
	c->fdv_ns = WR_SERVICE_NO_CRITERION;
	wr_y1564_judge(WR_Y1564_CIR, c, m, &v);
	WR_CHECK(v.pass && v.nb_unmeasured == 0);
}

/* The verdict's words: "not measured", never "pass", for such criteria. */
static void
test_unmeasured_text(void)
{
	struct wr_y1564_crit c = crit(0);
	struct wr_y1564_meas m = { .green_sent = 100, .duration_s = 1, .avail = -1 };
	struct wr_y1564_verdict v;
	json_t *o = json_object();
	char buf[128];

	wr_y1564_judge(WR_Y1564_CIR, &c, &m, &v);
	wr_y1564_verdict_json(o, &v);
	wr_y1564_verdict_text(o, buf, sizeof(buf));
	WR_CHECK_STR(buf, "not measured: FTD FDV");
	WR_CHECK(json_array_size(json_object_get(o, "not_measured")) == 2);
	m.green_lost = 50;
	wr_y1564_judge(WR_Y1564_CIR, &c, &m, &v);
	wr_y1564_verdict_json(o, &v);
	wr_y1564_verdict_text(o, buf, sizeof(buf));
	WR_CHECK_STR(buf, "FAIL: FLR 0.5 > 0.001; not measured: FTD FDV");
	c.skip_unmeasured = true;
	m.green_lost = 0;
	wr_y1564_judge(WR_Y1564_CIR, &c, &m, &v);
	wr_y1564_verdict_json(o, &v);
	wr_y1564_verdict_text(o, buf, sizeof(buf));
	WR_CHECK_STR(buf, "pass; not measured (skipped): FTD FDV");
	json_decref(o);
}

/* A delay criterion the stamp mode cannot measure: refused at start. */
static void
test_refused(void)
{
	struct wr_config c;

	WR_CHECK(PARSE(&c, "--mode", "y1564", "--stamp", "seq", "--stream",
		"name=gold;cir=1kpps;fdv=5ms") == -EINVAL);
	WR_CHECK_STR(err.msg, "--stream 1 (gold): its criterion fdv= cannot be "
		"measured: --stamp seq writes no TX timestamp; use --stamp full (and "
		"not --latency off), drop fdv=, or give --skip-unmeasured to judge "
		"the service without it");
	WR_CHECK(PARSE(&c, "--mode", "y1564", "--latency", "off", "--stream",
		"name=gold;cir=1kpps;ftd=5ms") == -EINVAL);
	WR_CHECK(strstr(err.msg, "ftd= cannot be measured: --latency off") != NULL);
	WR_CHECK_U64(PARSE(&c, "--mode", "y1564", "--stamp", "seq", "--skip-unmeasured",
		"--stream", "name=gold;cir=1kpps;ftd=5ms"), 0);
	WR_CHECK_U64(PARSE(&c, "--mode", "y1564", "--stamp", "seq", "--stream",
		"name=gold;cir=1kpps;flr=1%"), 0);
	WR_CHECK(PARSE(&c, "--skip-unmeasured") == -EINVAL);
	WR_CHECK(PARSE(&c, "--mode", "y1564", "--peer", "unix:/nonexistent", "--stream",
		"name=gold;cir=1kpps") == -EINVAL);
	WR_CHECK(strstr(err.msg, "--peer with --mode y1564") != NULL &&
		strstr(err.msg, "--reflect") != NULL);
}

static void
test_verdicts(void)
{
	struct wr_y1564_crit c = crit(500);
	struct wr_y1564_meas m = { .green_sent = 10000, .green_lost = 5, .duration_s = 10,
		.lat_valid = true, .ftd_ns = 1e6, .fdv_ns = 1e5, .avail = -1 };
	struct wr_y1564_verdict v;

	wr_y1564_judge(WR_Y1564_CIR, &c, &m, &v);
	WR_CHECK(v.pass && v.nb_fails == 0);
	m.green_lost = 2000;
	wr_y1564_judge(WR_Y1564_CIR, &c, &m, &v);
	WR_CHECK(!v.pass && v.nb_fails == 1 && strcmp(v.fails[0].kpi, "FLR") == 0);
	WR_CHECK_NEAR(v.fails[0].value, 0.2, 1e-12);
	WR_CHECK_NEAR(v.fails[0].criterion, 0.001, 1e-12);
	/* Loss of yellow frames is not judged in the CIR+EIR step. */
	m.green_lost = 0;
	m.yellow_sent = 5000;
	m.yellow_lost = 4000;
	wr_y1564_judge(WR_Y1564_EIR, &c, &m, &v);
	WR_CHECK(v.pass);
	/* ... nor in the policing step, whose IR must stay within CIR+EIR+M. */
	m.yellow_sent = 6250;   /* 1.25 EIR: 1625 pps arrive */
	m.yellow_lost = 0;
	wr_y1564_judge(WR_Y1564_POLICE, &c, &m, &v);
	WR_CHECK(!v.pass && strcmp(v.fails[0].kpi, "IR") == 0);
	WR_CHECK_NEAR(v.fails[0].criterion, 1575, 1e-9);
	m.yellow_lost = 1250;   /* 1500 pps arrive: within 1575 */
	wr_y1564_judge(WR_Y1564_POLICE, &c, &m, &v);
	WR_CHECK(v.pass);
	/* Delay: FTD and FDV named with their values, FLR passing. */
	m.ftd_ns = 40e6;
	m.fdv_ns = 3e6;
	wr_y1564_judge(WR_Y1564_CIR, &c, &m, &v);
	WR_CHECK(v.nb_fails == 2 && strcmp(v.fails[0].kpi, "FTD") == 0 &&
		strcmp(v.fails[1].kpi, "FDV") == 0 && v.fails[0].value == 40e6);
	test_unmeasured(&c, &m);
	/* No EIR: the policing step drops above CIR; IR at least CIR (1 - FLR). */
	c = crit(0);
	m = (struct wr_y1564_meas){ .green_sent = 12500, .green_lost = 2500,
		.duration_s = 10, .lat_valid = true, .avail = -1 };
	wr_y1564_judge(WR_Y1564_POLICE, &c, &m, &v);
	WR_CHECK(v.pass);
	m.green_lost = 0;
	wr_y1564_judge(WR_Y1564_POLICE, &c, &m, &v);
	WR_CHECK(!v.pass && strcmp(v.fails[0].kpi, "IR") == 0);
	m.green_lost = 6000;
	wr_y1564_judge(WR_Y1564_POLICE, &c, &m, &v);
	WR_CHECK(!v.pass && strcmp(v.fails[0].rule, ">=") == 0);
	/* The performance test judges availability. */
	m = (struct wr_y1564_meas){ .green_sent = 100, .duration_s = 1, .avail = 0.6,
		.lat_valid = true };
	wr_y1564_judge(WR_Y1564_PERF, &c, &m, &v);
	WR_CHECK(!v.pass && strcmp(v.fails[0].kpi, "AVAIL") == 0);
	/* A criterion not given is not judged. */
	c.avail = WR_SERVICE_NO_CRITERION;
	wr_y1564_judge(WR_Y1564_PERF, &c, &m, &v);
	WR_CHECK(v.pass);
}

/* Feed n seconds of 100 frames losing lost each. */
static void
feed(struct wr_y1564_avail *a, unsigned int n, uint64_t lost)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		wr_y1564_avail_second(a, 100, lost);
}

static void
test_availability(void)
{
	struct wr_y1564_avail a;

	/* 9 severely errored seconds do not start unavailable time. */
	wr_y1564_avail_init(&a, 0.5);
	feed(&a, 5, 0);
	feed(&a, 9, 100);
	feed(&a, 20, 0);
	WR_CHECK_U64(wr_y1564_avail_unavailable_s(&a), 0);
	WR_CHECK_U64(a.nb_ses, 9);
	/* 12 of them: 12 s unavailable, one period from its first second. */
	wr_y1564_avail_init(&a, 0.5);
	feed(&a, 5, 0);
	feed(&a, 12, 100);
	feed(&a, 13, 0);
	WR_CHECK_U64(wr_y1564_avail_unavailable_s(&a), 12);
	WR_CHECK(a.nb_windows == 1 && a.windows[0].start_s == 5 && a.windows[0].len_s == 12);
	WR_CHECK_NEAR(wr_y1564_avail_ratio(&a), 1 - 12.0 / 30, 1e-12);
	/* A second at the threshold is not severely errored (above it is). */
	wr_y1564_avail_init(&a, 0.5);
	feed(&a, 10, 50);
	WR_CHECK_U64(wr_y1564_avail_unavailable_s(&a), 0);
	feed(&a, 10, 51);
	WR_CHECK_U64(wr_y1564_avail_unavailable_s(&a), 10);
	/* Seconds without SES inside unavailable time stay unavailable
	 * until 10 of them in a row. */
	feed(&a, 4, 0);
	feed(&a, 1, 100);
	WR_CHECK_U64(wr_y1564_avail_unavailable_s(&a), 15);
	feed(&a, 10, 0);
	WR_CHECK(!a.unavailable);
	WR_CHECK_U64(wr_y1564_avail_unavailable_s(&a), 15);
	/* The test ending while unavailable counts the seconds since. */
	feed(&a, 10, 100);
	feed(&a, 3, 0);
	WR_CHECK(a.unavailable && wr_y1564_avail_unavailable_s(&a) == 28);
	WR_CHECK_U64(a.nb_windows, 2);
	/* A silent second is not severely errored. */
	wr_y1564_avail_init(&a, 0.5);
	wr_y1564_avail_second(&a, 0, 0);
	WR_CHECK_U64(a.nb_ses, 0);
}

static void
test_series(void)
{
	static struct wr_y1564_series s;
	struct wr_y1564_point p = { .span_s = 1, .sent = 10, .lost = 1 };
	uint64_t sent = 0;
	uint32_t t;
	bool merged = false;

	wr_y1564_series_init(&s);
	for (t = 0; t < 3 * WR_Y1564_SERIES_CAP; t++) {
		merged |= wr_y1564_series_add(&s, t, &p);
		WR_CHECK(s.nb <= WR_Y1564_SERIES_CAP);
	}
	WR_CHECK(merged);
	WR_CHECK_U64(s.span_s, 4);
	for (t = 0; t < s.nb; t++)
		sent += s.p[t].sent;
	/* Nothing lost in the merges; points start where their seconds do. */
	WR_CHECK_U64(sent, 30 * WR_Y1564_SERIES_CAP);
	WR_CHECK(s.p[1].t_s == 4 && s.p[1].span_s == 4 && s.p[1].lost == 4);
}

static void
test_keys(void)
{
	struct wr_service s;
	struct wr_error e;

	wr_service_init(&s);
	WR_CHECK(wr_service_key(&s, "cir", "10Mbps", &e) == 0 && s.role == WR_SERVICE_GREEN);
	WR_CHECK(wr_service_key(&s, "flr", "0.1%", &e) == 0 && fabs(s.flr - 0.001) < 1e-15);
	WR_CHECK(wr_service_key(&s, "ftd", "10ms", &e) == 0 && s.ftd_ns == 10e6);
	WR_CHECK(wr_service_key(&s, "fdv", "500us", &e) == 0 && s.fdv_ns == 5e5);
	WR_CHECK(wr_service_key(&s, "avail", "99.9%", &e) == 0);
	WR_CHECK(wr_service_key(&s, "yellow", "pcp:3", &e) == 0 &&
		s.yellow_mark == WR_SERVICE_MARK_PCP && s.yellow_value == 3);
	/* Criteria without units, and bad values, are refused. */
	WR_CHECK(wr_service_key(&s, "ftd", "10", &e) == -EINVAL);
	WR_CHECK(wr_service_key(&s, "flr", "0.001", &e) == -EINVAL);
	WR_CHECK(wr_service_key(&s, "avail", "101%", &e) == -EINVAL);
	WR_CHECK(wr_service_key(&s, "cir", "max", &e) == -EINVAL);
	WR_CHECK(wr_service_key(&s, "yellow", "dscp:64", &e) == -EINVAL);
	WR_CHECK(wr_service_key(&s, "size", "64", &e) == 1);
}

int
main(void)
{
	WR_TEST_RUN(test_plan);
	WR_TEST_RUN(test_verdicts);
	WR_TEST_RUN(test_unmeasured_text);
	WR_TEST_RUN(test_refused);
	WR_TEST_RUN(test_availability);
	WR_TEST_RUN(test_series);
	WR_TEST_RUN(test_keys);
	return wr_test_summary();
}
