/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What l3svc.c (received frames) and l3svc_build.c (frames the port
 * sends) share: the neighbour discovery message layout of RFC 4861
 * (DPDK 22.11 has no struct for it) and the frame writing helpers.
 */
#ifndef WR_L3SVC_INT_H
#define WR_L3SVC_INT_H

#include "dpdk_compat.h"
#include "l3svc.h"

/* ICMPv6 types (RFC 4443 section 2.1, RFC 4861 section 4). */
enum wr_icmp6_type {
	WR_ICMP6_ECHO_REQUEST = 128,
	WR_ICMP6_ECHO_REPLY = 129,
	WR_ICMP6_NS = 135,
	WR_ICMP6_NA = 136,
};

/* ND options (RFC 4861 section 4.6.1). */
enum wr_nd_opt_type {
	WR_ND_OPT_SLLA = 1, /* source link-layer address */
	WR_ND_OPT_TLLA = 2, /* target link-layer address */
};

/* NA flags (RFC 4861 section 4.4), in the message's first 32-bit word. */
#define WR_ND_NA_SOLICITED 0x40000000u
#define WR_ND_NA_OVERRIDE 0x20000000u

/* Hop limit of every ND message, checked on receipt (RFC 4861 7.1). */
#define WR_ND_HOP_LIMIT 255

/* Hop limit / TTL of the echo replies. */
#define WR_L3SVC_TTL 64

/* NS and NA: ICMPv6 header, a 32-bit word (reserved or flags), target. */
struct WR_PACKED_BEGIN wr_nd_msg {
	uint8_t type;
	uint8_t code;
	rte_be16_t cksum;
	rte_be32_t flags;
	uint8_t target[16];
} WR_PACKED_END;

/* A link-layer address option for Ethernet: 8 bytes, len is 1. */
struct WR_PACKED_BEGIN wr_nd_opt_lla {
	uint8_t type;
	uint8_t len;        /* in units of 8 bytes */
	struct rte_ether_addr mac;
} WR_PACKED_END;

#define WR_ND_LEN (sizeof(struct wr_nd_msg) + sizeof(struct wr_nd_opt_lla))

/*
 * Write an Ethernet header (with p's 802.1Q tag when it has a VLAN) of
 * the given ethertype to out. Returns its length (14 or 18).
 */
uint32_t wr_l3svc_put_l2(const struct wr_l3svc_port *p, uint8_t *out,
		const struct rte_ether_addr *dst, uint16_t ether_type);

/* Zero out[len..WR_L3SVC_MIN_LEN) and return max(len, WR_L3SVC_MIN_LEN). */
uint32_t wr_l3svc_pad(uint8_t *out, uint32_t len);

/*
 * The ICMPv6 checksum of the l4_len bytes at l4 under ip (payload_len
 * and proto set), over the pseudo-header (RFC 8200 section 8.1): the
 * value to store with the checksum field 0, or 0 when it verifies.
 */
uint16_t wr_l3svc_cksum6(const struct rte_ipv6_hdr *ip, const uint8_t *l4,
		uint32_t l4_len);

/*
 * Write an IPv6 header from p to dst with an ND message of type (target,
 * flags) and an LLA option of opt_type carrying p's MAC after it.
 * Returns the bytes written after l3 (40 + WR_ND_LEN).
 */
uint32_t wr_l3svc_put_nd(const struct wr_l3svc_port *p, uint8_t *l3,
		const uint8_t dst[16], const struct wr_nd_msg *nd, uint8_t opt_type);

#endif /* WR_L3SVC_INT_H */
