/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Header stacks: a test frame carried inside VLAN, QinQ, MPLS, GRE, VXLAN
 * or Geneve over IPv4 or IPv6 (--stack, docs/traffic.md). Pure: no EAL.
 *
 * A spec names the layers from the wire outward in, '/' between them,
 * each with optional fields in parentheses:
 *   eth/vlan(id=10)/vlan(id=20)/ipv4/udp
 *   eth/ipv4(src=10.0.0.1,dst=10.0.0.2)/udp/vxlan(vni=42)/eth/ipv4/udp
 * It always ends in ipv4/udp or ipv6/udp: the test frame's own IP and
 * UDP headers, which take the stream's addresses and ports (no fields
 * there). A field left out takes the stream's value (MACs, addresses,
 * ports, DSCP) or the documented default (vlan id 1, mpls label 16,
 * vxlan/geneve vni 1, TTL 64).
 *
 * The receiver's half (wr_stack_classify) walks any such stack, whoever
 * built it, to the innermost UDP payload and checks the test header there.
 */
#ifndef WR_STACK_H
#define WR_STACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_ether.h>

#include "error.h"

/* Most layers in a spec, and the most the receiver walks. */
#define WR_STACK_MAX_LAYERS 16u
/* Room for a spec's text, NUL included. */
#define WR_STACK_TEXT_LEN 256u
/* Most header bytes a template frame may hold before its test header. */
#define WR_STACK_TMPL_MAX 512u

/* The layer kinds, in the order of the names table (stack.c). */
enum wr_stack_kind {
	WR_STACK_ETH = 0,
	WR_STACK_VLAN,    /* 802.1Q tag, TPID 0x8100 */
	WR_STACK_SVLAN,   /* 802.1ad service tag, TPID 0x88a8 */
	WR_STACK_MPLS,    /* one label stack entry (RFC 3032) */
	WR_STACK_IPV4,
	WR_STACK_IPV6,
	WR_STACK_UDP,
	WR_STACK_GRE,     /* RFC 2784/2890: key when given, no checksum */
	WR_STACK_VXLAN,   /* RFC 7348, UDP port 4789 */
	WR_STACK_GENEVE,  /* RFC 8926, UDP port 6081, no options */
	WR_STACK_NB_KINDS,
};

/* Numeric fields per layer (which means what: the field table, stack.c). */
#define WR_STACK_NB_NUM 3u

/* One layer of a spec; a field not in `given` takes its default. */
struct wr_stack_layer {
	uint8_t kind;                 /* enum wr_stack_kind */
	uint8_t given;                /* bit per field of the table given */
	uint32_t num[WR_STACK_NB_NUM];
	uint8_t src[16];              /* MAC (6), IPv4 (4) or IPv6 (16), as on the wire */
	uint8_t dst[16];
	uint16_t off;                 /* a template's: the layer's first byte */
};

/* A parsed spec; nb_layers 0: none (the plain frame). */
struct wr_stack {
	char text[WR_STACK_TEXT_LEN];   /* the spec as given, for results */
	unsigned int nb_layers;
	struct wr_stack_layer l[WR_STACK_MAX_LAYERS];
	/* template=FILE[:N]: the header bytes of frame N up to its innermost
	 * UDP payload, as captured; l[] says where each layer starts. 0:
	 * built from the spec's layers. */
	uint16_t tmpl_len;
	uint8_t tmpl[WR_STACK_TMPL_MAX];
};

/*
 * Parse spec text into st: layers, or "template=FILE[:N]" (frame N from
 * 1 of a pcap or pcapng file, the first when left out: wr_stack_template).
 * Returns 0, or -EINVAL with a message in why naming the layer (by number
 * and name), the field and what was expected, or the file, the frame and
 * what is wrong; -ENOMEM.
 */
int wr_stack_parse(const char *text, struct wr_stack *st, struct wr_error *why);

/* A layer kind's name in a spec, "vxlan". This function can't fail. */
const char *wr_stack_kind_name(unsigned int kind);

/*
 * True when a UDP over IPv6 other than the innermost UDP is in st: its
 * checksum covers the inner headers. st must be parsed.
 */
bool wr_stack_outer_udp6(const struct wr_stack *st);

/* True when st ends in ipv6/udp. st must be parsed. */
bool wr_stack_inner_ipv6(const struct wr_stack *st);

/* `given` bits read outside the parser: an IP layer's src and dst, GRE's key. */
#define WR_STACK_ADDRS 3u
#define WR_STACK_GRE_KEY 1u

/* Header bytes of one layer of a spec (not of a template). */
uint32_t wr_stack_layer_len(const struct wr_stack_layer *ly);

/*
 * Take st's headers from frame nb (from 1) of the capture file at path:
 * every byte before the innermost UDP payload (wr_stack_walk finds it),
 * its layers in st->l. TX later writes each layer's lengths and checksums
 * for its frame size (wr_stack_build). Returns 0, or -EINVAL (class
 * usage) with a message naming the file, the frame and what is wrong: no
 * such frame, no UDP payload the walk reaches, an IPv4 fragment, a GRE
 * checksum (it would cover every per-frame stamp), more than
 * WR_STACK_TMPL_MAX header bytes or WR_STACK_MAX_LAYERS layers; the
 * reader's errors (pcapread.h); -ENOMEM.
 */
int wr_stack_template(const char *path, uint32_t nb, struct wr_stack *st,
		struct wr_error *why);

