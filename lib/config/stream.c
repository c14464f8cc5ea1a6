/* SPDX-License-Identifier: BSD-3-Clause */
#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/frame.h"
#include "base/units.h"
#include "config.h"
#include "stackcfg.h"
#include "opts_range.h"
#include "stream.h"

/* Everything a key leaves out comes from the command line. */
static void
def_defaults(const struct wr_config *cfg, unsigned int idx,
		struct wr_stream_def *d)
{
	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "stream%u", idx);
	d->frame_size = cfg->mix.nb_sizes ? wr_mix_max_size(&cfg->mix) : cfg->frame_size;
	d->mix = cfg->mix;
	d->pattern = cfg->pattern;
	d->ipv6 = cfg->ipv6;
	d->src_ip = cfg->src_ip;
	d->dst_ip = cfg->dst_ip;
	memcpy(d->src_ip6, cfg->src_ip6, 16);
	memcpy(d->dst_ip6, cfg->dst_ip6, 16);
	d->src_udp = cfg->src_udp;
	d->dst_udp = cfg->dst_udp;
	d->nb_flows = cfg->nb_flows;
	d->ranges = cfg->ranges;
	d->vlan_id = cfg->vlan_id;
	d->vlan_prio = cfg->vlan_prio;
	d->dscp = cfg->dscp;
	d->stack = cfg->stack;
	wr_service_init(&d->svc);
}

/* A whole number within [lo, hi]. */
static int
num(const char *v, uint64_t lo, uint64_t hi, uint64_t *out)
{
	return wr_units_parse_u64(v, lo, hi, out) == 0 ? 0 : -EINVAL;
}

/* src-ip / dst-ip: either family, or a range; an IPv6 one means l3=ipv6. */
static int
set_addr(struct wr_stream_def *d, const char *v, bool src, bool *saw6,
		struct wr_error *why)
{
	bool six = strchr(v, ':') != NULL;
	enum wr_range_field f = six ? (src ? WR_RANGE_SRC_IP6 : WR_RANGE_DST_IP6) :
		(src ? WR_RANGE_SRC_IP : WR_RANGE_DST_IP);
	union wr_range_first x;

	if (wr_range_parse_field(f, v, &x, &d->ranges.nb[f], why) != 0)
		return -EINVAL;
	if (!six) {
		*(src ? &d->src_ip : &d->dst_ip) = x.ip4;
		d->addr_set |= src ? WR_ADDR_SRC4 : WR_ADDR_DST4;
		return 0;
	}
	memcpy(src ? d->src_ip6 : d->dst_ip6, x.ip6, 16);
	d->ipv6 = true;
	d->addr_set |= src ? WR_ADDR_SRC6 : WR_ADDR_DST6;
	*saw6 = true;
	return 0;
}

/* sport, dport, vlan, dscp: a value or a range. */
static int
set_num(struct wr_stream_def *d, enum wr_range_field f, const char *v,
		struct wr_error *why)
{
	union wr_range_first x;

	if (wr_range_parse_field(f, v, &x, &d->ranges.nb[f], why) != 0)
		return -EINVAL;
	if (f == WR_RANGE_SPORT)
		d->src_udp = (uint16_t)x.num;
	else if (f == WR_RANGE_DPORT)
		d->dst_udp = (uint16_t)x.num;
	else if (f == WR_RANGE_VLAN)
		d->vlan_id = (uint16_t)x.num;
	else
		d->dscp = (uint8_t)x.num;
	return 0;
}

/* What each key was given, to refuse contradictions. */
struct seen {
	bool size, mix, rate, share, l3v4, ip6;
};

/* Keys of the frame's headers. Returns 1 for a key it does not know. */
static int
key_header(struct wr_stream_def *d, const char *k, const char *v, struct seen *s,
		struct wr_error *why)
{
	const enum wr_range_field nums[] = { WR_RANGE_SPORT, WR_RANGE_DPORT,
		WR_RANGE_VLAN, WR_RANGE_DSCP };
	unsigned int i;
	uint64_t x;
	int rc;

