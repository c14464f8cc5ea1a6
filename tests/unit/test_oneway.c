/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for oneway.c (and its use in merge.c): one-way latency of a
 * two-ended result only where one TSC (--latency tsc) or both ends'
 * synchronised clocks (--latency sync) make it so; the shift and bound
 * from the ends' anchors; null with the reason otherwise.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "results/merge.h"
#include "results/oneway.h"
#include "wr_test.h"

static struct wr_merge m;
static struct wr_error err;

/* env with clock: synced?, bound, anchors (tsc, realtime) at set-up and end. */
#define CLOCK(src, synced, bound, t0, r0, t1, r1) "\"clock\": {\"source\": \"" src \
	"\", \"synced\": " #synced ", \"bound_ns\": " #bound ", \"reason\": \"" \
	"chrony: leap status Not synchronised\", \"anchors\": [" \
	"{\"tsc\": " #t0 ", \"realtime_ns\": " #r0 ", \"read_ns\": 10}, " \
	"{\"tsc\": " #t1 ", \"realtime_ns\": " #r1 ", \"read_ns\": 10}]}"
#define DOC(hz, lat, clock, body) "{\"schema\": \"wirerate-result/1\", " \
	"\"env\": {\"tsc_hz\": " #hz ", " clock "}, \"config\": {\"latency\": \"" \
	lat "\"}, " body "}"
#define SND_BODY "\"tx_streams\": [{\"stream_id\": 0, \"sent_pkts\": 10}]"
/* The receiver saw all 10 frames at 2,000..9,000 ns (mean 5,000). */
#define RCV_BODY "\"streams\": [{\"stream_id\": 0, \"rx_port\": 0, " \
	"\"sender_in_run\": false, \"rx_pkts\": 10, \"gap_pkts\": 0, " \
	"\"late_pkts\": 0, \"dup_pkts\": 0, \"old_pkts\": 0, \"restarts\": 0, " \
	"\"first_seq\": 0, \"next_seq\": 10, \"latency_min_ns\": 2000.0, " \
	"\"latency_mean_ns\": 5000.0, \"latency_max_ns\": 9000.0, \"jitter_ns\": 7.0}]"

/* Merge, and the JSON of its one stream; doc to json_decref(). */
static json_t *
merged(const char *snd, const char *rcv, json_t **doc)
{
	json_t *s = json_loads(snd, 0, NULL), *r = json_loads(rcv, 0, NULL);

	WR_CHECK(s != NULL && r != NULL);
	WR_CHECK(wr_merge_compute(s, r, &m, &err) == 0);
	*doc = wr_merge_json(&m, s, "s", r, "r");
	json_decref(s);
	json_decref(r);
	return json_array_get(json_object_get(*doc, "streams"), 0);
}

static double
num(const json_t *o, const char *k)
{
	return json_number_value(json_object_get(o, k));
}

/* One host, --latency tsc: the figures as measured, no bound. */
static void
test_tsc(void)
{
	json_t *doc, *row = merged(DOC(1000000000, "auto", CLOCK("none", false, null,
		0, 0, 0, 0), SND_BODY), DOC(1000000000, "tsc", CLOCK("none", false,
		null, 0, 0, 0, 0), RCV_BODY), &doc);

	WR_CHECK(m.oneway.available);
	WR_CHECK_NEAR(num(row, "latency_min_ns"), 2000, 0);
	WR_CHECK(json_object_get(row, "latency_bound_ns") == NULL);
	WR_CHECK_STR(json_string_value(json_object_get(json_object_get(doc, "one_way"),
		"source")), "tsc");
	json_decref(doc);
}

/*
 * Two hosts at 1 GHz, clocks in sync (bounds 300 and 700 ns): the
 * receiver's TSC reads 1,000 cycles (ns) more than the sender's at one
 * instant. The sender's anchors are 4 s apart, the receiver's 2.999 s,
 * the end pair 1 ms apart. The figures shift by 1,000 ns; the bound adds
 * to 300 + 700 the end pair's reads (20), carrying the receiver's TSC
 * over 1 ms at its rate's uncertainty (20 ns over 2.999 s) and the drift
 * the two rates' uncertainties allow over the sender's 4 s.
 */
