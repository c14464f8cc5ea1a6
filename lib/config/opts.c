/* SPDX-License-Identifier: BSD-3-Clause */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "optab.h"
#include "opts.h"
#include "opts_methods.h"
#include "opts_traffic.h"
#include "base/suggest.h"
#include "base/units.h"

void
wr_config_defaults(struct wr_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->nb_txq = 1;
	cfg->nb_rxq = 1;
	cfg->nb_txd = 1024;
	cfg->nb_rxd = 1024;
	cfg->burst_pkts = 32;
	cfg->frame_size = 64;
	cfg->duration_ms = 10000;
	cfg->interval_ms = 1000;
	cfg->grace_ms = 200;
	cfg->checkpoint_ms = 2000;
	cfg->link_timeout_ms = 5000;
	cfg->src_ip = 0xc6120001;   /* 198.18.0.1, RFC 2544 benchmarking range */
	cfg->dst_ip = 0xc6130001;   /* 198.19.0.1 */
	/* 2001:2::1 and 2001:2:0:1::1, RFC 5180 benchmarking range. */
	cfg->src_ip6[0] = cfg->dst_ip6[0] = 0x20;
	cfg->src_ip6[1] = cfg->dst_ip6[1] = 0x01;
	cfg->src_ip6[3] = cfg->dst_ip6[3] = 0x02;
	cfg->dst_ip6[7] = 0x01;
	cfg->src_ip6[15] = cfg->dst_ip6[15] = 0x01;
	cfg->src_udp = 1024;
	cfg->dst_udp = 1024;
	cfg->nb_flows = 1;
	cfg->trial_ms = 60000;
	cfg->resolution_pct = 0.5;
	cfg->max_trials = 20;
	cfg->loss_step_pct = 10.0;
	cfg->b2b_trials = 50;
	cfg->nb_repeat = 1;
	cfg->stamp = WR_STAMP_FULL;
	wr_opts_methods_defaults(cfg);
}

/* Parse an integer option value into *out within [min, max]. */
static int
opt_u64(const char *name, const char *val, uint64_t min, uint64_t max,
		uint64_t *out, struct wr_error *err)
{
	int rc = wr_units_parse_u64(val, min, max, out);

	if (rc == -ERANGE)
		return wr_err_usage(err, -EINVAL, "--%s %s: out of range, accepted %" PRIu64
			" to %" PRIu64, name, val, min, max);
	if (rc < 0)
		return wr_err_usage(err, -EINVAL, "--%s %s: not a whole number (k, M, G "
			"suffixes allowed)", name, val);
	return 0;
}

static int
opt_u16(const char *name, const char *val, uint64_t min, uint64_t max,
		uint16_t *out, struct wr_error *err)
{
	uint64_t v;
	int rc = opt_u64(name, val, min, max, &v, err);

	if (rc == 0)
		*out = (uint16_t)v;
	return rc;
}

static int
opt_duration(const char *name, const char *val, uint64_t min_ms,
		uint64_t *out, struct wr_error *err)
{
	uint64_t ms;

	if (wr_units_parse_duration_ms(val, &ms) != 0)
		return wr_err_usage(err, -EINVAL, "--%s %s: not a duration, accepted e.g. "
			"10, 2.5s, 500ms, 5m, 1h", name, val);
	if (ms < min_ms && !(ms == 0 && min_ms == 0))
		return wr_err_usage(err, -EINVAL, "--%s %s: too short, at least %" PRIu64
			" ms", name, val, min_ms);
	*out = ms;
	return 0;
}

int
wr_opts_parse_portlist(const char *s, uint64_t *mask)
{
	uint64_t m = 0;
	const char *p = s;

	if (strcmp(s, "all") == 0) {
		*mask = 0;
		return 1;
	}
	if (strcmp(s, "none") == 0) {
		*mask = 0;
		return 0;
	}
	while (*p != '\0') {
		char *end;
		unsigned long lo, hi;

		if (*p < '0' || *p > '9')
			return -EINVAL;
		lo = strtoul(p, &end, 10);
		hi = lo;
		if (*end == '-') {
			p = end + 1;
			if (*p < '0' || *p > '9')
				return -EINVAL;
			hi = strtoul(p, &end, 10);
		}
		if (lo > hi || hi >= WR_MAX_PORTS)
			return hi >= WR_MAX_PORTS ? -ERANGE : -EINVAL;
		for (; lo <= hi; lo++)
			m |= 1ULL << lo;
		if (*end == ',')
			end++;
		else if (*end != '\0')
			return -EINVAL;
		p = end;
	}
	if (m == 0)
		return -EINVAL;
	*mask = m;
	return 0;
}