/*
 * The receiver's walk (wr_stack_find) for a template: the layers of the
 * len bytes at data up to the innermost UDP payload (the first UDP whose
 * payload carries no VXLAN or Geneve by its port, or the test header's
 * magic th_magic) into st->l and st->nb_layers, each with its offset.
 * Returns the payload's offset, or 0 when the walk reaches none (*stop:
 * the offset where it stopped), -E2BIG for more than WR_STACK_MAX_LAYERS
 * layers.
 */
int wr_stack_walk(const uint8_t *data, uint32_t len, uint32_t th_magic,
		struct wr_stack *st, uint32_t *stop);

/* Header bytes before the test header (the innermost UDP payload). */
uint32_t wr_stack_hdr_len(const struct wr_stack *st);

/*
 * What the builder takes from the stream: the defaults of fields a layer
 * leaves out, and the innermost IP and UDP headers. Addresses as on the
 * wire.
 */
struct wr_stack_defaults {
	uint8_t src_mac[6], dst_mac[6];
	uint8_t src_ip4[4], dst_ip4[4];
	uint8_t src_ip6[16], dst_ip6[16];
	uint16_t src_udp, dst_udp;
	uint8_t dscp;
};

/* Where the builder put what TX rewrites per frame. */
struct wr_stack_layout {
	uint32_t th_off;        /* test header: the innermost UDP payload */
	uint32_t sport_off;     /* innermost UDP source port */
	uint32_t ck_off;        /* the UDP checksum TX updates per frame ... */
	bool ck_live;           /* ... when true: see wr_stack_build */
	uint32_t len_off[2];    /* innermost IP and UDP length fields */
};

/*
 * Write st's headers for a frame of data_len bytes (FCS excluded) into
 * buf, whose bytes from the test header on must already hold the test
 * header and payload; then the lengths and checksums of every layer,
 * innermost first: IPv4 header checksums, UDP over IPv6 always (RFC 8200
 * section 8.1), UDP over IPv4 0 (RFC 768; RFC 7348 section 5 for VXLAN).
 * Only one UDP checksum covers the per-frame stamps: the innermost one
 * that is not 0; those outside it cover it whole, whose one's complement
 * sum stays the same, so they hold. lay->ck_live says there is one.
 * Returns 0, or -EINVAL when data_len cannot hold the headers and test
 * header or exceeds 65535.
 */
int wr_stack_build(const struct wr_stack *st, const struct wr_stack_defaults *def,
		uint8_t *buf, uint32_t data_len, uint32_t th_len,
		struct wr_stack_layout *lay);

/* Where the receiver found a test header, and what the walk saw. */
struct wr_stack_found {
	uint32_t th_off;        /* test header */
	unsigned int nb_layers; /* headers walked over */
};

/*
 * Walk the len bytes at data (FCS stripped) through Ethernet, 802.1Q/ad
 * tags, MPLS, IPv4 (no fragments), IPv6 (hop-by-hop, routing and
 * destination options skipped), GRE, UDP-VXLAN and UDP-Geneve to a UDP
 * payload that starts with the test header's magic (th_magic, th_len
 * bytes). Returns 1 with *f filled when found and consistent (the UDP
 * length equals its IP payload, within len); 2 when found but truncated
 * or inconsistent (malformed); 0 when none (foreign). Reads nothing
 * beyond data[len - 1]; at most 2 * WR_STACK_MAX_LAYERS steps (an
 * EtherType is one).
 */
int wr_stack_find(const uint8_t *data, uint32_t len, uint32_t th_magic,
		uint32_t th_len, struct wr_stack_found *f);

/*
 * False when wr_stack_find cannot find a test header in the len bytes at
 * data because the outermost EtherType is none its walk follows (802.1Q
 * and 802.1ad tags, IPv4, IPv6, MPLS, transparent Ethernet bridging) or
 * the Ethernet header is cut: the receiver's rare path skips the walk
 * for such frames (all of net_null's frames of zeros, ARP, LLDP).
 */
static inline bool
wr_stack_may_carry(const uint8_t *data, uint32_t len)
{
	uint16_t type;

	if (len < RTE_ETHER_HDR_LEN)
		return false;
	type = (uint16_t)(data[12] << 8 | data[13]);
	switch (type) {
	case RTE_ETHER_TYPE_VLAN: case RTE_ETHER_TYPE_QINQ:
	case RTE_ETHER_TYPE_QINQ1:
	case RTE_ETHER_TYPE_IPV4: case RTE_ETHER_TYPE_IPV6:
	case RTE_ETHER_TYPE_MPLS: case RTE_ETHER_TYPE_MPLSM:
	case RTE_ETHER_TYPE_TEB:
		return true;
	default:
		return false;
	}
}

/* The first UDP header of a frame, and the IP header that carries it. */
struct wr_stack_udp {
	uint32_t ip_off;        /* IPv4 or IPv6 header */
	uint32_t udp_off;       /* UDP header */
	uint32_t payload_len;   /* UDP payload bytes (its length field less 8) */
	bool ipv6;
};

/*
 * Walk the len bytes at data as wr_stack_find does, to the first UDP
 * header. Returns 1 with *u filled when there is one whose length equals
 * its IP payload, within len (so a receiver's walk would accept a test
 * header in its payload); 0 otherwise (not UDP, a fragment, truncated or
 * inconsistent). Reads nothing beyond data[len - 1].
 */
int wr_stack_first_udp(const uint8_t *data, uint32_t len, struct wr_stack_udp *u);

#endif /* WR_STACK_H */
