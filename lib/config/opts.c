/* SPDX-License-Identifier: BSD-3-Clause */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/suggest.h"
#include "base/units.h"
#include "optab.h"
#include "opts.h"
#include "opts_conn.h"
#include "opts_methods.h"
#include "opts_rfc2889.h"
#include "opts_peer.h"
#include "opts_range.h"
#include "opts_replay.h"
#include "opts_serve.h"
#include "opts_traffic.h"
#include "opts_values.h"

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
	cfg->replay.speed = 1.0;
	cfg->replay.nb_loops = 1;
	wr_opts_methods_defaults(cfg);
	wr_opts_rfc2889_defaults(cfg);
	wr_opts_peer_defaults(cfg);
	wr_opts_conn_defaults(&cfg->conn);
}

/* Options that set one number: table-driven to keep the switch short. */
static int
opt_number(int c, const char *v, struct wr_config *cfg, struct wr_error *err)
{
	switch (c) {
	case WR_OPT_TXQ: return WR_OPTV_UINT("txq", v, 1, WR_MAX_QUEUES, &cfg->nb_txq, err);
	case WR_OPT_RXQ: return WR_OPTV_UINT("rxq", v, 1, WR_MAX_QUEUES, &cfg->nb_rxq, err);
	case WR_OPT_TXD: return WR_OPTV_UINT("txd", v, 32, 32768, &cfg->nb_txd, err);
	case WR_OPT_RXD: return WR_OPTV_UINT("rxd", v, 32, 32768, &cfg->nb_rxd, err);
	case WR_OPT_BURST: return WR_OPTV_UINT("burst", v, 1, WR_MAX_BURST, &cfg->burst_pkts, err);
	case WR_OPT_COUNT: return wr_optv_u64("count", v, 1, UINT64_MAX, &cfg->count_pkts, err);
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
		rc = wr_optv_u64("size", v, WR_FRAME_MIN_SIZE, WR_FRAME_MAX_SIZE, &x, err);
		if (rc == 0)
			cfg->frame_size = (uint32_t)x;
		return rc;
	}
	if (c == WR_OPT_FLOWS) {
		rc = wr_optv_u64("flows", v, 1, 65536, &x, err);
		if (rc == 0)
			cfg->nb_flows = (uint32_t)x;
		return rc;
	}
	if (c == WR_OPT_RING_PAIRS) {
		rc = wr_optv_u64("ring-pairs", v, 0, WR_MAX_PORTS / 2, &x, err);
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
		return wr_optv_duration("duration", v, 0, &cfg->duration_ms, err);
	case WR_OPT_INTERVAL: return wr_optv_duration("interval", v, 100, &cfg->interval_ms, err);
	case WR_OPT_GRACE: return wr_optv_duration("grace", v, 0, &cfg->grace_ms, err);
	case WR_OPT_CHECKPOINT:
		return wr_optv_duration("checkpoint", v, 0, &cfg->checkpoint_ms, err);
	case WR_OPT_LINK_TIMEOUT:
		return wr_optv_duration("link-timeout", v, 0, &cfg->link_timeout_ms, err);
	default: break;
	}
	return 1;
}

static int
opt_addr(int c, const char *v, struct wr_config *cfg, struct wr_error *err)
{
	switch (c) {
	case WR_OPT_PORT_IP:
		return wr_portip_parse(v, cfg->port_ip, WR_MAX_PORTS, err);
	case WR_OPT_ANNOUNCE:
		return wr_optv_duration("announce", v, 100, &cfg->announce_ms, err);
	case WR_OPT_TX_PORTS:
		return wr_optv_ports("tx-ports", v, &cfg->tx_port_mask, &cfg->tx_ports_set, err);
	case WR_OPT_RX_PORTS:
		return wr_optv_ports("rx-ports", v, &cfg->rx_port_mask, &cfg->rx_ports_set, err);
	default: break;
	}
	return 1;
}