/* Parse "tx3.1" / "rx0.0" into q. */
static int
parse_qref(const char *s, struct wr_qref *q)
{
	unsigned int port, queue;
	int n = 0;

	if (strncmp(s, "tx", 2) == 0)
		q->dir = WR_DIR_TX;
	else if (strncmp(s, "rx", 2) == 0)
		q->dir = WR_DIR_RX;
	else
		return -EINVAL;
	if (sscanf(s + 2, "%u.%u%n", &port, &queue, &n) != 2 ||
			s[2 + n] != '\0' || s[2] < '0' || s[2] > '9')
		return -EINVAL;
	if (port >= WR_MAX_PORTS || queue >= WR_MAX_QUEUES)
		return -ERANGE;
	q->port = (uint16_t)port;
	q->queue = (uint16_t)queue;
	return 0;
}

int
wr_opts_parse_map(const char *s, struct wr_map *map, struct wr_error *err)
{
	char buf[512];
	char *save = NULL, *tok, *colon, *end;
	unsigned long lcore;

	if (strlen(s) >= sizeof(buf))
		return wr_err_usage(err, -EINVAL, "--map %.40s...: too long", s);
	strcpy(buf, s);
	colon = strchr(buf, ':');
	lcore = strtoul(buf, &end, 10);
	if (colon == NULL || end != colon || buf[0] < '0' || buf[0] > '9' ||
			lcore >= 1024)
		return wr_err_usage(err, -EINVAL, "--map %s: expected LCORE:QUEUES, e.g. "
			"1:tx0.0,rx0.0 (lcore id before the colon)", s);
	memset(map, 0, sizeof(*map));
	map->lcore = (unsigned int)lcore;
	for (tok = strtok_r(colon + 1, ",", &save); tok != NULL;
			tok = strtok_r(NULL, ",", &save)) {
		if (map->nb_q == RTE_DIM(map->q))
			return wr_err_usage(err, -EINVAL, "--map %s: more than %zu queues "
				"for one lcore", s, RTE_DIM(map->q));
		if (parse_qref(tok, &map->q[map->nb_q]) != 0)
			return wr_err_usage(err, -EINVAL, "--map %s: '%s' is not a queue; "
				"expected tx<port>.<queue> or rx<port>.<queue> with "
				"port < %u and queue < %u", s, tok, WR_MAX_PORTS,
				WR_MAX_QUEUES);
		map->nb_q++;
	}
	if (map->nb_q == 0)
		return wr_err_usage(err, -EINVAL, "--map %s: no queue after the colon", s);
	return 0;
}

static int
opt_mac(const char *name, const char *val, struct rte_ether_addr *mac,
		bool *set, struct wr_error *err)
{
	if (rte_ether_unformat_addr(val, mac) != 0)
		return wr_err_usage(err, -EINVAL, "--%s %s: not a MAC address, expected "
			"e.g. 02:00:00:00:00:01", name, val);
	*set = true;
	return 0;
}

static int
opt_ip(const char *name, const char *val, uint32_t *ip, struct wr_error *err)
{
	struct in_addr a;

	if (inet_pton(AF_INET, val, &a) != 1)
		return wr_err_usage(err, -EINVAL, "--%s %s: not an IPv4 address, expected "
			"dotted quad e.g. 198.18.0.1", name, val);
	*ip = ntohl(a.s_addr);
	return 0;
}

static int
opt_ports(const char *name, const char *val, uint64_t *mask, bool *set,
		struct wr_error *err)
{
	int rc = wr_opts_parse_portlist(val, mask);

	if (rc == -ERANGE)
		return wr_err_usage(err, -EINVAL, "--%s %s: port ids go up to %u", name,
			val, WR_MAX_PORTS - 1);
	if (rc < 0)
		return wr_err_usage(err, -EINVAL, "--%s %s: expected a port list such as "
			"0,1 or 0-3, or all, or none", name, val);
	*set = (rc == 0);
	return 0;
}

