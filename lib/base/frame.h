/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Frame templates and the test header. Pure: no EAL.
 *
 * A frame is Ethernet [802.1Q] / IPv4 or IPv6 / UDP / test header /
 * pattern, sized per RFC 2544 (FCS included, so the buffer holds size - 4
 * bytes). The test header is 18 bytes so that it fits a 64-byte untagged
 * IPv4 frame (60 - 14 - 20 - 8 = 18); with IPv6's 40-byte header the
 * smallest frame is 84 bytes (88 tagged). Fields are little-endian (the
 * generator's hosts).
 */
#ifndef WR_FRAME_H
#define WR_FRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_udp.h>

#include "dpdk_compat.h"

/* "WRH1" in memory order. */
#define WR_FRAME_MAGIC 0x31485257u

/* The test header every generated frame carries after the UDP header. */
struct WR_PACKED_BEGIN wr_test_hdr {
	uint32_t magic;     /* WR_FRAME_MAGIC */
	uint16_t stream_id; /* sender's stream (port, queue) */
	uint64_t seq;       /* per-stream sequence, from 0 */
	uint32_t tsc_lo;    /* low 32 bits of the sender's TSC at TX */
} WR_PACKED_END;

#define WR_FRAME_TH_LEN ((uint32_t)sizeof(struct wr_test_hdr))

/* What to put in a template. */
struct wr_frame_spec {
	uint32_t size;                /* RFC 2544 size, FCS included */
	struct rte_ether_addr src_mac;
	struct rte_ether_addr dst_mac;
	uint16_t vlan_id;             /* 0: untagged */
	uint32_t src_ip;              /* host byte order */
	uint32_t dst_ip;
	uint16_t src_udp;
	uint16_t dst_udp;
	uint16_t stream_id;
	uint8_t dscp;                 /* 0..63: IPv4 TOS, IPv6 traffic class */
	uint8_t vlan_prio;            /* 802.1Q PCP 0..7, with a tag */
	bool ipv6;                    /* IPv6 with src_ip6/dst_ip6, not IPv4 */
	uint8_t src_ip6[16];          /* network byte order */
	uint8_t dst_ip6[16];
};

/*
 * 16-bit fields that depend on the frame size: IPv4 total length, header
 * checksum and UDP length; or IPv6 payload length, UDP length and UDP
 * checksum (of the frame with seq, timestamp and flow 0).
 */
#define WR_FRAME_NB_VAR 3u

/* Byte offsets of the fields TX workers rewrite per frame. */
struct wr_frame_layout {
	uint32_t data_len;     /* bytes in the mbuf: size - FCS */
	uint32_t udp_sport_off;
	uint32_t th_off;       /* test header */
	uint32_t udp_ck_off;   /* UDP checksum */
	uint16_t var_off[WR_FRAME_NB_VAR]; /* size-dependent fields ... */
	uint16_t var_val[WR_FRAME_NB_VAR]; /* ... and their values, as stored */
};

/*
 * Smallest frame size (FCS included) that holds the headers and the test
 * header for an IPv4 spec with or without a VLAN tag, never below 64.
 */
uint32_t wr_frame_min_size(bool vlan);

/* The same for IPv4 or IPv6 (84 bytes untagged, 88 tagged). */
uint32_t wr_frame_min_size_l3(bool vlan, bool ipv6);

/*
 * Write the template for spec into buf (buflen >= spec->size - 4) and its
 * layout into lay. The IPv4 checksum is valid; the UDP checksum is 0
 * (allowed for IPv4, RFC 768) so per-frame stamping keeps the frame valid.
 * IPv6 makes the UDP checksum mandatory (RFC 8200 section 8.1): it is
 * valid for the template, and TX updates it per frame (txmix.h).
 * The test header has magic and stream id set, seq and tsc zero.
 * Returns 0, or -EINVAL when the size cannot hold the headers or buflen is
 * too small.
 */
int wr_frame_build(const struct wr_frame_spec *spec, uint8_t *buf,
		size_t buflen, struct wr_frame_layout *lay);

/* What the receiver made of one frame. */
enum wr_frame_class {
	WR_FRAME_FOREIGN = 0,   /* not ours: no signature where ours has it */
	WR_FRAME_OWN = 1,       /* signature and consistent lengths */
	WR_FRAME_MALFORMED = 2, /* signature but truncated or inconsistent */
};

/* The fields of an own frame's test header, as received. */
struct wr_frame_rx {
	uint16_t stream_id;
	uint64_t seq;
	uint32_t tsc_lo;
};

/* wr_frame_classify() past an IPv6 ethertype at l2. */
static inline enum wr_frame_class
wr_frame_classify6(const uint8_t *data, uint32_t len, uint32_t l2,
		struct wr_frame_rx *out)
{
	const struct rte_ipv6_hdr *ip = (const struct rte_ipv6_hdr *)(data + l2);
	const uint32_t l4 = l2 + sizeof(*ip) + sizeof(struct rte_udp_hdr);
	const struct wr_test_hdr *th = (const struct wr_test_hdr *)(data + l4);

	if (len < l4 + sizeof(uint32_t) || (ip->vtc_flow & RTE_BE32(0xf0000000)) !=
			RTE_BE32(0x60000000) || ip->proto != IPPROTO_UDP ||
			th->magic != WR_FRAME_MAGIC)
		return WR_FRAME_FOREIGN;
	if (len < l4 + sizeof(*th) ||
			rte_be_to_cpu_16(ip->payload_len) != len - l2 - sizeof(*ip))
		return WR_FRAME_MALFORMED;
	out->stream_id = th->stream_id;
	out->seq = th->seq;
	out->tsc_lo = th->tsc_lo;
	return WR_FRAME_OWN;
}

/* Bytes of an untagged IPv4 own frame up to the end of its test header. */
#define WR_FRAME_OWN4_LEN (RTE_ETHER_HDR_LEN + sizeof(struct rte_ipv4_hdr) + \
	sizeof(struct rte_udp_hdr) + WR_FRAME_TH_LEN)

