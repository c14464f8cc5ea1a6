/* SPDX-License-Identifier: BSD-3-Clause */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <rte_version.h>

#include "stats/collect.h"
#include "base/counter.h"
#include "base/cpuinfo.h"
#include "base/jsonw.h"
#include "result_int.h"
#include "stats/streamrx.h"
#include "measure/xcheck.h"
#include "stats/cpujson.h"
#include "base/fileio.h"
#include "datapath/capture.h"
#include "result.h"
#include "trials.h"
#include "base/units.h"


static json_t *
env_json(const struct wr_run *run)
{
	json_t *o = json_object();
	struct utsname u;
	char buf[256];
	struct tm tm;
	time_t now;

	wr_json_set(o, "wirerate_version", json_string(WR_VERSION));
	wr_json_set(o, "dpdk_version", json_string(rte_version()));
	if (wr_cpuinfo_get(WR_CPUINFO_PATH, "model name", buf, sizeof(buf)) != 0)
		snprintf(buf, sizeof(buf), "unknown");
	wr_json_set(o, "cpu_model", json_string(buf));
	wr_json_set(o, "tsc_hz", wr_json_u64(run->setup.tsc_hz));
	if (uname(&u) == 0)
		wr_json_set(o, "kernel", json_string(u.release));
	if (gethostname(buf, sizeof(buf)) == 0) {
		buf[sizeof(buf) - 1] = '\0';
		wr_json_set(o, "hostname", json_string(buf));
	}
	wr_json_set(o, "cmdline", json_string(run->setup.cmdline));
	/* When the result was made: the end of the run, UTC, ISO 8601. */
	now = time(NULL);
	if (gmtime_r(&now, &tm) != NULL &&
			strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm) > 0)
		wr_json_set(o, "date_utc", json_string(buf));
	wr_json_set(o, "profile", run->setup.cfg->profile_path[0] != '\0' ?
		json_string(run->setup.cfg->profile_path) : json_null());
	return o;
}

/* A port role: the list of ids, or "all" when not given. */
static json_t *
ports_json(uint64_t mask, bool set)
{
	json_t *a;
	unsigned int p;

	if (!set)
		return json_string("all");
	a = json_array();
	for (p = 0; p < WR_MAX_PORTS; p++)
		if (mask & (1ULL << p))
			json_array_append_new(a, wr_json_u64(p));
	return a;
}

static json_t *
maps_json(const struct wr_config *c)
{
	json_t *a = json_array();
	unsigned int i, j;
	char buf[32];

	for (i = 0; i < c->nb_maps; i++) {
		json_t *m = json_object(), *q = json_array();

		for (j = 0; j < c->maps[i].nb_q; j++) {
			snprintf(buf, sizeof(buf), "%s%u.%u", c->maps[i].q[j].dir ==
				WR_DIR_TX ? "tx" : "rx", c->maps[i].q[j].port,
				c->maps[i].q[j].queue);
			json_array_append_new(q, json_string(buf));
		}
		wr_json_set(m, "lcore", wr_json_u64(c->maps[i].lcore));
		wr_json_set(m, "queues", q);
		json_array_append_new(a, m);
	}
	return a;
}

/* The rest of the merged configuration (profile, then command line). */
static void
config_more_json(json_t *o, const struct wr_config *c)
{
	char mac[RTE_ETHER_ADDR_FMT_SIZE];

	wr_json_set(o, "profile", c->profile_path[0] ? json_string(c->profile_path) :
		json_null());
	wr_json_set(o, "tx_ports", ports_json(c->tx_port_mask, c->tx_ports_set));
	wr_json_set(o, "rx_ports", ports_json(c->rx_port_mask, c->rx_ports_set));
	wr_json_set(o, "maps", maps_json(c));
	wr_json_set(o, "link_timeout_ms", wr_json_u64(c->link_timeout_ms));
	rte_ether_format_addr(mac, sizeof(mac), &c->src_mac);
	wr_json_set(o, "src_mac", c->src_mac_set ? json_string(mac) : json_string("port"));
	rte_ether_format_addr(mac, sizeof(mac), &c->dst_mac);
	wr_json_set(o, "dst_mac", c->dst_mac_set ? json_string(mac) : json_string("peer"));
	wr_json_set(o, "plain", json_boolean(c->plain));
	wr_json_set(o, "quiet", json_boolean(c->quiet));
}

