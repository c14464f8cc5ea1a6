/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Header stacks (stack.h): the receiver's walk to the test header, for
 * frames whose test header is not where a plain frame has it (the
 * worker's rare path). Each step reads one header after checking that
 * its bytes are there, and says what comes next.
 */
#include <errno.h>
#include <netinet/in.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_geneve.h>
#include <rte_gre.h>
#include <rte_ip.h>
#include <rte_udp.h>
#include <rte_vxlan.h>

#include "stack.h"



/* What the walk expects at the offset it has reached. */
enum at {
	AT_NONE = 0,   /* not a header the walk knows: foreign */
	AT_ETH,
	AT_TYPE,       /* after an EtherType (w->type) */
	AT_MPLS,
	AT_IP4,
	AT_IP6,
	AT_UDP,
	AT_GRE,
	AT_VXLAN,
	AT_GENEVE,
	AT_FOUND,      /* w->off is the test header */
};

struct walk {
	const uint8_t *d;
	uint32_t len;
	uint32_t off;        /* next header */
	uint32_t l4_len;     /* payload bytes the innermost IP header claims */
	uint32_t ip_off;     /* the innermost IP header */
	uint16_t type;       /* EtherType, host order (AT_TYPE) */
	uint8_t proto;       /* IP protocol (AT_IP*) */
	bool bad_len;        /* an IP length that does not fit the frame */
	uint32_t magic;
	struct wr_stack *rec; /* a template's layers (wr_stack_walk), else NULL */
	bool full;           /* rec had no room for a layer */
};

/* A template's walk: note a layer of kind at w->off. */
static inline void
record(struct walk *w, enum wr_stack_kind kind)
{
	struct wr_stack *st = w->rec;

	if (st == NULL)
		return;
	if (st->nb_layers == WR_STACK_MAX_LAYERS) {
		w->full = true;
		return;
	}
	st->l[st->nb_layers].kind = (uint8_t)kind;
	st->l[st->nb_layers].off = (uint16_t)w->off;
	st->nb_layers++;
}

static inline uint16_t
be16_at(const struct walk *w, uint32_t o)
{
	uint16_t v;

	memcpy(&v, w->d + o, sizeof(v));
	return rte_be_to_cpu_16(v);
}

/* True when n more bytes from w->off are in the frame. */
static inline bool
have(const struct walk *w, uint32_t n)
{
	return w->len >= n && w->off <= w->len - n;
}

static enum at
at_eth(struct walk *w)
{
	if (!have(w, RTE_ETHER_HDR_LEN))
		return AT_NONE;
	record(w, WR_STACK_ETH);
	w->type = be16_at(w, w->off + 12);
	w->off += RTE_ETHER_HDR_LEN;
	return AT_TYPE;
}

/* An EtherType, also GRE's and Geneve's protocol field. */
static enum at
at_type(struct walk *w)
{
	switch (w->type) {
	case RTE_ETHER_TYPE_VLAN:
	case RTE_ETHER_TYPE_QINQ:
	case RTE_ETHER_TYPE_QINQ1:
		if (!have(w, sizeof(struct rte_vlan_hdr)))
			return AT_NONE;
		record(w, w->type == RTE_ETHER_TYPE_VLAN ? WR_STACK_VLAN : WR_STACK_SVLAN);
		w->type = be16_at(w, w->off + 2);
		w->off += sizeof(struct rte_vlan_hdr);
		return AT_TYPE;
	case RTE_ETHER_TYPE_IPV4: return AT_IP4;
	case RTE_ETHER_TYPE_IPV6: return AT_IP6;
	case RTE_ETHER_TYPE_MPLS:
	case RTE_ETHER_TYPE_MPLSM: return AT_MPLS;
	case RTE_ETHER_TYPE_TEB: return AT_ETH;
	default: return AT_NONE;
	}
}

/* One label stack entry; after the bottom one, IPv4 or IPv6 by version. */
static enum at
at_mpls(struct walk *w)
{
	bool bottom;

	if (!have(w, 5))
		return AT_NONE;
	record(w, WR_STACK_MPLS);
	bottom = (w->d[w->off + 2] & 1) != 0;
	w->off += 4;
	if (!bottom)
		return AT_MPLS;
	switch (w->d[w->off] >> 4) {
	case 4: return AT_IP4;
	case 6: return AT_IP6;
	default: return AT_NONE;
	}
}

/* What an IP protocol number leads to. */
static enum at
after_ip(uint8_t proto)
{
	switch (proto) {
	case IPPROTO_UDP: return AT_UDP;
	case IPPROTO_GRE: return AT_GRE;
	case IPPROTO_IPIP: return AT_IP4;
	case IPPROTO_IPV6: return AT_IP6;
	default: return AT_NONE;
	}
}

/* IPv4, options skipped; a fragment is foreign (its payload is cut). */
static enum at
at_ip4(struct walk *w)
{
	const struct rte_ipv4_hdr *h = (const struct rte_ipv4_hdr *)(w->d + w->off);
	uint32_t hl, tl;

	if (!have(w, sizeof(*h)) || (h->version_ihl >> 4) != 4)
		return AT_NONE;
	hl = (uint32_t)(h->version_ihl & 0xf) * 4;
	tl = rte_be_to_cpu_16(h->total_length);
	if (hl < sizeof(*h) || !have(w, hl) ||
			(h->fragment_offset & RTE_BE16(0x3fff)) != 0)
		return AT_NONE;
	record(w, WR_STACK_IPV4);
	w->bad_len |= tl < hl || !have(w, tl);
	w->l4_len = tl - hl;
	w->ip_off = w->off;
	w->off += hl;
	return after_ip(h->next_proto_id);
}

/* IPv6; hop-by-hop, routing and destination options skipped. */
static enum at
at_ip6(struct walk *w)
{
	const struct rte_ipv6_hdr *h = (const struct rte_ipv6_hdr *)(w->d + w->off);
	uint32_t pl, ext = 0;
	uint8_t nh;

	if (!have(w, sizeof(*h)) || (w->d[w->off] >> 4) != 6)
		return AT_NONE;
	record(w, WR_STACK_IPV6);
	pl = rte_be_to_cpu_16(h->payload_len);
	nh = h->proto;
	w->ip_off = w->off;
	w->bad_len |= !have(w, sizeof(*h) + pl);
	w->off += sizeof(*h);
	while (nh == IPPROTO_HOPOPTS || nh == IPPROTO_ROUTING || nh == IPPROTO_DSTOPTS) {
		uint32_t n;

		if (!have(w, 8))
			return AT_NONE;
		nh = w->d[w->off];
		n = ((uint32_t)w->d[w->off + 1] + 1) * 8;
		w->off += n;
		ext += n;
		if (w->off > w->len)
			return AT_NONE;
	}
	w->bad_len |= ext > pl;
	w->l4_len = pl - ext;
	return after_ip(nh);
}

/* UDP: the test header's magic in its payload, else VXLAN or Geneve. */
static enum at
at_udp(struct walk *w)
{
	uint32_t magic;
	uint16_t dport;

	if (!have(w, sizeof(struct rte_udp_hdr)))
		return AT_NONE;
	record(w, WR_STACK_UDP);
	dport = be16_at(w, w->off + 2);
	w->off += sizeof(struct rte_udp_hdr);
	if (have(w, sizeof(magic))) {
		memcpy(&magic, w->d + w->off, sizeof(magic));
		if (magic == w->magic) {
			w->bad_len |= be16_at(w, w->off - 4) != w->l4_len;
			return AT_FOUND;
		}
	}
	if (dport == RTE_VXLAN_DEFAULT_PORT)
		return AT_VXLAN;
	if (dport == RTE_GENEVE_DEFAULT_PORT)
		return AT_GENEVE;
	return w->rec != NULL ? AT_FOUND : AT_NONE;  /* a template's innermost */
}

/* GRE version 0: checksum, key and sequence skipped; no routing. */
static enum at
at_gre(struct walk *w)
{
	uint16_t flags;
	uint32_t n = 4;

	if (!have(w, sizeof(struct rte_gre_hdr)))
		return AT_NONE;
	flags = be16_at(w, w->off);
	if ((flags & 0x4007) != 0)   /* routing present, or version not 0 */
		return AT_NONE;
	n += (flags & 0x8000 ? 4 : 0) + (flags & 0x2000 ? 4 : 0) + (flags & 0x1000 ? 4 : 0);
	w->type = be16_at(w, w->off + 2);
	if (!have(w, n))
		return AT_NONE;
	record(w, WR_STACK_GRE);
	w->off += n;
	return AT_TYPE;
}

static enum at
at_vxlan(struct walk *w)
{
	if (!have(w, sizeof(struct rte_vxlan_hdr)) || (w->d[w->off] & 0x08) == 0)
		return AT_NONE;
	record(w, WR_STACK_VXLAN);
	w->off += sizeof(struct rte_vxlan_hdr);
	return AT_ETH;
}

/* Geneve version 0, its options skipped. */
static enum at
at_geneve(struct walk *w)
{
	uint32_t n;

	if (!have(w, sizeof(struct rte_geneve_hdr)) || (w->d[w->off] >> 6) != 0)
		return AT_NONE;
	n = sizeof(struct rte_geneve_hdr) + (uint32_t)(w->d[w->off] & 0x3f) * 4;
	w->type = be16_at(w, w->off + 2);
	if (!have(w, n))
		return AT_NONE;
	record(w, WR_STACK_GENEVE);
	w->off += n;
	return AT_TYPE;
}

/* One step of the walk: a switch, so each step inlines (no indirect call). */
static inline enum at
step(struct walk *w, enum at a)
{
	switch (a) {
	case AT_ETH: return at_eth(w);
	case AT_TYPE: return at_type(w);
	case AT_MPLS: return at_mpls(w);
	case AT_IP4: return at_ip4(w);
	case AT_IP6: return at_ip6(w);
	case AT_UDP: return at_udp(w);
	case AT_GRE: return at_gre(w);
	case AT_VXLAN: return at_vxlan(w);
	case AT_GENEVE: return at_geneve(w);
	default: return AT_NONE;
	}
}

int
wr_stack_find(const uint8_t *data, uint32_t len, uint32_t th_magic,
		uint32_t th_len, struct wr_stack_found *f)
{
	struct walk w = { .d = data, .len = len, .magic = th_magic };
	enum at a = AT_ETH;
	unsigned int n;

	for (n = 0; n < 2 * WR_STACK_MAX_LAYERS && a != AT_NONE && a != AT_FOUND; n++)
		a = step(&w, a);
	if (a != AT_FOUND)
		return 0;
	f->th_off = w.off;
	f->nb_layers = n;
	return w.bad_len || !have(&w, th_len) || w.l4_len < sizeof(struct rte_udp_hdr) +
		th_len ? 2 : 1;
}

int
wr_stack_walk(const uint8_t *data, uint32_t len, uint32_t th_magic,
		struct wr_stack *st, uint32_t *stop)
{
	struct walk w = { .d = data, .len = len, .magic = th_magic, .rec = st };
	enum at a = AT_ETH;
	unsigned int n;

	st->nb_layers = 0;
	for (n = 0; n < 2 * WR_STACK_MAX_LAYERS && a != AT_NONE && a != AT_FOUND; n++)
		a = step(&w, a);
	*stop = w.off;
	if (w.full)
		return -E2BIG;
	return a == AT_FOUND ? (int)w.off : 0;
}

int
wr_stack_first_udp(const uint8_t *data, uint32_t len, struct wr_stack_udp *u)
{
	struct walk w = { .d = data, .len = len };
	enum at a = AT_ETH;
	unsigned int n;

	for (n = 0; n < 2 * WR_STACK_MAX_LAYERS && a != AT_NONE && a != AT_UDP; n++)
		a = step(&w, a);
	/* An IP payload shorter than a UDP header is no UDP datagram, even
	 * when the UDP length field says as much: its payload length would
	 * wrap (fuzz frame: crash-udp-len-below-header). */
	if (a != AT_UDP || w.bad_len || !have(&w, sizeof(struct rte_udp_hdr)) ||
			w.l4_len < sizeof(struct rte_udp_hdr) ||
			be16_at(&w, w.off + 4) != w.l4_len)
		return 0;
	u->ip_off = w.ip_off;
	u->udp_off = w.off;
	u->ipv6 = (data[w.ip_off] >> 4) == 6;
	u->payload_len = w.l4_len - (uint32_t)sizeof(struct rte_udp_hdr);
	return 1;
}
