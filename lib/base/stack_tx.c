/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Header stacks (stack.h): the TX builder. Every header is written through
 * DPDK's rte_* header structs; lengths from the frame's size, checksums
 * innermost first.
 */
#include <errno.h>
#include <netinet/in.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_geneve.h>
#include <rte_gre.h>
#include <rte_ip.h>
#include <rte_mpls.h>
#include <rte_udp.h>
#include <rte_vxlan.h>

#include "cksum.h"
#include "stack.h"

#define TYPE_TEB 0x6558u  /* transparent Ethernet bridging: GRE, Geneve */

/* What one layer's writer needs. */
struct put {
	const struct wr_stack_layer *ly;
	const struct wr_stack_defaults *def;
	uint8_t *p;          /* the layer's first byte */
	int next;            /* kind of the layer after, -1: the test header */
	bool inner;          /* the innermost IP or UDP: the stream's fields */
};

/* The EtherType announcing kind next (also GRE's and Geneve's protocol). */
static uint16_t
ether_type(int next)
{
	switch (next) {
	case WR_STACK_VLAN: return RTE_ETHER_TYPE_VLAN;
	case WR_STACK_SVLAN: return RTE_ETHER_TYPE_QINQ;
	case WR_STACK_MPLS: return RTE_ETHER_TYPE_MPLS;
	case WR_STACK_IPV6: return RTE_ETHER_TYPE_IPV6;
	case WR_STACK_ETH: return TYPE_TEB;
	default: return RTE_ETHER_TYPE_IPV4;
	}
}

/* The IP protocol number announcing kind next. */
static uint8_t
ip_proto(int next)
{
	switch (next) {
	case WR_STACK_GRE: return IPPROTO_GRE;
	case WR_STACK_IPV4: return IPPROTO_IPIP;
	case WR_STACK_IPV6: return IPPROTO_IPV6;
	default: return IPPROTO_UDP;
	}
}

/* An address field: the layer's when given (bit), else the default. */
static const uint8_t *
addr(const struct put *a, unsigned int bit, const uint8_t *def)
{
	if ((a->ly->given & bit) == 0 || a->inner)
		return def;
	return bit == 1 ? a->ly->src : a->ly->dst;
}

static void
put_eth(const struct put *a)
{
	struct rte_ether_hdr *h = (struct rte_ether_hdr *)a->p;

	memcpy(&h->dst_addr, addr(a, 2, a->def->dst_mac), RTE_ETHER_ADDR_LEN);
	memcpy(&h->src_addr, addr(a, 1, a->def->src_mac), RTE_ETHER_ADDR_LEN);
	h->ether_type = rte_cpu_to_be_16(ether_type(a->next));
}

static void
put_vlan(const struct put *a)
{
	struct rte_vlan_hdr *h = (struct rte_vlan_hdr *)a->p;

	h->vlan_tci = rte_cpu_to_be_16((uint16_t)(a->ly->num[1] << 13 | a->ly->num[0]));
	h->eth_proto = rte_cpu_to_be_16(ether_type(a->next));
}

/* One label stack entry; the last before a non-MPLS layer is the bottom. */
static void
put_mpls(const struct put *a)
{
	struct rte_mpls_hdr *h = (struct rte_mpls_hdr *)a->p;

	h->tag_msb = rte_cpu_to_be_16((uint16_t)(a->ly->num[0] >> 4));
	h->tag_lsb = a->ly->num[0] & 0xf;
	h->tc = a->ly->num[1] & 7;
	h->bs = a->next != WR_STACK_MPLS;
	h->ttl = (uint8_t)a->ly->num[2];
}

static void
put_ipv4(const struct put *a)
{
	struct rte_ipv4_hdr *h = (struct rte_ipv4_hdr *)a->p;

	memset(h, 0, sizeof(*h));
	h->version_ihl = 0x45;
	h->type_of_service = (uint8_t)(a->def->dscp << 2);
	h->fragment_offset = rte_cpu_to_be_16(RTE_IPV4_HDR_DF_FLAG);
	h->time_to_live = (uint8_t)a->ly->num[0];
	h->next_proto_id = ip_proto(a->next);
	memcpy(&h->src_addr, addr(a, 1, a->def->src_ip4), 4);
	memcpy(&h->dst_addr, addr(a, 2, a->def->dst_ip4), 4);
}

static void
put_ipv6(const struct put *a)
{
	struct rte_ipv6_hdr *h = (struct rte_ipv6_hdr *)a->p;

	memset(h, 0, sizeof(*h));
	h->vtc_flow = rte_cpu_to_be_32(0x60000000u | (uint32_t)(a->def->dscp & 63) << 22);
	h->proto = ip_proto(a->next);
	h->hop_limits = (uint8_t)a->ly->num[0];
	memcpy(&h->src_addr, addr(a, 1, a->def->src_ip6), 16);
	memcpy(&h->dst_addr, addr(a, 2, a->def->dst_ip6), 16);
}