static int
opt_latency(const char *v, enum wr_lat_mode *mode, struct wr_error *err)
{
	int i = wr_optab_value(WR_OPT_LATENCY, v);
	char words[64];

	if (i < 0) {
		wr_optab_values_list(WR_OPT_LATENCY, words, sizeof(words));
		return wr_err_usage(err, -EINVAL, "--latency %s: expected %s (--help says "
			"what each measures)", v, words);
	}
	*mode = (enum wr_lat_mode)i;
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
		return wr_optv_path("json", v, cfg->json_path, sizeof(cfg->json_path),
			err);
	case WR_OPT_IMPAIR: return wr_impair_parse(v, &cfg->impair, err);
	case WR_OPT_PROFILE:
		if (strcmp(v, cfg->profile_path) != 0)
			return wr_err_usage(err, -EINVAL, "--profile %s: not loaded (wr_profile_load "
				"comes before wr_opts_parse)", v);
		return 0;
	case WR_OPT_LATENCY: return opt_latency(v, &cfg->lat_mode, err);
	case WR_OPT_RATE: return opt_rate(v, &cfg->rate, err);
	case WR_OPT_LINK_SPEED:
		return wr_optv_u64("link-speed", v, 1000000, 1000000000000ULL,
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
	int i = wr_optab_value(WR_OPT_MODE, v);
	char words[192];

	if (i < 0) {
		wr_optab_values_list(WR_OPT_MODE, words, sizeof(words));
		return wr_err_usage(err, -EINVAL, "--mode %s: expected %s (--help lists "
			"what each does)", v, words);
	}
	*mode = (enum wr_mode)i;
	return 0;
}

static int
opt_sizes(const char *v, struct wr_config *cfg, struct wr_error *err)
{
	static const uint32_t rfc[] = { 64, 128, 256, 512, 1024, 1280, 1518, 9018 };
	char buf[256], *save = NULL, *tok;
	uint64_t x;
	unsigned int n = 0, i;

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
		for (i = 0; i < n; i++)
			if (cfg->sizes[i] == x)
				return wr_err_usage(err, -EINVAL, "--sizes %s: %s is "
					"listed twice (one result per size)", v, tok);
		cfg->sizes[n++] = (uint32_t)x;
	}
	cfg->nb_sizes = n;
	return n == 0 ? wr_err_usage(err, -EINVAL, "--sizes: empty list") : 0;
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
		return wr_optv_duration("trial", v, 100, &cfg->trial_ms, err);
	case WR_OPT_RESOLUTION:
		return wr_optv_real("resolution", v, 0.001, 50, &cfg->resolution_pct, err);
	case WR_OPT_PDR: return wr_optv_real("pdr", v, 0, 0.5, &cfg->pdr_ratio, err);
	case WR_OPT_LOSS_STEP:
		return wr_optv_real("loss-step", v, 0.1, 10, &cfg->loss_step_pct, err);
	case WR_OPT_B2B_MAX: return wr_optv_u64("b2b-max", v, 1, 1ULL << 40, &cfg->b2b_max_pkts, err);
	case WR_OPT_MAX_TRIALS: rc = wr_optv_u64("max-trials", v, 1, 128, &x, err); break;
	case WR_OPT_B2B_TRIALS: rc = wr_optv_u64("b2b-trials", v, 1, 1000, &x, err); break;
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
		return wr_optv_path("csv", v, cfg->csv_path, sizeof(cfg->csv_path),
			err);
	case WR_OPT_CSV_STREAMS:
		return wr_optv_path("csv-streams", v, cfg->csv_streams_path,
			sizeof(cfg->csv_streams_path), err);
	case WR_OPT_LABEL:
		if (strlen(v) == 0 || strlen(v) >= sizeof(cfg->label))
			return wr_err_usage(err, -EINVAL, "--label: empty or longer than %u "
				"characters", WR_LABEL_LEN - 1);
		strcpy(cfg->label, v);
		return 0;
	case WR_OPT_CONTROL:
		return wr_optv_path("control", v, cfg->control_path,
			sizeof(cfg->control_path), err);
	case WR_OPT_CONTROL_TOKEN:
		return wr_optv_path("control-token", v, cfg->control_token_path,
			sizeof(cfg->control_token_path), err);
	case WR_OPT_LEASE_LOG:
		return wr_optv_path("lease-log", v, cfg->lease_log_path,
			sizeof(cfg->lease_log_path), err);
	case WR_OPT_REPEAT:
		rc = wr_optv_u64("repeat", v, 1, WR_MAX_REPEAT, &x, err);
		if (rc == 0)
			cfg->nb_repeat = (unsigned int)x;
		return rc;
	case WR_OPT_WARMUP:
		rc = wr_optv_u64("warmup", v, 0, WR_MAX_WARMUP, &x, err);
		if (rc == 0)
			cfg->nb_warmup = (unsigned int)x;
		return rc;
	default: break;
	}
	return 1;
}

