/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "metrics.h"

/*
 * Default tolerances: throughput moves a few % between quiet runs on one
 * host; latency tails move far more; loss is judged in absolute percentage
 * points because a relative change from 0 has no meaning.
 */
const struct wr_metric_def wr_metric_defs[WR_METRIC_COUNT] = {
	[WR_METRIC_TX_MPPS] = { "tx_mpps", "TX Mpps", "throughput",
		WR_METRIC_HIGHER_BETTER, 5.0, true },
	[WR_METRIC_RX_MPPS] = { "rx_mpps", "RX Mpps", "throughput",
		WR_METRIC_HIGHER_BETTER, 5.0, true },
	[WR_METRIC_TX_GBPS_L1] = { "tx_gbps_l1", "TX Gb/s L1", "throughput",
		WR_METRIC_HIGHER_BETTER, 5.0, true },
	[WR_METRIC_TX_GBPS_L2] = { "tx_gbps_l2", "TX Gb/s L2", "throughput",
		WR_METRIC_HIGHER_BETTER, 5.0, true },
	[WR_METRIC_RX_GBPS_L1] = { "rx_gbps_l1", "RX Gb/s L1", "throughput",
		WR_METRIC_HIGHER_BETTER, 5.0, true },
	[WR_METRIC_RX_GBPS_L2] = { "rx_gbps_l2", "RX Gb/s L2", "throughput",
		WR_METRIC_HIGHER_BETTER, 5.0, true },
	[WR_METRIC_LOSS_PCT] = { "loss_pct", "loss %", "loss",
		WR_METRIC_LOWER_BETTER, 0.01, false },
	[WR_METRIC_LAT_P50] = { "latency_p50_ns", "lat p50 ns", "latency",
		WR_METRIC_LOWER_BETTER, 20.0, true },
	[WR_METRIC_LAT_P90] = { "latency_p90_ns", "lat p90 ns", "latency",
		WR_METRIC_LOWER_BETTER, 20.0, true },
	[WR_METRIC_LAT_P99] = { "latency_p99_ns", "lat p99 ns", "latency",
		WR_METRIC_LOWER_BETTER, 30.0, true },
	[WR_METRIC_LAT_P99_9] = { "latency_p99_9_ns", "lat p99.9 ns", "latency",
		WR_METRIC_LOWER_BETTER, 50.0, true },
	[WR_METRIC_CYCLES_PER_PKT] = { "cycles_per_pkt", "cycles/pkt", "cpu",
		WR_METRIC_LOWER_BETTER, 5.0, true },
	[WR_METRIC_NDR_MPPS] = { "ndr_mpps", "NDR Mpps", "throughput",
		WR_METRIC_HIGHER_BETTER, 5.0, true },
	[WR_METRIC_NDR_GBPS_L1] = { "ndr_gbps_l1", "NDR Gb/s L1", "throughput",
		WR_METRIC_HIGHER_BETTER, 5.0, true },
	[WR_METRIC_PDR_MPPS] = { "pdr_mpps", "PDR Mpps", "throughput",
		WR_METRIC_HIGHER_BETTER, 5.0, true },
	[WR_METRIC_B2B_PKTS] = { "b2b_pkts", "b2b frames", "throughput",
		WR_METRIC_HIGHER_BETTER, 5.0, true },
	/* A switch's table holds a number of addresses exactly: any fewer is
	 * a regression. */
	[WR_METRIC_ADDR_CAPACITY] = { "addr_capacity", "addresses", "throughput",
		WR_METRIC_HIGHER_BETTER, 0.0, false },
	[WR_METRIC_LEARN_RATE] = { "learn_rate_pps", "learning fps", "throughput",
		WR_METRIC_HIGHER_BETTER, 5.0, true },
	[WR_METRIC_MESH_FWD_PPS] = { "mesh_fwd_pps", "forwarding fps",
		"throughput", WR_METRIC_HIGHER_BETTER, 5.0, true },
	[WR_METRIC_MESH_TPUT_PPS] = { "mesh_throughput_pps", "port fps",
		"throughput", WR_METRIC_HIGHER_BETTER, 5.0, true },
	[WR_METRIC_MESH_PORT_FWD_PPS] = { "mesh_port_fwd_pps", "port fwd fps",
		"throughput", WR_METRIC_HIGHER_BETTER, 5.0, true },
	[WR_METRIC_MESH_MFR_PPS] = { "mesh_mfr_pps", "port MFR fps",
		"throughput", WR_METRIC_HIGHER_BETTER, 5.0, true },
	/* Forward pressure breaks IEEE 802.3's gap: more of it is worse; in
	 * points of %, as loss is. */
	[WR_METRIC_MESH_FP_OVER_PCT] = { "mesh_fp_over_pct", "fwd pressure %",
		"throughput", WR_METRIC_LOWER_BETTER, 1.0, false },
	/*
	 * A connection run: its rates move as frame rates do; failures are
	 * judged as loss is (absolute points); connect p99 as a latency tail.
	 */
	[WR_METRIC_CONN_CPS] = { "conn_cps", "CPS", "connections",
		WR_METRIC_HIGHER_BETTER, 5.0, true },
	[WR_METRIC_CONN_RPS] = { "conn_requests_per_s", "requests/s",
		"connections", WR_METRIC_HIGHER_BETTER, 5.0, true },
	[WR_METRIC_CONN_GOODPUT_GBPS] = { "conn_goodput_gbps", "goodput Gb/s",
		"connections", WR_METRIC_HIGHER_BETTER, 5.0, true },
	[WR_METRIC_CONN_FAIL_PCT] = { "conn_failed_pct", "failed %", "loss",
		WR_METRIC_LOWER_BETTER, 0.01, false },
	[WR_METRIC_CONN_CONNECT_P99_US] = { "conn_connect_p99_us",
		"connect p99 us", "latency", WR_METRIC_LOWER_BETTER, 30.0, true },
	/* The maximum connection establishment rate moves as a frame NDR. */
	[WR_METRIC_CONN_MAX_CPS] = { "conn_max_cps", "max CPS", "connections",
		WR_METRIC_HIGHER_BETTER, 5.0, true },
	[WR_METRIC_CONN_MAX_CPS_PDR] = { "conn_max_cps_pdr", "max CPS (PDR)",
		"connections", WR_METRIC_HIGHER_BETTER, 5.0, true },
	/*
	 * A table's capacity is a count the device sets: 1 % covers the
	 * connections of the last interval of the fill; the checks answered
	 * likewise; the failures when it was read are shown, judged loosely.
	 */
	[WR_METRIC_CONN_CAPACITY] = { "conn_capacity", "capacity",
		"connections", WR_METRIC_HIGHER_BETTER, 1.0, true },
	[WR_METRIC_CONN_CAPACITY_ANSWERED] = { "conn_capacity_answered",
		"checks answered", "connections", WR_METRIC_HIGHER_BETTER, 1.0,
		true },
	[WR_METRIC_CONN_CAPACITY_FAILED] = { "conn_capacity_failed",
		"failed", "connections", WR_METRIC_LOWER_BETTER, 100.0, true },
	/* The tear-down rate is a search's answer as conn_max_cps is. */
	[WR_METRIC_CONN_TEARDOWN_CPS] = { "conn_teardown_cps", "tear-down/s",
		"connections", WR_METRIC_HIGHER_BETTER, 5.0, true },
};