/* L3 and size mix of the generated frames (config). */
static void
config_traffic_json(json_t *o, const struct wr_config *c)
{
	char ip6[INET6_ADDRSTRLEN];

	wr_json_set(o, "l3", json_string(c->ipv6 ? "ipv6" : "ipv4"));
	if (c->ipv6) {
		inet_ntop(AF_INET6, c->src_ip6, ip6, sizeof(ip6));
		wr_json_set(o, "src_ip6", json_string(ip6));
		inet_ntop(AF_INET6, c->dst_ip6, ip6, sizeof(ip6));
		wr_json_set(o, "dst_ip6", json_string(ip6));
	}
	if (c->mix.nb_sizes == 0)
		return;
	wr_json_set(o, "mix", json_string(c->mix.text));
	wr_json_set(o, "mix_frames_per_cycle", wr_json_u64(c->mix.seq_len));
	wr_json_set(o, "mix_bytes_per_cycle", wr_json_u64(wr_mix_cycle_bytes(&c->mix)));
	wr_json_set(o, "mix_mean_size", json_real(wr_mix_mean_size(&c->mix)));
}

static json_t *
config_json(const struct wr_config *c)
{
	char mac[RTE_ETHER_ADDR_FMT_SIZE];
	json_t *o = json_object();

	wr_json_set(o, "frame_size", wr_json_u64(c->frame_size));
	wr_json_set(o, "burst_pkts", wr_json_u64(c->burst_pkts));
	wr_json_set(o, "txq", wr_json_u64(c->nb_txq));
	wr_json_set(o, "rxq", wr_json_u64(c->nb_rxq));
	wr_json_set(o, "txd", wr_json_u64(c->nb_txd));
	wr_json_set(o, "rxd", wr_json_u64(c->nb_rxd));
	wr_json_set(o, "duration_ms", wr_json_u64(c->duration_ms));
	wr_json_set(o, "count_pkts", wr_json_u64(c->count_pkts));
	wr_json_set(o, "interval_ms", wr_json_u64(c->interval_ms));
	wr_json_set(o, "grace_ms", wr_json_u64(c->grace_ms));
	wr_json_set(o, "flows", wr_json_u64(c->nb_flows));
	wr_json_set(o, "vlan", wr_json_u64(c->vlan_id));
	wr_json_set(o, "src_udp", wr_json_u64(c->src_udp));
	wr_json_set(o, "dst_udp", wr_json_u64(c->dst_udp));
	snprintf(mac, sizeof(mac), "%u.%u.%u.%u", c->src_ip >> 24,
		(c->src_ip >> 16) & 255, (c->src_ip >> 8) & 255, c->src_ip & 255);
	wr_json_set(o, "src_ip", json_string(mac));
	snprintf(mac, sizeof(mac), "%u.%u.%u.%u", c->dst_ip >> 24,
		(c->dst_ip >> 16) & 255, (c->dst_ip >> 8) & 255, c->dst_ip & 255);
	wr_json_set(o, "dst_ip", json_string(mac));
	wr_json_set(o, "ring_pairs", wr_json_u64(c->nb_ring_pairs));
	config_traffic_json(o, c);
	if (c->rate.unit != WR_RATE_NONE) {
		char rate[64];

		wr_rate_format(&c->rate, rate, sizeof(rate));
		wr_json_set(o, "rate", json_string(rate));
	}
	wr_json_set(o, "link_speed_bps", wr_json_u64(c->link_speed_bps));
	wr_json_set(o, "latency", json_string(c->lat_mode == WR_LAT_TSC ? "tsc" :
		c->lat_mode == WR_LAT_OFF ? "off" : "auto"));
	wr_json_set(o, "repeat", wr_json_u64(c->nb_repeat));
	wr_json_set(o, "warmup", wr_json_u64(c->nb_warmup));
	wr_json_set(o, "start_on_rx", json_boolean(c->start_on_rx));
	wr_json_set(o, "idle_timeout_ms", wr_json_u64(c->idle_timeout_ms));
	wr_json_set(o, "reflect", json_boolean(c->reflect));
	config_more_json(o, c);
	wr_json_set(o, "stamp", json_string(c->stamp == WR_STAMP_FULL ? "full" :
		c->stamp == WR_STAMP_SEQ ? "seq" : "none"));
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

	wr_json_set(o, "mode", json_string(plan->automatic ? "auto" : "map"));
	wr_json_set(o, "remote_queues", wr_json_u64(plan->nb_remote));
	for (i = 0; i < plan->nb_workers; i++) {
		json_t *w = json_object();

		wr_json_set(w, "lcore", wr_json_u64(plan->w[i].lcore));
		wr_json_set(w, "socket", json_integer(plan->w[i].socket));
		wr_json_set(w, "tx", qlist(plan->w[i].tx, plan->w[i].nb_tx));
		wr_json_set(w, "rx", qlist(plan->w[i].rx, plan->w[i].nb_rx));
		json_array_append_new(ws, w);
	}
	wr_json_set(o, "workers", ws);
	return o;
}

