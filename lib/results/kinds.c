/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>

#include "conn_read.h"
#include "conncap_read.h"
#include "connrate.h"
#include "conntear.h"
#include "connload_read.h"
#include "kinds.h"
#include "meshjson.h"
#include "rfc2889json.h"
#include "trials.h"

/* Figures of one run object: the document itself, with --repeat medians. */
static int
run_figures(const json_t *doc, struct wr_point *p, struct wr_error *err)
{
	struct wr_trials_figure f;
	unsigned int id;
	int rc;

	if (wr_metrics_extract(doc, &p->m, err) != 0)
		return -EINVAL;
	p->lo = p->hi = p->m;
	for (id = 0; id < WR_METRIC_COUNT; id++) {
		rc = wr_trials_read_figure(doc, wr_metric_defs[id].name, &f, err);
		if (rc == -EINVAL)
			return -EINVAL;
		if (rc != 0)
			continue;
		p->m.have[id] = p->lo.have[id] = p->hi.have[id] = true;
		p->m.v[id] = f.median;
		p->lo.v[id] = f.min;
		p->hi.v[id] = f.max;
		p->n = f.n;
	}
	return wr_trials_median_se_of(doc, &p->se, err);
}

static void
put(struct wr_metric_values *m, unsigned int id, double v)
{
	m->have[id] = true;
	m->v[id] = v;
}

/* A number of o named key (in where), required. */
static int
need(const json_t *o, const char *where, const char *key, double *v,
		struct wr_error *err)
{
	const json_t *x = json_object_get(o, key);

	*v = 0; /* defined on every path (gcc -O3 cannot see the error return) */
	if (!json_is_number(x))
		return wr_err_usage(err, -EINVAL, "field '%s.%s' is %s", where, key,
			x == NULL ? "missing" : "not a number");
	*v = json_number_value(x);
	return 0;
}

/* An optional number: true when present (a non-number is not). */
static bool
opt(const json_t *o, const char *key, double *v)
{
	const json_t *x = json_object_get(o, key);

	if (!json_is_number(x))
		return false;
	*v = json_number_value(x);
	return true;
}

/*
 * A point per stream whose sender is in the run: its loss. Not for a
 * repeated run, whose streams are its last trial's only.
 */
static int
stream_points(const json_t *doc, unsigned int size, struct wr_points *out,
		struct wr_error *err)
{
	const json_t *streams = json_object_get(doc, "streams"), *st;
	double id, sent, lost;
	struct wr_point *p;
	char where[32];
	size_t i;

	if (json_is_object(json_object_get(doc, "summary")) || !json_is_array(streams))
		return 0;
	json_array_foreach(streams, i, st) {
		snprintf(where, sizeof(where), "streams[%zu]", i);
		if (!json_is_true(json_object_get(st, "sender_in_run")))
			continue;
		if (need(st, where, "stream_id", &id, err) != 0 ||
				need(st, where, "sent_pkts", &sent, err) != 0 ||
				need(st, where, "lost_pkts", &lost, err) != 0)
			return -EINVAL;
		if (out->nb == WR_KIND_MAX_POINTS || !(id >= 0 && id < 65536))
			return wr_err_usage(err, -EINVAL, "field '%s.stream_id' is %g, or "
				"more than %u streams", where, id, WR_KIND_MAX_POINTS - 1);
		p = &out->p[out->nb++];
		p->frame_size = size;
		p->stream_id = (int)id;
		if (sent > 0)
			put(&p->m, WR_METRIC_LOSS_PCT, 100.0 * lost / sent);
	}
	return 0;
}

static int
run_points(const json_t *doc, struct wr_points *out, struct wr_error *err)
{
	struct wr_point *p = &out->p[0];
	uint64_t size;

	if (wr_metrics_get_count(doc, "config.frame_size", UINT16_MAX, &size,
			err) != 0)
		return -EINVAL;
	p->frame_size = (unsigned int)size;
	out->nb = 1;
	if (run_figures(doc, p, err) != 0)
		return -EINVAL;
	return stream_points(doc, p->frame_size, out, err);
}