static void
test_sync(void)
{
	json_t *doc, *row = merged(DOC(1000000000, "auto", CLOCK("ptp", true, 300,
		5000000, 1800000000000000000, 4005000000, 1800000004000000000), SND_BODY),
		DOC(1000000000, "sync", CLOCK("chrony", true, 700, 1005001000,
		1800000001000000000, 4004001000, 1800000003999000000), RCV_BODY), &doc);
	const json_t *ow = json_object_get(doc, "one_way");
	double u_r = 20 / 2.999e9, u_s = 20 / 4e9;
	double bound = 1000 + 20 + 1e6 * u_r + 4e9 * (u_r + u_s);

	WR_CHECK(m.oneway.available);
	WR_CHECK_NEAR(num(ow, "shift_ns"), 1000, 1e-3);
	WR_CHECK_NEAR(num(ow, "bound_ns"), bound, 1e-6);
	WR_CHECK_STR(json_string_value(json_object_get(ow, "source")), "ptp + chrony");
	WR_CHECK_NEAR(num(row, "latency_min_ns"), 1000, 1e-3);
	WR_CHECK_NEAR(num(row, "latency_mean_ns"), 4000, 1e-3);
	WR_CHECK_NEAR(num(row, "latency_max_ns"), 8000, 1e-3);
	WR_CHECK_NEAR(num(row, "latency_bound_ns"), bound, 1e-6);
	WR_CHECK_NEAR(num(row, "jitter_ns"), 7, 0);
	json_decref(doc);
}

/*
 * Both ends "synchronised" with bound 0, each the grandmaster of its own
 * PTP domain (references differ): no common time, so no one-way figure,
 * and the reason names both references. The same pair following one
 * grandmaster (a slave of the other end) is judged as before.
 */
#define CLOCK_REF(bound, ref, t0, r0, t1, r1) "\"clock\": {\"source\": " \
	"\"ptp\", \"synced\": true, \"bound_ns\": " #bound ", \"reference\": " \
	"\"" ref "\", \"reason\": \"\", \"anchors\": [" \
	"{\"tsc\": " #t0 ", \"realtime_ns\": " #r0 ", \"read_ns\": 10}, " \
	"{\"tsc\": " #t1 ", \"realtime_ns\": " #r1 ", \"read_ns\": 10}]}"
static void
test_two_grandmasters(void)
{
	json_t *doc, *row = merged(DOC(1000000000, "auto", CLOCK_REF(0, "aa.fffe.01",
		5000000, 1800000000000000000, 4005000000, 1800000004000000000), SND_BODY),
		DOC(1000000000, "sync", CLOCK_REF(0, "bb.fffe.02", 1005001000,
		1800000001000000000, 4004001000, 1800000003999000000), RCV_BODY), &doc);

	WR_CHECK(!m.oneway.available);
	WR_CHECK(json_is_null(json_object_get(row, "latency_min_ns")));
	WR_CHECK(strstr(m.oneway.reason, "different references") != NULL);
	WR_CHECK(strstr(m.oneway.reason, "aa.fffe.01") != NULL);
	WR_CHECK(strstr(m.oneway.reason, "bb.fffe.02") != NULL);
	json_decref(doc);
	row = merged(DOC(1000000000, "auto", CLOCK_REF(0, "aa.fffe.01",
		5000000, 1800000000000000000, 4005000000, 1800000004000000000), SND_BODY),
		DOC(1000000000, "sync", CLOCK_REF(700, "aa.fffe.01", 1005001000,
		1800000001000000000, 4004001000, 1800000003999000000), RCV_BODY), &doc);
	WR_CHECK(m.oneway.available);
	WR_CHECK(num(json_object_get(doc, "one_way"), "bound_ns") >= 700);
	json_decref(doc);
}