/* Per-port throughput fields of totals[], in enum order from TX_MPPS. */
static const char *const rate_keys[] = {
	"tx_mpps", "rx_mpps", "tx_gbps_l1", "tx_gbps_l2", "rx_gbps_l1", "rx_gbps_l2",
};

/* Latency fields of totals[].latency, in enum order from LAT_P50. */
static const char *const lat_keys[] = { "p50_ns", "p90_ns", "p99_ns", "p99_9_ns" };

int
wr_metrics_find(const char *name)
{
	int i;

	for (i = 0; i < WR_METRIC_COUNT; i++)
		if (strcmp(wr_metric_defs[i].name, name) == 0)
			return i;
	return -1;
}

/* One step of a path: a key up to '.', '[' or the end, then any [i]. */
static const json_t *
path_step(const json_t *cur, const char **p)
{
	char key[128];
	size_t n = strcspn(*p, ".[");

	if (n > 0) {
		if (n >= sizeof(key) || !json_is_object(cur))
			return NULL;
		memcpy(key, *p, n);
		key[n] = '\0';
		cur = json_object_get(cur, key);
		*p += n;
	}
	while (cur != NULL && **p == '[') {
		char *end;
		unsigned long i = strtoul(*p + 1, &end, 10);

		if (*end != ']' || !json_is_array(cur))
			return NULL;
		cur = json_array_get(cur, i);
		*p = end + 1;
	}
	if (**p == '.')
		(*p)++;
	return cur;
}