/*
 * Figures of one trial summary (a sweep result, a loss step, at_ndr):
 * offered (sent) rates, received rates in proportion, loss, latency.
 */
static int
trial_figures(const json_t *t, const char *where, struct wr_metric_values *m,
		struct wr_error *err)
{
	double pps, l1, l2, sent, rcvd, ratio, dur, lat;

	if (need(t, where, "achieved_pps", &pps, err) != 0 ||
			need(t, where, "gbps_l1", &l1, err) != 0 ||
			need(t, where, "gbps_l2", &l2, err) != 0 ||
			need(t, where, "sent_pkts", &sent, err) != 0 ||
			need(t, where, "received_pkts", &rcvd, err) != 0 ||
			need(t, where, "loss_ratio", &ratio, err) != 0 ||
			need(t, where, "duration_s", &dur, err) != 0)
		return -EINVAL;
	put(m, WR_METRIC_TX_MPPS, pps / 1e6);
	put(m, WR_METRIC_TX_GBPS_L1, l1);
	put(m, WR_METRIC_TX_GBPS_L2, l2);
	if (sent > 0) {
		put(m, WR_METRIC_RX_MPPS, pps / 1e6 * rcvd / sent);
		put(m, WR_METRIC_RX_GBPS_L1, l1 * rcvd / sent);
		put(m, WR_METRIC_RX_GBPS_L2, l2 * rcvd / sent);
		put(m, WR_METRIC_LOSS_PCT, 100.0 * ratio);
	}
	if (rcvd > 0 && opt(t, "latency_p50_ns", &lat))
		put(m, WR_METRIC_LAT_P50, lat);
	if (rcvd > 0 && opt(t, "latency_p99_ns", &lat))
		put(m, WR_METRIC_LAT_P99, lat);
	return 0;
}

bool
wr_kind_running(const json_t *doc)
{
	const char *why = json_string_value(json_object_get(doc, "stop_reason"));

	return why != NULL && strcmp(why, "running") == 0;
}

/*
 * results[] of a mode document, and each one's frame size. A file written
 * during the run (stop_reason "running") killed in its first point has
 * none yet: it has no point to show, and is no bad input.
 */
static int
mode_results(const json_t *doc, const json_t **res, struct wr_error *err)
{
	*res = json_object_get(doc, "results");
	if (!json_is_array(*res) ||
			(json_array_size(*res) == 0 && !wr_kind_running(doc)))
		return wr_err_usage(err, -EINVAL, "field 'results' is %s", *res == NULL ?
			"missing" : "not a non-empty array");
	if (json_array_size(*res) > WR_KIND_MAX_POINTS)
		return wr_err_usage(err, -EINVAL, "field 'results' has more than %u "
			"entries", WR_KIND_MAX_POINTS);
	return 0;
}

/* A new point of out for results[i] (its frame size read), or NULL. */
static struct wr_point *
new_point(const json_t *r, size_t i, struct wr_points *out, struct wr_error *err)
{
	struct wr_point *p;
	uint64_t size;

	if (out->nb == WR_KIND_MAX_POINTS) {
		wr_err_usage(err, -EINVAL, "more than %u points", WR_KIND_MAX_POINTS);
		return NULL;
	}
	if (wr_metrics_get_count(r, "frame_size", UINT16_MAX, &size, err) != 0) {
		wr_err_usage(err, -EINVAL, "field 'results[%zu].frame_size' is "
			"missing or not a frame size", i);
		return NULL;
	}
	p = &out->p[out->nb++];
	p->frame_size = (unsigned int)size;
	return p;
}

/* Fill the point of one entry of results[] (named where in messages). */
typedef int (*result_fn)(const json_t *r, const char *where, struct wr_point *p,
		struct wr_error *err);

