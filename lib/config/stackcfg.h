/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --stack and a stream's stack= (base/stack.h for the spec): what a stack
 * asks of a frame's other settings. Pure: no EAL.
 */
#ifndef WR_STACKCFG_H
#define WR_STACKCFG_H

#include <stdbool.h>
#include <stdint.h>

#include "base/error.h"
#include "base/stack.h"
#include "range.h"

/* A frame's settings that a stack meets. */
struct wr_stackcfg_frame {
	const char *what;      /* for messages: "--stack", "--stream 2 (web)" */
	bool *ipv6;            /* the frame's family: set from the stack ... */
	bool ipv6_explicit;    /* ... unless given (then they must agree) */
	uint16_t vlan_id;      /* a --vlan tag: put it in the stack instead */
	const struct wr_ranges *ranges; /* field ranges: the innermost IP/UDP's */
};

/*
 * Settle f against stack st (nb_layers 0: nothing to do): the innermost
 * IP of the stack sets the family. Returns 0 or -EINVAL with a message
 * naming f->what: a family given that the stack contradicts, a --vlan tag
 * beside a stack, a range of a field outside the innermost IP and UDP
 * headers (MACs, VLAN), or any range in a stack with an outer UDP over
 * IPv6 (its checksum covers the fields the flow table changes). A size
 * mix is fine: TX writes every layer's size-dependent words per frame
 * (datapath/txvar.h).
 */
int wr_stackcfg_settle(const struct wr_stack *st, const struct wr_stackcfg_frame *f,
		struct wr_error *err);

/*
 * Smallest frame size (FCS included) of a frame with stack st (nb_layers
 * 0: the plain frame, tagged when vlan, IPv6 when ipv6). This function
 * can't fail.
 */
uint32_t wr_stackcfg_min_size(const struct wr_stack *st, bool vlan, bool ipv6);

#endif /* WR_STACKCFG_H */