/* Options that set one number: table-driven to keep the switch short. */
static int
opt_number(int c, const char *v, struct wr_config *cfg, struct wr_error *err)
{
	switch (c) {
	case WR_OPT_TXQ: return opt_u16("txq", v, 1, WR_MAX_QUEUES, &cfg->nb_txq, err);
	case WR_OPT_RXQ: return opt_u16("rxq", v, 1, WR_MAX_QUEUES, &cfg->nb_rxq, err);
	case WR_OPT_TXD: return opt_u16("txd", v, 32, 32768, &cfg->nb_txd, err);
	case WR_OPT_RXD: return opt_u16("rxd", v, 32, 32768, &cfg->nb_rxd, err);
	case WR_OPT_BURST: return opt_u16("burst", v, 1, WR_MAX_BURST, &cfg->burst_pkts, err);
	case WR_OPT_SPORT: return opt_u16("sport", v, 0, 65535, &cfg->src_udp, err);
	case WR_OPT_DPORT: return opt_u16("dport", v, 0, 65535, &cfg->dst_udp, err);
	case WR_OPT_VLAN: return opt_u16("vlan", v, 1, 4094, &cfg->vlan_id, err);
	case WR_OPT_COUNT: return opt_u64("count", v, 1, UINT64_MAX, &cfg->count_pkts, err);
	default: break;
	}
	return 1;
}

static int
opt_size_flows(int c, const char *v, struct wr_config *cfg, struct wr_error *err)
{
	uint64_t x;
	int rc;

	if (c == WR_OPT_SIZE) {
		cfg->size_set = true;
		rc = opt_u64("size", v, WR_FRAME_MIN_SIZE, WR_FRAME_MAX_SIZE, &x, err);
		if (rc == 0)
			cfg->frame_size = (uint32_t)x;
		return rc;
	}
	if (c == WR_OPT_FLOWS) {
		rc = opt_u64("flows", v, 1, 65536, &x, err);
		if (rc == 0)
			cfg->nb_flows = (uint32_t)x;
		return rc;
	}
	if (c == WR_OPT_RING_PAIRS) {
		rc = opt_u64("ring-pairs", v, 0, WR_MAX_PORTS / 2, &x, err);
		if (rc == 0)
			cfg->nb_ring_pairs = (unsigned int)x;
		return rc;
	}
	return 1;
}

static int
opt_time(int c, const char *v, struct wr_config *cfg, struct wr_error *err)
{
	switch (c) {
	case WR_OPT_DURATION:
		cfg->duration_set = true;
		return opt_duration("duration", v, 0, &cfg->duration_ms, err);
	case WR_OPT_INTERVAL: return opt_duration("interval", v, 100, &cfg->interval_ms, err);
	case WR_OPT_GRACE: return opt_duration("grace", v, 0, &cfg->grace_ms, err);
	case WR_OPT_CHECKPOINT:
		return opt_duration("checkpoint", v, 0, &cfg->checkpoint_ms, err);
	case WR_OPT_LINK_TIMEOUT:
		return opt_duration("link-timeout", v, 0, &cfg->link_timeout_ms, err);
	default: break;
	}
	return 1;
}

static int
opt_addr(int c, const char *v, struct wr_config *cfg, struct wr_error *err)
{
	switch (c) {
	case WR_OPT_SRC_MAC: return opt_mac("src-mac", v, &cfg->src_mac, &cfg->src_mac_set, err);
	case WR_OPT_DST_MAC: return opt_mac("dst-mac", v, &cfg->dst_mac, &cfg->dst_mac_set, err);
	case WR_OPT_SRC_IP: return opt_ip("src-ip", v, &cfg->src_ip, err);
	case WR_OPT_DST_IP: return opt_ip("dst-ip", v, &cfg->dst_ip, err);
	case WR_OPT_TX_PORTS:
		return opt_ports("tx-ports", v, &cfg->tx_port_mask, &cfg->tx_ports_set, err);
	case WR_OPT_RX_PORTS:
		return opt_ports("rx-ports", v, &cfg->rx_port_mask, &cfg->rx_ports_set, err);
	default: break;
	}
	return 1;
}

