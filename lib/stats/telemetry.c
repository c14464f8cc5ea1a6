/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_telemetry.h>

#include "base/dpdk_compat.h"
#include "telemetry.h"

/*
 * The published snapshot. A module-level object because DPDK 22.11's
 * telemetry callbacks take no user argument; written only by the stats
 * core, read by handler threads, both under the mutex. The critical
 * sections are a memcpy: the stats core never waits on a formatter.
 */
static pthread_mutex_t snap_lock = PTHREAD_MUTEX_INITIALIZER;
static struct wr_snap published;

/* Stats-core private: the snapshot being built and the one before it. */
static struct wr_snap building;
static struct wr_snap previous;
static uint64_t nb_published;

void
wr_telemetry_publish(const struct wr_run *run, const struct wr_interval *iv,
		enum wr_snap_state state)
{
	const struct wr_snap *prev = nb_published > 0 &&
		previous.run_id == run->live.start_tsc ? &previous : NULL;

	wr_snap_build(&building, run, iv, state, prev);
	building.seq = ++nb_published;
	pthread_mutex_lock(&snap_lock);
	memcpy(&published, &building, sizeof(published));
	pthread_mutex_unlock(&snap_lock);
	memcpy(&previous, &building, sizeof(previous));
}

void
wr_telemetry_read(struct wr_snap *out)
{
	pthread_mutex_lock(&snap_lock);
	memcpy(out, &published, sizeof(*out));
	pthread_mutex_unlock(&snap_lock);
}

/* Non-negative real to the nearest integer. */
static uint64_t
round_u64(double x)
{
	return x <= 0.0 ? 0 : (uint64_t)(x + 0.5);
}

static void
add(struct rte_tel_data *d, const char *name, uint64_t v)
{
	WR_TEL_DATA_ADD_DICT_U64(d, name, v);
}

static int
cmd_state(const char *cmd __rte_unused, const char *params __rte_unused,
		struct rte_tel_data *d)
{
	uint64_t v[14];
	static const char *const k[] = { "state", "running", "stop_reason",
		"seq", "elapsed_ms", "duration_ms", "count_pkts", "interval_ms",
		"intervals", "frame_size", "nb_ports", "nb_lcores", "tsc_hz",
		"trial" };
	unsigned int i;

	pthread_mutex_lock(&snap_lock);
	v[0] = published.state;
	v[1] = published.state == WR_SNAP_RUNNING;
	v[2] = published.stop_reason;
	v[3] = published.seq;
	v[4] = published.elapsed_ms;
	v[5] = published.duration_ms;
	v[6] = published.count_pkts;
	v[7] = published.interval_ms;
	v[8] = published.nb_intervals;
	v[9] = published.frame_size;
	v[10] = published.nb_ports;
	v[11] = published.nb_lcores;
	v[12] = published.tsc_hz;
	v[13] = published.trial;
	pthread_mutex_unlock(&snap_lock);
	rte_tel_data_start_dict(d);
	for (i = 0; i < RTE_DIM(k); i++)
		add(d, k[i], v[i]);
	return 0;
}

/* /wirerate/ports and /wirerate/lcores: the ids, as /ethdev/list does. */
static int
cmd_list(const char *cmd, const char *params __rte_unused,
		struct rte_tel_data *d)
{
	unsigned int ids[WR_MAX_PORTS + WR_PLAN_MAX_WORKERS], n, i;
	bool ports = strcmp(cmd, "/wirerate/ports") == 0;

	pthread_mutex_lock(&snap_lock);
	n = ports ? published.nb_ports : published.nb_lcores;
	for (i = 0; i < n; i++)
		ids[i] = ports ? published.port[i].port_id : published.lcore[i].lcore;
	pthread_mutex_unlock(&snap_lock);
	rte_tel_data_start_array(d, RTE_TEL_INT_VAL);
	for (i = 0; i < n; i++)
		rte_tel_data_add_array_int(d, (int)ids[i]);
	return 0;
}

/* The id in params ("3"), or -1 when it is not a plain number. */
static long
param_id(const char *params)
{
	char *end;
	long v;

	if (params == NULL || *params < '0' || *params > '9')
		return -1;
	v = strtol(params, &end, 10);
	return *end == '\0' && v < 65536 ? v : -1;
}