/* A point per entry of the document's results[], filled by fn. */
static int
each_result(const json_t *doc, struct wr_points *out, result_fn fn, struct wr_error *err)
{
	const json_t *res, *r;
	struct wr_point *p;
	char where[48];
	size_t i;

	if (mode_results(doc, &res, err) != 0)
		return -EINVAL;
	json_array_foreach(res, i, r) {
		snprintf(where, sizeof(where), "results[%zu]", i);
		p = new_point(r, i, out, err);
		if (p == NULL || fn(r, where, p, err) != 0)
			return -EINVAL;
	}
	return 0;
}

static int
sweep_result(const json_t *r, const char *where, struct wr_point *p, struct wr_error *err)
{
	return trial_figures(r, where, &p->m, err);
}

/* NDR, PDR when found, latency at the NDR. */
static int
throughput_result(const json_t *r, const char *where, struct wr_point *p,
		struct wr_error *err)
{
	const json_t *at = json_object_get(r, "at_ndr");
	struct wr_metric_values lat;
	char at_where[64];
	double v;

	if (json_is_true(json_object_get(r, "ndr_found"))) {
		if (need(r, where, "ndr_mpps", &v, err) != 0)
			return -EINVAL;
		put(&p->m, WR_METRIC_NDR_MPPS, v);
		if (need(r, where, "ndr_gbps_l1", &v, err) != 0)
			return -EINVAL;
		put(&p->m, WR_METRIC_NDR_GBPS_L1, v);
	}
	if (json_is_true(json_object_get(r, "pdr_found"))) {
		if (need(r, where, "pdr_pps", &v, err) != 0)
			return -EINVAL;
		put(&p->m, WR_METRIC_PDR_MPPS, v / 1e6);
	}
	memset(&lat, 0, sizeof(lat));
	snprintf(at_where, sizeof(at_where), "%s.at_ndr", where);
	if (at != NULL && trial_figures(at, at_where, &lat, err) != 0)
		return -EINVAL;
	p->m.have[WR_METRIC_LAT_P50] = lat.have[WR_METRIC_LAT_P50];
	p->m.v[WR_METRIC_LAT_P50] = lat.v[WR_METRIC_LAT_P50];
	p->m.have[WR_METRIC_LAT_P99] = lat.have[WR_METRIC_LAT_P99];
	p->m.v[WR_METRIC_LAT_P99] = lat.v[WR_METRIC_LAT_P99];
	return 0;
}

/* The bursts of a b2b result: their number and the spread of the mean. */
static int
burst_se(const json_t *r, const char *where, struct wr_point *p,
		struct wr_error *err)
{
	const json_t *a = json_object_get(r, "bursts_pkts"), *b;
	double v[WR_KIND_MAX_POINTS];
	size_t i;

	p->n = (unsigned int)json_array_size(a);
	json_array_foreach(a, i, b) {
		if (!json_is_number(b))
			return wr_err_usage(err, -EINVAL, "field '%s.bursts_pkts[%zu]' is "
				"not a number", where, i);
		if (i < RTE_DIM(v))
			v[i] = json_number_value(b);
	}
	if (p->n >= 2 && p->n <= RTE_DIM(v))
		put(&p->se, WR_METRIC_B2B_PKTS, wr_trials_median_se(v, p->n));
	return 0;
}

/* Back-to-back: the mean burst, with the shortest and longest as spread. */
static int
b2b_result(const json_t *r, const char *where, struct wr_point *p, struct wr_error *err)
{
	double mean, lo, hi;

	if (!opt(r, "mean_pkts", &mean))
		return 0;              /* no burst passed: nothing measured */
	if (need(r, where, "min_pkts", &lo, err) != 0 ||
			need(r, where, "max_pkts", &hi, err) != 0)
		return -EINVAL;
	put(&p->m, WR_METRIC_B2B_PKTS, mean);
	put(&p->lo, WR_METRIC_B2B_PKTS, lo);
	put(&p->hi, WR_METRIC_B2B_PKTS, hi);
	return burst_se(r, where, p, err);
}

static int
sweep_points(const json_t *doc, struct wr_points *out, struct wr_error *err)
{
	return each_result(doc, out, sweep_result, err);
}

static int
throughput_points(const json_t *doc, struct wr_points *out, struct wr_error *err)
{
	return each_result(doc, out, throughput_result, err);
}

