/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <netinet/in.h>
#include <stddef.h>
#include <string.h>

#include "frame.h"
#include "units.h"

#define L3L4_LEN (sizeof(struct rte_ipv4_hdr) + sizeof(struct rte_udp_hdr))
#define L3L4_LEN6 (sizeof(struct rte_ipv6_hdr) + sizeof(struct rte_udp_hdr))

uint32_t
wr_frame_min_size_l3(bool vlan, bool ipv6)
{
	uint32_t need = RTE_ETHER_HDR_LEN + (vlan ? 4 : 0) +
		(ipv6 ? L3L4_LEN6 : L3L4_LEN) + WR_FRAME_TH_LEN + WR_UNITS_FCS_BYTES;

	return need < 64 ? 64 : need;
}

uint32_t
wr_frame_min_size(bool vlan)
{
	return wr_frame_min_size_l3(vlan, false);
}

/* Ethernet header (and tag); returns the L2 length. */
static uint32_t
build_l2(const struct wr_frame_spec *spec, uint8_t *buf)
{
	struct rte_ether_hdr *eth = (struct rte_ether_hdr *)buf;

	rte_ether_addr_copy(&spec->dst_mac, &eth->dst_addr);
	rte_ether_addr_copy(&spec->src_mac, &eth->src_addr);
	uint16_t l3 = spec->ipv6 ? RTE_ETHER_TYPE_IPV6 : RTE_ETHER_TYPE_IPV4;

	if (spec->vlan_id == 0) {
		eth->ether_type = rte_cpu_to_be_16(l3);
		return RTE_ETHER_HDR_LEN;
	}
	eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_VLAN);
	*(uint16_t *)(buf + 14) = rte_cpu_to_be_16((uint16_t)((spec->vlan_prio & 7) << 13 |
		(spec->vlan_id & 0xfff)));
	*(uint16_t *)(buf + 16) = rte_cpu_to_be_16(l3);
	return RTE_ETHER_HDR_LEN + 4;
}

/* IPv4 and UDP headers for an IP packet of ip_len bytes. */
static void
build_l3l4(const struct wr_frame_spec *spec, uint8_t *p, uint32_t ip_len,
		struct wr_frame_layout *lay, uint32_t l2)
{
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)p;
	struct rte_udp_hdr *udp = (struct rte_udp_hdr *)(ip + 1);

	memset(ip, 0, sizeof(*ip));
	ip->version_ihl = 0x45;
	ip->type_of_service = (uint8_t)(spec->dscp << 2);
	ip->total_length = rte_cpu_to_be_16((uint16_t)ip_len);
	ip->fragment_offset = rte_cpu_to_be_16(RTE_IPV4_HDR_DF_FLAG);
	ip->time_to_live = 64;
	ip->next_proto_id = IPPROTO_UDP;
	ip->src_addr = rte_cpu_to_be_32(spec->src_ip);
	ip->dst_addr = rte_cpu_to_be_32(spec->dst_ip);
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	udp->src_port = rte_cpu_to_be_16(spec->src_udp);
	udp->dst_port = rte_cpu_to_be_16(spec->dst_udp);
	udp->dgram_len = rte_cpu_to_be_16((uint16_t)(ip_len - sizeof(*ip)));
	udp->dgram_cksum = 0;
	lay->var_off[0] = (uint16_t)(l2 + offsetof(struct rte_ipv4_hdr, total_length));
	lay->var_off[1] = (uint16_t)(l2 + offsetof(struct rte_ipv4_hdr, hdr_checksum));
	lay->var_off[2] = (uint16_t)(l2 + sizeof(*ip) +
		offsetof(struct rte_udp_hdr, dgram_len));
	lay->udp_ck_off = l2 + sizeof(*ip) + offsetof(struct rte_udp_hdr, dgram_cksum);
}