/* UDP; an outer one's destination port says what it carries. */
static void
put_udp(const struct put *a)
{
	struct rte_udp_hdr *h = (struct rte_udp_hdr *)a->p;
	uint16_t sport = a->def->src_udp, dport = a->def->dst_udp;

	if (!a->inner) {
		dport = a->next == WR_STACK_VXLAN ? RTE_VXLAN_DEFAULT_PORT :
			RTE_GENEVE_DEFAULT_PORT;
		if (a->ly->given & 1)
			sport = (uint16_t)a->ly->num[0];
		if (a->ly->given & 2)
			dport = (uint16_t)a->ly->num[1];
	}
	h->src_port = rte_cpu_to_be_16(sport);
	h->dst_port = rte_cpu_to_be_16(dport);
}

/* GRE without checksum or sequence; the key when given (RFC 2890). */
static void
put_gre(const struct put *a)
{
	struct rte_gre_hdr *h = (struct rte_gre_hdr *)a->p;
	rte_be32_t key = rte_cpu_to_be_32(a->ly->num[0]);

	memset(h, 0, sizeof(*h));
	h->k = (a->ly->given & WR_STACK_GRE_KEY) != 0;
	h->proto = rte_cpu_to_be_16(ether_type(a->next));
	if (h->k)
		memcpy(h + 1, &key, sizeof(key));
}

static void
put_vxlan(const struct put *a)
{
	struct rte_vxlan_hdr *h = (struct rte_vxlan_hdr *)a->p;

	h->vx_flags = RTE_BE32(0x08000000); /* I: the VNI is valid */
	h->vx_vni = rte_cpu_to_be_32(a->ly->num[0] << 8);
}

static void
put_geneve(const struct put *a)
{
	struct rte_geneve_hdr *h = (struct rte_geneve_hdr *)a->p;

	memset(h, 0, sizeof(*h));
	h->proto = rte_cpu_to_be_16(ether_type(a->next));
	h->vni[0] = (uint8_t)(a->ly->num[0] >> 16);
	h->vni[1] = (uint8_t)(a->ly->num[0] >> 8);
	h->vni[2] = (uint8_t)a->ly->num[0];
}

static void (*const put_fn[WR_STACK_NB_KINDS])(const struct put *) = {
	[WR_STACK_ETH] = put_eth, [WR_STACK_VLAN] = put_vlan,
	[WR_STACK_SVLAN] = put_vlan, [WR_STACK_MPLS] = put_mpls,
	[WR_STACK_IPV4] = put_ipv4, [WR_STACK_IPV6] = put_ipv6,
	[WR_STACK_UDP] = put_udp, [WR_STACK_GRE] = put_gre,
	[WR_STACK_VXLAN] = put_vxlan, [WR_STACK_GENEVE] = put_geneve,
};

/*
 * The lengths of every IP and UDP layer for a frame of data_len bytes,
 * and the IPv4 header checksums (options included); UDP checksums 0 until
 * udp_checksums. An IPv6 payload length counts its extension headers.
 */
static void
fix_lengths(const struct wr_stack *st, const uint32_t *off, uint8_t *buf,
		uint32_t data_len)
{
	unsigned int i;

	for (i = 0; i < st->nb_layers; i++) {
		uint8_t *p = buf + off[i];
		uint16_t left = (uint16_t)(data_len - off[i]);

		if (st->l[i].kind == WR_STACK_IPV4) {
			struct rte_ipv4_hdr *h = (struct rte_ipv4_hdr *)p;

			h->total_length = rte_cpu_to_be_16(left);
			h->hdr_checksum = 0;
			h->hdr_checksum = rte_ipv4_cksum(h);
		} else if (st->l[i].kind == WR_STACK_IPV6) {
			((struct rte_ipv6_hdr *)p)->payload_len = rte_cpu_to_be_16(
				(uint16_t)(left - sizeof(struct rte_ipv6_hdr)));
		} else if (st->l[i].kind == WR_STACK_UDP) {
			((struct rte_udp_hdr *)p)->dgram_len = rte_cpu_to_be_16(left);
			((struct rte_udp_hdr *)p)->dgram_cksum = 0;
		}
	}
}

/*
 * The UDP checksum of the datagram u over IPv6 header h (RFC 8200 section
 * 8.1: the pseudo-header's length is the UDP length, whatever extension
 * headers lie between); 0 is sent as 0xffff.
 */
