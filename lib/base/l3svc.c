/* SPDX-License-Identifier: BSD-3-Clause */
/* Received service frames: classify, answer, learn (l3svc.h). */
#include <errno.h>
#include <string.h>

#include <rte_arp.h>
#include <rte_icmp.h>

#include "dpdk_compat.h"

#include "l3svc_int.h"

/* One received frame being handled. */
struct svc_rx {
	const struct wr_l3svc_port *p;
	const uint8_t *d;
	uint32_t len;
	uint32_t l2;       /* Ethernet header and tag */
	bool vlan_ok;      /* tagged with p's VLAN, or untagged for a port without */
	uint8_t *out;
	uint32_t outlen;
	struct wr_l3svc_verdict *v;
};

/* Set the verdict's class; returns 0 (a handler's "done, no reply"). */
static int
verdict(struct svc_rx *r, enum wr_l3svc_class cls)
{
	r->v->cls = cls;
	return 0;
}

/* Room for a reply of len bytes (before padding) in out? */
static bool
room(const struct svc_rx *r, uint32_t len)
{
	return r->outlen >= RTE_MAX(len, (uint32_t)WR_L3SVC_MIN_LEN);
}

static void
learn4(struct svc_rx *r, uint32_t ip4, const struct rte_ether_addr *mac)
{
	r->v->learned = true;
	r->v->nb.ipv6 = false;
	r->v->nb.ip4 = ip4;
	r->v->nb.mac = *mac;
}

static void
learn6(struct svc_rx *r, const uint8_t *ip6, const struct rte_ether_addr *mac)
{
	r->v->learned = true;
	r->v->nb.ipv6 = true;
	memcpy(r->v->nb.ip6, ip6, 16);
	r->v->nb.mac = *mac;
}

/* Is ip (host order) the port's IPv4 address or one of its more? */
static bool
own4(const struct wr_l3svc_port *p, uint32_t ip)
{
	return ip == p->ip4 || ip - p->more_ip4 < p->nb_more;
}

/* The last 64 bits of an IPv6 address (network order) as a number. */
static uint64_t
low64(const uint8_t *a)
{
	uint64_t v = 0;
	unsigned int i;

	for (i = 8; i < 16; i++)
		v = v << 8 | a[i];
	return v;
}

/* Is ip6 the port's IPv6 address or one of its more? */
static bool
own6(const struct wr_l3svc_port *p, const uint8_t *ip6)
{
	return memcmp(ip6, p->ip6, 16) == 0 || (p->nb_more != 0 &&
		memcmp(ip6, p->more_ip6, 8) == 0 &&
		low64(ip6) - low64(p->more_ip6) < p->nb_more);
}

/*
 * The ARP reply to a request (RFC 826: swap, fill in the port's MAC); the
 * address asked for is the one answered (the port's, or one of its more).
 */
static int
arp_reply(struct svc_rx *r, const struct rte_arp_hdr *req)
{
	struct rte_arp_hdr rep = *req;
	uint32_t l2;

	if (!room(r, RTE_ETHER_HDR_LEN + 4 + sizeof(rep)))
		return -ENOSPC;
	rep.arp_opcode = RTE_BE16(RTE_ARP_OP_REPLY);
	rep.arp_data.arp_tha = req->arp_data.arp_sha;
	rep.arp_data.arp_tip = req->arp_data.arp_sip;
	rep.arp_data.arp_sha = r->p->mac;
	rep.arp_data.arp_sip = req->arp_data.arp_tip;
	l2 = wr_l3svc_put_l2(r->p, r->out, &req->arp_data.arp_sha, RTE_ETHER_TYPE_ARP);
	memcpy(r->out + l2, &rep, sizeof(rep));
	r->v->reply_len = wr_l3svc_pad(r->out, l2 + (uint32_t)sizeof(rep));
	return 0;
}