const json_t *
wr_metrics_get(const json_t *root, const char *path)
{
	const json_t *cur = root;
	const char *p = path;

	while (cur != NULL && *p != '\0')
		cur = path_step(cur, &p);
	return cur;
}

int
wr_metrics_get_number(const json_t *root, const char *path, double *out,
		struct wr_error *err)
{
	const json_t *v = wr_metrics_get(root, path);

	if (v == NULL)
		return wr_err_usage(err, -ENOENT, "field '%s' is missing", path);
	if (!json_is_number(v))
		return wr_err_usage(err, -EINVAL, "field '%s' is not a number", path);
	*out = json_number_value(v);
	return 0;
}

int
wr_metrics_get_count(const json_t *root, const char *path, uint64_t max,
		uint64_t *out, struct wr_error *err)
{
	double x;
	int rc = wr_metrics_get_number(root, path, &x, err);

	if (rc != 0)
		return rc;
	/* Checked before any conversion: a double beyond the type is UB. */
	if (!(x >= 0 && x <= (double)max) || x != floor(x))
		return wr_err_usage(err, -EINVAL, "field '%s' is %.6g, expected a whole "
			"number from 0 to %" PRIu64, path, x, max);
	*out = (uint64_t)x;
	return 0;
}

/* Sum the throughput fields of every port. */
static int
extract_rates(const json_t *run, size_t nb_ports, struct wr_metric_values *m,
		struct wr_error *err)
{
	char path[64];
	double x;
	size_t i, k;

	for (k = 0; k < RTE_DIM(rate_keys); k++) {
		m->have[WR_METRIC_TX_MPPS + k] = true;
		m->v[WR_METRIC_TX_MPPS + k] = 0.0;
		for (i = 0; i < nb_ports; i++) {
			snprintf(path, sizeof(path), "totals[%zu].%s", i, rate_keys[k]);
			if (wr_metrics_get_number(run, path, &x, err) != 0)
				return -EINVAL;
			m->v[WR_METRIC_TX_MPPS + k] += x;
		}
	}
	return 0;
}

/* Worst percentile over the ports that measured latency. */
static int
extract_latency(const json_t *run, size_t nb_ports, struct wr_metric_values *m,
		struct wr_error *err)
{
	char path[64];
	double x;
	size_t i, k;

	for (i = 0; i < nb_ports; i++) {
		snprintf(path, sizeof(path), "totals[%zu].latency", i);
		if (wr_metrics_get(run, path) == NULL)
			continue;
		for (k = 0; k < RTE_DIM(lat_keys); k++) {
			unsigned int id = WR_METRIC_LAT_P50 + (unsigned int)k;

			snprintf(path, sizeof(path), "totals[%zu].latency.%s", i, lat_keys[k]);
			if (wr_metrics_get_number(run, path, &x, err) != 0)
				return -EINVAL;
			if (!m->have[id] || x > m->v[id])
				m->v[id] = x;
			m->have[id] = true;
		}
	}
	return 0;
}