/* --rx-clock: which received frames drive the RX clock. */
static int
opt_rx_clock(const char *v, struct wr_config *cfg, struct wr_error *err)
{
	int i = wr_optab_value(WR_OPT_RX_CLOCK, v);

	if (i < 0)
		return wr_err_usage(err, -EINVAL, "--rx-clock %s: expected own "
			"(test frames of a stream start the clock and keep "
			"--idle-timeout off) or any (every frame does)", v);
	cfg->rx_clock = (enum wr_rx_clock)i;
	cfg->rx_clock_set = true;
	return 0;
}

/* --clock-sync SOURCE[:SOCKET]: where this host's clock state is read. */
static int
opt_clock_sync(const char *v, struct wr_config *cfg, struct wr_error *err)
{
	const char *colon = strchr(v, ':');
	size_t n = colon != NULL ? (size_t)(colon - v) : strlen(v);
	char word[16];
	int i = -1;

	if (n < sizeof(word)) {
		memcpy(word, v, n);
		word[n] = '\0';
		i = wr_optab_value(WR_OPT_CLOCK_SYNC, word);
	}
	if (i < 0)
		return wr_err_usage(err, -EINVAL, "--clock-sync %s: expected auto, ptp, "
			"chrony or none, optionally :SOCKET (ptp4l's uds_address or "
			"chronyd's command socket)", v);
	if (colon != NULL && (i == WR_CLOCK_SYNC_AUTO || i == WR_CLOCK_SYNC_NONE))
		return wr_err_usage(err, -EINVAL, "--clock-sync %s: a socket is for ptp "
			"or chrony only", v);
	if (colon != NULL && (colon[1] != '/' || strlen(colon + 1) >=
			sizeof(cfg->clock_sync_path)))
		return wr_err_usage(err, -EINVAL, "--clock-sync %s: the socket must be an "
			"absolute path of at most %u characters", v,
			WR_CLOCK_PATH_LEN - 1);
	cfg->clock_sync = (enum wr_clock_sync)i;
	snprintf(cfg->clock_sync_path, sizeof(cfg->clock_sync_path), "%s",
		colon != NULL ? colon + 1 : "");
	return 0;
}

/* Options of two-ended runs (docs/testbeds.md). */
static int
opt_twoend(int c, const char *v, struct wr_config *cfg, struct wr_error *err)
{
	switch (c) {
	case WR_OPT_START_ON_RX: cfg->start_on_rx = true; return 0;
	case WR_OPT_REFLECT: cfg->reflect = true; return 0;
	case WR_OPT_IDLE_TIMEOUT:
		return wr_optv_duration("idle-timeout", v, 10, &cfg->idle_timeout_ms, err);
	case WR_OPT_LINGER:
		return wr_optv_duration("linger", v, 0, &cfg->linger_ms, err);
	case WR_OPT_RX_CLOCK:
		return opt_rx_clock(v, cfg, err);
	case WR_OPT_CLOCK_SYNC:
		return opt_clock_sync(v, cfg, err);
	default: break;
	}
	return 1;
}

/* --stamp: which test header fields TX writes into every frame. */
static int
opt_stamp(int c, const char *v, struct wr_config *cfg, struct wr_error *err)
{
	int i;

	if (c != WR_OPT_STAMP)
		return 1;
	i = wr_optab_value(WR_OPT_STAMP, v);
	if (i < 0)
		return wr_err_usage(err, -EINVAL, "--stamp %s: expected full (sequence and "
			"timestamp), seq (sequence only) or none (template as "
			"built)", v);
	cfg->stamp = (enum wr_stamp)i;
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
	rc = wr_optv_u64("pool-mbufs", v, 1, WR_MAX_POOL_MBUFS, &x, err);
	if (rc == 0)
		cfg->pool_mbufs = (uint32_t)x;
	return rc;
}