/* ARP for Ethernet and IPv4 (RFC 826). */
static int
rx_arp(struct svc_rx *r)
{
	struct rte_arp_hdr a;
	uint32_t sip, tip;
	uint16_t op;

	if (r->len < r->l2 + sizeof(a))
		return verdict(r, WR_L3SVC_MALFORMED);
	memcpy(&a, r->d + r->l2, sizeof(a));
	op = rte_be_to_cpu_16(a.arp_opcode);
	if (a.arp_hardware != RTE_BE16(RTE_ARP_HRD_ETHER) ||
			a.arp_protocol != RTE_BE16(RTE_ETHER_TYPE_IPV4) ||
			a.arp_hlen != RTE_ETHER_ADDR_LEN || a.arp_plen != 4 ||
			(op != RTE_ARP_OP_REQUEST && op != RTE_ARP_OP_REPLY) ||
			!rte_is_unicast_ether_addr(&a.arp_data.arp_sha) ||
			rte_is_zero_ether_addr(&a.arp_data.arp_sha))
		return verdict(r, WR_L3SVC_MALFORMED);
	sip = rte_be_to_cpu_32(a.arp_data.arp_sip);
	tip = rte_be_to_cpu_32(a.arp_data.arp_tip);
	/* Another VLAN, a port without IPv4, or another host claiming ours. */
	if (!r->vlan_ok || !r->p->has_ip4 || own4(r->p, sip))
		return verdict(r, WR_L3SVC_NOT_OURS);
	if (!own4(r->p, tip) && (sip != tip || sip == 0))
		return verdict(r, WR_L3SVC_NOT_OURS);
	/* For the port, or a neighbour's gratuitous ARP: it tells its MAC. */
	if (sip != 0)
		learn4(r, sip, &a.arp_data.arp_sha);
	verdict(r, WR_L3SVC_OURS);
	if (own4(r->p, tip) && op == RTE_ARP_OP_REQUEST)
		return arp_reply(r, &a);
	return 0;
}

/* Is the IPv4 address (host order) unicast (not 0, multicast, broadcast)? */
static bool
unicast4(uint32_t ip)
{
	return ip != 0 && (ip >> 28) != 0xe && ip != UINT32_MAX;
}

/* The echo reply to an echo request at ip (RFC 792): same data. */
static int
echo4_reply(struct svc_rx *r, const struct rte_ipv4_hdr *req, uint32_t hl,
		uint32_t icmp_len)
{
	const struct rte_ether_hdr *eth = (const struct rte_ether_hdr *)r->d;
	struct rte_ipv4_hdr ip;
	struct rte_icmp_hdr icmp;
	uint8_t *l4;
	uint32_t l2;

	if (!room(r, RTE_ETHER_HDR_LEN + 4 + sizeof(ip) + icmp_len))
		return -ENOSPC;
	l2 = wr_l3svc_put_l2(r->p, r->out, &eth->src_addr, RTE_ETHER_TYPE_IPV4);
	memset(&ip, 0, sizeof(ip));
	ip.version_ihl = RTE_IPV4_VHL_DEF;
	ip.type_of_service = req->type_of_service;
	ip.total_length = rte_cpu_to_be_16((uint16_t)(sizeof(ip) + icmp_len));
	ip.packet_id = req->packet_id;
	ip.time_to_live = WR_L3SVC_TTL;
	ip.next_proto_id = IPPROTO_ICMP;
	ip.src_addr = req->dst_addr;
	ip.dst_addr = req->src_addr;
	ip.hdr_checksum = rte_ipv4_cksum(&ip);
	memcpy(r->out + l2, &ip, sizeof(ip));
	l4 = r->out + l2 + sizeof(ip);
	memcpy(l4, (const uint8_t *)req + hl, icmp_len);
	memcpy(&icmp, l4, sizeof(icmp));
	icmp.icmp_type = WR_ICMP_ECHO_REPLY;
	icmp.icmp_cksum = 0;
	memcpy(l4, &icmp, sizeof(icmp));
	icmp.icmp_cksum = (uint16_t)~rte_raw_cksum(l4, icmp_len);
	memcpy(l4, &icmp, sizeof(icmp));
	r->v->reply_len = wr_l3svc_pad(r->out, l2 + (uint32_t)sizeof(ip) + icmp_len);
	return 0;
}

