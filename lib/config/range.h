/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Field ranges: a stream's frames vary their MACs, IP addresses, UDP ports,
 * VLAN id and DSCP over ranges given as FIRST-LAST (e.g. --src-ip
 * 10.0.0.1-10.0.3.255, --dport 1000-1999). The field's own value in the
 * config is the range's first; a wr_ranges holds how many values each
 * field takes. The frames of a run walk every combination (the flows: the
 * product of the counts) in increment order, the UDP source port fastest,
 * or in a seeded random order that is a permutation, so each combination
 * appears once per cycle (--vary). Pure: no EAL.
 */
#ifndef WR_RANGE_H
#define WR_RANGE_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_ether.h>

#include "base/error.h"

/* The fields that take ranges, in increment order: the first varies fastest. */
enum wr_range_field {
	WR_RANGE_SPORT = 0,
	WR_RANGE_DPORT,
	WR_RANGE_SRC_IP,     /* IPv4 source */
	WR_RANGE_DST_IP,
	WR_RANGE_SRC_IP6,    /* IPv6 source: its low 64 bits count */
	WR_RANGE_DST_IP6,
	WR_RANGE_SRC_MAC,
	WR_RANGE_DST_MAC,
	WR_RANGE_VLAN,
	WR_RANGE_DSCP,
	WR_RANGE_NB_FIELDS,
};

/* Most flows (combinations) one stream may walk: its TX table's rows. */
#define WR_RANGE_MAX_FLOWS 65536u

/* The ranges of one stream (or of the options, for every TX queue). */
struct wr_ranges {
	uint32_t nb[WR_RANGE_NB_FIELDS]; /* values of each field; 0 or 1: fixed */
	bool random;                     /* --vary random[:SEED] */
	uint64_t seed;                   /* of the random order */
};

/* The option or key name of field f ("src-ip"), for messages. */
const char *wr_range_name(enum wr_range_field f);

/*
 * "N" or "N-M" with lo <= N <= M <= hi into *first and *nb (M - N + 1).
 * Returns 0 or -EINVAL with err saying what is wrong (the caller puts the
 * option or key and value before it).
 */
int wr_range_parse_num(const char *v, uint64_t lo, uint64_t hi, uint64_t *first,
		uint32_t *nb, struct wr_error *err);

/* An IPv4 address or range (dotted quads A-B) into *first (host order). */
int wr_range_parse_ip4(const char *v, uint32_t *first, uint32_t *nb,
		struct wr_error *err);

/*
 * An IPv6 address or range A-B into first (network order); A and B share
 * their high 64 bits.
 */
int wr_range_parse_ip6(const char *v, uint8_t *first, uint32_t *nb,
		struct wr_error *err);

/* A MAC address or range A-B (each as 02:00:00:00:00:01) into *first. */
int wr_range_parse_mac(const char *v, struct rte_ether_addr *first, uint32_t *nb,
		struct wr_error *err);

/* The first value of a field's range, as the field holds it. */
union wr_range_first {
	uint64_t num;                /* ports, VLAN id, DSCP */
	uint32_t ip4;                /* host order */
	uint8_t ip6[16];             /* network order */
	struct rte_ether_addr mac;
};

/*
 * Field f's value or range v (its bounds: ports 0..65535, VLAN 1..4094,
 * DSCP 0..63) into *first and *nb. Returns 0 or -EINVAL with err saying
 * what was expected.
 */
int wr_range_parse_field(enum wr_range_field f, const char *v,
		union wr_range_first *first, uint32_t *nb, struct wr_error *err);

/* "inc", "random" or "random:SEED" into r's order. */
int wr_range_parse_vary(const char *v, struct wr_ranges *r, struct wr_error *err);

/*
 * Flows r walks for frames of the given family: the product of the counts
 * of the fields that apply (IPv4 or IPv6 addresses). At least 1; may pass
 * WR_RANGE_MAX_FLOWS (the checks refuse that).
 */
uint64_t wr_range_flows(const struct wr_ranges *r, bool ipv6);

/*
 * Refuse what r cannot do for frames of the given family and tag: a range
 * on the other family's addresses or on the VLAN id of untagged frames,
 * more than WR_RANGE_MAX_FLOWS flows. Returns 0 or -EINVAL with err set.
 */
int wr_range_check(const struct wr_ranges *r, bool ipv6, bool vlan,
		struct wr_error *err);

/* Value i (0-based) of a range starting at the 48-bit MAC first. */
void wr_range_mac_at(const struct rte_ether_addr *first, uint32_t i,
		struct rte_ether_addr *out);

/* Value i of a range starting at the IPv6 address first (low 64 bits add). */
void wr_range_ip6_at(const uint8_t *first, uint32_t i, uint8_t *out);

/*
 * Row order of a walk of nb flows: order[k] is the flow sent k-th in a
 * cycle; the identity, or a seeded Fisher-Yates shuffle. Deterministic
 * for a seed. This function can't fail.
 */
void wr_range_order(const struct wr_ranges *r, uint32_t nb, uint32_t *order);

#endif /* WR_RANGE_H */
