/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <netinet/in.h>
#include <string.h>

#include "frame.h"
#include "units.h"

#define L3L4_LEN (sizeof(struct rte_ipv4_hdr) + sizeof(struct rte_udp_hdr))

uint32_t
wr_frame_min_size(bool vlan)
{
	uint32_t need = RTE_ETHER_HDR_LEN + (vlan ? 4 : 0) + L3L4_LEN +
		WR_FRAME_TH_LEN + WR_UNITS_FCS_BYTES;

	return need < 64 ? 64 : need;
}

/* Ethernet header (and tag); returns the L2 length. */
static uint32_t
build_l2(const struct wr_frame_spec *spec, uint8_t *buf)
{
	struct rte_ether_hdr *eth = (struct rte_ether_hdr *)buf;

	rte_ether_addr_copy(&spec->dst_mac, &eth->dst_addr);
	rte_ether_addr_copy(&spec->src_mac, &eth->src_addr);
	if (spec->vlan_id == 0) {
		eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
		return RTE_ETHER_HDR_LEN;
	}
	eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_VLAN);
	*(uint16_t *)(buf + 14) = rte_cpu_to_be_16(spec->vlan_id & 0xfff);
	*(uint16_t *)(buf + 16) = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
	return RTE_ETHER_HDR_LEN + 4;
}

/* IPv4 and UDP headers for an IP packet of ip_len bytes. */
static void
build_l3l4(const struct wr_frame_spec *spec, uint8_t *p, uint32_t ip_len)
{
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)p;
	struct rte_udp_hdr *udp = (struct rte_udp_hdr *)(ip + 1);

	memset(ip, 0, sizeof(*ip));
	ip->version_ihl = 0x45;
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
}

int
wr_frame_build(const struct wr_frame_spec *spec, uint8_t *buf,
		size_t buflen, struct wr_frame_layout *lay)
{
	uint32_t data_len, l2, i;
	struct wr_test_hdr th;

	if (spec->size < wr_frame_min_size(spec->vlan_id != 0) ||
			spec->size > 65535)
		return -EINVAL;
	data_len = spec->size - WR_UNITS_FCS_BYTES;
	if (buflen < data_len)
		return -EINVAL;
	l2 = build_l2(spec, buf);
	build_l3l4(spec, buf + l2, data_len - l2);
	th.magic = WR_FRAME_MAGIC;
	th.stream_id = spec->stream_id;
	th.seq = 0;
	th.tsc_lo = 0;
	memcpy(buf + l2 + L3L4_LEN, &th, sizeof(th));
	/* A fixed pattern after the header, so captures are recognisable. */
	for (i = l2 + L3L4_LEN + sizeof(th); i < data_len; i++)
		buf[i] = (uint8_t)i;
	lay->data_len = data_len;
	lay->udp_sport_off = l2 + sizeof(struct rte_ipv4_hdr);
	lay->th_off = l2 + L3L4_LEN;
	return 0;
}