const json_t *
wr_metrics_far_trial(const json_t *run)
{
	const json_t *far = json_object_get(run, "far");
	const json_t *trials = json_object_get(far, "trials");

	if (json_is_array(trials))
		return json_array_get(trials, json_array_size(trials) - 1);
	return json_is_integer(json_object_get(far, "rx_pkts")) ? far : NULL;
}

int
wr_metrics_far(const json_t *t, struct wr_metric_values *m)
{
	const json_t *totals = json_object_get(json_object_get(t, "peer"), "totals");
	double sent = (double)json_integer_value(json_object_get(t, "sent_pkts"));
	double lost = (double)json_integer_value(json_object_get(t, "lost_pkts"));
	const json_t *port;
	size_t i, k;

	if (!json_is_integer(json_object_get(t, "rx_pkts")))
		return -ENOENT;
	for (k = 0; json_is_array(totals) && k < RTE_DIM(rate_keys); k++) {
		if (strncmp(rate_keys[k], "rx_", 3) != 0)
			continue;
		m->have[WR_METRIC_TX_MPPS + k] = true;
		m->v[WR_METRIC_TX_MPPS + k] = 0.0;
		json_array_foreach(totals, i, port)
			m->v[WR_METRIC_TX_MPPS + k] += json_number_value(
				json_object_get(port, rate_keys[k]));
	}
	m->have[WR_METRIC_LOSS_PCT] = sent > 0;
	m->v[WR_METRIC_LOSS_PCT] = sent > 0 ? 100.0 * lost / sent : 0.0;
	return 0;
}

/* A sender-only run has no loss of its own (its balance needs merge). */
static bool
sender_only(const json_t *run)
{
	const json_t *acc = json_object_get(run, "accounting");

	return json_is_object(acc) && json_object_get(acc, "lost_pkts") == NULL &&
		json_is_null(json_object_get(acc, "balanced"));
}

bool
wr_metrics_from_far(const json_t *run)
{
	return sender_only(run) && wr_metrics_far_trial(run) != NULL;
}

/*
 * Loss over the streams whose sender is in the run; absent without RX.
 * A sender-only run of two ends (--peer) takes the far end's RX figures
 * and loss: they are the trial's (docs/twoended.md).
 */
static int
extract_loss(const json_t *run, struct wr_metric_values *m, struct wr_error *err)
{
	double sent, lost;

	if (sender_only(run)) {
		if (wr_metrics_far_trial(run) != NULL)
			wr_metrics_far(wr_metrics_far_trial(run), m);
		return 0;
	}
	if (wr_metrics_get_number(run, "accounting.sent_pkts", &sent, err) != 0 ||
			wr_metrics_get_number(run, "accounting.lost_pkts", &lost, err) != 0)
		return -EINVAL;
	if (sent > 0) {
		m->have[WR_METRIC_LOSS_PCT] = true;
		m->v[WR_METRIC_LOSS_PCT] = 100.0 * lost / sent;
	}
	return 0;
}

int
wr_metrics_extract(const json_t *run, struct wr_metric_values *out,
		struct wr_error *err)
{
	const json_t *totals = json_object_get(run, "totals");
	double cpp;
	int rc;

	memset(out, 0, sizeof(*out));
	if (totals == NULL || !json_is_array(totals) || json_array_size(totals) == 0)
		return wr_err_usage(err, -EINVAL, "field 'totals' is %s", totals == NULL ?
			"missing" : "not a non-empty array");
	if (extract_rates(run, json_array_size(totals), out, err) != 0 ||
			extract_latency(run, json_array_size(totals), out, err) != 0 ||
			extract_loss(run, out, err) != 0)
		return -EINVAL;
	rc = wr_metrics_get_number(run, "cpu.cycles_per_pkt", &cpp, err);
	if (rc == -EINVAL)
		return rc;
	if (rc == 0) {
		out->have[WR_METRIC_CYCLES_PER_PKT] = true;
		out->v[WR_METRIC_CYCLES_PER_PKT] = cpp;
	}
	wr_err_clear(err);
	return 0;
}