	if (strcmp(k, "src-ip") == 0 || strcmp(k, "dst-ip") == 0)
		return set_addr(d, v, k[0] == 's', &s->ip6, why);
	for (i = 0; i < RTE_DIM(nums); i++)
		if (strcmp(k, wr_range_name(nums[i])) == 0)
			return set_num(d, nums[i], v, why);
	if (strcmp(k, "vary") == 0)
		return wr_range_parse_vary(v, &d->ranges, why);
	if (strcmp(k, "l3") == 0) {
		if (strcmp(v, "ipv4") != 0 && strcmp(v, "ipv6") != 0)
			return -EINVAL;
		d->ipv6 = strcmp(v, "ipv6") == 0;
		s->l3v4 = !d->ipv6;
		return 0;
	}
	if (strcmp(k, "flows") == 0)
		return (rc = num(v, 1, 65536, &x)) == 0 ? (d->nb_flows = (uint32_t)x, 0) : rc;
	if (strcmp(k, "prio") == 0)
		return (rc = num(v, 0, 7, &x)) == 0 ? (d->vlan_prio = (uint8_t)x, 0) : rc;
	return 1;
}

/* Keys of sizes, rates and patterns. Returns 1 for a key it does not know. */
static int
key_traffic(struct wr_stream_def *d, const char *k, const char *v,
		struct seen *s, struct wr_error *why)
{
	uint64_t x;
	char *end;

	if (strcmp(k, "name") == 0) {
		if (v[0] == '\0' || strlen(v) >= sizeof(d->name))
			return -EINVAL;
		strcpy(d->name, v);
		return 0;
	}
	if (strcmp(k, "size") == 0) {
		s->size = true;
		d->mix.nb_sizes = 0;
		if (num(v, WR_FRAME_MIN_SIZE, WR_FRAME_MAX_SIZE, &x) != 0)
			return -EINVAL;
		d->frame_size = (uint32_t)x;
		return 0;
	}
	if (strcmp(k, "mix") == 0) {
		s->mix = true;
		if (wr_mix_parse(v, WR_FRAME_MIN_SIZE, WR_FRAME_MAX_SIZE, &d->mix,
				why) != 0)
			return -EINVAL;
		d->frame_size = wr_mix_max_size(&d->mix);
		return 0;
	}
	if (strcmp(k, "rate") == 0) {
		s->rate = true;
		return wr_rate_parse(v, &d->rate, why);
	}
	if (strcmp(k, "share") == 0) {
		s->share = true;
		d->share_pct = strtod(v, &end);
		if (end == v || (*end != '\0' && strcmp(end, "%") != 0) ||
				!(d->share_pct > 0.0 && d->share_pct <= 100.0))
			return -EINVAL;
		return 0;
	}
	if (strcmp(k, "pattern") == 0)
		return wr_pattern_parse(v, &d->pattern, why);
	if (strcmp(k, "stack") == 0)
		return wr_stack_parse(v, &d->stack, why);
	return 1;
}

/* Apply one KEY=VALUE. */
static int
apply_key(struct wr_stream_def *d, char *kv, struct seen *s, unsigned int idx,
		struct wr_error *err)
{
	char *eq = strchr(kv, '=');
	struct wr_error why;
	int rc;

	wr_err_clear(&why);
	if (eq == NULL)
		return wr_err_usage(err, -EINVAL, "--stream %u: '%s' is not KEY=VALUE", idx + 1, kv);
	*eq = '\0';
	rc = key_header(d, kv, eq + 1, s, &why);
	if (rc == 1)
		rc = key_traffic(d, kv, eq + 1, s, &why);
	if (rc == 1)
		rc = wr_service_key(&d->svc, kv, eq + 1, &why);
	if (rc == 1)
		return wr_err_usage(err, -EINVAL, "--stream %u: unknown key '%s' (name, size, "
			"mix, rate, share, pattern, l3, src-ip, dst-ip, sport, dport, "
			"flows, vary, vlan, prio, dscp, stack; services: cir, eir, flr, "
			"ftd, fdv, avail, yellow)", idx + 1, kv);
	if (rc != 0)
		return wr_err_usage(err, -EINVAL, "--stream %u: %s=%s: %s", idx + 1, kv, eq + 1,
			why.msg[0] ? why.msg : "not a valid value (see docs/traffic.md)");
	return 0;
}

/* A stack's family over the stream's, unless l3= or an address gave it. */
static int
settle_stack(struct wr_stream_def *d, const struct seen *s, unsigned int idx,
		struct wr_error *err)
{
	char what[WR_STREAM_NAME_LEN + 32];
	const struct wr_stackcfg_frame f = { what, &d->ipv6, s->l3v4 || s->ip6,
		d->vlan_id, &d->ranges };