/* IPv4 ICMP: echo requests to the port are answered (RFC 792, RFC 1122). */
static int
rx_icmp4(struct svc_rx *r)
{
	const struct rte_ipv4_hdr *ip = (const struct rte_ipv4_hdr *)(r->d + r->l2);
	const uint8_t *l4;
	uint32_t hl, tl;

	if (r->len <= r->l2 + 9 || ip->next_proto_id != IPPROTO_ICMP)
		return verdict(r, WR_L3SVC_OTHER);
	hl = (uint32_t)(ip->version_ihl & RTE_IPV4_HDR_IHL_MASK) * 4;
	if (r->len < r->l2 + sizeof(*ip) || (ip->version_ihl >> 4) != 4 ||
			hl < sizeof(*ip) || r->len < r->l2 + hl)
		return verdict(r, WR_L3SVC_MALFORMED);
	tl = rte_be_to_cpu_16(ip->total_length);
	if (tl < hl + sizeof(struct rte_icmp_hdr) || r->l2 + tl > r->len ||
			rte_raw_cksum(ip, hl) != 0xffff)
		return verdict(r, WR_L3SVC_MALFORMED);
	l4 = (const uint8_t *)ip + hl;
	/* Fragments are not reassembled: counted, never answered. */
	if (!r->vlan_ok || !r->p->has_ip4 ||
			rte_be_to_cpu_32(ip->dst_addr) != r->p->ip4 ||
			(ip->fragment_offset & RTE_BE16(RTE_IPV4_HDR_MF_FLAG |
				RTE_IPV4_HDR_OFFSET_MASK)) != 0 ||
			!unicast4(rte_be_to_cpu_32(ip->src_addr)))
		return verdict(r, WR_L3SVC_NOT_OURS);
	if (rte_raw_cksum(l4, tl - hl) != 0xffff ||
			(l4[0] == WR_ICMP_ECHO_REQUEST && l4[1] != 0))
		return verdict(r, WR_L3SVC_MALFORMED);
	verdict(r, WR_L3SVC_OURS);
	if (l4[0] != WR_ICMP_ECHO_REQUEST)
		return 0;
	return echo4_reply(r, ip, hl, tl - hl);
}

/* The echo reply to an ICMPv6 echo request (RFC 4443 section 4.2). */
static int
echo6_reply(struct svc_rx *r, const struct rte_ipv6_hdr *req, uint32_t plen)
{
	const struct rte_ether_hdr *eth = (const struct rte_ether_hdr *)r->d;
	struct rte_ipv6_hdr *ip;
	uint8_t *l4;
	uint16_t ck;
	uint32_t l2;

	if (!room(r, RTE_ETHER_HDR_LEN + 4 + sizeof(*ip) + plen))
		return -ENOSPC;
	l2 = wr_l3svc_put_l2(r->p, r->out, &eth->src_addr, RTE_ETHER_TYPE_IPV6);
	ip = (struct rte_ipv6_hdr *)(r->out + l2);
	ip->vtc_flow = req->vtc_flow;
	ip->payload_len = req->payload_len;
	ip->proto = IPPROTO_ICMPV6;
	ip->hop_limits = WR_L3SVC_TTL;
	memcpy(&ip->src_addr, r->p->ip6, 16);
	memcpy(&ip->dst_addr, &req->src_addr, 16);
	l4 = (uint8_t *)(ip + 1);
	memcpy(l4, req + 1, plen);
	l4[0] = WR_ICMP6_ECHO_REPLY;
	memset(l4 + 2, 0, 2);
	ck = wr_l3svc_cksum6(ip, l4, plen);
	memcpy(l4 + 2, &ck, 2);
	r->v->reply_len = wr_l3svc_pad(r->out, l2 + (uint32_t)sizeof(*ip) + plen);
	return 0;
}

/*
 * Walk the ND options of n bytes at o (RFC 4861 section 4.6): a length
 * of 0 or past the end is malformed (-1). The link-layer address of
 * type want, if there, goes to *lla and *found.
 */
