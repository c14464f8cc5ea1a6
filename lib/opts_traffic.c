/* SPDX-License-Identifier: BSD-3-Clause */
#include <arpa/inet.h>
#include <errno.h>
#include <string.h>

#include "errmsg.h"
#include "frame.h"
#include "optab.h"
#include "opts_traffic.h"

static int
opt_ip6(const char *name, const char *v, uint8_t *addr, char *err, size_t el)
{
	struct in6_addr a;

	if (inet_pton(AF_INET6, v, &a) != 1)
		return wr_err(-EINVAL, err, el, "--%s %s: not an IPv6 address, expected "
			"e.g. 2001:2::1", name, v);
	memcpy(addr, &a, sizeof(a));
	return 0;
}

int
wr_opts_traffic(int id, const char *v, struct wr_config *cfg, char *err,
		size_t errlen)
{
	char why[256];

	switch (id) {
	case WR_OPT_MIX:
		if (wr_mix_parse(v, WR_FRAME_MIN_SIZE, WR_FRAME_MAX_SIZE, &cfg->mix,
				why, sizeof(why)) != 0)
			return wr_err(-EINVAL, err, errlen, "--mix: %s", why);
		return 0;
	case WR_OPT_IPV6:
		cfg->ipv6 = true;
		return 0;
	case WR_OPT_SRC_IP6: return opt_ip6("src-ip6", v, cfg->src_ip6, err, errlen);
	case WR_OPT_DST_IP6: return opt_ip6("dst-ip6", v, cfg->dst_ip6, err, errlen);
	default: return 1;
	}
}

/* The kind of frame the minimum size is for, as in "a tagged frame". */
static const char *
frame_kind(const struct wr_config *cfg)
{
	if (cfg->vlan_id != 0)
		return cfg->ipv6 ? "a tagged IPv6" : "a tagged";
	return cfg->ipv6 ? "an IPv6" : "an IPv4";
}

/* A mix: plain runs only, instead of --size, every size fits the headers. */
static int
check_mix(struct wr_config *cfg, uint32_t min, char *err, size_t el)
{
	uint32_t small = wr_mix_min_size(&cfg->mix);

	if (cfg->size_set)
		return wr_err(-EINVAL, err, el, "--size and --mix together: give one");
	if (cfg->mode != WR_MODE_RUN)
		return wr_err(-EINVAL, err, el, "--mix with --mode: the test modes "
			"search one frame size at a time; a mix runs in a plain run");
	if (small < min)
		return wr_err(-EINVAL, err, el, "--mix %s: frame size %u is below the "
			"%u bytes %s frame needs for its headers and test header",
			cfg->mix.text, small, min, frame_kind(cfg));
	cfg->frame_size = wr_mix_max_size(&cfg->mix);
	return 0;
}

int
wr_opts_traffic_check(struct wr_config *cfg, char *err, size_t errlen)
{
	uint32_t min = wr_frame_min_size_l3(cfg->vlan_id != 0, cfg->ipv6);
	unsigned int i;

	if (cfg->mix.nb_sizes != 0)
		return check_mix(cfg, min, err, errlen);
	for (i = 0; i < cfg->nb_sizes; i++)
		if (cfg->sizes[i] < min)
			return wr_err(-EINVAL, err, errlen, "--sizes: %u is below the %u "
				"bytes %s frame needs for its headers and test "
				"header", cfg->sizes[i], min, frame_kind(cfg));
	if (cfg->frame_size < min)
		return wr_err(-EINVAL, err, errlen, "--size %u: %s frame needs at "
			"least %u bytes for its headers and test header",
			cfg->frame_size, frame_kind(cfg), min);
	return 0;
}