static int
opt_latency(const char *v, enum wr_lat_mode *mode, struct wr_error *err)
{
	if (strcmp(v, "auto") == 0)
		*mode = WR_LAT_AUTO;
	else if (strcmp(v, "tsc") == 0)
		*mode = WR_LAT_TSC;
	else if (strcmp(v, "off") == 0)
		*mode = WR_LAT_OFF;
	else
		return wr_err_usage(err, -EINVAL, "--latency %s: expected auto (streams of this "
			"process), tsc (also other processes on this host) or off", v);
	return 0;
}

static int
opt_rate(const char *v, struct wr_rate *rate, struct wr_error *err)
{
	if (wr_rate_parse(v, rate, err) != 0)
		return wr_err_prefix(err, "--rate: ");
	return 0;
}

static int
opt_misc(int c, const char *v, struct wr_config *cfg, struct wr_error *err)
{
	switch (c) {
	case WR_OPT_MAP:
		if (cfg->maps_from_profile) {
			cfg->nb_maps = 0;
			cfg->maps_from_profile = false;
		}
		if (cfg->nb_maps == WR_MAX_MAPS)
			return wr_err_usage(err, -EINVAL, "--map: at most %u maps", WR_MAX_MAPS);
		return wr_opts_parse_map(v, &cfg->maps[cfg->nb_maps++], err);
	case WR_OPT_JSON:
		if (strlen(v) == 0 || strlen(v) >= sizeof(cfg->json_path))
			return wr_err_usage(err, -EINVAL, "--json: path empty or too long");
		strcpy(cfg->json_path, v);
		return 0;
	case WR_OPT_IMPAIR: return wr_impair_parse(v, &cfg->impair, err);
	case WR_OPT_PROFILE:
		if (strcmp(v, cfg->profile_path) != 0)
			return wr_err_usage(err, -EINVAL, "--profile %s: not loaded (wr_profile_load "
				"comes before wr_opts_parse)", v);
		return 0;
	case WR_OPT_LATENCY: return opt_latency(v, &cfg->lat_mode, err);
	case WR_OPT_RATE: return opt_rate(v, &cfg->rate, err);
	case WR_OPT_LINK_SPEED:
		return opt_u64("link-speed", v, 1000000, 1000000000000ULL,
			&cfg->link_speed_bps, err);
	case WR_OPT_PLAIN: cfg->plain = true; return 0;
	case WR_OPT_QUIET: cfg->quiet = true; return 0;
	default: break;
	}
	return 1;
}

static int
opt_mode(const char *v, enum wr_mode *mode, struct wr_error *err)
{
	static const char *const names[] = {
		[WR_MODE_RUN] = "run", [WR_MODE_SWEEP] = "sweep",
		[WR_MODE_THROUGHPUT] = "throughput", [WR_MODE_LOSS] = "loss",
		[WR_MODE_B2B] = "b2b", [WR_MODE_MLR] = "mlr",
	};
	unsigned int i;

	for (i = 0; i < RTE_DIM(names); i++) {
		if (strcmp(v, names[i]) == 0) {
			*mode = (enum wr_mode)i;
			return 0;
		}
	}
	return wr_err_usage(err, -EINVAL, "--mode %s: expected run, sweep, throughput (RFC "
		"2544 26.1), loss (26.3), b2b (26.4) or mlr (MLRsearch)", v);
}