/* A string, or null when s is empty (not known). */
static json_t *
str_or_null(const char *s)
{
	return s[0] != '\0' ? json_string(s) : json_null();
}

/* Which device is behind the port (lib/setup/devinfo.h). */
static void
device_json(json_t *o, const struct wr_devinfo *d)
{
	wr_json_set(o, "bus", str_or_null(d->bus));
	wr_json_set(o, "device", str_or_null(d->device));
	wr_json_set(o, "pci_id", str_or_null(d->pci_id));
	wr_json_set(o, "pci_subsys", str_or_null(d->pci_subsys));
	wr_json_set(o, "pci_revision", d->pci_revision >= 0 ?
		json_integer(d->pci_revision) : json_null());
	wr_json_set(o, "vmxnet3_version", str_or_null(d->vmxnet3_version));
}

static json_t *
port_json(const struct wr_port *p)
{
	char mac[RTE_ETHER_ADDR_FMT_SIZE];
	json_t *o = json_object(), *notes = json_array();
	unsigned int i;

	rte_ether_format_addr(mac, sizeof(mac), &p->mac);
	wr_json_set(o, "port_id", wr_json_u64(p->port_id));
	wr_json_set(o, "name", json_string(p->name));
	wr_json_set(o, "driver", json_string(p->driver));
	device_json(o, &p->dev);
	wr_json_set(o, "mac", json_string(mac));
	wr_json_set(o, "socket", json_integer(p->socket));
	wr_json_set(o, "role", json_string(p->tx && p->rx ? "tx+rx" : p->tx ? "tx" : "rx"));
	wr_json_set(o, "peer", wr_json_u64(p->peer));
	wr_json_set(o, "txq", wr_json_u64(p->nb_txq));
	wr_json_set(o, "rxq", wr_json_u64(p->nb_rxq));
	wr_json_set(o, "txd", wr_json_u64(p->nb_txd));
	wr_json_set(o, "rxd", wr_json_u64(p->nb_rxd));
	wr_json_set(o, "mtu", wr_json_u64(p->mtu ? p->mtu : RTE_ETHER_MTU));
	wr_json_set(o, "link_up", json_boolean(p->link_up));
	wr_json_set(o, "link_speed_mbps", wr_json_u64(p->link_speed_mbps));
	wr_json_set(o, "link_wait_ms", wr_json_u64(p->link_wait_ms));
	wr_json_set(o, "fast_free", json_boolean(p->fast_free));
	wr_json_set(o, "tx_pool_mbufs", wr_json_u64(p->tx_pool_mbufs));
	wr_json_set(o, "rx_pool_mbufs", wr_json_u64(p->rx_pool_mbufs));
	for (i = 0; i < p->nb_notes; i++)
		json_array_append_new(notes, json_string(p->notes[i]));
	wr_json_set(o, "notes", notes);
	return o;
}

