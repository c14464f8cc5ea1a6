/* SPDX-License-Identifier: BSD-3-Clause */
#include <arpa/inet.h>
#include <errno.h>
#include <string.h>

#include "base/error.h"
#include "base/frame.h"
#include "base/units.h"
#include "optab.h"
#include "opts_traffic.h"
#include "stackcfg.h"

/* --vlan-prio, --pattern, --stream; 1: not one of them. */
static int
opt_stream(int id, const char *v, struct wr_config *cfg, struct wr_error *err)
{
	uint64_t x;

	switch (id) {
	case WR_OPT_VLAN_PRIO:
		if (wr_units_parse_u64(v, 0, 7, &x) != 0)
			return wr_err_usage(err, -EINVAL, "--vlan-prio %s: expected 0..7", v);
		cfg->vlan_prio = (uint8_t)x;
		return 0;
	case WR_OPT_PATTERN:
		if (wr_pattern_parse(v, &cfg->pattern, err) != 0)
			return wr_err_prefix(err, "--pattern: ");
		return 0;
	case WR_OPT_STREAM:
		if (cfg->nb_stream_defs == WR_STREAM_MAX)
			return wr_err_usage(err, -EINVAL, "--stream: at most %u streams per "
				"port", WR_STREAM_MAX);
		if (strlen(v) >= WR_STREAM_TEXT_LEN)
			return wr_err_usage(err, -EINVAL, "--stream %u: longer than %u "
				"characters", cfg->nb_stream_defs + 1, WR_STREAM_TEXT_LEN - 1);
		strcpy(cfg->stream_text[cfg->nb_stream_defs], v);
		/* Keys and values now, so a profile's error has its line. */
		if (wr_stream_build(cfg, cfg->nb_stream_defs, err) != 0)
			return -EINVAL;
		cfg->nb_stream_defs++;
		return 0;
	default: return 1;
	}
}

int
wr_opts_traffic(int id, const char *v, struct wr_config *cfg, struct wr_error *err)
{
	switch (id) {
	case WR_OPT_MIX:
		if (wr_mix_parse(v, WR_FRAME_MIN_SIZE, WR_FRAME_MAX_SIZE, &cfg->mix,
				err) != 0)
			return wr_err_prefix(err, "--mix: ");
		return 0;
	case WR_OPT_IPV6:
		cfg->ipv6 = true;
		return 0;
	case WR_OPT_STACK:
		if (wr_stack_parse(v, &cfg->stack, err) != 0)
			return wr_err_prefix(err, "--stack %s: ", v);
		return 0;
	default: return opt_stream(id, v, cfg, err);
	}
}

/* The kind of frame the minimum size is for, as in "a tagged frame". */
static const char *
frame_kind(const struct wr_config *cfg)
{
	if (cfg->stack.nb_layers != 0)
		return "a stacked";
	if (cfg->vlan_id != 0)
		return cfg->ipv6 ? "a tagged IPv6" : "a tagged";
	return cfg->ipv6 ? "an IPv6" : "an IPv4";
}

/* A mix: plain runs only, instead of --size, every size fits the headers. */
static int
check_mix(struct wr_config *cfg, uint32_t min, struct wr_error *err)
{
	uint32_t small = wr_mix_min_size(&cfg->mix);

	if (cfg->size_set)
		return wr_err_usage(err, -EINVAL, "--size and --mix together: give one");
	if (cfg->mode != WR_MODE_RUN)
		return wr_err_usage(err, -EINVAL, "--mix with --mode: the test modes "
			"search one frame size at a time; a mix runs in a plain run");
	if (small < min)
		return wr_err_usage(err, -EINVAL, "--mix %s: frame size %u is below the "
			"%u bytes %s frame needs for its headers and test header",
			cfg->mix.text, small, min, frame_kind(cfg));
	cfg->frame_size = wr_mix_max_size(&cfg->mix);
	return 0;
}

/* Streams from their definitions, over the options' values. */
static int
check_streams(struct wr_config *cfg, struct wr_error *err)
{
	unsigned int i;
	int rc;

	for (i = 0; i < cfg->nb_stream_defs; i++) {
		rc = wr_stream_build(cfg, i, err);
		if (rc != 0)
			return rc;
	}
	return wr_stream_check(cfg, err);
}

/* A pattern on every queue: plain runs; poisson needs its mean rate. */
static int
check_pattern(const struct wr_config *cfg, struct wr_error *err)
{
	if (cfg->pattern.kind == WR_PATTERN_CONSTANT)
		return 0;
	if (cfg->mode != WR_MODE_RUN)
		return wr_err_usage(err, -EINVAL, "--pattern with --mode: the test modes "
			"pace at a constant rate");
	if (cfg->pattern.kind == WR_PATTERN_POISSON && cfg->rate.unit == WR_RATE_NONE &&
			cfg->nb_stream_defs == 0)
		return wr_err_usage(err, -EINVAL, "--pattern poisson needs --rate (the mean "
			"rate)");
	if (cfg->pattern.kind == WR_PATTERN_BURST && cfg->rate.unit != WR_RATE_NONE)
		return wr_err_usage(err, -EINVAL, "--pattern burst:N/T with --rate: the "
			"burst sets the rate (N / T per TX queue); give one");
	return 0;
}

int
wr_opts_traffic_check(struct wr_config *cfg, struct wr_error *err)
{
	const struct wr_stackcfg_frame sf = { "--stack", &cfg->ipv6, cfg->ipv6,
		cfg->vlan_id, &cfg->ranges };
	unsigned int i;
	int rc = check_pattern(cfg, err);
	uint32_t min;

	if (rc == 0)
		rc = wr_stackcfg_settle(&cfg->stack, &sf, err);
	if (rc != 0)
		return rc;
	min = wr_stackcfg_min_size(&cfg->stack, cfg->vlan_id != 0, cfg->ipv6);
	if (cfg->vlan_prio != 0 && cfg->vlan_id == 0 && cfg->nb_stream_defs == 0)
		return wr_err_usage(err, -EINVAL, "--vlan-prio %u without --vlan: an "
			"untagged frame has no priority field", cfg->vlan_prio);
	if (cfg->mix.nb_sizes != 0) {
		rc = check_mix(cfg, min, err);
		if (rc != 0 || cfg->nb_stream_defs == 0)
			return rc;
	}
	if (cfg->nb_stream_defs != 0)
		return check_streams(cfg, err);
	for (i = 0; i < cfg->nb_sizes; i++)
		if (cfg->sizes[i] < min)
			return wr_err_usage(err, -EINVAL, "--sizes: %u is below the %u "
				"bytes %s frame needs for its headers and test "
				"header", cfg->sizes[i], min, frame_kind(cfg));
	if (cfg->frame_size < min)
		return wr_err_usage(err, -EINVAL, "--size %u: %s frame needs at "
			"least %u bytes for its headers and test header",
			cfg->frame_size, frame_kind(cfg), min);
	return 0;
}