static int
b2b_points(const json_t *doc, struct wr_points *out, struct wr_error *err)
{
	return each_result(doc, out, b2b_result, err);
}

static int
loss_points(const json_t *doc, struct wr_points *out, struct wr_error *err)
{
	const json_t *res, *r, *steps, *s;
	struct wr_point *p;
	char where[64];
	double load, loss;
	size_t i, j;

	if (mode_results(doc, &res, err) != 0)
		return -EINVAL;
	json_array_foreach(res, i, r) {
		steps = json_object_get(r, "steps");
		if (!json_is_array(steps))
			return wr_err_usage(err, -EINVAL, "field 'results[%zu].steps' is "
				"missing or not an array", i);
		json_array_foreach(steps, j, s) {
			snprintf(where, sizeof(where), "results[%zu].steps[%zu]", i, j);
			p = new_point(r, i, out, err);
			if (p == NULL || need(s, where, "pct_of_max", &load, err) != 0 ||
					need(s, where, "loss_pct", &loss, err) != 0 ||
					trial_figures(s, where, &p->m, err) != 0)
				return -EINVAL;
			p->load_pct = load;
			put(&p->m, WR_METRIC_LOSS_PCT, loss);
		}
	}
	return 0;
}

/*
 * Latency under load (mode_lat.c): the figures of its highest load level,
 * where queues matter most. Absent levels leave m as it is.
 */
static int
lat_load_figures(const json_t *r, const char *where, struct wr_metric_values *m,
		struct wr_error *err)
{
	static const struct { const char *key; unsigned int id; } pcts[] = {
		{ "p50", WR_METRIC_LAT_P50 }, { "p90", WR_METRIC_LAT_P90 },
		{ "p99", WR_METRIC_LAT_P99 }, { "p99.9", WR_METRIC_LAT_P99_9 },
	};
	const json_t *levels = json_object_get(json_object_get(r,
		"latency_under_load"), "levels"), *l, *top = NULL, *p;
	double pct, best = -1, v;
	unsigned int i;
	size_t j;

	json_array_foreach(levels, j, l) {
		if (need(l, where, "pct", &pct, err) != 0)
			return -EINVAL;
		if (pct > best) {
			best = pct;
			top = l;
		}
	}
	p = json_object_get(json_object_get(top, "latency"), "percentiles_ns");
	for (i = 0; p != NULL && i < RTE_DIM(pcts); i++)
		if (opt(p, pcts[i].key, &v))
			put(m, pcts[i].id, v);
	return 0;
}

/*
 * MLRsearch: the conditional throughput of the first zero-loss goal as the
 * NDR and of the last lossy goal as the PDR (CSIT's pair with the default
 * goals); latency from the highest latency-under-load level.
 */
static int
mlr_result(const json_t *r, const char *where, struct wr_point *p, struct wr_error *err)
{
	const json_t *goals = json_object_get(r, "goals"), *g;
	double glr, ct, l1;
	bool ndr = false;
	size_t i;

	if (!json_is_array(goals))
		return wr_err_usage(err, -EINVAL, "field '%s.goals' is missing or not "
			"an array", where);
	json_array_foreach(goals, i, g) {
		if (need(g, where, "loss_ratio", &glr, err) != 0 ||
				need(g, where, "conditional_throughput_pps", &ct, err) != 0 ||
				need(g, where, "conditional_throughput_gbps_l1", &l1, err) != 0)
			return -EINVAL;
		if (ct <= 0)
			continue;
		if (glr == 0 && !ndr) {
			put(&p->m, WR_METRIC_NDR_MPPS, ct / 1e6);
			put(&p->m, WR_METRIC_NDR_GBPS_L1, l1);
			ndr = true;
		} else if (glr > 0) {
			put(&p->m, WR_METRIC_PDR_MPPS, ct / 1e6);
		}
	}
	return lat_load_figures(r, where, &p->m, err);
}

static int
mlr_points(const json_t *doc, struct wr_points *out, struct wr_error *err)
{
	return each_result(doc, out, mlr_result, err);
}