void
wr_result_rates_json(json_t *o, const struct wr_port_rates *r)
{
	wr_json_set(o, "tx_mpps", json_real(r->tx_pps / 1e6));
	wr_json_set(o, "rx_mpps", json_real(r->rx_pps / 1e6));
	wr_json_set(o, "tx_gbps_l1", json_real(r->tx_l1_bps / 1e9));
	wr_json_set(o, "tx_gbps_l2", json_real(r->tx_l2_bps / 1e9));
	wr_json_set(o, "rx_gbps_l1", json_real(r->rx_l1_bps / 1e9));
	wr_json_set(o, "rx_gbps_l2", json_real(r->rx_l2_bps / 1e9));
}

/*
 * Latency figures as an object: the same keys for a run's totals and for
 * each sample's interval (struct wr_lat_figs); NULL when nothing is known.
 */
json_t *
wr_result_lat_figs_json(const struct wr_lat_figs *f)
{
	json_t *o;

	if (f->samples == 0)
		return NULL;
	o = json_object();
	wr_json_set(o, "clock", json_string("tsc"));
	wr_json_set(o, "samples", wr_json_u64(f->samples));
	wr_json_set(o, "min_ns", json_real(f->min_ns));
	wr_json_set(o, "mean_ns", json_real(f->mean_ns));
	wr_json_set(o, "p50_ns", json_real(f->p50_ns));
	wr_json_set(o, "p90_ns", json_real(f->p90_ns));
	wr_json_set(o, "p99_ns", json_real(f->p99_ns));
	wr_json_set(o, "p99_9_ns", json_real(f->p999_ns));
	wr_json_set(o, "max_ns", json_real(f->max_ns));
	return o;
}

static void
seq_json(json_t *o, const struct wr_port_seq *s)
{
	wr_json_set(o, "gap_pkts", wr_json_u64(s->gap_pkts));
	wr_json_set(o, "late_pkts", wr_json_u64(s->late_pkts));
	wr_json_set(o, "dup_pkts", wr_json_u64(s->dup_pkts));
	if (s->lat.samples == 0)
		return;
	/* The interval's own frames, defined as totals[].latency. */
	wr_json_set(o, "latency", wr_result_lat_figs_json(&s->lat));
	wr_json_set(o, "latency_mean_ns", json_real(s->lat.mean_ns));
	wr_json_set(o, "latency_p99_ns", json_real(s->lat.p99_ns));
}

json_t *
wr_result_samples_json(const struct wr_run *run)
{
	json_t *a = json_array();
	unsigned int i, p;

	for (i = 0; i < run->live.nb_intervals; i++) {
		const struct wr_interval *iv = &run->live.intervals[i];
		json_t *s = json_object(), *ports = json_array();

		wr_json_set(s, "t_s", json_real(iv->t_s));
		wr_json_set(s, "dt_s", json_real(iv->dt_s));
		for (p = 0; p < run->setup.nb_ports; p++) {
			json_t *o = json_object();

			wr_json_set(o, "port_id", wr_json_u64(run->setup.ports[p].port_id));
			wr_result_rates_json(o, &iv->port[p].rates);
			wr_json_set(o, "tx_pkts", wr_json_u64(iv->port[p].cnt.tx_pkts));
			wr_json_set(o, "rx_pkts", wr_json_u64(iv->port[p].cnt.rx_pkts));
			wr_json_set(o, "rx_own_pkts", wr_json_u64(iv->port[p].cnt.rx_own_pkts));
			seq_json(o, &iv->port[p].seq);
			wr_cpu_json_sample_port(o, &iv->port[p].cpu);
			json_array_append_new(ports, o);
		}
		wr_json_set(s, "ports", ports);
		wr_json_set(s, "lcores", wr_cpu_json_sample(run, iv));
		json_array_append_new(a, s);
	}
	return a;
}