static int
opt_sizes(const char *v, struct wr_config *cfg, struct wr_error *err)
{
	static const uint32_t rfc[] = { 64, 128, 256, 512, 1024, 1280, 1518, 9018 };
	char buf[256], *save = NULL, *tok;
	uint64_t x;
	unsigned int n = 0;

	if (strcmp(v, "rfc2544") == 0 || strcmp(v, "rfc2544-jumbo") == 0) {
		n = strcmp(v, "rfc2544") == 0 ? 7 : 8;
		memcpy(cfg->sizes, rfc, n * sizeof(rfc[0]));
		cfg->nb_sizes = n;
		return 0;
	}
	if (strlen(v) >= sizeof(buf))
		return wr_err_usage(err, -EINVAL, "--sizes: list too long");
	strcpy(buf, v);
	for (tok = strtok_r(buf, ",", &save); tok != NULL;
			tok = strtok_r(NULL, ",", &save)) {
		if (n == WR_MAX_SIZES)
			return wr_err_usage(err, -EINVAL, "--sizes %s: at most %u sizes", v, WR_MAX_SIZES);
		if (wr_units_parse_u64(tok, WR_FRAME_MIN_SIZE, WR_FRAME_MAX_SIZE, &x) != 0)
			return wr_err_usage(err, -EINVAL, "--sizes %s: '%s' is not a frame size "
				"%u..%u; expected a list such as 64,512,1518 or "
				"rfc2544 or rfc2544-jumbo", v, tok, WR_FRAME_MIN_SIZE,
				WR_FRAME_MAX_SIZE);
		cfg->sizes[n++] = (uint32_t)x;
	}
	cfg->nb_sizes = n;
	return n == 0 ? wr_err_usage(err, -EINVAL, "--sizes: empty list") : 0;
}

static int
opt_real(const char *name, const char *v, double min, double max, double *out,
		struct wr_error *err)
{
	char *end;
	double x = strtod(v, &end);

	if (end == v || *end != '\0' || !(x >= min && x <= max))
		return wr_err_usage(err, -EINVAL, "--%s %s: expected a number from %g to %g",
			name, v, min, max);
	*out = x;
	return 0;
}

static int
opt_modes(int c, const char *v, struct wr_config *cfg, struct wr_error *err)
{
	uint64_t x = 0;
	int rc;

	switch (c) {
	case WR_OPT_MODE: return opt_mode(v, &cfg->mode, err);
	case WR_OPT_SIZES: return opt_sizes(v, cfg, err);
	case WR_OPT_TRIAL:
		cfg->trial_set = true;
		return opt_duration("trial", v, 100, &cfg->trial_ms, err);
	case WR_OPT_RESOLUTION:
		return opt_real("resolution", v, 0.001, 50, &cfg->resolution_pct, err);
	case WR_OPT_PDR: return opt_real("pdr", v, 0, 0.5, &cfg->pdr_ratio, err);
	case WR_OPT_LOSS_STEP:
		return opt_real("loss-step", v, 0.1, 10, &cfg->loss_step_pct, err);
	case WR_OPT_B2B_MAX: return opt_u64("b2b-max", v, 1, 1ULL << 40, &cfg->b2b_max_pkts, err);
	case WR_OPT_MAX_TRIALS: rc = opt_u64("max-trials", v, 1, 128, &x, err); break;
	case WR_OPT_B2B_TRIALS: rc = opt_u64("b2b-trials", v, 1, 1000, &x, err); break;
	default: return 1;
	}
	if (rc == 0 && c == WR_OPT_MAX_TRIALS)
		cfg->max_trials = (unsigned int)x;
	if (rc == 0 && c == WR_OPT_B2B_TRIALS)
		cfg->b2b_trials = (unsigned int)x;
	return rc;
}

/* Result options: --csv, --csv-streams, --label, --repeat, --warmup. */
static int
opt_results(int c, const char *v, struct wr_config *cfg, struct wr_error *err)
{
	uint64_t x;
	int rc;

	switch (c) {
	case WR_OPT_CSV:
		if (strlen(v) == 0 || strlen(v) >= sizeof(cfg->csv_path))
			return wr_err_usage(err, -EINVAL, "--csv: path empty or too long");
		strcpy(cfg->csv_path, v);
		return 0;
	case WR_OPT_CSV_STREAMS:
		if (strlen(v) == 0 || strlen(v) >= sizeof(cfg->csv_streams_path))
			return wr_err_usage(err, -EINVAL, "--csv-streams: path empty or too long");
		strcpy(cfg->csv_streams_path, v);
		return 0;
	case WR_OPT_LABEL:
		if (strlen(v) == 0 || strlen(v) >= sizeof(cfg->label))
			return wr_err_usage(err, -EINVAL, "--label: empty or longer than %u "
				"characters", WR_LABEL_LEN - 1);
		strcpy(cfg->label, v);
		return 0;
	case WR_OPT_REPEAT:
		rc = opt_u64("repeat", v, 1, WR_MAX_REPEAT, &x, err);
		if (rc == 0)
			cfg->nb_repeat = (unsigned int)x;
		return rc;
	case WR_OPT_WARMUP:
		rc = opt_u64("warmup", v, 0, WR_MAX_WARMUP, &x, err);
		if (rc == 0)
			cfg->nb_warmup = (unsigned int)x;
		return rc;
	default: break;
	}
	return 1;
}

