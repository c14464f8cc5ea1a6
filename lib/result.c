/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <rte_version.h>

#include "csv.h"
#include "result.h"
#include "trials.h"
#include "units.h"

/* json_object_set_new that tolerates NULL values from failed allocations. */
static void
set(json_t *o, const char *k, json_t *v)
{
	if (v != NULL)
		json_object_set_new(o, k, v);
}

static json_t *
u64(uint64_t v)
{
	return json_integer((json_int_t)v);
}

static void
cpu_model(char *buf, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256];

	snprintf(buf, len, "unknown");
	if (f == NULL)
		return;
	while (fgets(line, sizeof(line), f) != NULL) {
		char *colon = strchr(line, ':');

		if (strncmp(line, "model name", 10) != 0 || colon == NULL)
			continue;
		snprintf(buf, len, "%s", colon + 2);
		buf[strcspn(buf, "\n")] = '\0';
		break;
	}
	fclose(f);
}

static json_t *
env_json(const struct wr_run *run)
{
	json_t *o = json_object();
	struct utsname u;
	char buf[256];

	set(o, "wirerate_version", json_string(WR_VERSION));
	set(o, "dpdk_version", json_string(rte_version()));
	cpu_model(buf, sizeof(buf));
	set(o, "cpu_model", json_string(buf));
	set(o, "tsc_hz", u64(run->tsc_hz));
	if (uname(&u) == 0)
		set(o, "kernel", json_string(u.release));
	if (gethostname(buf, sizeof(buf)) == 0) {
		buf[sizeof(buf) - 1] = '\0';
		set(o, "hostname", json_string(buf));
	}
	set(o, "cmdline", json_string(run->cmdline));
	set(o, "profile", run->cfg->profile_path[0] != '\0' ?
		json_string(run->cfg->profile_path) : json_null());
	return o;
}

static json_t *
config_json(const struct wr_config *c)
{
	char mac[RTE_ETHER_ADDR_FMT_SIZE];
	json_t *o = json_object();

	set(o, "frame_size", u64(c->frame_size));
	set(o, "burst_pkts", u64(c->burst_pkts));
	set(o, "txq", u64(c->nb_txq));
	set(o, "rxq", u64(c->nb_rxq));
	set(o, "txd", u64(c->nb_txd));
	set(o, "rxd", u64(c->nb_rxd));
	set(o, "duration_ms", u64(c->duration_ms));
	set(o, "count_pkts", u64(c->count_pkts));
	set(o, "interval_ms", u64(c->interval_ms));
	set(o, "grace_ms", u64(c->grace_ms));
	set(o, "flows", u64(c->nb_flows));
	set(o, "vlan", u64(c->vlan_id));
	set(o, "src_udp", u64(c->src_udp));
	set(o, "dst_udp", u64(c->dst_udp));
	snprintf(mac, sizeof(mac), "%u.%u.%u.%u", c->src_ip >> 24,
		(c->src_ip >> 16) & 255, (c->src_ip >> 8) & 255, c->src_ip & 255);
	set(o, "src_ip", json_string(mac));
	snprintf(mac, sizeof(mac), "%u.%u.%u.%u", c->dst_ip >> 24,
		(c->dst_ip >> 16) & 255, (c->dst_ip >> 8) & 255, c->dst_ip & 255);
	set(o, "dst_ip", json_string(mac));
	set(o, "ring_pairs", u64(c->nb_ring_pairs));
	if (c->rate.unit != WR_RATE_NONE) {
		char rate[64];

		wr_rate_format(&c->rate, rate, sizeof(rate));
		set(o, "rate", json_string(rate));
	}
	set(o, "link_speed_bps", u64(c->link_speed_bps));
	set(o, "latency", json_string(c->lat_mode == WR_LAT_TSC ? "tsc" :
		c->lat_mode == WR_LAT_OFF ? "off" : "auto"));
	set(o, "repeat", u64(c->nb_repeat));
	set(o, "warmup", u64(c->nb_warmup));
	return o;
}

static json_t *
qlist(const struct wr_qref *q, unsigned int n)
{
	json_t *a = json_array();
	char buf[32];
	unsigned int i;

	for (i = 0; i < n; i++) {
		snprintf(buf, sizeof(buf), "%u.%u", q[i].port, q[i].queue);
		json_array_append_new(a, json_string(buf));
	}
	return a;
}

