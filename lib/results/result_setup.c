/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What a result says about how the run was set up: the environment, the
 * merged configuration, the lcore plan and each port (result_int.h).
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <rte_version.h>

#include "base/cpuinfo.h"
#include "base/jsonw.h"
#include "base/units.h"
#include "base/wr_version.h"
#include "setup/clockread.h"
#include "setup/resolve.h"
#include "result_int.h"
#include "streamjson.h"
#include "setup/replay_setup.h"

static json_t *
anchor_json(const struct wr_clock_anchor *a)
{
	json_t *o = json_object();

	wr_json_set(o, "tsc", wr_json_u64(a->tsc));
	wr_json_set(o, "realtime_ns", json_integer((json_int_t)a->realtime_ns));
	wr_json_set(o, "read_ns", json_real(a->read_ns));
	return o;
}

static json_t *
num_or_null(bool have, double v)
{
	return have ? json_real(v) : json_null();
}

/*
 * env.clock: this host's clock synchronisation as --clock-sync read it at
 * set-up, and two anchors (TSC and system clock at one instant: set-up,
 * and now) that tie the run's TSC stamps to that clock (results/oneway.h).
 */
static json_t *
clock_json(const struct wr_run *run)
{
	static const char *const asked[] = { "auto", "ptp", "chrony", "none" };
	const struct wr_clocksync *cs = &run->setup.clock;
	const struct wr_config *c = run->setup.cfg;
	struct wr_clock_anchor now;
	json_t *o = json_object(), *a = json_array();
	bool read = cs->source != WR_CLOCKSYNC_NONE && cs->reason[0] == '\0';

	wr_clock_anchor(&now);
	wr_json_set(o, "requested", json_string(asked[c->clock_sync]));
	wr_json_set(o, "socket", c->clock_sync_path[0] != '\0' ?
		json_string(c->clock_sync_path) : json_null());
	wr_json_set(o, "source", json_string(wr_clocksync_source_name(cs->source)));
	wr_json_set(o, "synced", json_boolean(cs->synced));
	wr_json_set(o, "bound_ns", num_or_null(cs->synced, cs->bound_ns));
	wr_json_set(o, "offset_ns", num_or_null(cs->synced || read, cs->offset_ns));
	wr_json_set(o, "delay_ns", num_or_null(cs->synced || read, cs->delay_ns));
	wr_json_set(o, "detail", json_string(cs->detail));
	wr_json_set(o, "reference", cs->reference[0] != '\0' ?
		json_string(cs->reference) : json_null());
	wr_json_set(o, "reason", json_string(cs->reason));
	json_array_append_new(a, anchor_json(&run->setup.anchor0));
	json_array_append_new(a, anchor_json(&now));
	wr_json_set(o, "anchors", a);
	return o;
}

json_t *
wr_result_env_json(const struct wr_run *run)
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
	wr_json_set(o, "clock", clock_json(run));
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
	if (c->stack.nb_layers != 0)
		wr_json_set(o, "stack", json_string(c->stack.text));
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

/* --replay (docs/replay.md): the file and how it is timed. */
static json_t *
config_replay_json(const struct wr_config *c)
{
	json_t *o = json_object();

	wr_json_set(o, "file", json_string(c->replay.path));
	wr_json_set(o, "timing", json_string(c->rate.unit != WR_RATE_NONE ? "rate" :
		c->replay.speed > 0 ? "capture" : "max"));
	if (c->rate.unit == WR_RATE_NONE && c->replay.speed > 0)
		wr_json_set(o, "speed", json_real(c->replay.speed));
	wr_json_set(o, "loops", wr_json_u64(c->replay.nb_loops));
	wr_json_set(o, "max_frame_bytes", wr_json_u64(c->replay.max_len));
	wr_json_set(o, "stamp", json_boolean(c->replay.stamp));
	return o;
}

