/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>

#include "base/frame.h"
#include "stackcfg.h"

int
wr_stackcfg_settle(const struct wr_stack *st, const struct wr_stackcfg_frame *f,
		struct wr_error *err)
{
	bool inner6 = wr_stack_inner_ipv6(st);
	unsigned int i;

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
	for (i = 0; i < WR_RANGE_NB_FIELDS; i++)
		if (f->ranges->nb[i] > 1)
			return wr_err_usage(err, -EINVAL, "%s: a %s range with a stack "
				"is not supported (the flow table writes the plain "
				"frame's offsets); give one value, or --flows N",
				f->what, wr_range_name((enum wr_range_field)i));
	*f->ipv6 = inner6;
	return 0;
}

uint32_t
wr_stackcfg_min_size(const struct wr_stack *st, bool vlan, bool ipv6)
{
	struct wr_frame_spec s = { .vlan_id = vlan, .ipv6 = ipv6, .stack = st };

	return wr_frame_min_size_spec(&s);
}
