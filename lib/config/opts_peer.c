/* SPDX-License-Identifier: BSD-3-Clause */
/* --peer, --peer-token, --peer-timeout (opts_peer.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "optab.h"
#include "opts_peer.h"
#include "opts_values.h"
#include "rate.h"

/* Longest wait for one answer of the far end, by default. */
#define PEER_TIMEOUT_DEFAULT_MS 5000u
#define PEER_IDLE_DEFAULT_MS 120000u

void
wr_opts_peer_defaults(struct wr_config *cfg)
{
	cfg->peer[0] = '\0';
	cfg->peer_token_path[0] = '\0';
	cfg->peer_timeout_ms = PEER_TIMEOUT_DEFAULT_MS;
	cfg->peer_idle_ms = PEER_IDLE_DEFAULT_MS;
	cfg->peer_rate.unit = WR_RATE_NONE;
}

/* --peer-rate: a rate that needs no link speed (the far end's is not known). */
static int
peer_rate(const char *v, struct wr_config *cfg, struct wr_error *err)
{
	struct wr_rate r;

	if (wr_rate_parse(v, &r, err) != 0)
		return wr_err_prefix(err, "--peer-rate: ");
	if (r.unit == WR_RATE_NONE || r.unit == WR_RATE_PCT)
		return wr_err_usage(err, -EINVAL, "--peer-rate %s: a rate in pps or "
			"bps (this end does not know the far end's link speed)", v);
	cfg->peer_rate = r;
	return 0;
}

/* tcp:HOST:PORT (HOST a name, an IPv4 address or [IPv6]) or unix:PATH. */
static int
peer_spec(const char *v, struct wr_config *cfg, struct wr_error *err)
{
	const char *colon;
	char *end;
	unsigned long port;

	if (strlen(v) >= sizeof(cfg->peer))
		return wr_err_usage(err, -EINVAL, "--peer: longer than %zu characters",
			sizeof(cfg->peer) - 1);
	if (strncmp(v, "unix:", 5) == 0 && v[5] != '\0') {
		strcpy(cfg->peer, v);
		return 0;
	}
	colon = strrchr(v, ':');
	if (strncmp(v, "tcp:", 4) != 0 || colon == NULL || colon <= v + 4)
		return wr_err_usage(err, -EINVAL, "--peer %s: expected tcp:HOST:PORT "
			"or unix:PATH (a wirerate serve, docs/twoended.md)", v);
	port = strtoul(colon + 1, &end, 10);
	if (*end != '\0' || colon[1] == '\0' || port == 0 || port > 65535)
		return wr_err_usage(err, -EINVAL, "--peer %s: the port is not 1..65535",
			v);
	strcpy(cfg->peer, v);
	return 0;
}

int
wr_opts_peer(int c, const char *v, struct wr_config *cfg, struct wr_error *err)
{
	switch (c) {
	case WR_OPT_PEER:
		return peer_spec(v, cfg, err);
	case WR_OPT_PEER_TOKEN:
		return wr_optv_path("peer-token", v, cfg->peer_token_path,
			sizeof(cfg->peer_token_path), err);
	case WR_OPT_PEER_RATE:
		return peer_rate(v, cfg, err);
	case WR_OPT_PEER_TIMEOUT:
		return wr_optv_duration("peer-timeout", v, 1, &cfg->peer_timeout_ms, err);
	case WR_OPT_PEER_IDLE:
		return wr_optv_duration("peer-idle", v, 1, &cfg->peer_idle_ms, err);
	default:
		return 1;
	}
}

int
wr_opts_peer_check(const struct wr_config *cfg, struct wr_error *err)
{
	bool tcp = strncmp(cfg->peer, "tcp:", 4) == 0;

	if (cfg->peer[0] == '\0') {
		if (cfg->peer_token_path[0] != '\0' || cfg->peer_rate.unit != WR_RATE_NONE)
			return wr_err_usage(err, -EINVAL, "--peer-%s needs --peer",
				cfg->peer_token_path[0] != '\0' ? "token" : "rate");
		return 0;
	}
	if (cfg->mode == WR_MODE_Y1564)
		return wr_err_usage(err, -EINVAL, "--peer with --mode y1564: its "
			"verdicts are judged on the frames this process receives, and a "
			"far end that counts them is not taken into them; test through a "
			"far end running wirerate --reflect instead (docs/y1564.md)");
	if (cfg->peer_rate.unit != WR_RATE_NONE && cfg->mode != WR_MODE_RUN &&
			cfg->mode != WR_MODE_THROUGHPUT)
		return wr_err_usage(err, -EINVAL, "--peer-rate (both directions) "
			"with --mode %s: only a plain run and --mode throughput send "
			"both ways so far (docs/twoended.md)", cfg->mode == WR_MODE_MLR ?
			"mlr" : cfg->mode == WR_MODE_SWEEP ? "sweep" : cfg->mode ==
			WR_MODE_LOSS ? "loss" : "b2b");
	if (tcp && cfg->peer_token_path[0] == '\0')
		return wr_err_usage(err, -EINVAL, "--peer %s needs --peer-token FILE "
			"(the far end's --control-token: TCP never goes without a "
			"token)", cfg->peer);
	if (!tcp && cfg->peer_token_path[0] != '\0')
		return wr_err_usage(err, -EINVAL, "--peer-token: --peer %s is a UNIX "
			"socket, which takes no token", cfg->peer);
	if (cfg->stamp == WR_STAMP_NONE)
		return wr_err_usage(err, -EINVAL, "--peer with --stamp none: the far "
			"end counts each trial by its frames' sequence numbers");
	if (cfg->replay.path[0] != '\0' || cfg->reflect)
		return wr_err_usage(err, -EINVAL, "--peer with --%s: a two-ended run "
			"sends its own numbered frames", cfg->reflect ? "reflect" :
			"replay");
	return 0;
}
