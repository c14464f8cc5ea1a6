/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>

#include "base/frame.h"
#include "stackcfg.h"

/* A field of the innermost IP or UDP header: what a range may vary in a stack. */
static bool
inner_field(enum wr_range_field f)
{
	return f != WR_RANGE_SRC_MAC && f != WR_RANGE_DST_MAC && f != WR_RANGE_VLAN;
}

/*
 * Ranges in a stack: the innermost IP and UDP fields only (the flow table
 * writes those), the ports only in a template (its addresses are its
 * own), none under an outer UDP over IPv6 (its checksum would go stale).
 */
static int
check_ranges(const struct wr_stack *st, const struct wr_stackcfg_frame *f,
		struct wr_error *err)
{
	unsigned int i;

	for (i = 0; i < WR_RANGE_NB_FIELDS; i++) {
		if (f->ranges->nb[i] <= 1)
			continue;
		if (!inner_field((enum wr_range_field)i))
			return wr_err_usage(err, -EINVAL, "%s: a %s range with a stack "
				"is not supported (ranges vary the innermost IP and UDP "
				"headers only: addresses, ports, dscp)", f->what,
				wr_range_name((enum wr_range_field)i));
		if (st->tmpl_len != 0 && i != WR_RANGE_SPORT && i != WR_RANGE_DPORT)
			return wr_err_usage(err, -EINVAL, "%s: a %s range with a "
				"template: the template keeps its own addresses and "
				"DSCP (ports may range)", f->what,
				wr_range_name((enum wr_range_field)i));
		if (wr_stack_outer_udp6(st))
			return wr_err_usage(err, -EINVAL, "%s: a %s range with a stack "
				"that has an outer UDP over IPv6 is not supported (its "
				"checksum covers the inner headers)", f->what,
				wr_range_name((enum wr_range_field)i));
	}
	return 0;
}

int
wr_stackcfg_settle(const struct wr_stack *st, const struct wr_stackcfg_frame *f,
		struct wr_error *err)
{
	bool inner6 = wr_stack_inner_ipv6(st);
	int rc;

	if (st->nb_layers == 0)
		return 0;
	if (f->ipv6_explicit && *f->ipv6 != inner6)
		return wr_err_usage(err, -EINVAL, "%s: the stack ends in %s/udp but %s "
			"frames were asked for", f->what, inner6 ? "ipv6" : "ipv4",
			inner6 ? "IPv4" : "IPv6");
	if (f->vlan_id != 0)
		return wr_err_usage(err, -EINVAL, "%s: a VLAN tag beside a stack: put it "
			"in the stack instead, e.g. eth/vlan(id=%u)/ipv4/udp", f->what,
			f->vlan_id);
	rc = check_ranges(st, f, err);
	if (rc != 0)
		return rc;
	*f->ipv6 = inner6;
	return 0;
}

uint32_t
wr_stackcfg_min_size(const struct wr_stack *st, bool vlan, bool ipv6)
{
	struct wr_frame_spec s = { .vlan_id = vlan, .ipv6 = ipv6, .stack = st };

	return wr_frame_min_size_spec(&s);
}