static json_t *
plan_json(const struct wr_plan *plan)
{
	json_t *o = json_object(), *ws = json_array();
	unsigned int i;

	set(o, "mode", json_string(plan->automatic ? "auto" : "map"));
	set(o, "remote_queues", u64(plan->nb_remote));
	for (i = 0; i < plan->nb_workers; i++) {
		json_t *w = json_object();

		set(w, "lcore", u64(plan->w[i].lcore));
		set(w, "socket", json_integer(plan->w[i].socket));
		set(w, "tx", qlist(plan->w[i].tx, plan->w[i].nb_tx));
		set(w, "rx", qlist(plan->w[i].rx, plan->w[i].nb_rx));
		json_array_append_new(ws, w);
	}
	set(o, "workers", ws);
	return o;
}

/* A string, or null when s is empty (not known). */
static json_t *
str_or_null(const char *s)
{
	return s[0] != '\0' ? json_string(s) : json_null();
}

/* Which device is behind the port (lib/devinfo.h). */
static void
device_json(json_t *o, const struct wr_devinfo *d)
{
	set(o, "bus", str_or_null(d->bus));
	set(o, "device", str_or_null(d->device));
	set(o, "pci_id", str_or_null(d->pci_id));
	set(o, "pci_subsys", str_or_null(d->pci_subsys));
	set(o, "pci_revision", d->pci_revision >= 0 ?
		json_integer(d->pci_revision) : json_null());
	set(o, "vmxnet3_version", str_or_null(d->vmxnet3_version));
}

static json_t *
port_json(const struct wr_port *p)
{
	char mac[RTE_ETHER_ADDR_FMT_SIZE];
	json_t *o = json_object(), *notes = json_array();
	unsigned int i;

	rte_ether_format_addr(mac, sizeof(mac), &p->mac);
	set(o, "port_id", u64(p->port_id));
	set(o, "name", json_string(p->name));
	set(o, "driver", json_string(p->driver));
	device_json(o, &p->dev);
	set(o, "mac", json_string(mac));
	set(o, "socket", json_integer(p->socket));
	set(o, "role", json_string(p->tx && p->rx ? "tx+rx" : p->tx ? "tx" : "rx"));
	set(o, "peer", u64(p->peer));
	set(o, "txq", u64(p->nb_txq));
	set(o, "rxq", u64(p->nb_rxq));
	set(o, "txd", u64(p->nb_txd));
	set(o, "rxd", u64(p->nb_rxd));
	set(o, "mtu", u64(p->mtu ? p->mtu : RTE_ETHER_MTU));
	set(o, "link_up", json_boolean(p->link_up));
	set(o, "link_speed_mbps", u64(p->link_speed_mbps));
	set(o, "link_wait_ms", u64(p->link_wait_ms));
	set(o, "fast_free", json_boolean(p->fast_free));
	set(o, "tx_pool_mbufs", u64(p->tx_pool_mbufs));
	set(o, "rx_pool_mbufs", u64(p->rx_pool_mbufs));
	for (i = 0; i < p->nb_notes; i++)
		json_array_append_new(notes, json_string(p->notes[i]));
	set(o, "notes", notes);
	return o;
}

static void
rates_json(json_t *o, const struct wr_port_rates *r)
{
	set(o, "tx_mpps", json_real(r->tx_pps / 1e6));
	set(o, "rx_mpps", json_real(r->rx_pps / 1e6));
	set(o, "tx_gbps_l1", json_real(r->tx_l1_bps / 1e9));
	set(o, "tx_gbps_l2", json_real(r->tx_l2_bps / 1e9));
	set(o, "rx_gbps_l1", json_real(r->rx_l1_bps / 1e9));
	set(o, "rx_gbps_l2", json_real(r->rx_l2_bps / 1e9));
}

static void
seq_json(json_t *o, const struct wr_port_seq *s)
{
	set(o, "gap_pkts", u64(s->gap_pkts));
	set(o, "late_pkts", u64(s->late_pkts));
	set(o, "dup_pkts", u64(s->dup_pkts));
	if (s->lat_samples == 0)
		return;
	set(o, "latency_mean_ns", json_real(s->lat_mean_ns));
	set(o, "latency_p99_ns", json_real(s->lat_p99_ns));
}