	snprintf(what, sizeof(what), "--stream %u (%s)", idx + 1, d->name);
	return wr_stackcfg_settle(&d->stack, &f, err);
}

/* Keys that cannot go together. */
static int
check_seen(const struct wr_stream_def *d, const struct seen *s, unsigned int idx,
		struct wr_error *err)
{
	const char *what = NULL;

	if (s->size && s->mix)
		what = "size and mix: give one";
	else if (s->rate && s->share)
		what = "rate and share: give one";
	else if (s->l3v4 && s->ip6)
		what = "l3=ipv4 with an IPv6 address";
	else if (d->pattern.kind == WR_PATTERN_BURST && (s->rate || s->share))
		what = "pattern burst:N/T sets the rate (N / T): no rate or share";
	if (what == NULL)
		return 0;
	return wr_err_usage(err, -EINVAL, "--stream %u (%s): %s", idx + 1, d->name, what);
}

int
wr_stream_build(struct wr_config *cfg, unsigned int idx, struct wr_error *err)
{
	struct wr_stream_def *d = &cfg->streams[idx];
	char buf[WR_STREAM_TEXT_LEN], *save = NULL, *kv;
	struct seen s = { 0 };
	int rc;

	def_defaults(cfg, idx, d);
	snprintf(buf, sizeof(buf), "%s", cfg->stream_text[idx]);
	for (kv = strtok_r(buf, "; ", &save); kv != NULL; kv = strtok_r(NULL, "; ", &save)) {
		rc = apply_key(d, kv, &s, idx, err);
		if (rc != 0)
			return rc;
	}
	rc = check_seen(d, &s, idx, err);
	return rc != 0 ? rc : settle_stack(d, &s, idx, err);
}

const char *
wr_stream_size_origin(const struct wr_config *cfg, char *buf, size_t len)
{
	unsigned int i;

	for (i = 0; i < cfg->nb_stream_defs; i++)
		if (cfg->streams[i].frame_size == cfg->frame_size) {
			snprintf(buf, len, "--stream %u (%s)", i + 1, cfg->streams[i].name);
			return buf;
		}
	if (cfg->mix.nb_sizes != 0)
		snprintf(buf, len, "--mix %s", cfg->mix.text);
	else
		snprintf(buf, len, "--size");
	return buf;
}

double
wr_stream_mean_size(const struct wr_stream_def *d)
{
	return d->mix.nb_sizes ? wr_mix_mean_size(&d->mix) : (double)d->frame_size;
}

int
wr_stream_pps(const struct wr_stream_def *d, const struct wr_rate *port,
		uint64_t link_bps, double *pps)
{
	struct wr_rate r = d->rate;

	if (d->pattern.kind == WR_PATTERN_BURST) {
		*pps = wr_pattern_burst_pps(&d->pattern);
		return 0;
	}
	if (r.unit == WR_RATE_NONE && d->share_pct > 0.0 && port->unit != WR_RATE_NONE) {
		r = *port;
		r.value *= d->share_pct / 100.0;
	}
	if (d->mix.nb_sizes != 0)
		return wr_mix_to_pps(&r, &d->mix, link_bps, pps);
	return wr_rate_to_pps(&r, d->frame_size, link_bps, pps);
}

/* Each stream's sizes hold its headers and test header. */
static int
check_sizes(const struct wr_stream_def *d, unsigned int i, struct wr_error *err)
{
	uint32_t min = wr_stackcfg_min_size(&d->stack, d->vlan_id != 0, d->ipv6);
	uint32_t small = d->mix.nb_sizes ? wr_mix_min_size(&d->mix) : d->frame_size;

	if (small < min)
		return wr_err_usage(err, -EINVAL, "--stream %u (%s): %s %u is below the %u "
			"bytes its %s%s frames need for the headers and test header",
			i + 1, d->name, d->mix.nb_sizes ? "mix size" : "size", small, min,
			d->stack.nb_layers ? "stacked " : d->vlan_id ? "tagged " : "",
			d->ipv6 ? "IPv6" : "IPv4");
	if (d->nb_flows > 1 && (uint32_t)d->src_udp + d->nb_flows - 1 > 65535)
		return wr_err_usage(err, -EINVAL, "--stream %u (%s): flows=%u from sport=%u "
			"would pass 65535", i + 1, d->name, d->nb_flows, d->src_udp);
	return 0;
}