/* Options of two-ended runs (docs/testbeds.md). */
static int
opt_twoend(int c, const char *v, struct wr_config *cfg, struct wr_error *err)
{
	switch (c) {
	case WR_OPT_START_ON_RX: cfg->start_on_rx = true; return 0;
	case WR_OPT_REFLECT: cfg->reflect = true; return 0;
	case WR_OPT_IDLE_TIMEOUT:
		return opt_duration("idle-timeout", v, 10, &cfg->idle_timeout_ms, err);
	default: break;
	}
	return 1;
}

/* --stamp: which test header fields TX writes into every frame. */
static int
opt_stamp(int c, const char *v, struct wr_config *cfg, struct wr_error *err)
{
	if (c != WR_OPT_STAMP)
		return 1;
	if (strcmp(v, "full") == 0)
		cfg->stamp = WR_STAMP_FULL;
	else if (strcmp(v, "seq") == 0)
		cfg->stamp = WR_STAMP_SEQ;
	else if (strcmp(v, "none") == 0)
		cfg->stamp = WR_STAMP_NONE;
	else
		return wr_err_usage(err, -EINVAL, "--stamp %s: expected full (sequence and "
			"timestamp), seq (sequence only) or none (template as "
			"built)", v);
	return 0;
}

/* Test knobs: --pool-mbufs. */
static int
opt_test(int c, const char *v, struct wr_config *cfg, struct wr_error *err)
{
	uint64_t x;
	int rc;

	if (c != WR_OPT_POOL_MBUFS)
		return 1;
	rc = opt_u64("pool-mbufs", v, 1, WR_MAX_POOL_MBUFS, &x, err);
	if (rc == 0)
		cfg->pool_mbufs = (uint32_t)x;
	return rc;
}

/* Dispatch one option to the handler that knows it. */
static int
opt_one(int c, const char *v, struct wr_config *cfg, struct wr_error *err)
{
	int (*const handlers[])(int, const char *, struct wr_config *, struct wr_error *) = {
		opt_number, opt_size_flows, opt_time, opt_addr, opt_misc, opt_modes,
		opt_results, opt_twoend, opt_stamp, opt_test, wr_opts_methods,
		wr_opts_traffic,
	};
	unsigned int i;
	int rc;

	for (i = 0; i < RTE_DIM(handlers); i++) {
		rc = handlers[i](c, v, cfg, err);
		if (rc <= 0)
			return rc;
	}
	return wr_err_usage(err, -EINVAL, "internal: option %d has no handler", c);
}

/*
 * Rules of two-ended runs. A reflector sends what it receives, on the TX
 * queue paired with each RX queue, so it generates nothing and needs as
 * many TX queues as RX queues.
 */
static int
check_twoend(struct wr_config *cfg, struct wr_error *err)
{
	bool rx_none = cfg->rx_ports_set && cfg->rx_port_mask == 0;
	bool tx_none = cfg->tx_ports_set && cfg->tx_port_mask == 0;

	if ((cfg->reflect || cfg->start_on_rx || cfg->idle_timeout_ms) && rx_none)
		return wr_err_usage(err, -EINVAL, "--rx-ports none with --%s: it needs "
			"received frames", cfg->reflect ? "reflect" :
			cfg->start_on_rx ? "start-on-rx" : "idle-timeout");
	if (cfg->reflect && cfg->tx_ports_set)
		return wr_err_usage(err, -EINVAL, "--reflect with --tx-ports: a reflector "
			"sends on its RX ports only (choose them with --rx-ports)");
	if ((cfg->reflect || cfg->start_on_rx || cfg->idle_timeout_ms) &&
			cfg->mode != WR_MODE_RUN)
		return wr_err_usage(err, -EINVAL, "--%s with --mode: test modes generate and "
			"receive in one process; two-ended runs are plain runs",
			cfg->reflect ? "reflect" : cfg->start_on_rx ? "start-on-rx" :
			"idle-timeout");
	if (cfg->reflect && cfg->count_pkts != 0)
		return wr_err_usage(err, -EINVAL, "--reflect with --count: a reflector "
			"generates nothing; stop it with --duration or "
			"--idle-timeout");
	if (cfg->start_on_rx && !cfg->reflect && !tx_none)
		return wr_err_usage(err, -EINVAL, "--start-on-rx: a run that generates frames "
			"starts its clock at launch; use it with --tx-ports none "
			"(a receiver) or --reflect");
	if (cfg->reflect)
		cfg->nb_txq = cfg->nb_rxq;
	/* An idle timeout ends the run: no default duration on top of it. */
	if (cfg->idle_timeout_ms != 0 && !cfg->duration_set)
		cfg->duration_ms = 0;
	return 0;
}