static json_t *
samples_json(const struct wr_run *run)
{
	json_t *a = json_array();
	unsigned int i, p;

	for (i = 0; i < run->nb_intervals; i++) {
		const struct wr_interval *iv = &run->intervals[i];
		json_t *s = json_object(), *ports = json_array();

		set(s, "t_s", json_real(iv->t_s));
		set(s, "dt_s", json_real(iv->dt_s));
		for (p = 0; p < run->nb_ports; p++) {
			json_t *o = json_object();

			set(o, "port_id", u64(run->ports[p].port_id));
			rates_json(o, &iv->port[p].rates);
			set(o, "tx_pkts", u64(iv->port[p].cnt.tx_pkts));
			set(o, "rx_pkts", u64(iv->port[p].cnt.rx_pkts));
			set(o, "rx_own_pkts", u64(iv->port[p].cnt.rx_own_pkts));
			seq_json(o, &iv->port[p].seq);
			json_array_append_new(ports, o);
		}
		set(s, "ports", ports);
		json_array_append_new(a, s);
	}
	return a;
}

static json_t *
drops_json(const struct wr_port_counters *c)
{
	json_t *o = json_object();

	set(o, "tx_full_pkts", u64(c->tx_full_pkts));
	set(o, "tx_alloc_fail", u64(c->tx_alloc_fail));
	set(o, "tx_unsent_pkts", u64(c->tx_unsent_pkts));
	set(o, "rx_missed_pkts", u64(c->nic_imissed));
	set(o, "rx_errors", u64(c->nic_ierrors));
	set(o, "tx_errors", u64(c->nic_oerrors));
	set(o, "rx_nombuf", u64(c->nic_rx_nombuf));
	return o;
}

/* Latency of own frames received on port index p, merged over queues. */
static json_t *
latency_json(const struct wr_run *run, unsigned int p)
{
	static struct wr_hist h;
	static const double pct[] = { 50, 90, 99, 99.9 };
	static const char *const name[] = { "p50_ns", "p90_ns", "p99_ns", "p99_9_ns" };
	json_t *o;
	unsigned int q, i;

	wr_hist_init(&h);
	for (q = 0; q < WR_MAX_QUEUES; q++)
		if (run->rxq[p][q] != NULL)
			wr_hist_merge(&h, &run->rxq[p][q]->lat);
	if (h.nb == 0)
		return NULL;
	o = json_object();
	set(o, "clock", json_string("tsc"));
	set(o, "samples", u64(h.nb));
	set(o, "min_ns", json_real(wr_stats_tsc_to_ns((double)h.min, run->tsc_hz)));
	set(o, "mean_ns", json_real(wr_stats_tsc_to_ns(wr_hist_mean(&h), run->tsc_hz)));
	for (i = 0; i < RTE_DIM(pct); i++)
		set(o, name[i], json_real(wr_stats_tsc_to_ns(
			(double)wr_hist_percentile(&h, pct[i]), run->tsc_hz)));
	set(o, "max_ns", json_real(wr_stats_tsc_to_ns((double)h.max, run->tsc_hz)));
	return o;
}

/* What the --impair fixture did on port index p, NULL when off. */
static json_t *
impair_json(const struct wr_run *run, unsigned int p)
{
	uint64_t drop = 0, dup = 0, reorder = 0, delayed = 0, policed = 0;
	bool any = false;
	unsigned int q;
	json_t *o;

	for (q = 0; q < WR_MAX_QUEUES; q++) {
		const struct wr_impair_q *iq = run->impair[p][q];

		if (iq == NULL)
			continue;
		any = true;
		drop += iq->nb_dropped;
		dup += iq->nb_duplicated;
		reorder += iq->nb_reordered;
		delayed += iq->nb_delayed_polls;
		policed += iq->nb_policed;
	}
	if (!any)
		return NULL;
	o = json_object();
	set(o, "dropped_pkts", u64(drop));
	set(o, "duplicated_pkts", u64(dup));
	set(o, "reordered_pkts", u64(reorder));
	set(o, "delayed_polls", u64(delayed));
	set(o, "policed_pkts", u64(policed));
	return o;
}

static json_t *
rate_json(const struct wr_run *run, unsigned int p)
{
	struct wr_rate_check rc;
	json_t *o;

	if (!wr_run_rate_check(run, p, &rc))
		return NULL;
	o = json_object();
	set(o, "requested_pps", json_real(rc.requested_pps));
	set(o, "achieved_pps", json_real(rc.achieved_pps));
	set(o, "shortfall_pct", json_real(rc.shortfall_pct));
	set(o, "clamped_pkts", u64(rc.clamped_pkts));
	set(o, "backlog_pkts", u64(rc.backlog_pkts));
	set(o, "link_bps", u64(run->ports[p].rate_link_bps));
	set(o, "reached", json_boolean(rc.reached));
	if (!rc.reached)
		set(o, "reason", json_string(rc.reason));
	return o;
}