/* Its flows folded into its ranges, which its frames can take. */
static int
check_ranges(struct wr_stream_def *d, unsigned int i, struct wr_error *err)
{
	char who[WR_STREAM_NAME_LEN + 32];

	snprintf(who, sizeof(who), "--stream %u (%s)", i + 1, d->name);
	if (wr_opts_range_flows(&d->ranges, &d->nb_flows, who, err) != 0)
		return -EINVAL;
	if (wr_range_check(&d->ranges, d->ipv6, d->vlan_id != 0, err) != 0)
		return wr_err_prefix(err, "%s: ", who);
	return 0;
}

/* Whether first..first+na-1 and second..second+nb-1 meet (counts 0: 1). */
static bool
meet(uint64_t a, uint32_t na, uint64_t b, uint32_t nb)
{
	return a < b + RTE_MAX(nb, 1u) && b < a + RTE_MAX(na, 1u);
}

/* Field f of a and b meet, their first values at fa and fb. */
#define MEET(f, fa, fb) meet((fa), a->ranges.nb[f], (fb), b->ranges.nb[f])

/* Both IPv6 addresses of a and b may be equal. */
static bool
meet6(const struct wr_stream_def *a, const struct wr_stream_def *b)
{
	uint64_t x[4] = { 0 };
	unsigned int i;

	if (memcmp(a->src_ip6, b->src_ip6, 8) != 0 || memcmp(a->dst_ip6, b->dst_ip6, 8) != 0)
		return false;
	for (i = 8; i < 16; i++) {
		x[0] = x[0] << 8 | a->src_ip6[i];
		x[1] = x[1] << 8 | b->src_ip6[i];
		x[2] = x[2] << 8 | a->dst_ip6[i];
		x[3] = x[3] << 8 | b->dst_ip6[i];
	}
	return MEET(WR_RANGE_SRC_IP6, x[0], x[1]) && MEET(WR_RANGE_DST_IP6, x[2], x[3]);
}

/* Addresses, destination port, tag and source ports (sport, flows) may meet. */
static bool
overlap(const struct wr_stream_def *a, const struct wr_stream_def *b)
{
	bool addr = a->ipv6 ? meet6(a, b) :
		MEET(WR_RANGE_SRC_IP, a->src_ip, b->src_ip) &&
		MEET(WR_RANGE_DST_IP, a->dst_ip, b->dst_ip);

	return a->ipv6 == b->ipv6 && addr && MEET(WR_RANGE_DPORT, a->dst_udp, b->dst_udp) &&
		MEET(WR_RANGE_VLAN, a->vlan_id, b->vlan_id) &&
		meet(a->src_udp, RTE_MAX(a->nb_flows, a->ranges.nb[WR_RANGE_SPORT]),
			b->src_udp, RTE_MAX(b->nb_flows, b->ranges.nb[WR_RANGE_SPORT]));
}

/*
 * With a port --rate, streams without a rate, share or burst pattern share
 * equally what the explicit shares leave.
 */
static int
assign_shares(struct wr_config *cfg, struct wr_error *err)
{
	double used = 0.0;
	unsigned int i, n = 0;

	for (i = 0; i < cfg->nb_stream_defs; i++) {
		const struct wr_stream_def *d = &cfg->streams[i];

		used += d->share_pct;
		n += d->rate.unit == WR_RATE_NONE && d->share_pct == 0.0 &&
			d->pattern.kind != WR_PATTERN_BURST;
	}
	if (used > 100.0 + 1e-9)
		return wr_err_usage(err, -EINVAL, "--stream: shares add up to %.6g%% of "
			"--rate, more than 100%%", used);
	if (cfg->rate.unit == WR_RATE_NONE || n == 0)
		return 0;
	if (used >= 100.0)
		return wr_err_usage(err, -EINVAL, "--stream: shares take all of --rate; "
			"%u stream(s) without a rate or share would get nothing", n);
	for (i = 0; i < cfg->nb_stream_defs; i++) {
		struct wr_stream_def *d = &cfg->streams[i];

		if (d->rate.unit == WR_RATE_NONE && d->share_pct == 0.0 &&
				d->pattern.kind != WR_PATTERN_BURST)
			d->share_pct = (100.0 - used) / n;
	}
	return 0;
}

