/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RFC 2889 address plans: the N source MAC addresses that learning frames
 * carry (section 5.7 address caching capacity, 5.8 address learning rate).
 * A plan is a range (a base address and the N that follow it) or random
 * with a seed (N distinct locally administered unicast addresses, the same
 * for the same seed). Address i is computed on its own, with no table, so
 * a plan of any N costs nothing until a frame asks for it. Pure: no EAL.
 */
#ifndef WR_RFC2889_ADDR_H
#define WR_RFC2889_ADDR_H

#include <stdint.h>

#include "base/error.h"

/* Bytes of a MAC address. */
#define WR_ADDR_MAC_LEN 6

/* How the addresses of a plan are made. */
enum wr_addr_plan_kind {
	WR_ADDR_PLAN_RANGE,	/* base, base + 1, ..., base + nb - 1 */
	WR_ADDR_PLAN_RANDOM,	/* a permutation keyed by seed */
};

/* One plan of nb addresses. */
struct wr_addr_plan {
	enum wr_addr_plan_kind kind;
	uint8_t base[WR_ADDR_MAC_LEN];	/* range: the first address */
	uint64_t seed;			/* random: the key */
	uint32_t nb;			/* addresses in the plan, >= 1 */
};

/*
 * Check plan p for what (the option that gave it, named in the message):
 * nb >= 1; a range's base unicast and its nb addresses inside its first
 * octet (no carry into it, so none turns multicast). Returns 0, or -EINVAL
 * with err set (usage).
 */
int wr_addr_plan_check(const struct wr_addr_plan *p, const char *what,
		struct wr_error *err);

/*
 * Address i (< p->nb) of checked plan p into mac. Distinct i give distinct
 * addresses, every one unicast. This function can't fail.
 */
void wr_addr_plan_mac(const struct wr_addr_plan *p, uint32_t i,
		uint8_t mac[WR_ADDR_MAC_LEN]);

#endif /* WR_RFC2889_ADDR_H */