#define IDS(...) \
	sizeof((unsigned int[]){ __VA_ARGS__ }) / sizeof(unsigned int), \
	{ __VA_ARGS__ }
#define RUN_JUDGED IDS(WR_METRIC_TX_MPPS, WR_METRIC_RX_MPPS, \
	WR_METRIC_TX_GBPS_L1, WR_METRIC_TX_GBPS_L2, WR_METRIC_RX_GBPS_L1, \
	WR_METRIC_RX_GBPS_L2, WR_METRIC_LOSS_PCT, WR_METRIC_LAT_P50, \
	WR_METRIC_LAT_P90, WR_METRIC_LAT_P99, WR_METRIC_LAT_P99_9, \
	WR_METRIC_CYCLES_PER_PKT)
#define RUN_SHOWN IDS(WR_METRIC_TX_MPPS, WR_METRIC_RX_MPPS, \
	WR_METRIC_TX_GBPS_L1, WR_METRIC_RX_GBPS_L1, WR_METRIC_RX_GBPS_L2, \
	WR_METRIC_LOSS_PCT, WR_METRIC_LAT_P50, WR_METRIC_LAT_P99, \
	WR_METRIC_CYCLES_PER_PKT)
#define CONN_IDS IDS(WR_METRIC_CONN_CPS, WR_METRIC_CONN_RPS, \
	WR_METRIC_CONN_GOODPUT_GBPS, WR_METRIC_CONN_FAIL_PCT, \
	WR_METRIC_CONN_CONNECT_P99_US)
#define CONNLOAD_IDS IDS(WR_METRIC_CONN_RPS, WR_METRIC_CONN_CPS, \
	WR_METRIC_CONN_GOODPUT_GBPS, WR_METRIC_CONN_FAIL_PCT, \
	WR_METRIC_CONN_CONNECT_P99_US)
#define TPUT_IDS IDS(WR_METRIC_NDR_MPPS, WR_METRIC_NDR_GBPS_L1, \
	WR_METRIC_PDR_MPPS, WR_METRIC_LAT_P50, WR_METRIC_LAT_P99)

