/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "base/pcapread.h"
#include "base/units.h"
#include "optab.h"
#include "opts_replay.h"
#include "opts_values.h"

int
wr_opts_replay(int id, const char *v, struct wr_config *cfg, struct wr_error *err)
{
	struct wr_replay_conf *rc = &cfg->replay;

	switch (id) {
	case WR_OPT_REPLAY:
		return wr_optv_path("replay", v, rc->path, sizeof(rc->path), err);
	case WR_OPT_REPLAY_SPEED:
		rc->speed_set = true;
		if (wr_optab_value(WR_OPT_REPLAY_SPEED, v) == 0) {
			rc->speed = 0;
			return 0;
		}
		if (wr_optv_real("replay-speed", v, 0.001, 1000, &rc->speed, err) != 0) {
			char words[32];

			wr_optab_values_list(WR_OPT_REPLAY_SPEED, words, sizeof(words));
			return wr_err_usage(err, -EINVAL, "--replay-speed %s: expected a "
				"number from 0.001 to 1000 or %s", v, words);
		}
		return 0;
	case WR_OPT_REPLAY_LOOP:
		return WR_OPTV_UINT("replay-loop", v, 0, UINT32_MAX, &rc->nb_loops, err);
	case WR_OPT_REPLAY_STAMP:
		rc->stamp = true;
		return 0;
	default:
		return 1;
	}
}

/* The first option given that builds test frames, or NULL. */
static const char *
frame_option(const struct wr_config *cfg)
{
	if (cfg->nb_stream_defs != 0)
		return "--stream";
	if (cfg->mix.nb_sizes != 0)
		return "--mix";
	if (cfg->size_set || cfg->nb_sizes != 0)
		return "--size";
	if (cfg->nb_flows > 1)
		return "--flows";
	if (cfg->vlan_id != 0)
		return "--vlan";
	if (cfg->ipv6)
		return "--ipv6";
	if (cfg->pattern.kind != WR_PATTERN_CONSTANT)
		return "--pattern";
	if (cfg->count_pkts != 0)
		return "--count";
	return NULL;
}

/* What --replay rules out, and how it is timed. */
static int
check_combinations(const struct wr_config *cfg, struct wr_error *err)
{
	const struct wr_replay_conf *r = &cfg->replay;
	const char *o = frame_option(cfg);

	if (o != NULL)
		return wr_err_usage(err, -EINVAL, "--replay with %s: replayed frames are "
			"sent as captured (docs/replay.md)%s", o,
			strcmp(o, "--count") == 0 ? "; give --replay-loop" : "");
	if (cfg->mode != WR_MODE_RUN || cfg->reflect)
		return wr_err_usage(err, -EINVAL, "--replay with --%s: replay is a plain "
			"run that sends", cfg->reflect ? "reflect" : "mode");
	if (cfg->tx_ports_set && cfg->tx_port_mask == 0)
		return wr_err_usage(err, -EINVAL, "--replay with --tx-ports none: no port "
			"sends the file");
	if (cfg->rate.unit != WR_RATE_NONE && r->speed_set)
		return wr_err_usage(err, -EINVAL, "--replay-speed with --rate: give one "
			"(the capture's timing, or a fixed rate)");
	if (cfg->rate.unit != WR_RATE_NONE && cfg->rate.unit != WR_RATE_PPS)
		return wr_err_usage(err, -EINVAL, "--rate with --replay: give frames per "
			"second (e.g. 100kpps); the file's frames have their own sizes");
	return 0;
}

int
wr_opts_replay_check(struct wr_config *cfg, struct wr_error *err)
{
	struct wr_replay_conf *r = &cfg->replay;
	struct wr_pcap p;
	int rc;

	if (r->path[0] == '\0') {
		if (r->speed_set || r->nb_loops != 1 || r->stamp)
			return wr_err_usage(err, -EINVAL, "--replay-%s without --replay",
				r->speed_set ? "speed" : r->stamp ? "stamp" : "loop");
		return 0;
	}
	rc = check_combinations(cfg, err);
	if (rc != 0)
		return rc;
	rc = wr_pcap_read_file(r->path, WR_FRAME_MAX_SIZE - WR_UNITS_FCS_BYTES, &p, err);
	if (rc != 0)
		return wr_err_prefix(err, "--replay ");
	r->max_len = p.max_len;
	cfg->frame_size = p.max_len + WR_UNITS_FCS_BYTES;
	if (cfg->frame_size < RTE_ETHER_MIN_LEN)
		cfg->frame_size = RTE_ETHER_MIN_LEN;
	wr_pcap_free(&p);
	/* The file ends the run (or --replay-loop 0 runs until stopped). */
	if (!cfg->duration_set)
		cfg->duration_ms = 0;
	return 0;
}