/* Dispatch one option to the handler that knows it. */
static int
opt_one(int c, const char *v, struct wr_config *cfg, struct wr_error *err)
{
	int (*const handlers[])(int, const char *, struct wr_config *, struct wr_error *) = {
		wr_opts_range, opt_number, opt_size_flows, opt_time, opt_addr, opt_misc, opt_modes,
		opt_results, opt_twoend, opt_stamp, opt_test, wr_opts_methods,
		wr_opts_traffic, wr_opts_replay, wr_opts_peer, wr_opts_serve,
		wr_opts_rfc2889, wr_opts_conn,
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
 * Options people reach for that wirerate does not have, and what it
 * offers instead.
 */
static const struct { const char *name, *hint; } opt_hints[] = {
	{ "mtu", "the port MTU follows --size (frame size - 18), so "
		"--size 9018 runs with MTU 9000" },
	{ "tcp", "TCP connections are --conn client or --conn server "
		"(docs/tcp.md); scripts/kernel-compare.sh sets them beside iperf3" },
};

/* The hint for option name (up to '='), or NULL. */
static const char *
opt_hint(const char *name)
{
	size_t len = strcspn(name, "="), i;

	for (i = 0; i < sizeof(opt_hints) / sizeof(opt_hints[0]); i++)
		if (strlen(opt_hints[i].name) == len &&
				strncmp(opt_hints[i].name, name, len) == 0)
			return opt_hints[i].hint;
	return NULL;
}

/*
 * How many options name (up to '=') abbreviates; the first few of them,
 * as "--a, --b or --c" (", ..." after the fourth), into buf.
 */
static unsigned int
opt_prefix_count(const char *name, char *buf, size_t size)
{
	size_t len = strcspn(name, "="), i, at = 0;
	const char *names[5];
	unsigned int n = 0, k;

	for (i = 0; i < wr_optab_len; i++)
		if (strncmp(wr_optab[i].name, name, len) == 0 && n++ < 5)
			names[n - 1] = wr_optab[i].name;
	buf[0] = '\0';
	for (k = 0; k < n && k < 4 && at < size; k++) {
		const char *sep = k == 0 ? "" : k + 1 == n ? " or " : ", ";
		int w = snprintf(buf + at, size - at, "%s--%s", sep, names[k]);

		if (w < 0)
			break;
		at += (size_t)w;
	}
	if (n > 4 && at < size)
		snprintf(buf + at, size - at, ", ...");
	return n;
}

/*
 * What getopt refused in arg: a known option without its value, an
 * abbreviation of several, or an unknown option (with a hint or the
 * closest name).
 */
static int
bad_option(const char *arg, struct wr_error *err)
{
	const char *near, *hint;
	char several[160];
	bool has_arg;

	if (strncmp(arg, "--", 2) != 0 || arg[2] == '\0')
		return wr_err_usage(err, -EINVAL, "%s: unknown option (wirerate options "
			"are long, e.g. --size 64; see --help)", arg);
	if (wr_opts_lookup(arg + 2, &has_arg) == 0)
		return wr_err_usage(err, -EINVAL, "%s: %s (see --help)", arg,
			has_arg ? "needs a value" : "takes no value");
	if (opt_prefix_count(arg + 2, several, sizeof(several)) > 1)
		return wr_err_usage(err, -EINVAL, "%s: abbreviates several options "
			"(%s); write one out (see --help)", arg, several);
	hint = opt_hint(arg + 2);
	if (hint != NULL)
		return wr_err_usage(err, -EINVAL, "%s: unknown option: %s", arg, hint);
	near = wr_opts_closest(arg + 2);
	if (near != NULL)
		return wr_err_usage(err, -EINVAL, "%s: unknown option; did you mean "
			"--%s? (see --help)", arg, near);
	return wr_err_usage(err, -EINVAL, "%s: unknown option (see --help)", arg);
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
	return wr_opts_check(cfg, err);
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