/* The link over the trial: up at the end, times it went down, time down. */
static json_t *
link_json(const struct wr_run *run, unsigned int p)
{
	const struct wr_link_watch *w = &run->link[p];
	json_t *o = json_object();

	set(o, "up", json_boolean(w->up));
	set(o, "down_events", u64(w->nb_down));
	set(o, "down_s", json_real(wr_run_seconds(run, 0, w->down_tsc)));
	return o;
}

static json_t *
total_port_json(const struct wr_run *run, unsigned int p)
{
	const struct wr_port_counters *c = &run->total[p];
	struct wr_port_counters zero;
	struct wr_port_rates r;
	json_t *o = json_object();

	memset(&zero, 0, sizeof(zero));
	wr_stats_rates(&zero, c, run->tx_stop_tsc - run->start_tsc, run->tsc_hz, &r);
	set(o, "port_id", u64(run->ports[p].port_id));
	set(o, "tx_pkts", u64(c->tx_pkts));
	set(o, "tx_bytes", u64(c->tx_bytes));
	set(o, "rx_pkts", u64(c->rx_pkts));
	set(o, "rx_bytes", u64(c->rx_bytes));
	set(o, "rx_own_pkts", u64(c->rx_own_pkts));
	set(o, "rx_foreign_pkts", u64(c->rx_foreign_pkts));
	set(o, "rx_malformed_pkts", u64(c->rx_malformed_pkts));
	set(o, "nic_ipackets", u64(c->nic_ipackets));
	set(o, "nic_opackets", u64(c->nic_opackets));
	rates_json(o, &r);
	set(o, "drops", drops_json(c));
	if (run->port_lat_valid[p])
		set(o, "latency", latency_json(run, p));
	set(o, "impair", impair_json(run, p));
	set(o, "rate", rate_json(run, p));
	set(o, "link", link_json(run, p));
	return o;
}

static json_t *
stream_json(const struct wr_run *run, const struct wr_stream_result *s)
{
	const struct wr_stream_view *v = &s->view;
	json_t *o = json_object();

	set(o, "stream_id", u64(s->stream_id));
	set(o, "tx_port", u64(s->tx_port));
	set(o, "tx_queue", u64(s->tx_queue));
	set(o, "rx_port", u64(s->rx_port));
	set(o, "sender_in_run", json_boolean(s->sender_known));
	if (s->sender_known)
		set(o, "sent_pkts", u64(s->sent_pkts));
	set(o, "rx_pkts", u64(v->seq.nb_rx_pkts));
	set(o, "lost_pkts", json_integer(s->lost_pkts));
	set(o, "gap_pkts", u64(wr_seq_gaps(&v->seq)));
	set(o, "late_pkts", u64(v->seq.nb_late_pkts));
	set(o, "dup_pkts", u64(v->seq.nb_dup_pkts));
	set(o, "old_pkts", u64(v->seq.nb_old_pkts));
	set(o, "restarts", u64(v->seq.nb_restarts));
	if (s->lat_valid) {
		set(o, "latency_min_ns", json_real(wr_stats_tsc_to_ns((double)v->lat_min_tsc, run->tsc_hz)));
		set(o, "latency_mean_ns", json_real(wr_stats_tsc_to_ns(
			wr_stats_view_lat_mean_tsc(v), run->tsc_hz)));
		set(o, "latency_max_ns", json_real(wr_stats_tsc_to_ns((double)v->lat_max_tsc, run->tsc_hz)));
		set(o, "jitter_ns", json_real(wr_stats_tsc_to_ns(v->jitter_tsc, run->tsc_hz)));
	}
	return o;
}

