/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * One TCP segment as the pure core sees it: the header fields that matter
 * to the state machine, already parsed from the wire (or to be written to
 * it). This is the contract between the state machine (input/output) and
 * the code that reads and builds packets: neither side sees the other's
 * structures.
 *
 * The payload is synthetic (conn.h): a segment to emit names the stream
 * offset of its first byte, and the builder regenerates the bytes.
 */
#ifndef WR_TCP_SEG_H
#define WR_TCP_SEG_H

#include <stdint.h>

/* The control bits as they are on the wire (RFC 9293 3.1). */
enum wr_tcp_flag {
	WR_TCP_FIN = 0x01,
	WR_TCP_SYN = 0x02,
	WR_TCP_RST = 0x04,
	WR_TCP_PSH = 0x08,
	WR_TCP_ACK = 0x10,
	WR_TCP_URG = 0x20,
};

/* wscale when the segment carries no window scale option. */
#define WR_TCP_WSCALE_NONE 0xff

/* SACK blocks a segment holds: 4 fit in 40 bytes of options without
 * timestamps (RFC 2018 3); a parsed segment keeps the first 4. */
#define WR_TCP_SACK_MAX 4

/* One SACK block (RFC 2018 3): bytes [left, right) were received. */
struct wr_tcp_sack_blk {
	uint32_t left;
	uint32_t right;
};

/*
 * One segment. wnd_raw is the 16-bit window field as on the wire (not
 * scaled); mss_bytes is 0 without an MSS option; sack_ok and nb_sack
 * are 0 without SACK-permitted and SACK options. On the receive side
 * stream_off is unused; on the send side it is the application stream
 * offset of the payload's first byte (0 for a segment without payload).
 */
struct wr_tcp_seg {
	uint32_t seq;
	uint32_t ack;
	uint32_t len_bytes;    /* payload bytes (SYN and FIN not counted) */
	uint16_t wnd_raw;
	uint16_t mss_bytes;
	uint8_t flags;         /* enum wr_tcp_flag */
	uint8_t wscale;        /* shift, or WR_TCP_WSCALE_NONE */
	uint8_t sack_ok;       /* a SACK-permitted option (RFC 2018 2) */
	uint8_t nb_sack;       /* SACK blocks in sack[] (RFC 2018 3) */
	uint64_t stream_off;
	struct wr_tcp_sack_blk sack[WR_TCP_SACK_MAX];
};

#endif /* WR_TCP_SEG_H */