/*
 * The receiver's TSC runs 1 ppm faster than the sender's (anchors 2 s
 * apart at both ends, taken together): the shift is the offset at set-up
 * (800), and the drift over the 2 s (2,000 ns) joins the bound.
 */
static void
test_sync_drift(void)
{
	json_t *doc, *row = merged(DOC(1000000000, "auto", CLOCK("ptp", true, 0,
		1000000, 1800000000000000000, 2001000000, 1800000002000000000), SND_BODY),
		DOC(1000000000, "sync", CLOCK("ptp", true, 0, 1000800,
		1800000000000000000, 2001002800, 1800000002000000000), RCV_BODY), &doc);

	WR_CHECK_NEAR(num(json_object_get(doc, "one_way"), "shift_ns"), 800, 1e-3);
	WR_CHECK_NEAR(m.oneway.bound_ns, 20 + 2e9 * (1e-6 / (1 + 1e-6) + 20 / 2e9 +
		20 / 2e9), 1e-3);
	WR_CHECK_NEAR(num(row, "latency_max_ns"), 8200, 1e-3);
	json_decref(doc);
}

/* The sender's clock is not synchronised: null, with its reason. */
static void
test_unsynced(void)
{
	json_t *doc, *row = merged(DOC(1000000000, "auto", CLOCK("chrony", false,
		null, 0, 0, 0, 0), SND_BODY), DOC(1000000000, "sync", CLOCK("ptp",
		true, 5, 0, 0, 0, 0), RCV_BODY), &doc);

	WR_CHECK(!m.oneway.available);
	WR_CHECK(json_is_null(json_object_get(row, "latency_min_ns")));
	WR_CHECK(json_is_null(json_object_get(row, "latency_max_ns")));
	WR_CHECK_STR(json_string_value(json_object_get(row, "latency_null_reason")),
		"the sender's clock is not synchronised: chrony: leap status Not");
	WR_CHECK(json_is_null(json_object_get(json_object_get(doc, "one_way"),
		"bound_ns")));
	WR_CHECK_NEAR(num(row, "jitter_ns"), 7, 0);
	json_decref(doc);
}

/* Both synced, TSCs of different rates: the stamps are not comparable. */
static void
test_rates(void)
{
	json_t *doc;

	merged(DOC(2400000000, "auto", CLOCK("ptp", true, 5, 0, 0, 0, 0), SND_BODY),
		DOC(2100000000, "sync", CLOCK("ptp", true, 5, 0, 0, 0, 0), RCV_BODY), &doc);
	WR_CHECK(!m.oneway.available);
	WR_CHECK_STR(m.oneway.reason, "TSC rates differ");
	json_decref(doc);
	/* A receiver of --latency auto measured none of another process's. */
	merged(DOC(1, "auto", "\"x\": 0", SND_BODY), DOC(1, "auto", "\"x\": 0",
		"\"streams\": []"), &doc);
	WR_CHECK(!m.oneway.asked);
	WR_CHECK_STR(m.oneway.reason, "--latency auto");
	json_decref(doc);
}

/* A shift that crosses the 2^32-cycle wrap tears a stream's span apart. */
static void
test_wrap(void)
{
	struct wr_oneway ow = { .available = true, .synced_clocks = true,
		.hz = 1e9, .shift_cycles = 3000 };

	WR_CHECK(wr_oneway_span_ok(&ow, 4000, 9000));
	WR_CHECK(!wr_oneway_span_ok(&ow, 2000, 9000));
	WR_CHECK_NEAR(wr_oneway_fix(&ow, 2000), 4294967296.0 - 1000, 1e-3);
}

int
main(void)
{
	WR_TEST_RUN(test_tsc);
	WR_TEST_RUN(test_sync);
	WR_TEST_RUN(test_sync_drift);
	WR_TEST_RUN(test_unsynced);
	WR_TEST_RUN(test_two_grandmasters);
	WR_TEST_RUN(test_rates);
	WR_TEST_RUN(test_wrap);
	return wr_test_summary();
}
