/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Options whose value may be a range (range.h): --src-mac, --dst-mac,
 * --src-ip, --dst-ip, --src-ip6, --dst-ip6, --sport, --dport, --vlan,
 * --dscp, and --vary, the order the ranges are walked in.
 */
#include <errno.h>
#include <string.h>

#include "optab.h"
#include "opts_range.h"

/* The range field of option id; WR_RANGE_NB_FIELDS: not one. */
static enum wr_range_field
opt_field(int id)
{
	switch (id) {
	case WR_OPT_SPORT: return WR_RANGE_SPORT;
	case WR_OPT_DPORT: return WR_RANGE_DPORT;
	case WR_OPT_SRC_IP: return WR_RANGE_SRC_IP;
	case WR_OPT_DST_IP: return WR_RANGE_DST_IP;
	case WR_OPT_SRC_IP6: return WR_RANGE_SRC_IP6;
	case WR_OPT_DST_IP6: return WR_RANGE_DST_IP6;
	case WR_OPT_SRC_MAC: return WR_RANGE_SRC_MAC;
	case WR_OPT_DST_MAC: return WR_RANGE_DST_MAC;
	case WR_OPT_VLAN: return WR_RANGE_VLAN;
	case WR_OPT_DSCP: return WR_RANGE_DSCP;
	default: return WR_RANGE_NB_FIELDS;
	}
}

/* Store the first value of field f into cfg's own field. */
static void
set_first(struct wr_config *cfg, enum wr_range_field f,
		const union wr_range_first *x)
{
	switch (f) {
	case WR_RANGE_SPORT: cfg->src_udp = (uint16_t)x->num; break;
	case WR_RANGE_DPORT: cfg->dst_udp = (uint16_t)x->num; break;
	case WR_RANGE_SRC_IP:
		cfg->src_ip = x->ip4;
		cfg->addr_set |= WR_ADDR_SRC4;
		break;
	case WR_RANGE_DST_IP:
		cfg->dst_ip = x->ip4;
		cfg->addr_set |= WR_ADDR_DST4;
		break;
	case WR_RANGE_SRC_IP6:
		memcpy(cfg->src_ip6, x->ip6, 16);
		cfg->addr_set |= WR_ADDR_SRC6;
		break;
	case WR_RANGE_DST_IP6:
		memcpy(cfg->dst_ip6, x->ip6, 16);
		cfg->addr_set |= WR_ADDR_DST6;
		break;
	case WR_RANGE_SRC_MAC:
		cfg->src_mac = x->mac;
		cfg->src_mac_set = true;
		break;
	case WR_RANGE_DST_MAC:
		cfg->dst_mac = x->mac;
		cfg->dst_mac_set = true;
		break;
	case WR_RANGE_VLAN: cfg->vlan_id = (uint16_t)x->num; break;
	default: cfg->dscp = (uint8_t)x->num; break;
	}
}

int
wr_opts_range(int id, const char *v, struct wr_config *cfg, struct wr_error *err)
{
	enum wr_range_field f = opt_field(id);
	union wr_range_first x;
	uint32_t nb;

	if (id == WR_OPT_VARY)
		return wr_range_parse_vary(v, &cfg->ranges, err) == 0 ? 0 :
			wr_err_prefix(err, "--vary %s: ", v);
	if (f == WR_RANGE_NB_FIELDS)
		return 1;
	if (wr_range_parse_field(f, v, &x, &nb, err) != 0)
		return wr_err_prefix(err, "--%s %s: ", wr_range_name(f), v);
	set_first(cfg, f, &x);
	cfg->ranges.nb[f] = nb;
	return 0;
}

/*
 * --flows N with ranges walks the source port over N values as one more
 * range; with a source port range of its own it is a contradiction.
 */
int
wr_opts_range_flows(struct wr_ranges *r, uint32_t *nb_flows, const char *who,
		struct wr_error *err)
{
	unsigned int f;
	bool any = false;

	for (f = 0; f < WR_RANGE_NB_FIELDS; f++)
		any |= r->nb[f] > 1;
	if (!any || *nb_flows <= 1)
		return 0;
	if (r->nb[WR_RANGE_SPORT] > 1)
		return wr_err_usage(err, -EINVAL, "%s: flows and a sport range both "
			"vary the UDP source port: give one", who);
	r->nb[WR_RANGE_SPORT] = *nb_flows;
	*nb_flows = 1;
	return 0;
}