/* Cross-option rules, checked once every option is known. */
static int
check_config(struct wr_config *cfg, struct wr_error *err)
{
	unsigned int i;
	int rc = check_twoend(cfg, err);

	if (rc == 0)
		rc = wr_opts_methods_check(cfg, err);
	if (rc != 0)
		return rc;
	/* A frame count alone runs until it is sent, not for the default time. */
	if (cfg->count_pkts != 0 && !cfg->duration_set)
		cfg->duration_ms = 0;
	if (cfg->nb_sizes > 0 && cfg->size_set)
		return wr_err_usage(err, -EINVAL, "--size and --sizes together: give one");
	if (cfg->nb_sizes > 0 && cfg->mode == WR_MODE_RUN)
		return wr_err_usage(err, -EINVAL, "--sizes needs a --mode (sweep, throughput, "
			"loss, b2b); a plain run uses --size");
	/* Ports are set up once for the largest size of the list. */
	for (i = 0; i < cfg->nb_sizes; i++)
		if (i == 0 || cfg->sizes[i] > cfg->frame_size)
			cfg->frame_size = cfg->sizes[i];
	/* Sizes against the headers (IPv6, tag); a mix sets frame_size. */
	rc = wr_opts_traffic_check(cfg, err);
	if (rc != 0)
		return rc;
	if (cfg->tx_ports_set && cfg->rx_ports_set &&
			cfg->tx_port_mask == 0 && cfg->rx_port_mask == 0)
		return wr_err_usage(err, -EINVAL, "--tx-ports none and --rx-ports none: "
			"nothing to do");
	if (cfg->count_pkts != 0 && cfg->tx_ports_set && cfg->tx_port_mask == 0)
		return wr_err_usage(err, -EINVAL, "--count with --tx-ports none: no port sends, "
			"so the count would never be reached; give --duration for "
			"a receive-only run");
	if (cfg->nb_flows > 1 && (uint32_t)cfg->src_udp + cfg->nb_flows - 1 > 65535)
		return wr_err_usage(err, -EINVAL, "--flows %u with --sport %u: UDP source ports "
			"would pass 65535", cfg->nb_flows, cfg->src_udp);
	if (wr_impair_active(&cfg->impair) && cfg->burst_pkts > WR_IMPAIR_MAX_BURST)
		return wr_err_usage(err, -EINVAL, "--burst %u with --impair: at most %u (the "
			"fixture may double a burst)", cfg->burst_pkts, WR_IMPAIR_MAX_BURST);
	if ((cfg->nb_repeat > 1 || cfg->nb_warmup > 0) && cfg->duration_ms == 0 &&
			cfg->count_pkts == 0 && cfg->idle_timeout_ms == 0)
		return wr_err_usage(err, -EINVAL, "--repeat/--warmup: each trial must end by "
			"itself; give --duration T or --count N");
	if (cfg->pool_mbufs != 0 && cfg->pool_mbufs < cfg->burst_pkts)
		return wr_err_usage(err, -EINVAL, "--pool-mbufs %u is below --burst %u: no "
			"burst could ever be allocated", cfg->pool_mbufs,
			cfg->burst_pkts);
	if (cfg->burst_pkts > cfg->nb_txd / 2)
		return wr_err_usage(err, -EINVAL, "--burst %u is more than half of --txd %u",
			cfg->burst_pkts, cfg->nb_txd);
	return 0;
}