static void
port_counters(struct rte_tel_data *d, const struct wr_port_counters *c)
{
	add(d, "tx_pkts", c->tx_pkts);
	add(d, "tx_bytes", c->tx_bytes);
	add(d, "rx_pkts", c->rx_pkts);
	add(d, "rx_bytes", c->rx_bytes);
	add(d, "rx_own_pkts", c->rx_own_pkts);
	add(d, "rx_foreign_pkts", c->rx_foreign_pkts);
	add(d, "rx_malformed_pkts", c->rx_malformed_pkts);
	add(d, "rx_service_pkts", c->rx_service_pkts);
	add(d, "tx_service_pkts", c->tx_service_pkts);
	add(d, "service_drop_pkts", c->service_drop_pkts);
	add(d, "tx_full_pkts", c->tx_full_pkts);
	add(d, "tx_alloc_fail", c->tx_alloc_fail);
	add(d, "tx_unsent_pkts", c->tx_unsent_pkts);
	add(d, "nic_ipackets", c->nic_ipackets);
	add(d, "nic_opackets", c->nic_opackets);
	add(d, "nic_imissed", c->nic_imissed);
	add(d, "nic_ierrors", c->nic_ierrors);
	add(d, "nic_oerrors", c->nic_oerrors);
	add(d, "nic_rx_nombuf", c->nic_rx_nombuf);
}

static void
port_figures(struct rte_tel_data *d, const struct wr_snap_port *p)
{
	add(d, "tx_pps", round_u64(p->rates.tx_pps));
	add(d, "rx_pps", round_u64(p->rates.rx_pps));
	add(d, "tx_l1_bps", round_u64(p->rates.tx_l1_bps));
	add(d, "tx_l2_bps", round_u64(p->rates.tx_l2_bps));
	add(d, "rx_l1_bps", round_u64(p->rates.rx_l1_bps));
	add(d, "rx_l2_bps", round_u64(p->rates.rx_l2_bps));
	add(d, "missing_pkts", p->missing_pkts);
	add(d, "lost_pkts", p->lost_pkts);
	add(d, "gap_pkts", p->gap_pkts);
	add(d, "late_pkts", p->late_pkts);
	add(d, "dup_pkts", p->dup_pkts);
	/* Known figures only: a missing key is unknown, never a 0. */
	if (p->lat.samples > 0) {
		add(d, "lat_samples", p->lat.samples);
		add(d, "lat_sum_ns", round_u64(p->lat_sum_ns));
		add(d, "lat_mean_ns", round_u64(p->lat.mean_ns));
		add(d, "lat_min_ns", round_u64(p->lat.min_ns));
		add(d, "lat_p50_ns", round_u64(p->lat.p50_ns));
		add(d, "lat_p99_ns", round_u64(p->lat.p99_ns));
		add(d, "lat_p999_ns", round_u64(p->lat.p999_ns));
		add(d, "lat_max_ns", round_u64(p->lat.max_ns));
	}
	add(d, "busy_tsc", round_u64(p->cpu.busy_tsc));
	add(d, "tsc_per_kpkt", round_u64(1e3 * p->tsc_per_pkt));
	add(d, "tsc_per_kbyte", round_u64(1e3 * p->tsc_per_byte));
}

static int
cmd_port(const char *cmd __rte_unused, const char *params,
		struct rte_tel_data *d)
{
	long id = param_id(params);
	struct wr_snap_port p = { .port_id = 0 };
	bool found = false;
	unsigned int i;

	pthread_mutex_lock(&snap_lock);
	for (i = 0; i < published.nb_ports && !found; i++) {
		if (published.port[i].port_id == id) {
			p = published.port[i];
			found = true;
		}
	}
	pthread_mutex_unlock(&snap_lock);
	if (!found)
		return -EINVAL;
	rte_tel_data_start_dict(d);
	add(d, "port_id", p.port_id);
	add(d, "peer_port_id", p.peer_id);
	port_counters(d, &p.cnt);
	port_figures(d, &p);
	return 0;
}

/* Histogram bins as <dir>_bursts_<smallest burst the bin holds>. */
static void
lcore_bins(struct rte_tel_data *d, const char *dir, const uint64_t *bins)
{
	unsigned int b, lo, hi;
	char name[32];

	for (b = 0; b < WR_CPU_BURST_BINS; b++) {
		wr_cpu_bin_range(b, &lo, &hi);
		snprintf(name, sizeof(name), "%s_bursts_%u", dir, lo);
		add(d, name, bins[b]);
	}
}