/* IPv6 and UDP headers for an IP packet of ip_len bytes (checksum later). */
static void
build_l3l4_6(const struct wr_frame_spec *spec, uint8_t *p, uint32_t ip_len,
		struct wr_frame_layout *lay, uint32_t l2)
{
	struct rte_ipv6_hdr *ip = (struct rte_ipv6_hdr *)p;
	struct rte_udp_hdr *udp = (struct rte_udp_hdr *)(ip + 1);
	uint16_t len = (uint16_t)(ip_len - sizeof(*ip));

	memset(ip, 0, sizeof(*ip));
	ip->vtc_flow = rte_cpu_to_be_32(0x60000000u | (uint32_t)(spec->dscp & 63) << 22);
	ip->payload_len = rte_cpu_to_be_16(len);
	ip->proto = IPPROTO_UDP;
	ip->hop_limits = 64;
	memcpy(&ip->src_addr, spec->src_ip6, sizeof(ip->src_addr));
	memcpy(&ip->dst_addr, spec->dst_ip6, sizeof(ip->dst_addr));
	udp->src_port = rte_cpu_to_be_16(spec->src_udp);
	udp->dst_port = rte_cpu_to_be_16(spec->dst_udp);
	udp->dgram_len = rte_cpu_to_be_16(len);
	udp->dgram_cksum = 0;
	lay->var_off[0] = (uint16_t)(l2 + offsetof(struct rte_ipv6_hdr, payload_len));
	lay->var_off[1] = (uint16_t)(l2 + sizeof(*ip) +
		offsetof(struct rte_udp_hdr, dgram_len));
	lay->var_off[2] = (uint16_t)(l2 + sizeof(*ip) +
		offsetof(struct rte_udp_hdr, dgram_cksum));
	lay->udp_ck_off = lay->var_off[2];
}

/* The UDP checksum over the finished IPv6 frame (RFC 8200 section 8.1). */
static void
finish_udp6(uint8_t *buf, uint32_t l2)
{
	struct rte_ipv6_hdr *ip = (struct rte_ipv6_hdr *)(buf + l2);
	struct rte_udp_hdr *udp = (struct rte_udp_hdr *)(ip + 1);

	udp->dgram_cksum = rte_ipv6_udptcp_cksum(ip, udp);
}

int
wr_frame_build(const struct wr_frame_spec *spec, uint8_t *buf,
		size_t buflen, struct wr_frame_layout *lay)
{
	uint32_t data_len, l2, l3l4, i;
	struct wr_test_hdr th;

	if (spec->size < wr_frame_min_size_l3(spec->vlan_id != 0, spec->ipv6) ||
			spec->size > 65535)
		return -EINVAL;
	data_len = spec->size - WR_UNITS_FCS_BYTES;
	if (buflen < data_len)
		return -EINVAL;
	l2 = build_l2(spec, buf);
	l3l4 = spec->ipv6 ? L3L4_LEN6 : L3L4_LEN;
	if (spec->ipv6)
		build_l3l4_6(spec, buf + l2, data_len - l2, lay, l2);
	else
		build_l3l4(spec, buf + l2, data_len - l2, lay, l2);
	th.magic = WR_FRAME_MAGIC;
	th.stream_id = spec->stream_id;
	th.seq = 0;
	th.tsc_lo = 0;
	memcpy(buf + l2 + l3l4, &th, sizeof(th));
	/*
	 * A fixed pattern after the header, so captures are recognisable; by
	 * offset, so a shorter frame of a mix is a prefix of a longer one.
	 */
	for (i = l2 + l3l4 + sizeof(th); i < data_len; i++)
		buf[i] = (uint8_t)i;
	if (spec->ipv6)
		finish_udp6(buf, l2);
	lay->data_len = data_len;
	lay->udp_sport_off = l2 + l3l4 - sizeof(struct rte_udp_hdr);
	lay->th_off = l2 + l3l4;
	for (i = 0; i < WR_FRAME_NB_VAR; i++)
		memcpy(&lay->var_val[i], buf + lay->var_off[i], sizeof(uint16_t));
	return 0;
}