json_t *
wr_result_drops_json(const struct wr_port_counters *c)
{
	json_t *o = json_object();

	wr_json_set(o, "tx_full_pkts", wr_json_u64(c->tx_full_pkts));
	wr_json_set(o, "tx_alloc_fail", wr_json_u64(c->tx_alloc_fail));
	wr_json_set(o, "tx_unsent_pkts", wr_json_u64(c->tx_unsent_pkts));
	wr_json_set(o, "rx_missed_pkts", wr_json_u64(c->nic_imissed));
	wr_json_set(o, "rx_errors", wr_json_u64(c->nic_ierrors));
	wr_json_set(o, "tx_errors", wr_json_u64(c->nic_oerrors));
	wr_json_set(o, "rx_nombuf", wr_json_u64(c->nic_rx_nombuf));
	return o;
}

/* Latency of own frames received on port index p, merged over queues. */
static json_t *
latency_json(const struct wr_run *run, unsigned int p)
{
	static struct wr_hist h;
	struct wr_lat_figs f;

	wr_hist_init(&h);
	wr_collect_lat(run, p, &h);
	wr_stats_lat_figs(&h, run->setup.tsc_hz, &f);
	return wr_result_lat_figs_json(&f);
}

/* What the --impair fixture did on port index p, NULL when off. */
static json_t *
impair_json(const struct wr_run *run, unsigned int p)
{
	uint64_t drop = 0, dup = 0, reorder = 0, delayed = 0, policed = 0;
	const struct wr_rxq *rq;
	bool any = false;
	unsigned int i;
	json_t *o;

	WR_RUN_FOREACH_RXQ_OF(run, p, i, rq) {
		const struct wr_impair_q *iq = rq->impair;

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
	wr_json_set(o, "dropped_pkts", wr_json_u64(drop));
	wr_json_set(o, "duplicated_pkts", wr_json_u64(dup));
	wr_json_set(o, "reordered_pkts", wr_json_u64(reorder));
	wr_json_set(o, "delayed_polls", wr_json_u64(delayed));
	wr_json_set(o, "policed_pkts", wr_json_u64(policed));
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
	wr_json_set(o, "requested_pps", json_real(rc.requested_pps));
	wr_json_set(o, "achieved_pps", json_real(rc.achieved_pps));
	wr_json_set(o, "shortfall_pct", json_real(rc.shortfall_pct));
	wr_json_set(o, "clamped_pkts", wr_json_u64(rc.clamped_pkts));
	wr_json_set(o, "backlog_pkts", wr_json_u64(rc.backlog_pkts));
	wr_json_set(o, "link_bps", wr_json_u64(run->setup.ports[p].rate_link_bps));
	wr_json_set(o, "reached", json_boolean(rc.reached));
	if (!rc.reached)
		wr_json_set(o, "reason", json_string(rc.reason));
	return o;
}

/* The link over the trial: up at the end, times it went down, time down. */
static json_t *
link_json(const struct wr_run *run, unsigned int p)
{
	const struct wr_link_watch *w = &run->live.link[p];
	json_t *o = json_object();

	wr_json_set(o, "up", json_boolean(w->up));
	wr_json_set(o, "down_events", wr_json_u64(w->nb_down));
	wr_json_set(o, "down_s", json_real(wr_run_seconds(run, 0, w->down_tsc)));
	return o;
}

json_t *
wr_result_port_counters_json(const struct wr_run *run, unsigned int p,
		const struct wr_port_counters *c, uint64_t dt_tsc)
{
	struct wr_port_counters zero;
	struct wr_port_rates r;
	json_t *o = json_object();

	memset(&zero, 0, sizeof(zero));
	wr_stats_rates(&zero, c, dt_tsc, run->setup.tsc_hz, &r);
	wr_json_set(o, "port_id", wr_json_u64(run->setup.ports[p].port_id));
	wr_json_set(o, "tx_pkts", wr_json_u64(c->tx_pkts));
	wr_json_set(o, "tx_bytes", wr_json_u64(c->tx_bytes));
	wr_json_set(o, "rx_pkts", wr_json_u64(c->rx_pkts));
	wr_json_set(o, "rx_bytes", wr_json_u64(c->rx_bytes));
	wr_json_set(o, "rx_own_pkts", wr_json_u64(c->rx_own_pkts));
	wr_json_set(o, "rx_foreign_pkts", wr_json_u64(c->rx_foreign_pkts));
	wr_json_set(o, "rx_malformed_pkts", wr_json_u64(c->rx_malformed_pkts));
	wr_json_set(o, "nic_ipackets", wr_json_u64(c->nic_ipackets));
	wr_json_set(o, "nic_opackets", wr_json_u64(c->nic_opackets));
	wr_result_rates_json(o, &r);
	wr_json_set(o, "drops", wr_result_drops_json(c));
	return o;
}

static json_t *
total_port_json(const struct wr_run *run, unsigned int p)
{
	const struct wr_port_counters *c = &run->res.total[p];
	json_t *o = wr_result_port_counters_json(run, p, c,
		run->live.tx_stop_tsc - run->live.start_tsc);

	wr_json_set(o, "reflected_pkts", wr_json_u64(c->rx_reflected_pkts));
	wr_json_set(o, "unreflected_pkts", wr_json_u64(c->rx_unreflected_pkts));
	if (run->res.port_lat_valid[p])
		wr_json_set(o, "latency", latency_json(run, p));
	wr_json_set(o, "impair", impair_json(run, p));
	wr_json_set(o, "rate", rate_json(run, p));
	wr_json_set(o, "link", link_json(run, p));
	return o;
}

/* Each RX port's share of a stream: [{port_id, rx_pkts}], information only. */
static json_t *
rx_split_json(const struct wr_stream_result *s)
{
	json_t *a = json_array();
	unsigned int k;

	for (k = 0; k < s->nb_rx_ports; k++)
		json_array_append_new(a, json_pack("{s:I, s:I}", "port_id",
			(json_int_t)s->rx_split[k].port_id, "rx_pkts",
			(json_int_t)s->rx_split[k].rx_pkts));
	return a;
}

json_t *
wr_result_stream_json(const struct wr_run *run, const struct wr_stream_result *s,
		bool live)
{
	const struct wr_stream_view *v = &s->view;
	json_t *o = json_object();

	wr_json_set(o, "stream_id", wr_json_u64(s->stream_id));
	wr_json_set(o, "tx_port", wr_json_u64(s->tx_port));
	wr_json_set(o, "tx_queue", wr_json_u64(s->tx_queue));
	wr_json_set(o, "rx_port", wr_json_u64(s->rx_port));
	wr_json_set(o, "rx_ports", rx_split_json(s));
	wr_json_set(o, "rx", wr_streamrx_json(run, s->stream_id, live));
	wr_json_set(o, "sender_in_run", json_boolean(s->sender_known));
	if (s->sender_known)
		wr_json_set(o, "sent_pkts", wr_json_u64(s->sent_pkts));
	wr_json_set(o, "rx_pkts", wr_json_u64(v->seq.nb_rx_pkts));
	wr_json_set(o, "lost_pkts", json_integer(s->lost_pkts));
	wr_json_set(o, "excess_pkts", wr_json_u64(s->excess_pkts));
	wr_json_set(o, "gap_pkts", wr_json_u64(wr_seq_gaps(&v->seq)));
	wr_json_set(o, "late_pkts", wr_json_u64(v->seq.nb_late_pkts));
	wr_json_set(o, "dup_pkts", wr_json_u64(v->seq.nb_dup_pkts));
	wr_json_set(o, "old_pkts", wr_json_u64(v->seq.nb_old_pkts));
	wr_json_set(o, "restarts", wr_json_u64(v->seq.nb_restarts));
	wr_json_set(o, "first_seq", wr_json_u64(v->seq.started ? v->seq.first_seq : 0));
	wr_json_set(o, "next_seq", wr_json_u64(v->seq.started ? v->seq.next_seq : 0));
	if (s->lat_valid) {
		wr_json_set(o, "latency_min_ns", json_real(wr_stats_tsc_to_ns((double)v->lat_min_tsc, run->setup.tsc_hz)));
		wr_json_set(o, "latency_mean_ns", json_real(wr_stats_tsc_to_ns(
			wr_stats_view_lat_mean_tsc(v), run->setup.tsc_hz)));
		wr_json_set(o, "latency_max_ns", json_real(wr_stats_tsc_to_ns((double)v->lat_max_tsc, run->setup.tsc_hz)));
		wr_json_set(o, "jitter_ns", json_real(wr_stats_tsc_to_ns(v->jitter_tsc, run->setup.tsc_hz)));
	}
	return o;
}

/*
 * What each TX queue of this run sent: the sender's half of a two-ended
 * balance (wirerate merge pairs it with a receiver's streams).
 */
json_t *
wr_result_tx_streams_json(const struct wr_run *run)
{
	json_t *a = json_array();
	const struct wr_txq *t;
	unsigned int i;

	WR_RUN_FOREACH_TXQ(run, i, t) {
		/* Counters: also read while the run goes on (--checkpoint). */
		uint64_t sent = wr_counter_read(&t->st.nb_pkts);
		json_t *o = json_object();

		wr_json_set(o, "stream_id", wr_json_u64(wr_port_stream_id(t->port, t->queue)));
		wr_json_set(o, "port", wr_json_u64(t->port));
		wr_json_set(o, "queue", wr_json_u64(t->queue));
		wr_json_set(o, "sent_pkts", wr_json_u64(sent));
		wr_json_set(o, "sent_bytes", wr_json_u64(wr_txq_bytes(t, sent)));
		wr_streamrx_tx_json(o, run, t);
		wr_json_set(o, "unsent_pkts", wr_json_u64(wr_counter_read(
			&t->st.nb_unsent_pkts)));
		json_array_append_new(a, o);
	}
	return a;
}

static bool
any_rx_port(const struct wr_run *run)
{
	unsigned int p;

	for (p = 0; p < run->setup.nb_ports; p++)
		if (run->setup.ports[p].rx)
			return true;
	return false;
}

/*
 * sent = received + lost - excess for every stream whose sender is in the
 * run; balanced when that holds with no excess. lost is the sum of each
 * stream's loss clamped at zero (a negative one never hides a real one).
 * A run without RX ports states what it sent: its balance needs the
 * receiver's result (wirerate merge).
 */
json_t *
wr_result_accounting_json(const struct wr_run *run)
{
	uint64_t sent = 0, rx = 0, excess = 0;
	int64_t lost = 0;
	bool balanced = true;
	unsigned int i;
	json_t *o = json_object();

	for (i = 0; i < run->res.nb_streams; i++) {
		const struct wr_stream_result *s = &run->res.streams[i];

		if (!s->sender_known)
			continue;
		sent += s->sent_pkts;
		rx += s->view.seq.nb_rx_pkts;
		lost += s->lost_pkts;
		excess += s->excess_pkts;
		if ((int64_t)s->sent_pkts != (int64_t)s->view.seq.nb_rx_pkts + s->lost_pkts -
				(int64_t)s->excess_pkts || s->excess_pkts != 0)
			balanced = false;
	}
	if (!any_rx_port(run)) {
		wr_json_set(o, "sent_pkts", wr_json_u64(wr_collect_tx_sent(run)));
		wr_json_set(o, "balanced", json_null());
		wr_json_set(o, "balance", json_string("needs the receiver's result: "
			"wirerate merge SENDER.json RECEIVER.json"));
	} else {
		wr_json_set(o, "sent_pkts", wr_json_u64(sent));
		wr_json_set(o, "received_pkts", wr_json_u64(rx));
		wr_json_set(o, "lost_pkts", json_integer(lost));
		wr_json_set(o, "excess_pkts", wr_json_u64(excess));
		wr_json_set(o, "balanced", json_boolean(balanced));
	}
	wr_json_set(o, "mbufs_missing", wr_json_u64(run->res.mbufs_missing));
	wr_json_set(o, "stranded_pkts", wr_json_u64(run->res.nb_stranded_pkts));
	return o;
}

json_t *
wr_result_head(const struct wr_run *run)
{
	json_t *doc = json_object(), *ports = json_array();
	unsigned int i;

	wr_json_set(doc, "schema", json_string(WR_RESULT_SCHEMA));
	if (run->setup.cfg->label[0] != '\0')
		wr_json_set(doc, "label", json_string(run->setup.cfg->label));
	wr_json_set(doc, "env", env_json(run));
	wr_json_set(doc, "config", config_json(run->setup.cfg));
	wr_json_set(doc, "plan", plan_json(&run->setup.plan));
	for (i = 0; i < run->setup.nb_ports; i++)
		json_array_append_new(ports, port_json(&run->setup.ports[i]));
	wr_json_set(doc, "ports", ports);
	return doc;
}

/* What the traffic phase produced: the same keys in a result and a trial. */
void
wr_result_add_trial(json_t *o, const struct wr_run *run, bool samples)
{
	json_t *totals = json_array(), *streams = json_array();
	unsigned int i;

	wr_json_set(o, "frame_size", wr_json_u64(run->live.trial.frame_size));
	if (samples)
		wr_json_set(o, "samples", wr_result_samples_json(run));
	wr_json_set(o, "duration_s", json_real(wr_run_seconds(run, run->live.start_tsc, run->live.tx_stop_tsc)));
	wr_json_set(o, "stop_reason", json_string(wr_run_stop_name(run->res.stop_reason)));
	for (i = 0; i < run->setup.nb_ports; i++)
		json_array_append_new(totals, total_port_json(run, i));
	wr_json_set(o, "totals", totals);
	for (i = 0; i < run->res.nb_streams; i++)
		json_array_append_new(streams, wr_result_stream_json(run, &run->res.streams[i], false));
	wr_json_set(o, "streams", streams);
	wr_json_set(o, "tx_streams", wr_result_tx_streams_json(run));
	wr_json_set(o, "accounting", wr_result_accounting_json(run));
	wr_json_set(o, "warnings", wr_result_warnings_json(&run->res.xcheck));
	wr_json_set(o, "cpu", wr_cpu_json(run));
	if (run->setup.cfg->json_path[0] != '\0' && run->setup.cfg->checkpoint_ms != 0)
		wr_json_set(o, "checkpoints", json_pack("{s:I, s:I}", "written",
			(json_int_t)run->live.nb_ckpt_written, "failed",
			(json_int_t)run->live.nb_ckpt_failed));
}

json_t *
wr_result_build(const struct wr_run *run)
{
	json_t *doc = wr_result_head(run);

	if (doc != NULL)
		wr_result_add_trial(doc, run, true);
	if (doc != NULL && run->setup.cap != NULL)
		wr_json_set(doc, "capture", wr_capture_json(run->setup.cap));
	return doc;
}

json_t *
wr_result_trial(const struct wr_run *run, unsigned int trial)
{
	json_t *o = json_object();

	wr_json_set(o, "trial", wr_json_u64(trial));
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
	summary = wr_trials_summary(trials, run->setup.cfg->nb_warmup, err, errlen);
	if (summary == NULL) {
		json_decref(doc);
		return NULL;
	}
	wr_json_set(doc, "trials", json_incref(trials));
	wr_json_set(doc, "summary", summary);
	return doc;
}

static int
fill_json(FILE *f, const void *doc)
{
	errno = 0;
	if (json_dumpf((const json_t *)doc, f, JSON_INDENT(1) | JSON_REAL_PRECISION(10)) != 0 ||
			fputc('\n', f) == EOF)
		return errno ? -errno : -EIO;
	return 0;
}

int
wr_result_write_json(json_t *doc, const char *path, char *err, size_t errlen)
{
	return wr_file_write_atomic(path, fill_json, doc, err, errlen);
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