json_t *
wr_result_config_json(const struct wr_config *c)
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
	wr_result_flows_json(o, &c->ranges, c->nb_flows, c->ipv6);
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
		c->lat_mode == WR_LAT_SYNC ? "sync" :
		c->lat_mode == WR_LAT_OFF ? "off" : "auto"));
	wr_json_set(o, "repeat", wr_json_u64(c->nb_repeat));
	wr_json_set(o, "warmup", wr_json_u64(c->nb_warmup));
	wr_json_set(o, "start_on_rx", json_boolean(c->start_on_rx));
	wr_json_set(o, "idle_timeout_ms", wr_json_u64(c->idle_timeout_ms));
	wr_json_set(o, "rx_clock", json_string(c->rx_clock == WR_RX_CLOCK_ANY ? "any" :
		"own"));
	wr_json_set(o, "linger_ms", wr_json_u64(c->linger_ms));
	wr_json_set(o, "reflect", json_boolean(c->reflect));
	if (c->replay.path[0] != '\0')
		wr_json_set(o, "replay", config_replay_json(c));
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

json_t *
wr_result_plan_json(const struct wr_plan *plan)
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

/* The MAC a next hop had before it changed during the run; null: never. */
static json_t *
first_mac_json(const struct wr_port_nh *nh)
{
	char mac[RTE_ETHER_ADDR_FMT_SIZE];

	if (nh->nb_mac_changes == 0)
		return json_null();
	rte_ether_format_addr(mac, sizeof(mac), &nh->first_mac);
	return json_string(mac);
}

/* The next hops --port-ip resolved, one per TX queue (docs/l3.md). */
static json_t *
next_hops_json(const struct wr_port *p)
{
	const struct wr_port_nh *nh;
	struct wr_resolve_text t;
	json_t *a = json_array();
	uint16_t q;

	for (q = 0; (nh = wr_resolve_next(p, &q, &t)) != NULL; q++)
		json_array_append_new(a, json_pack("{s:I, s:s, s:s, s:I, s:I, s:I, s:o}",
			"queue", (json_int_t)q, "ip", t.ip, "mac", t.mac,
			"wait_ms", (json_int_t)nh->wait_ms,
			"requests", (json_int_t)nh->nb_requests,
			"mac_changes", (json_int_t)nh->nb_mac_changes,
			"first_mac", first_mac_json(nh)));
	return a;
}

json_t *
wr_result_port_json(const struct wr_port *p)
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
	wr_json_set(o, "kept", json_boolean(p->reused));
	wr_json_set(o, "setups", wr_json_u64(p->nb_setups));
	wr_json_set(o, "fast_free", json_boolean(p->fast_free));
	wr_json_set(o, "tcp_csum_tx_offload", json_boolean(p->tcp_csum_tx));
	wr_json_set(o, "ipv4_csum_tx_offload", json_boolean(p->ip4_csum_tx));
	wr_json_set(o, "tcp_csum_rx_offload", json_boolean(p->tcp_csum_rx));
	wr_json_set(o, "tx_pool_mbufs", wr_json_u64(p->tx_pool_mbufs));
	wr_json_set(o, "rx_pool_mbufs", wr_json_u64(p->rx_pool_mbufs));
	for (i = 0; i < p->nb_notes; i++)
		json_array_append_new(notes, json_string(p->notes[i]));
	wr_json_set(o, "notes", notes);
	wr_json_set(o, "next_hops", next_hops_json(p));
	return o;
}


json_t *
wr_result_replay_json(const struct wr_run *run)
{
	const struct wr_replay_set *s = run->setup.replay;
	const struct wr_config *c = run->setup.cfg;
	json_t *o;

	if (s == NULL)
		return NULL;
	o = json_object();
	wr_json_set(o, "frames", wr_json_u64(s->nb));
	wr_json_set(o, "span_ns", wr_json_u64(s->span_ns));
	wr_json_set(o, "loop_ns", wr_json_u64(s->loop_ns));
	wr_json_set(o, "mbufs", wr_json_u64(s->nb_mbufs));
	wr_json_set(o, "pool_bytes", wr_json_u64(s->pool_bytes));
	/* What the run should last at the capture's timing: compare with
	 * duration_s (the trial's) to see how well it was kept. */
	if (c->rate.unit == WR_RATE_NONE && c->replay.speed > 0 && c->replay.nb_loops > 0)
		wr_json_set(o, "schedule_s", json_real((double)s->loop_ns *
			c->replay.nb_loops / c->replay.speed / 1e9));
	return o;
}