static int
nd_opts(const uint8_t *o, uint32_t n, uint8_t want, struct rte_ether_addr *lla,
		bool *found)
{
	*found = false;
	while (n > 0) {
		uint32_t olen = n < 2 ? 0 : (uint32_t)o[1] * 8;

		if (olen == 0 || olen > n)
			return -1;
		if (o[0] == want && o[1] == 1) {
			memcpy(lla, o + 2, sizeof(*lla));
			*found = true;
		}
		o += olen;
		n -= olen;
	}
	return 0;
}

/* An ND message at ip as received, after its checks of RFC 4861 7.1. */
struct nd_rx {
	const struct rte_ipv6_hdr *ip;
	struct wr_nd_msg msg;
	struct rte_ether_addr lla;  /* the SLLA (NS) or TLLA (NA) option */
	bool has_lla;
};

static bool
is_zero6(const uint8_t *a)
{
	static const uint8_t zero[16];

	return memcmp(a, zero, 16) == 0;
}

/* Read and check an NS or NA of plen bytes; false when malformed. */
static bool
nd_read(const struct rte_ipv6_hdr *ip, uint32_t plen, struct nd_rx *nd)
{
	const uint8_t *l4 = (const uint8_t *)(ip + 1);
	uint8_t want;

	if (plen < sizeof(nd->msg) || ip->hop_limits != WR_ND_HOP_LIMIT)
		return false;
	nd->ip = ip;
	memcpy(&nd->msg, l4, sizeof(nd->msg));
	want = nd->msg.type == WR_ICMP6_NS ? WR_ND_OPT_SLLA : WR_ND_OPT_TLLA;
	return nd->msg.code == 0 && nd->msg.target[0] != 0xff &&
		nd_opts(l4 + sizeof(nd->msg), plen - (uint32_t)sizeof(nd->msg),
			want, &nd->lla, &nd->has_lla) == 0 &&
		rte_is_unicast_ether_addr(&nd->lla);
}

/* Answer an NS for the port's address (or one of its more) with an NA
 * (RFC 4861 7.2.4). */
static int
rx_ns(struct svc_rx *r, const struct nd_rx *nd)
{
	static const uint8_t all_nodes[16] = { 0xff, 0x02, [15] = 0x01 };
	const struct rte_ether_hdr *eth = (const struct rte_ether_hdr *)r->d;
	struct wr_nd_msg na = { .type = WR_ICMP6_NA };
	struct rte_ether_addr dst_mac = {{ 0x33, 0x33, 0, 0, 0, 1 }};
	const uint8_t *dst = all_nodes;
	bool dad = is_zero6((const uint8_t *)&nd->ip->src_addr);
	uint32_t l2;

	/* Duplicate address detection carries no SLLA (RFC 4861 7.1.1). */
	if (dad && nd->has_lla)
		return verdict(r, WR_L3SVC_MALFORMED);
	if (!r->vlan_ok || !r->p->has_ip6 || !own6(r->p, nd->msg.target))
		return verdict(r, WR_L3SVC_NOT_OURS);
	verdict(r, WR_L3SVC_OURS);
	if (!room(r, RTE_ETHER_HDR_LEN + 4 + sizeof(*nd->ip) + WR_ND_LEN))
		return -ENOSPC;
	na.flags = RTE_BE32(WR_ND_NA_OVERRIDE);
	memcpy(na.target, nd->msg.target, 16);
	if (!dad) {
		na.flags = RTE_BE32(WR_ND_NA_OVERRIDE | WR_ND_NA_SOLICITED);
		dst = (const uint8_t *)&nd->ip->src_addr;
		dst_mac = nd->has_lla ? nd->lla : eth->src_addr;
		if (nd->has_lla)
			learn6(r, dst, &nd->lla);
	}
	l2 = wr_l3svc_put_l2(r->p, r->out, &dst_mac, RTE_ETHER_TYPE_IPV6);
	r->v->reply_len = l2 + wr_l3svc_put_nd(r->p, r->out + l2, dst, &na, WR_ND_OPT_TLLA);
	return 0;
}