static int
cmd_lcore(const char *cmd __rte_unused, const char *params,
		struct rte_tel_data *d)
{
	long id = param_id(params);
	struct wr_snap_lcore l = { .lcore = 0 };
	bool found = false;
	unsigned int i;

	pthread_mutex_lock(&snap_lock);
	for (i = 0; i < published.nb_lcores && !found; i++) {
		if (published.lcore[i].lcore == id) {
			l = published.lcore[i];
			found = true;
		}
	}
	pthread_mutex_unlock(&snap_lock);
	if (!found)
		return -EINVAL;
	rte_tel_data_start_dict(d);
	add(d, "lcore", l.lcore);
	add(d, "busy_tsc", l.cnt.busy_tsc);
	add(d, "idle_tsc", l.cnt.idle_tsc);
	add(d, "busy_polls", l.cnt.nb_busy_polls);
	add(d, "idle_polls", l.cnt.nb_idle_polls);
	add(d, "tx_pkts", l.cnt.tx_pkts);
	add(d, "rx_pkts", l.cnt.rx_pkts);
	add(d, "tx_bytes", l.cnt.tx_bytes);
	add(d, "rx_bytes", l.cnt.rx_bytes);
	add(d, "busy_permille", round_u64(1e3 * l.cost.busy_ratio));
	add(d, "tsc_per_kpkt", round_u64(1e3 * l.cost.tsc_per_pkt));
	add(d, "tsc_per_kbyte", round_u64(1e3 * l.cost.tsc_per_byte));
	add(d, "tx_pkts_per_kburst", round_u64(1e3 * l.cost.tx_pkts_per_burst));
	add(d, "rx_pkts_per_kburst", round_u64(1e3 * l.cost.rx_pkts_per_burst));
	lcore_bins(d, "tx", l.cnt.tx_bursts);
	lcore_bins(d, "rx", l.cnt.rx_bursts);
	return 0;
}

/* /wirerate/streams: the stream ids of the run (tx_port * 16 + tx_queue). */
static int
cmd_streams(const char *cmd __rte_unused, const char *params __rte_unused,
		struct rte_tel_data *d)
{
	static uint16_t ids[WR_MAX_STREAMS];   /* handlers run one at a time */
	unsigned int n, i;

	pthread_mutex_lock(&snap_lock);
	n = published.nb_streams;
	for (i = 0; i < n; i++)
		ids[i] = published.stream[i].stream_id;
	pthread_mutex_unlock(&snap_lock);
	rte_tel_data_start_array(d, RTE_TEL_INT_VAL);
	for (i = 0; i < n; i++)
		rte_tel_data_add_array_int(d, ids[i]);
	return 0;
}

static int
cmd_stream(const char *cmd __rte_unused, const char *params,
		struct rte_tel_data *d)
{
	long id = param_id(params);
	struct wr_snap_stream s = { .stream_id = 0 };
	bool found = false;
	unsigned int i;

	pthread_mutex_lock(&snap_lock);
	for (i = 0; i < published.nb_streams && !found; i++) {
		if (published.stream[i].stream_id == id) {
			s = published.stream[i];
			found = true;
		}
	}
	pthread_mutex_unlock(&snap_lock);
	if (!found)
		return -EINVAL;
	rte_tel_data_start_dict(d);
	add(d, "stream_id", s.stream_id);
	add(d, "tx_port", s.tx_port);
	add(d, "tx_queue", s.tx_queue);
	/* Known halves only: a missing key is unknown, never a 0. */
	if (s.sent_known)
		add(d, "sent_pkts", s.sent_pkts);
	if (s.rx_known) {
		add(d, "rx_port", s.rx_port);
		add(d, "rx_pkts", s.rx_pkts);
		add(d, "gap_pkts", s.gap_pkts);
		add(d, "late_pkts", s.late_pkts);
		add(d, "dup_pkts", s.dup_pkts);
	}
	if (s.lat_valid)
		add(d, "lat_mean_ns", round_u64(s.lat_mean_ns));
	return 0;
}

/* The progress of a run of many trials; written by the main lcore. */
static pthread_mutex_t prog_lock = PTHREAD_MUTEX_INITIALIZER;
static struct wr_progress prog_published;

void
wr_telemetry_progress(const struct wr_progress *p)
{
	pthread_mutex_lock(&prog_lock);
	memcpy(&prog_published, p, sizeof(prog_published));
	pthread_mutex_unlock(&prog_lock);
}

/*
 * /wirerate/conn: a connection run's books and rates (snapshot.h's
 * wr_snap_conn); "known" 0 in a frame run. Rates in whole units.
 */
