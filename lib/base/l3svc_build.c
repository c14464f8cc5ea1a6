/* SPDX-License-Identifier: BSD-3-Clause */
/* Frames a port with IP addresses sends on its own (l3svc.h). */
#include <errno.h>
#include <string.h>

#include <rte_arp.h>

#include "l3svc_int.h"

uint32_t
wr_l3svc_put_l2(const struct wr_l3svc_port *p, uint8_t *out,
		const struct rte_ether_addr *dst, uint16_t ether_type)
{
	rte_be16_t type = rte_cpu_to_be_16(ether_type);
	uint32_t l2 = RTE_ETHER_HDR_LEN;

	memcpy(out, dst, RTE_ETHER_ADDR_LEN);
	memcpy(out + RTE_ETHER_ADDR_LEN, &p->mac, RTE_ETHER_ADDR_LEN);
	if (p->vlan_id != 0) {
		rte_be16_t tpid = RTE_BE16(RTE_ETHER_TYPE_VLAN);
		rte_be16_t tci = rte_cpu_to_be_16(p->vlan_id);

		memcpy(out + 12, &tpid, 2);
		memcpy(out + 14, &tci, 2);
		l2 += 4;
	}
	memcpy(out + l2 - 2, &type, 2);
	return l2;
}

uint32_t
wr_l3svc_pad(uint8_t *out, uint32_t len)
{
	if (len >= WR_L3SVC_MIN_LEN)
		return len;
	memset(out + len, 0, WR_L3SVC_MIN_LEN - len);
	return WR_L3SVC_MIN_LEN;
}

uint16_t
wr_l3svc_cksum6(const struct rte_ipv6_hdr *ip, const uint8_t *l4,
		uint32_t l4_len)
{
	uint32_t sum = rte_ipv6_phdr_cksum(ip, 0);

	sum = __rte_raw_cksum(l4, l4_len, sum);
	return (uint16_t)~__rte_raw_cksum_reduce(sum);
}

uint32_t
wr_l3svc_put_nd(const struct wr_l3svc_port *p, uint8_t *l3,
		const uint8_t dst[16], const struct wr_nd_msg *nd, uint8_t opt_type)
{
	struct rte_ipv6_hdr *ip = (struct rte_ipv6_hdr *)l3;
	uint8_t *l4 = l3 + sizeof(*ip);
	struct wr_nd_opt_lla opt = { .type = opt_type, .len = 1, .mac = p->mac };
	struct wr_nd_msg msg = *nd;

	ip->vtc_flow = RTE_BE32(0x60000000);
	ip->payload_len = rte_cpu_to_be_16(WR_ND_LEN);
	ip->proto = IPPROTO_ICMPV6;
	ip->hop_limits = WR_ND_HOP_LIMIT;
	memcpy(&ip->src_addr, p->ip6, 16);
	memcpy(&ip->dst_addr, dst, 16);
	msg.cksum = 0;
	memcpy(l4, &msg, sizeof(msg));
	memcpy(l4 + sizeof(msg), &opt, sizeof(opt));
	msg.cksum = wr_l3svc_cksum6(ip, l4, WR_ND_LEN);
	memcpy(l4, &msg, sizeof(msg));
	return sizeof(*ip) + WR_ND_LEN;
}

/* An ARP request from p for target (host order) to the broadcast MAC. */
static int
arp_request(const struct wr_l3svc_port *p, uint32_t target, uint8_t *out,
		uint32_t outlen)
{
	static const struct rte_ether_addr bcast = {{ 0xff, 0xff, 0xff, 0xff, 0xff, 0xff }};
	struct rte_arp_hdr arp;
	uint32_t l2;

	if (!p->has_ip4)
		return -EINVAL;
	if (outlen < WR_L3SVC_MIN_LEN + 4)
		return -ENOSPC;
	memset(&arp, 0, sizeof(arp));
	arp.arp_hardware = RTE_BE16(RTE_ARP_HRD_ETHER);
	arp.arp_protocol = RTE_BE16(RTE_ETHER_TYPE_IPV4);
	arp.arp_hlen = RTE_ETHER_ADDR_LEN;
	arp.arp_plen = 4;
	arp.arp_opcode = RTE_BE16(RTE_ARP_OP_REQUEST);
	arp.arp_data.arp_sha = p->mac;
	arp.arp_data.arp_sip = rte_cpu_to_be_32(p->ip4);
	arp.arp_data.arp_tip = rte_cpu_to_be_32(target);
	l2 = wr_l3svc_put_l2(p, out, &bcast, RTE_ETHER_TYPE_ARP);
	memcpy(out + l2, &arp, sizeof(arp));
	return (int)wr_l3svc_pad(out, l2 + (uint32_t)sizeof(arp));
}

int
wr_l3svc_arp_request(const struct wr_l3svc_port *p, uint32_t target_ip4,
		uint8_t *out, uint32_t outlen)
{
	return arp_request(p, target_ip4, out, outlen);
}

int
wr_l3svc_arp_announce(const struct wr_l3svc_port *p, uint8_t *out,
		uint32_t outlen)
{
	return arp_request(p, p->ip4, out, outlen);
}

/* The multicast MAC of an IPv6 multicast address (RFC 2464 section 7). */
static void
mcast_mac(const uint8_t ip6[16], struct rte_ether_addr *mac)
{
	mac->addr_bytes[0] = 0x33;
	mac->addr_bytes[1] = 0x33;
	memcpy(&mac->addr_bytes[2], ip6 + 12, 4);
}

/* Write an ND frame from p to the multicast dst; see wr_l3svc_ns(). */
static int
nd_frame(const struct wr_l3svc_port *p, const uint8_t dst[16],
		const struct wr_nd_msg *nd, uint8_t opt_type, uint8_t *out,
		uint32_t outlen)
{
	struct rte_ether_addr mac;
	uint32_t l2;

	if (!p->has_ip6)
		return -EINVAL;
	if (outlen < WR_L3SVC_BUILD_MAX)
		return -ENOSPC;
	mcast_mac(dst, &mac);
	l2 = wr_l3svc_put_l2(p, out, &mac, RTE_ETHER_TYPE_IPV6);
	return (int)(l2 + wr_l3svc_put_nd(p, out + l2, dst, nd, opt_type));
}

int
wr_l3svc_ns(const struct wr_l3svc_port *p, const uint8_t target_ip6[16],
		uint8_t *out, uint32_t outlen)
{
	/* Solicited-node multicast: ff02::1:ff00:0/104 (RFC 4291 2.7.1). */
	uint8_t dst[16] = { 0xff, 0x02, [11] = 0x01, [12] = 0xff };
	struct wr_nd_msg nd = { .type = WR_ICMP6_NS };

	memcpy(dst + 13, target_ip6 + 13, 3);
	memcpy(nd.target, target_ip6, 16);
	return nd_frame(p, dst, &nd, WR_ND_OPT_SLLA, out, outlen);
}

int
wr_l3svc_na_announce(const struct wr_l3svc_port *p, uint8_t *out,
		uint32_t outlen)
{
	static const uint8_t all_nodes[16] = { 0xff, 0x02, [15] = 0x01 };
	struct wr_nd_msg nd = {
		.type = WR_ICMP6_NA,
		.flags = RTE_BE32(WR_ND_NA_OVERRIDE),
	};

	memcpy(nd.target, p->ip6, 16);
	return nd_frame(p, all_nodes, &nd, WR_ND_OPT_TLLA, out, outlen);
}