const struct wr_kind wr_kinds[] = {
	{ "run", NULL, "Runs", false, RUN_JUDGED, RUN_SHOWN, run_points },
	{ "repeat", NULL, "Repeated runs (median [min..max] over the trials)",
		false, RUN_JUDGED, RUN_SHOWN, run_points },
	{ "sweep", "sweep", "Frame-size sweeps (offered = sent; RX in "
		"proportion of what arrived)", false,
		IDS(WR_METRIC_TX_MPPS, WR_METRIC_RX_MPPS, WR_METRIC_TX_GBPS_L1,
		WR_METRIC_TX_GBPS_L2, WR_METRIC_RX_GBPS_L1, WR_METRIC_RX_GBPS_L2,
		WR_METRIC_LOSS_PCT, WR_METRIC_LAT_P50, WR_METRIC_LAT_P99),
		IDS(WR_METRIC_TX_MPPS, WR_METRIC_RX_MPPS, WR_METRIC_TX_GBPS_L1,
		WR_METRIC_TX_GBPS_L2, WR_METRIC_LOSS_PCT, WR_METRIC_LAT_P50,
		WR_METRIC_LAT_P99), sweep_points },
	{ "throughput", "throughput", "RFC 2544 throughput (NDR; PDR with "
		"--pdr; latency at the NDR)", false, TPUT_IDS, TPUT_IDS,
		throughput_points },
	{ "loss", "loss", "RFC 2544 frame loss rate (per offered load, % of "
		"the maximum)", true,
		IDS(WR_METRIC_TX_MPPS, WR_METRIC_LOSS_PCT),
		IDS(WR_METRIC_TX_MPPS, WR_METRIC_RX_MPPS, WR_METRIC_LOSS_PCT,
		WR_METRIC_LAT_P50), loss_points },
	{ "b2b", "b2b", "RFC 2544 back-to-back (frames in the longest burst "
		"without loss: mean [shortest..longest])", false,
		IDS(WR_METRIC_B2B_PKTS), IDS(WR_METRIC_B2B_PKTS), b2b_points },
	{ "mlr", "mlr", "MLRsearch (conditional throughput: NDR of the zero-loss "
		"goal, PDR of the last lossy goal; latency at the highest "
		"--lat-loads level)", false,
		IDS(WR_METRIC_NDR_MPPS, WR_METRIC_NDR_GBPS_L1, WR_METRIC_PDR_MPPS,
		WR_METRIC_LAT_P50, WR_METRIC_LAT_P99),
		IDS(WR_METRIC_NDR_MPPS, WR_METRIC_NDR_GBPS_L1, WR_METRIC_PDR_MPPS,
		WR_METRIC_LAT_P50, WR_METRIC_LAT_P90, WR_METRIC_LAT_P99,
		WR_METRIC_LAT_P99_9), mlr_points },
	{ "addr-capacity", "addr-capacity", "RFC 2889 5.7 address caching "
		"capacity (addresses the switch held)", false,
		IDS(WR_METRIC_ADDR_CAPACITY), IDS(WR_METRIC_ADDR_CAPACITY),
		wr_rfc2889_points },
	{ "addr-learning", "addr-learning", "RFC 2889 5.8 address learning rate "
		"(learning frames/s)", false,
		IDS(WR_METRIC_LEARN_RATE), IDS(WR_METRIC_LEARN_RATE),
		wr_rfc2889_points },
	{ "mesh", "mesh", "RFC 2889 5.1-5.5, 5.10 meshed forwarding (frames/s received "
		"in all; throughput per port)", false,
		IDS(WR_METRIC_MESH_FWD_PPS, WR_METRIC_MESH_TPUT_PPS,
			WR_METRIC_MESH_FP_OVER_PCT),
		IDS(WR_METRIC_MESH_FWD_PPS, WR_METRIC_MESH_TPUT_PPS,
			WR_METRIC_MESH_FP_OVER_PCT), wr_mesh_points },
	{ "conn_client", NULL, "Connection runs, client (CPS: connections "
		"completed per s)", false, CONN_IDS, CONN_IDS,
		wr_results_conn_client_points, "connections" },
	{ "conn_server", NULL, "Connection runs, server (CPS: connections "
		"accepted per s)", false,
		IDS(WR_METRIC_CONN_CPS, WR_METRIC_CONN_RPS, WR_METRIC_CONN_GOODPUT_GBPS),
		IDS(WR_METRIC_CONN_CPS, WR_METRIC_CONN_RPS, WR_METRIC_CONN_GOODPUT_GBPS),
		wr_results_conn_server_points, "connections" },
	{ "conn-rate", "conn-rate", "Maximum connection establishment rate "
		"(RFC 9693; per port)", false,
		IDS(WR_METRIC_CONN_MAX_CPS, WR_METRIC_CONN_MAX_CPS_PDR),
		IDS(WR_METRIC_CONN_MAX_CPS, WR_METRIC_CONN_MAX_CPS_PDR),
		wr_connrate_points, "connections" },
	{ "conn-capacity", NULL, "Connection table capacity "
		"(RFC 9693 7; connections held, their checks answered)", false,
		IDS(WR_METRIC_CONN_CAPACITY, WR_METRIC_CONN_CAPACITY_ANSWERED),
		IDS(WR_METRIC_CONN_CAPACITY, WR_METRIC_CONN_CAPACITY_ANSWERED,
		WR_METRIC_CONN_CAPACITY_FAILED), wr_conncap_points, "capacity" },
	{ "conn-teardown", "conn-teardown", "Connection tear-down rate (RFC 9693; "
		"closes/s per port)", false, IDS(WR_METRIC_CONN_TEARDOWN_CPS),
		IDS(WR_METRIC_CONN_TEARDOWN_CPS), wr_conntear_points, "connections" },
	{ "conn-load", "conn-load", "Connection load (requests/s or goodput "
		"at fixed concurrencies)", false, CONNLOAD_IDS, CONNLOAD_IDS,
		wr_connload_points, NULL, "concurrency" },
};
const unsigned int wr_nb_kinds = RTE_DIM(wr_kinds);