static int
cmd_conn(const char *cmd __rte_unused, const char *params __rte_unused,
		struct rte_tel_data *d)
{
	struct wr_snap_conn c;

	pthread_mutex_lock(&snap_lock);
	memcpy(&c, &published.conn, sizeof(c));
	pthread_mutex_unlock(&snap_lock);
	rte_tel_data_start_dict(d);
	add(d, "known", c.known);
	if (!c.known)
		return 0;
	rte_tel_data_add_dict_string(d, "role", wr_snap_conn_role(c.role));
	add(d, "whole", c.whole);
	add(d, "attempted", c.attempted);
	add(d, "established", c.established);
	add(d, "completed", c.completed);
	add(d, "failed", c.failed);
	add(d, "open", c.open);
	add(d, "peak_open", c.peak_open);
	add(d, "unstarted", c.unstarted);
	add(d, "accepted", c.accepted);
	add(d, "closed", c.closed);
	add(d, "reqs_sent", c.reqs_sent);
	add(d, "resps", c.resps);
	add(d, "reqs_failed", c.reqs_failed);
	add(d, "reqs_served", c.reqs_served);
	add(d, "l7_tx_bytes", c.l7_tx_bytes);
	add(d, "l7_rx_bytes", c.l7_rx_bytes);
	add(d, "rtx_segs", c.rtx_segs);
	add(d, "cps", round_u64(c.cps));
	add(d, "requests_per_s", round_u64(c.requests_per_s));
	add(d, "goodput_bps", round_u64(c.goodput_bps));
	return 0;
}

/*
 * /wirerate/progress: where a test mode or --repeat stands. Times are
 * computed at the request; left_max_ms is absent while no bound is known.
 */
static int
cmd_progress(const char *cmd __rte_unused, const char *params __rte_unused,
		struct rte_tel_data *d)
{
	uint64_t now = rte_rdtsc();
	struct wr_progress p;
	double left;

	pthread_mutex_lock(&prog_lock);
	memcpy(&p, &prog_published, sizeof(p));
	pthread_mutex_unlock(&prog_lock);
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_string(d, "mode", p.mode);
	rte_tel_data_add_dict_string(d, "what", p.what);
	rte_tel_data_add_dict_string(d, "phase", p.phase);
	add(d, "size_idx", p.size_idx);
	add(d, "nb_sizes", p.nb_sizes);
	add(d, "frame_size", p.frame_size);
	add(d, "trial", p.trial);
	add(d, "elapsed_ms", p.trial ? round_u64(1e3 * wr_progress_elapsed_s(&p, now)) : 0);
	left = p.trial ? wr_progress_left_s(&p, now) : -1.0;
	if (left >= 0) {
		add(d, "trials_left_max", p.trials_left);
		add(d, "left_max_ms", round_u64(1e3 * left));
	}
	return 0;
}

int
wr_telemetry_register(void)
{
	static const struct {
		const char *cmd;
		telemetry_cb fn;
		const char *help;
	} cmds[] = {
		{ "/wirerate/state", cmd_state, "Run state, elapsed time, "
			"configuration. No parameters." },
		{ "/wirerate/ports", cmd_list, "Ids of the run's ports." },
		{ "/wirerate/port", cmd_port, "One port: totals, rates, loss, "
			"latency, CPU. Parameter: port id." },
		{ "/wirerate/lcores", cmd_list, "Ids of the worker lcores." },
		{ "/wirerate/lcore", cmd_lcore, "One worker lcore: CPU cost and "
			"frames per burst. Parameter: lcore id." },
		{ "/wirerate/streams", cmd_streams, "Ids of the run's streams "
			"(sent or received)." },
		{ "/wirerate/stream", cmd_stream, "One stream: sent, received, "
			"gaps, latency. Parameter: stream id." },
		{ "/wirerate/conn", cmd_conn, "A connection run's books "
			"(attempted, completed, failed, open, accepted, closed, "
			"requests) and rates. No parameters." },
		{ "/wirerate/progress", cmd_progress, "A test mode's or --repeat's "
			"size, trial, elapsed time and upper bound of the time left. "
			"No parameters." },
	};
	unsigned int i;
	int rc;

	for (i = 0; i < RTE_DIM(cmds); i++) {
		rc = rte_telemetry_register_cmd(cmds[i].cmd, cmds[i].fn, cmds[i].help);
		if (rc != 0)
			return rc;
	}
	return 0;
}