static uint16_t
udp6_cksum(const struct rte_ipv6_hdr *h, const struct rte_udp_hdr *u)
{
	uint16_t len = rte_be_to_cpu_16(u->dgram_len);
	/* Words as they lie in memory, as rte_raw_cksum sums them (RFC 1071). */
	uint32_t sum = (uint32_t)rte_raw_cksum(&h->src_addr, 32) + u->dgram_len +
		RTE_BE16(IPPROTO_UDP);
	uint16_t ck;

	sum = wr_cksum_add(u, len, sum);
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	ck = (uint16_t)~sum;
	return ck == 0 ? 0xffff : ck;
}

/*
 * UDP checksums, innermost first, so each outer one covers its inner one
 * finished: over IPv6 computed (never 0), over IPv4 left 0. The innermost
 * computed one is live.
 */
static void
udp_checksums(const struct wr_stack *st, const uint32_t *off, uint8_t *buf,
		struct wr_stack_layout *lay)
{
	unsigned int i;

	lay->ck_live = false;
	lay->ck_off = off[st->nb_layers - 1] + offsetof(struct rte_udp_hdr, dgram_cksum);
	for (i = st->nb_layers - 1; i > 0; i--) {
		struct rte_udp_hdr *u = (struct rte_udp_hdr *)(buf + off[i]);

		if (st->l[i].kind != WR_STACK_UDP || st->l[i - 1].kind != WR_STACK_IPV6)
			continue;
		u->dgram_cksum = udp6_cksum(
			(const struct rte_ipv6_hdr *)(buf + off[i - 1]), u);
		if (!lay->ck_live)
			lay->ck_off = off[i] + offsetof(struct rte_udp_hdr, dgram_cksum);
		lay->ck_live = true;
	}
}

/* Where each layer starts; returns the header bytes. */
static uint32_t
layer_offsets(const struct wr_stack *st, uint32_t *off)
{
	uint32_t hdr = 0;
	unsigned int i;

	for (i = 0; i < st->nb_layers; i++) {
		off[i] = st->tmpl_len != 0 ? st->l[i].off : hdr;
		hdr += wr_stack_layer_len(&st->l[i]);
	}
	return st->tmpl_len != 0 ? st->tmpl_len : hdr;
}

/*
 * A template's headers as captured, but the innermost UDP ports: the
 * stream's, as a spec's (--flows and ranges count from them).
 */
static void
put_template(const struct wr_stack *st, const struct wr_stack_defaults *def,
		uint8_t *buf, uint32_t udp_off)
{
	struct rte_udp_hdr *u = (struct rte_udp_hdr *)(buf + udp_off);

	memcpy(buf, st->tmpl, st->tmpl_len);
	u->src_port = rte_cpu_to_be_16(def->src_udp);
	u->dst_port = rte_cpu_to_be_16(def->dst_udp);
}

/* A spec's headers, each by its writer. */
static void
put_layers(const struct wr_stack *st, const struct wr_stack_defaults *def,
		uint8_t *buf, const uint32_t *off)
{
	unsigned int i, n = st->nb_layers;
	struct put a = { .def = def };

	for (i = 0; i < n; i++) {
		a.ly = &st->l[i];
		a.p = buf + off[i];
		a.next = i + 1 < n ? st->l[i + 1].kind : -1;
		a.inner = i + 2 >= n;
		put_fn[st->l[i].kind](&a);
	}
}

int
wr_stack_build(const struct wr_stack *st, const struct wr_stack_defaults *def,
		uint8_t *buf, uint32_t data_len, uint32_t th_len,
		struct wr_stack_layout *lay)
{
	uint32_t off[WR_STACK_MAX_LAYERS], hdr;
	unsigned int n = st->nb_layers;

	if (n < 3)
		return -EINVAL;
	hdr = layer_offsets(st, off);
	if (data_len < hdr + th_len || data_len > 65535)
		return -EINVAL;
	if (st->tmpl_len != 0)
		put_template(st, def, buf, off[n - 1]);
	else
		put_layers(st, def, buf, off);
	fix_lengths(st, off, buf, data_len);
	udp_checksums(st, off, buf, lay);
	lay->th_off = hdr;
	lay->sport_off = off[n - 1];
	lay->len_off[0] = off[n - 2] + (st->l[n - 2].kind == WR_STACK_IPV4 ?
		offsetof(struct rte_ipv4_hdr, total_length) :
		offsetof(struct rte_ipv6_hdr, payload_len));
	lay->len_off[1] = off[n - 1] + offsetof(struct rte_udp_hdr, dgram_len);
	return 0;
}
