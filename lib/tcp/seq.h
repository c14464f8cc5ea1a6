/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * TCP sequence number arithmetic, modulo 2^32 (RFC 9293 3.4).
 *
 * Sequence numbers wrap: a plain "<" on uint32_t is wrong once a connection
 * crosses 2^32. These helpers compare by the sign of the 32-bit difference,
 * which is correct while the two numbers are less than 2^31 apart (RFC 9293
 * 3.4 and RFC 1982 serial number arithmetic); a TCP window is at most
 * 2^30 bytes (RFC 7323 2.3), so this always holds inside a connection.
 */
#ifndef WR_TCP_SEQ_H
#define WR_TCP_SEQ_H

#include <stdbool.h>
#include <stdint.h>

/* a < b modulo 2^32. */
static inline bool
wr_tcp_seq_lt(uint32_t a, uint32_t b)
{
	return (int32_t)(a - b) < 0;
}

/* a <= b modulo 2^32. */
static inline bool
wr_tcp_seq_le(uint32_t a, uint32_t b)
{
	return (int32_t)(a - b) <= 0;
}

/* a > b modulo 2^32. */
static inline bool
wr_tcp_seq_gt(uint32_t a, uint32_t b)
{
	return (int32_t)(a - b) > 0;
}

/* a >= b modulo 2^32. */
static inline bool
wr_tcp_seq_ge(uint32_t a, uint32_t b)
{
	return (int32_t)(a - b) >= 0;
}

/* The larger of a and b modulo 2^32. */
static inline uint32_t
wr_tcp_seq_max(uint32_t a, uint32_t b)
{
	return wr_tcp_seq_gt(a, b) ? a : b;
}

/*
 * lo <= s < hi modulo 2^32: the test of RFC 9293 3.4 for "s is inside the
 * window starting at lo". An empty window (lo == hi) holds nothing.
 */
static inline bool
wr_tcp_seq_in(uint32_t s, uint32_t lo, uint32_t hi)
{
	return s - lo < hi - lo;
}

/*
 * Acceptability of a segment of len bytes starting at seq for a receive
 * window [rcv_nxt, rcv_nxt + rcv_wnd), RFC 9293 3.10.7.4, its four cases:
 * an empty segment in a zero window is acceptable only at rcv_nxt; a
 * segment with data in a zero window never is; otherwise its first or last
 * byte must fall in the window.
 */
static inline bool
wr_tcp_seq_acceptable(uint32_t seq, uint32_t len, uint32_t rcv_nxt,
	uint32_t rcv_wnd)
{
	uint32_t end = rcv_nxt + rcv_wnd;

	if (len == 0)
		return rcv_wnd == 0 ? seq == rcv_nxt :
			wr_tcp_seq_in(seq, rcv_nxt, end);
	if (rcv_wnd == 0)
		return false;
	return wr_tcp_seq_in(seq, rcv_nxt, end) ||
		wr_tcp_seq_in(seq + len - 1, rcv_nxt, end);
}

#endif /* WR_TCP_SEQ_H */
