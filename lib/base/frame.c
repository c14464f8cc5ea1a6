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

uint32_t
wr_frame_min_size_spec(const struct wr_frame_spec *spec)
{
	uint32_t need;

	if (spec->stack == NULL || spec->stack->nb_layers == 0)
		return wr_frame_min_size_l3(spec->vlan_id != 0, spec->ipv6);
	need = wr_stack_hdr_len(spec->stack) + WR_FRAME_TH_LEN + WR_UNITS_FCS_BYTES;
	return need < 64 ? 64 : need;
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

/* The test header of spec at off, then the pattern to data_len. */
static void
build_payload(const struct wr_frame_spec *spec, uint8_t *buf, uint32_t off,
		uint32_t data_len)
{
	struct wr_test_hdr th;
	uint32_t i;

	th.magic = WR_FRAME_MAGIC;
	th.stream_id = spec->stream_id;
	th.seq = 0;
	th.tsc_lo = 0;
	memcpy(buf + off, &th, sizeof(th));
	/*
	 * A fixed pattern after the header, so captures are recognisable; by
	 * offset, so a shorter frame of a mix is a prefix of a longer one.
	 */
	for (i = off + sizeof(th); i < data_len; i++)
		buf[i] = (uint8_t)i;
}

/* What a stack takes from spec (stack.h), as on the wire. */
static void
stack_defaults(const struct wr_frame_spec *spec, struct wr_stack_defaults *d)
{
	uint32_t s4 = rte_cpu_to_be_32(spec->src_ip), d4 = rte_cpu_to_be_32(spec->dst_ip);

	memcpy(d->src_mac, &spec->src_mac, sizeof(d->src_mac));
	memcpy(d->dst_mac, &spec->dst_mac, sizeof(d->dst_mac));
	memcpy(d->src_ip4, &s4, sizeof(s4));
	memcpy(d->dst_ip4, &d4, sizeof(d4));
	memcpy(d->src_ip6, spec->src_ip6, sizeof(d->src_ip6));
	memcpy(d->dst_ip6, spec->dst_ip6, sizeof(d->dst_ip6));
	d->src_udp = spec->src_udp;
	d->dst_udp = spec->dst_udp;
	d->dscp = spec->dscp;
}

/* The frame of a spec with a stack: headers by stack.c, layout from it. */
static int
build_stacked(const struct wr_frame_spec *spec, uint8_t *buf, uint32_t data_len,
		struct wr_frame_layout *lay)
{
	struct wr_stack_defaults def;
	struct wr_stack_layout sl;

	stack_defaults(spec, &def);
	build_payload(spec, buf, wr_stack_hdr_len(spec->stack), data_len);
	if (wr_stack_build(spec->stack, &def, buf, data_len, WR_FRAME_TH_LEN, &sl) != 0)
		return -EINVAL;
	lay->th_off = sl.th_off;
	lay->udp_sport_off = sl.sport_off;
	lay->udp_ck_off = sl.ck_off;
	lay->udp_ck_live = sl.ck_live;
	lay->var_off[0] = (uint16_t)sl.len_off[0];
	lay->var_off[1] = (uint16_t)sl.len_off[1];
	lay->var_off[2] = (uint16_t)sl.ck_off;
	return 0;
}

/* The plain frame: Ethernet [802.1Q] / IPv4 or IPv6 / UDP. */
static void
build_plain(const struct wr_frame_spec *spec, uint8_t *buf, uint32_t data_len,
		struct wr_frame_layout *lay)
{
	uint32_t l2 = build_l2(spec, buf);
	uint32_t l3l4 = spec->ipv6 ? L3L4_LEN6 : L3L4_LEN;

	if (spec->ipv6)
		build_l3l4_6(spec, buf + l2, data_len - l2, lay, l2);
	else
		build_l3l4(spec, buf + l2, data_len - l2, lay, l2);
	build_payload(spec, buf, l2 + l3l4, data_len);
	if (spec->ipv6)
		finish_udp6(buf, l2);
	lay->udp_sport_off = l2 + l3l4 - sizeof(struct rte_udp_hdr);
	lay->th_off = l2 + l3l4;
	lay->udp_ck_live = spec->ipv6;
}

int
wr_frame_build(const struct wr_frame_spec *spec, uint8_t *buf,
		size_t buflen, struct wr_frame_layout *lay)
{
	uint32_t data_len, i;

	if (spec->size < wr_frame_min_size_spec(spec) || spec->size > 65535)
		return -EINVAL;
	data_len = spec->size - WR_UNITS_FCS_BYTES;
	if (buflen < data_len)
		return -EINVAL;
	if (spec->stack != NULL && spec->stack->nb_layers != 0) {
		if (build_stacked(spec, buf, data_len, lay) != 0)
			return -EINVAL;
	} else {
		build_plain(spec, buf, data_len, lay);
	}
	lay->data_len = data_len;
	for (i = 0; i < WR_FRAME_NB_VAR; i++)
		memcpy(&lay->var_val[i], buf + lay->var_off[i], sizeof(uint16_t));
	return 0;
}