/* sent = received + lost for every stream whose sender is in the run. */
static json_t *
accounting_json(const struct wr_run *run)
{
	uint64_t sent = 0, rx = 0;
	int64_t lost = 0;
	bool balanced = true;
	unsigned int i;
	json_t *o = json_object();

	for (i = 0; i < run->nb_streams; i++) {
		const struct wr_stream_result *s = &run->streams[i];

		if (!s->sender_known)
			continue;
		sent += s->sent_pkts;
		rx += s->view.seq.nb_rx_pkts;
		lost += s->lost_pkts;
		if ((int64_t)s->sent_pkts != (int64_t)s->view.seq.nb_rx_pkts + s->lost_pkts ||
				s->lost_pkts < 0)
			balanced = false;
	}
	set(o, "sent_pkts", u64(sent));
	set(o, "received_pkts", u64(rx));
	set(o, "lost_pkts", json_integer(lost));
	set(o, "balanced", json_boolean(balanced));
	set(o, "mbufs_missing", u64(run->mbufs_missing));
	set(o, "stranded_pkts", u64(run->nb_stranded_pkts));
	return o;
}

json_t *
wr_result_head(const struct wr_run *run)
{
	json_t *doc = json_object(), *ports = json_array();
	unsigned int i;

	set(doc, "schema", json_string(WR_RESULT_SCHEMA));
	if (run->cfg->label[0] != '\0')
		set(doc, "label", json_string(run->cfg->label));
	set(doc, "env", env_json(run));
	set(doc, "config", config_json(run->cfg));
	set(doc, "plan", plan_json(&run->plan));
	for (i = 0; i < run->nb_ports; i++)
		json_array_append_new(ports, port_json(&run->ports[i]));
	set(doc, "ports", ports);
	return doc;
}

/* What the traffic phase produced: the same keys in a result and a trial. */
void
wr_result_add_trial(json_t *o, const struct wr_run *run, bool samples)
{
	json_t *totals = json_array(), *streams = json_array();
	unsigned int i;

	set(o, "frame_size", u64(run->trial.frame_size));
	if (samples)
		set(o, "samples", samples_json(run));
	set(o, "duration_s", json_real(wr_run_seconds(run, run->start_tsc, run->tx_stop_tsc)));
	set(o, "stop_reason", json_string(wr_run_stop_name(run->stop_reason)));
	for (i = 0; i < run->nb_ports; i++)
		json_array_append_new(totals, total_port_json(run, i));
	set(o, "totals", totals);
	for (i = 0; i < run->nb_streams; i++)
		json_array_append_new(streams, stream_json(run, &run->streams[i]));
	set(o, "streams", streams);
	set(o, "accounting", accounting_json(run));
}

json_t *
wr_result_build(const struct wr_run *run)
{
	json_t *doc = wr_result_head(run);

	if (doc != NULL)
		wr_result_add_trial(doc, run, true);
	return doc;
}

json_t *
wr_result_trial(const struct wr_run *run, unsigned int trial)
{
	json_t *o = json_object();

	set(o, "trial", u64(trial));
	wr_result_add_trial(o, run, true);
	/* Known only once the ports close, after the last trial. */
	json_object_del(json_object_get(o, "accounting"), "mbufs_missing");
	json_object_del(json_object_get(o, "accounting"), "stranded_pkts");
	return o;
}

json_t *
wr_result_build_trials(const struct wr_run *run, json_t *trials,
		char *err, size_t errlen)
{
	json_t *doc = wr_result_build(run), *summary;

	if (doc == NULL) {
		snprintf(err, errlen, "no memory to build the result");
		return NULL;
	}
	if (trials == NULL)
		return doc;
	summary = wr_trials_summary(trials, run->cfg->nb_warmup, err, errlen);
	if (summary == NULL) {
		json_decref(doc);
		return NULL;
	}
	set(doc, "trials", json_incref(trials));
	set(doc, "summary", summary);
	return doc;
}

static int
fill_json(FILE *f, const void *doc)
{
	errno = 0;
	if (json_dumpf(doc, f, JSON_INDENT(1) | JSON_REAL_PRECISION(10)) != 0 ||
			fputc('\n', f) == EOF)
		return errno ? -errno : -EIO;
	return 0;
}

int
wr_result_write_json(json_t *doc, const char *path, char *err, size_t errlen)
{
	return wr_csv_write_atomic(path, fill_json, doc, err, errlen);
}

int
wr_result_write(const struct wr_run *run, const char *path, char *err, size_t errlen)
{
	json_t *doc = wr_result_build(run);
	int rc;

	if (doc == NULL) {
		snprintf(err, errlen, "%s: no memory to build the result", path);
		return -ENOMEM;
	}
	rc = wr_result_write_json(doc, path, err, errlen);
	json_decref(doc);
	return rc;
}