int
wr_opts_lookup(const char *arg, bool *has_arg)
{
	size_t n = strcspn(arg, "="), i;

	for (i = 0; i < wr_optab_len; i++) {
		if (strncmp(wr_optab[i].name, arg, n) == 0 &&
				wr_optab[i].name[n] == '\0') {
			*has_arg = wr_optab[i].has_arg != no_argument;
			return 0;
		}
	}
	return -ENOENT;
}

const char *
wr_opts_closest(const char *arg)
{
	struct wr_suggest sg;
	size_t i;

	wr_suggest_init(&sg, arg, strcspn(arg, "="));
	for (i = 0; i < wr_optab_len; i++)
		wr_suggest_try(&sg, wr_optab[i].name);
	return sg.best;
}

/*
 * What getopt refused in arg: a known option without its value, an
 * abbreviation of several, or an unknown option (with the closest name).
 */
static int
bad_option(const char *arg, struct wr_error *err)
{
	const char *near;
	bool has_arg;

	if (strncmp(arg, "--", 2) != 0 || arg[2] == '\0')
		return wr_err_usage(err, -EINVAL, "%s: unknown option (wirerate options "
			"are long, e.g. --size 64; see --help)", arg);
	if (wr_opts_lookup(arg + 2, &has_arg) == 0)
		return wr_err_usage(err, -EINVAL, "%s: %s (see --help)", arg,
			has_arg ? "needs a value" : "takes no value");
	near = wr_opts_closest(arg + 2);
	if (near != NULL)
		return wr_err_usage(err, -EINVAL, "%s: unknown option; did you mean "
			"--%s? (see --help)", arg, near);
	return wr_err_usage(err, -EINVAL, "%s: unknown option, or an abbreviation of "
		"several (see --help)", arg);
}

int
wr_opts_parse(int argc, char **argv, struct wr_config *cfg,
		struct wr_error *err)
{
	struct option long_opts[WR_OPTAB_MAX + 1];
	int c, rc, idx;

	/*
	 * 0, not 1: a full reset (glibc, musl). With 1, a call that returned
	 * in the middle of grouped short options ("-hh") leaves getopt's
	 * position pointing into the previous argv, read by the next call.
	 */
	wr_optab_getopt(long_opts);
	optind = 0;
	opterr = 0;
	for (;;) {
		idx = optind > 0 ? optind : 1;
		c = getopt_long(argc, argv, "h", long_opts, NULL);
		if (c == -1)
			break;
		if (c == 'h' || c == WR_OPT_HELP)
			return WR_OPTS_HELP;
		if (c == WR_OPT_VERSION)
			return WR_OPTS_VERSION;
		if (c == '?' || c == ':')
			return bad_option(idx < argc ? argv[idx] : "?", err);
		rc = opt_one(c, optarg, cfg, err);
		if (rc < 0)
			return rc;
	}
	if (optind < argc)
		return wr_err_usage(err, -EINVAL, "%s: unexpected argument (options start "
			"with --; see --help)", argv[optind]);
	return check_config(cfg, err);
}

int
wr_opts_find_profile(int argc, char **argv, const char **path,
		struct wr_error *err)
{
	struct option long_opts[WR_OPTAB_MAX + 1];
	int c;

	wr_optab_getopt(long_opts);
	*path = NULL;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", long_opts, NULL)) != -1) {
		if (c != WR_OPT_PROFILE)
			continue;
		if (*path != NULL)
			return wr_err_usage(err, -EINVAL, "--profile %s: a profile was already "
				"given (%s); give one at most", optarg, *path);
		*path = optarg;
	}
	return 0;
}

int
wr_opts_set(const char *name, const char *value, struct wr_config *cfg,
		struct wr_error *err)
{
	const struct wr_optdesc *o = wr_optab_find(name);

	if (o == NULL || o->id == WR_OPT_HELP || o->id == WR_OPT_VERSION ||
			o->id == WR_OPT_PROFILE)
		return -ENOENT;
	if ((o->has_arg == no_argument) != (value == NULL))
		return wr_err_usage(err, -EINVAL, "--%s: %s", name, value == NULL ?
			"needs a value" : "takes no value");
	return opt_one(o->id, value, cfg, err);
}

int
wr_opts_check(struct wr_config *cfg, struct wr_error *err)
{
	return check_config(cfg, err);
}