/* With a trusted --link-speed, the streams' L1 rates fit the link. */
static int
check_rate_sum(const struct wr_config *cfg, struct wr_error *err)
{
	double sum = 0.0, pps, bps;
	unsigned int i;

	if (cfg->link_speed_bps == 0)
		return 0;
	for (i = 0; i < cfg->nb_stream_defs; i++) {
		const struct wr_stream_def *d = &cfg->streams[i];

		if (wr_stream_pps(d, &cfg->rate, cfg->link_speed_bps, &pps) != 0 ||
				isinf(pps))
			continue;
		bps = pps * 8.0 * (wr_stream_mean_size(d) + WR_UNITS_L1_OVERHEAD_BYTES);
		sum += bps;
		if (sum > (double)cfg->link_speed_bps * (1 + 1e-9))
			return wr_err_usage(err, -EINVAL, "--stream %u (%s): rate: the streams "
				"up to this one need %.6g Gb/s at L1, above the "
				"--link-speed of %.6g Gb/s", i + 1, d->name, sum / 1e9,
				(double)cfg->link_speed_bps / 1e9);
	}
	return 0;
}

/* Each stream on its own queue, in a plain run; a rate where one is needed. */
static int
check_shape(struct wr_config *cfg, struct wr_error *err)
{
	unsigned int i;

	if (cfg->mode != WR_MODE_RUN && cfg->mode != WR_MODE_Y1564)
		return wr_err_usage(err, -EINVAL, "--stream with --mode: the test modes "
			"search one stream's rate; streams run in a plain run (or as "
			"services in --mode y1564)");
	if (cfg->nb_txq != 1 && cfg->nb_txq != cfg->nb_stream_defs)
		return wr_err_usage(err, -EINVAL, "--txq %u with %u --stream: each stream "
			"has its own TX queue", cfg->nb_txq, cfg->nb_stream_defs);
	for (i = 0; i < cfg->nb_stream_defs; i++) {
		const struct wr_stream_def *d = &cfg->streams[i];

		if (d->pattern.kind == WR_PATTERN_POISSON && d->rate.unit == WR_RATE_NONE &&
				d->share_pct == 0.0)
			return wr_err_usage(err, -EINVAL, "--stream %u (%s): pattern poisson "
				"needs a mean rate: rate=, share= or --rate", i + 1, d->name);
	}
	return 0;
}

int
wr_stream_check(struct wr_config *cfg, struct wr_error *err)
{
	unsigned int i, j;
	int rc;

	if (cfg->nb_stream_defs == 0)
		return wr_service_check(cfg, err);
	rc = wr_service_expand(cfg, err);
	if (rc == 0)
		rc = assign_shares(cfg, err);
	if (rc == 0)
		rc = check_shape(cfg, err);
	for (i = 0; i < cfg->nb_stream_defs && rc == 0; i++)
		rc = check_sizes(&cfg->streams[i], i, err);
	for (i = 0; i < cfg->nb_stream_defs && rc == 0; i++)
		rc = check_ranges(&cfg->streams[i], i, err);
	for (i = 0; i < cfg->nb_stream_defs && rc == 0; i++)
		for (j = 0; j < i && rc == 0; j++)
			if (overlap(&cfg->streams[i], &cfg->streams[j]))
				rc = wr_err_usage(err, -EINVAL, "--stream %u (%s) overlaps --stream "
					"%u (%s): same addresses, dport and VLAN, and their "
					"source ports (sport, flows) meet; give one another "
					"sport, dport, address or vlan (or ranges that do not meet)", i + 1,
					cfg->streams[i].name, j + 1, cfg->streams[j].name);
	if (rc == 0)
		rc = check_rate_sum(cfg, err);
	if (rc == 0)
		rc = wr_service_check(cfg, err);
	if (rc != 0)
		return rc;
	cfg->nb_txq = (uint16_t)cfg->nb_stream_defs;
	cfg->frame_size = 0;
	for (i = 0; i < cfg->nb_stream_defs; i++)
		cfg->frame_size = RTE_MAX(cfg->frame_size, cfg->streams[i].frame_size);
	return 0;
}
