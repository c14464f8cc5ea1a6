/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Service frames of a port that owns IP addresses: ARP (RFC 826), IPv6
 * neighbour discovery (RFC 4861) and ICMP / ICMPv6 echo (RFC 792,
 * RFC 4443). Pure: byte vectors in, reply bytes out, no EAL.
 *
 * wr_l3svc_handle() classifies one received frame and, when it asks
 * something of the port (an ARP request or a neighbour solicitation for
 * one of its addresses, an echo request to it), writes the reply; it also
 * returns the neighbour (address, MAC) the frame teaches, so the caller
 * can resolve and follow its next hops. The builders write the frames the
 * port sends on its own: ARP requests and neighbour solicitations to
 * resolve a next hop, gratuitous ARP and unsolicited neighbour
 * advertisements to announce the port. Frames shorter than the Ethernet
 * minimum are padded to it (60 bytes without FCS).
 */
#ifndef WR_L3SVC_H
#define WR_L3SVC_H

#include <stdbool.h>
#include <stdint.h>

#include <netinet/in.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_ether.h>
#include <rte_ip.h>

/* Ethernet minimum without FCS: builders and replies pad to it. */
#define WR_L3SVC_MIN_LEN (RTE_ETHER_MIN_LEN - RTE_ETHER_CRC_LEN)

/* Bytes a builder may write: a tagged NS or NA (14 + 4 + 40 + 24 + 8). */
#define WR_L3SVC_BUILD_MAX 90u

/* What one port answers for. */
struct wr_l3svc_port {
	struct rte_ether_addr mac;
	uint16_t vlan_id;   /* 1..4094: frames carry this 802.1Q tag; 0: untagged */
	bool has_ip4;
	bool has_ip6;
	uint32_t ip4;       /* host byte order */
	uint8_t ip6[16];    /* network byte order */
	/*
	 * More addresses the port answers ARP and neighbour solicitations
	 * for (a connection client's --conn-src-ip range), in the family of
	 * has_ip4 or has_ip6: nb_more addresses from more_ip4 (host byte
	 * order) up, or from more_ip6 with its last 64 bits counting up.
	 * 0: none. Replies still come from ip4 / ip6 at the IP layer.
	 */
	uint32_t nb_more;
	uint32_t more_ip4;
	uint8_t more_ip6[16];
};

/* What a received frame is to the port. */
enum wr_l3svc_class {
	WR_L3SVC_OTHER = 0,     /* not ARP, ICMP or ICMPv6: the caller's business */
	WR_L3SVC_OURS = 1,      /* asks or tells the port: answered or learned */
	WR_L3SVC_NOT_OURS = 2,  /* well formed, for another host: never answered */
	WR_L3SVC_MALFORMED = 3, /* truncated or inconsistent: never answered */
};

/* A neighbour's address and MAC, as a frame tells them. */
struct wr_l3svc_neigh {
	bool ipv6;
	uint32_t ip4;       /* host byte order */
	uint8_t ip6[16];    /* network byte order */
	struct rte_ether_addr mac;
};

/* The verdict on one received frame. */
struct wr_l3svc_verdict {
	enum wr_l3svc_class cls;
	uint32_t reply_len;          /* > 0: the reply frame is in out */
	bool learned;                /* nb holds the sender's address and MAC */
	struct wr_l3svc_neigh nb;
};

/*
 * Classify the len bytes of a received frame (FCS stripped) for port p
 * and fill v. A reply is written to out only when the class is
 * WR_L3SVC_OURS and the frame asks for one; out needs room for
 * max(len, WR_L3SVC_MIN_LEN) + 4 bytes (the reply of an untagged request
 * is tagged when the port has a VLAN). Reads nothing past data[len - 1].
 * Returns 0, or -ENOSPC when outlen is too small for the reply (v says
 * what the frame was; nothing is written).
 */
int wr_l3svc_handle(const struct wr_l3svc_port *p, const uint8_t *data,
		uint32_t len, uint8_t *out, uint32_t outlen,
		struct wr_l3svc_verdict *v);

/*
 * Write to out an ARP request from p for the IPv4 address target_ip4
 * (host byte order), broadcast. Returns the frame's length, or -EINVAL
 * when p has no IPv4 address, -ENOSPC when outlen is too small.
 */
int wr_l3svc_arp_request(const struct wr_l3svc_port *p, uint32_t target_ip4,
		uint8_t *out, uint32_t outlen);

/*
 * Write to out a gratuitous ARP (a broadcast request whose sender and
 * target are p's address, RFC 5227 section 2.3). Returns as
 * wr_l3svc_arp_request().
 */
int wr_l3svc_arp_announce(const struct wr_l3svc_port *p, uint8_t *out,
		uint32_t outlen);

/*
 * Write to out a neighbour solicitation from p for target_ip6, sent to
 * its solicited-node multicast address with p's link-layer address
 * (RFC 4861 section 7.2.2). Returns the frame's length, or -EINVAL when
 * p has no IPv6 address, -ENOSPC when outlen is too small.
 */
int wr_l3svc_ns(const struct wr_l3svc_port *p, const uint8_t target_ip6[16],
		uint8_t *out, uint32_t outlen);

/*
 * Write to out an unsolicited neighbour advertisement of p's IPv6
 * address to all nodes (ff02::1), override flag set, with p's
 * link-layer address (RFC 4861 section 7.2.6). Returns as wr_l3svc_ns().
 */
int wr_l3svc_na_announce(const struct wr_l3svc_port *p, uint8_t *out,
		uint32_t outlen);

/*
 * Whether a frame may be a service frame (ARP, IPv4 ICMP, IPv6 with
 * ICMPv6 as its next header, untagged or behind one 802.1Q tag): the
 * receiver's rare path asks this before handing a frame on. Reads
 * nothing past data[len - 1].
 */
static inline bool
wr_l3svc_is_candidate(const uint8_t *data, uint32_t len)
{
	uint32_t l2 = RTE_ETHER_HDR_LEN;
	uint16_t type;

	if (len < RTE_ETHER_HDR_LEN)
		return false;
	type = (uint16_t)(data[12] << 8 | data[13]);
	if (type == RTE_ETHER_TYPE_VLAN) {
		if (len < RTE_ETHER_HDR_LEN + 4)
			return false;
		l2 += 4;
		type = (uint16_t)(data[16] << 8 | data[17]);
	}
	if (type == RTE_ETHER_TYPE_ARP)
		return true;
	if (type == RTE_ETHER_TYPE_IPV4)
		return len > l2 + 9 && data[l2 + 9] == IPPROTO_ICMP;
	if (type == RTE_ETHER_TYPE_IPV6)
		return len > l2 + 6 && data[l2 + 6] == IPPROTO_ICMPV6;
	return false;
}

#endif /* WR_L3SVC_H */