/* Learn from an NA to the port or to all nodes (RFC 4861 7.2.5). */
static int
rx_na(struct svc_rx *r, const struct nd_rx *nd)
{
	const uint8_t *dst = (const uint8_t *)&nd->ip->dst_addr;
	bool mcast = dst[0] == 0xff;

	if (mcast && (nd->msg.flags & RTE_BE32(WR_ND_NA_SOLICITED)) != 0)
		return verdict(r, WR_L3SVC_MALFORMED);
	if (!r->vlan_ok || !r->p->has_ip6 ||
			(!mcast && memcmp(dst, r->p->ip6, 16) != 0) ||
			memcmp(nd->msg.target, r->p->ip6, 16) == 0)
		return verdict(r, WR_L3SVC_NOT_OURS);
	if (nd->has_lla)
		learn6(r, nd->msg.target, &nd->lla);
	return verdict(r, WR_L3SVC_OURS);
}

/* ICMPv6 without extension headers: echo, NS and NA. */
static int
rx_icmp6(struct svc_rx *r)
{
	const struct rte_ipv6_hdr *ip = (const struct rte_ipv6_hdr *)(r->d + r->l2);
	const uint8_t *l4 = (const uint8_t *)(ip + 1);
	struct nd_rx nd;
	uint32_t plen;

	if (r->len <= r->l2 + 6 || ip->proto != IPPROTO_ICMPV6)
		return verdict(r, WR_L3SVC_OTHER);
	if (r->len < r->l2 + sizeof(*ip) + 4 ||
			(ip->vtc_flow & RTE_BE32(0xf0000000)) != RTE_BE32(0x60000000))
		return verdict(r, WR_L3SVC_MALFORMED);
	plen = rte_be_to_cpu_16(ip->payload_len);
	if (plen < 4 || r->l2 + sizeof(*ip) + plen > r->len ||
			wr_l3svc_cksum6(ip, l4, plen) != 0)
		return verdict(r, WR_L3SVC_MALFORMED);
	memset(&nd, 0, sizeof(nd));
	switch (l4[0]) {
	case WR_ICMP6_ECHO_REQUEST:
		if (plen < sizeof(struct rte_icmp_hdr) || l4[1] != 0)
			return verdict(r, WR_L3SVC_MALFORMED);
		if (!r->vlan_ok || !r->p->has_ip6 ||
				memcmp(&ip->dst_addr, r->p->ip6, 16) != 0)
			return verdict(r, WR_L3SVC_NOT_OURS);
		verdict(r, WR_L3SVC_OURS);
		return echo6_reply(r, ip, plen);
	case WR_ICMP6_NS:
		return nd_read(ip, plen, &nd) ? rx_ns(r, &nd) :
			verdict(r, WR_L3SVC_MALFORMED);
	case WR_ICMP6_NA:
		return nd_read(ip, plen, &nd) ? rx_na(r, &nd) :
			verdict(r, WR_L3SVC_MALFORMED);
	default:
		return verdict(r, WR_L3SVC_NOT_OURS);
	}
}

int
wr_l3svc_handle(const struct wr_l3svc_port *p, const uint8_t *data,
		uint32_t len, uint8_t *out, uint32_t outlen,
		struct wr_l3svc_verdict *v)
{
	struct svc_rx r = {
		.p = p, .d = data, .len = len, .l2 = RTE_ETHER_HDR_LEN,
		.out = out, .outlen = outlen, .v = v,
	};
	uint16_t type, vid = 0;

	memset(v, 0, sizeof(*v));
	if (len < RTE_ETHER_HDR_LEN)
		return 0;
	type = (uint16_t)(data[12] << 8 | data[13]);
	if (type == RTE_ETHER_TYPE_VLAN) {
		if (len < RTE_ETHER_HDR_LEN + 4)
			return 0;
		vid = (uint16_t)((data[14] << 8 | data[15]) & 0xfff);
		type = (uint16_t)(data[16] << 8 | data[17]);
		r.l2 += 4;
		r.vlan_ok = vid == p->vlan_id && vid != 0;
	} else {
		r.vlan_ok = p->vlan_id == 0;
	}
	switch (type) {
	case RTE_ETHER_TYPE_ARP:
		return rx_arp(&r);
	case RTE_ETHER_TYPE_IPV4:
		return rx_icmp4(&r);
	case RTE_ETHER_TYPE_IPV6:
		return rx_icmp6(&r);
	default:
		return 0;
	}
}
