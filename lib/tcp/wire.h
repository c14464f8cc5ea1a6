/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * TCP on the wire, on byte buffers: parse an IPv4 or IPv6 packet's TCP
 * segment into struct wr_tcp_seg (seg.h) and its tuple, and build the IP
 * and TCP headers and the payload of a segment to emit. No mbuf here: the
 * DPDK side points these at packet data. Pure: no EAL.
 *
 * Buffers start at the IP header (the caller strips or writes Ethernet).
 * Multi-byte fields on the wire are big endian; seg and tuple hold host
 * order numbers (tuple addresses stay in network order, tuple.h).
 *
 * The payload is synthetic (conn.h): the byte at stream offset k of a
 * connection with pattern seed s is wr_tcp_pattern_byte(s, k); a caller
 * with real bytes (an HTTP request or response head) passes them instead.
 */
#ifndef WR_TCP_WIRE_H
#define WR_TCP_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/cksum.h"
#include "tcp/seg.h"
#include "tcp/tuple.h"

/* Options seen in a parsed segment, bits of wr_tcp_rx.opt_seen. */
enum wr_tcp_opt_seen {
	WR_TCP_OPT_MSS = 1 << 0,       /* kind 2, RFC 9293 3.2 */
	WR_TCP_OPT_WSCALE = 1 << 1,    /* kind 3, RFC 7323 2 */
	WR_TCP_OPT_SACK_OK = 1 << 2,   /* kind 4, RFC 2018: seg.sack_ok */
	WR_TCP_OPT_SACK = 1 << 3,      /* kind 5, RFC 2018: seg.sack[] */
	WR_TCP_OPT_TS = 1 << 4,        /* kind 8, RFC 7323 3: skipped */
	WR_TCP_OPT_OTHER = 1 << 5,     /* any other kind: skipped */
};

/* A parsed segment. The tuple is the receiver's: local = destination. */
struct wr_tcp_rx {
	struct wr_tcp_seg seg;
	struct wr_tcp_tuple tuple;
	uint32_t payload_off;   /* offset of the payload in the buffer */
	uint8_t opt_seen;       /* enum wr_tcp_opt_seen bits */
	uint8_t pad[3];
};

/*
 * Parse the TCP segment of the IPv4 or IPv6 packet in buf[0, len).
 * Returns 0 with rx filled, or a negative errno: -EPROTONOSUPPORT for an
 * IP version other than 4 and 6, a protocol other than TCP, an IPv6
 * extension header or an IPv4 fragment; -EBADMSG for a truncated packet,
 * a length field that disagrees with len, a TCP header length under 20
 * bytes or past the segment, or a malformed option (a length under 2,
 * past the option area, or wrong for MSS, window scale, SACK-permitted,
 * SACK or timestamps). A window scale above 14 reads as 14 (RFC 7323
 * 2.3). The checksum is not checked here: wr_tcp_wire_csum_ok.
 */
int wr_tcp_wire_parse(const uint8_t *buf, size_t len, struct wr_tcp_rx *rx);

/*
 * Whether the TCP checksum of the IPv4 or IPv6 packet in buf[0, len)
 * holds (RFC 9293 3.1, IPv6 pseudo-header RFC 8200 8.1), and for IPv4 the
 * header checksum too. The packet must have parsed. Can't fail.
 */
bool wr_tcp_wire_csum_ok(const uint8_t *buf, size_t len);

/*
 * The same for a packet wr_tcp_wire_parse read into rx (0 returned):
 * its header not read a second time.
 */
bool wr_tcp_wire_csum_ok_rx(const uint8_t *buf, const struct wr_tcp_rx *rx);

/*
 * The Internet checksum's sum (RFC 1071): sum plus the ones' complement
 * sum of len bytes read as big-endian 16-bit words (an odd last byte
 * padded with a zero), folded to 16 bits (at most sum + 0xffff: the
 * caller folds the total). Any alignment. Can't fail. The machine-order
 * sum (base/cksum.h) swapped to big endian (RFC 1071 2(B): the sum does
 * not depend on the order, up to that swap).
 */
static inline uint32_t
wr_tcp_sum16(const uint8_t *p, size_t len, uint32_t sum)
{
	uint16_t h = (uint16_t)wr_cksum_add(p, len, 0);

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	h = (uint16_t)(h << 8 | h >> 8);
#endif
	return sum + h;
}

/* How the builder fills the checksums. */
enum wr_tcp_csum_mode {
	/* IPv4 header and TCP checksums computed here */
	WR_TCP_CSUM_SW = 0,
	/* left to the NIC, as DPDK's offload expects: IPv4 header checksum
	 * 0, TCP checksum field = the pseudo-header sum, not inverted
	 * (rte_ipv4_phdr_cksum, rte_ipv6_phdr_cksum) */
	WR_TCP_CSUM_OFFLOAD,
	/* the TCP checksum left to the NIC as above, the IPv4 header's
	 * computed here (a NIC without IPv4 header offload) */
	WR_TCP_CSUM_OFFLOAD_TCP,
};

/* What to build. tuple's local end is the source. */
struct wr_tcp_tx {
	const struct wr_tcp_tuple *tuple;
	const struct wr_tcp_seg *seg;  /* seq, ack, flags, wnd_raw; an MSS
					* option if mss_bytes, a window
					* scale if wscale is not NONE,
					* SACK-permitted if sack_ok, SACK
					* blocks if nb_sack; len_bytes of
					* payload from stream_off */
	const uint8_t *payload;        /* len_bytes bytes, or NULL for the
					* pattern */
	uint32_t pattern_seed;         /* the connection's pattern */
	uint8_t ttl;                   /* IPv4 TTL, IPv6 hop limit */
	uint8_t csum_mode;             /* enum wr_tcp_csum_mode */
	uint8_t pad[2];
};

/*
 * Write the IP header, TCP header with its options and the payload of
 * tx into buf (room bytes). IPv4: no IP options, DF set, ID 0. Returns
 * the bytes written, or -ENOSPC when room is short, -EINVAL for a bad
 * family, options over 40 bytes or a packet over 65535 bytes.
 */
int wr_tcp_wire_build(const struct wr_tcp_tx *tx, uint8_t *buf,
	size_t room);

/* The bytes a segment of tx's shape takes (headers, options, payload). */
size_t wr_tcp_wire_len(const struct wr_tcp_tx *tx);

/*
 * The synthetic payload: byte k of a stream of seed s is the low byte of
 * x + 2 * (x >> 8), x = (uint32_t)(k + s). Cheap, and consecutive bytes
 * always differ: the step is 1 + 2 * (carry), odd, never 0 mod 256.
 * Bytes 256 apart differ too (by 2). Can't fail.
 */
static inline uint8_t
wr_tcp_pattern_byte(uint32_t seed, uint64_t k)
{
	uint32_t x = (uint32_t)k + seed;

	return (uint8_t)(x + 2 * (x >> 8));
}

/*
 * Write len pattern bytes of the stream of seed from offset off to dst.
 * Can't fail.
 */
void wr_tcp_pattern_fill(uint8_t *dst, uint32_t seed, uint64_t off,
	size_t len);

/*
 * The Internet checksum's sum (as wr_tcp_sum16 adds it) of the len
 * pattern bytes of the stream of seed from offset off, the first a high
 * byte: from prefix sums, without reading the bytes (pattern.c). Not
 * folded: at most about 0x20000 per 32 KB of len. Can't fail.
 */
uint32_t wr_tcp_pattern_sum(uint32_t seed, uint64_t off, size_t len);

#endif /* WR_TCP_WIRE_H */