/*
 * The common case of wr_frame_classify(), for the per-frame fast path:
 * true when len bytes at data are an own untagged IPv4 frame (what
 * wr_frame_classify() calls WR_FRAME_OWN without a VLAN tag), with out
 * set as it sets it; false for anything else (out untouched), which
 * wr_frame_classify() then sorts. One test of the length, then one of all
 * the fields together, all in the frame's first 64 bytes: no branch per
 * field. Reads nothing beyond data[len - 1].
 */
static inline bool
wr_frame_own4(const uint8_t *data, uint32_t len, struct wr_frame_rx *out)
{
	const struct rte_ipv4_hdr *ip =
		(const struct rte_ipv4_hdr *)(data + RTE_ETHER_HDR_LEN);
	const struct wr_test_hdr *th = (const struct wr_test_hdr *)(data +
		RTE_ETHER_HDR_LEN + sizeof(*ip) + sizeof(struct rte_udp_hdr));
	uint32_t diff;

	if (unlikely(len < WR_FRAME_OWN4_LEN))
		return false;
	diff = (uint32_t)(*(const uint16_t *)(data + 12) ^
			RTE_BE16(RTE_ETHER_TYPE_IPV4)) |
		(uint32_t)(ip->version_ihl ^ 0x45) |
		(uint32_t)(ip->next_proto_id ^ IPPROTO_UDP) |
		(th->magic ^ WR_FRAME_MAGIC) |
		((uint32_t)rte_be_to_cpu_16(ip->total_length) ^
			(len - RTE_ETHER_HDR_LEN));
	if (diff != 0)
		return false;
	out->stream_id = th->stream_id;
	out->seq = th->seq;
	out->tsc_lo = th->tsc_lo;
	return true;
}

/*
 * Classify len bytes at data as received (FCS stripped) and, for own
 * frames, copy the test header fields into out. Safe on any input: reads
 * nothing beyond data[len - 1]. Inline: called once per received frame.
 */
static inline enum wr_frame_class
wr_frame_classify(const uint8_t *data, uint32_t len, struct wr_frame_rx *out)
{
	const struct rte_ipv4_hdr *ip;
	const struct wr_test_hdr *th;
	uint32_t l2 = RTE_ETHER_HDR_LEN;
	uint16_t type;

	if (unlikely(len < RTE_ETHER_HDR_LEN + sizeof(*ip) + sizeof(struct rte_udp_hdr)))
		return WR_FRAME_FOREIGN;
	type = *(const uint16_t *)(data + 12);
	if (type == RTE_BE16(RTE_ETHER_TYPE_VLAN)) {
		l2 += 4;
		type = *(const uint16_t *)(data + 16);
	}
	ip = (const struct rte_ipv4_hdr *)(data + l2);
	if (unlikely(type == RTE_BE16(RTE_ETHER_TYPE_IPV6)))
		return wr_frame_classify6(data, len, l2, out);
	if (type != RTE_BE16(RTE_ETHER_TYPE_IPV4) || ip->version_ihl != 0x45 ||
			ip->next_proto_id != IPPROTO_UDP)
		return WR_FRAME_FOREIGN;
	th = (const struct wr_test_hdr *)((const uint8_t *)ip + sizeof(*ip) +
		sizeof(struct rte_udp_hdr));
	if (len < l2 + sizeof(*ip) + sizeof(struct rte_udp_hdr) + sizeof(uint32_t) ||
			th->magic != WR_FRAME_MAGIC)
		return WR_FRAME_FOREIGN;
	if (unlikely(len < l2 + sizeof(*ip) + sizeof(struct rte_udp_hdr) + sizeof(*th) ||
			rte_be_to_cpu_16(ip->total_length) != len - l2))
		return WR_FRAME_MALFORMED;
	out->stream_id = th->stream_id;
	out->seq = th->seq;
	out->tsc_lo = th->tsc_lo;
	return WR_FRAME_OWN;
}

#endif /* WR_FRAME_H */