const struct wr_kind *
wr_kind_of(const json_t *doc, struct wr_error *err)
{
	const json_t *mode = json_object_get(doc, "mode");
	const char *m = json_is_string(mode) ? json_string_value(mode) : NULL;
	unsigned int i;

	if (wr_results_conn_is(doc) || wr_conncap_is(doc))
		return wr_results_conn_kind(doc, err);
	if (m == NULL || strcmp(m, "run") == 0)
		return &wr_kinds[json_is_object(json_object_get(doc, "summary")) ? 1 : 0];
	for (i = 0; i < wr_nb_kinds; i++)
		if (wr_kinds[i].mode != NULL && strcmp(wr_kinds[i].mode, m) == 0)
			return &wr_kinds[i];
	if (strcmp(m, "y1564") == 0) {
		wr_err_usage(err, -EINVAL, "a --mode y1564 result (service activation) "
			"has its own page: give it to wirerate report alone "
			"(docs/y1564.md); compare and merge do not take it");
		return NULL;
	}
	wr_err_usage(err, -EINVAL, "field 'mode' is '%s': not a kind of result this "
		"wirerate knows", m);
	return NULL;
}

/* Ascending frame size, then the run before its streams, then descending load. */
static bool
before(const struct wr_point *a, const struct wr_point *b)
{
	if (a->frame_size != b->frame_size)
		return a->frame_size < b->frame_size;
	if (a->stream_id != b->stream_id)
		return a->stream_id < b->stream_id;
	return a->load_pct > b->load_pct;
}

/*
 * Each point once: compare and report match points by key (size, stream,
 * load), so a result with two points of one key (a size listed twice, or
 * a hand-edited file) would be matched against the wrong one. Points are
 * sorted, so equal keys are neighbours.
 */
static int
unique_points(const struct wr_points *pts, struct wr_error *err)
{
	char name[64];
	unsigned int i;

	for (i = 1; i < pts->nb; i++)
		if (wr_points_find(pts, &pts->p[i]) != &pts->p[i])
			return wr_err_usage(err, -EINVAL, "%s appears twice in the "
				"result: each point must be measured once",
				wr_point_name(pts->kind, &pts->p[i], name, sizeof(name)));
	wr_err_clear(err);
	return 0;
}

int
wr_kind_points(const json_t *doc, struct wr_points *out, struct wr_error *err)
{
	struct wr_point tmp;
	unsigned int i, j;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < WR_KIND_MAX_POINTS; i++) {
		out->p[i].load_pct = -1;
		out->p[i].stream_id = -1;
		out->p[i].n = 1;
	}
	out->kind = wr_kind_of(doc, err);
	if (out->kind == NULL || out->kind->points(doc, out, err) != 0)
		return -EINVAL;
	for (i = 0; i < out->nb; i++)          /* no spread: lo = hi = m */
		for (j = 0; j < WR_METRIC_COUNT; j++)
			if (!out->p[i].lo.have[j]) {
				out->p[i].lo.have[j] = out->p[i].hi.have[j] =
					out->p[i].m.have[j];
				out->p[i].lo.v[j] = out->p[i].hi.v[j] = out->p[i].m.v[j];
			}
	for (i = 1; i < out->nb; i++) {            /* insertion sort, stable */
		tmp = out->p[i];
		for (j = i; j > 0 && before(&tmp, &out->p[j - 1]); j--)
			out->p[j] = out->p[j - 1];
		out->p[j] = tmp;
	}
	return unique_points(out, err);
}

const struct wr_point *
wr_points_find(const struct wr_points *pts, const struct wr_point *p)
{
	unsigned int i;

	for (i = 0; i < pts->nb; i++)
		if (pts->p[i].frame_size == p->frame_size &&
				pts->p[i].stream_id == p->stream_id &&
				fabs(pts->p[i].load_pct - p->load_pct) < 1e-9)
			return &pts->p[i];
	return NULL;
}
