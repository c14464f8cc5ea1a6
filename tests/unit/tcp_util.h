/* SPDX-License-Identifier: BSD-3-Clause */
/* Helpers of the TCP state machine's unit tests: crafted segments. */
#ifndef WR_TEST_TCP_UTIL_H
#define WR_TEST_TCP_UTIL_H

#include <string.h>

#include "tcp/tcp.h"

/* A received segment with these fields, no options. */
static inline struct wr_tcp_seg
tseg(uint32_t seq, uint32_t ack, uint8_t flags, uint32_t len,
	uint16_t wnd)
{
	struct wr_tcp_seg s;

	memset(&s, 0, sizeof(s));
	s.seq = seq;
	s.ack = ack;
	s.flags = flags;
	s.len_bytes = len;
	s.wnd_raw = wnd;
	s.wscale = WR_TCP_WSCALE_NONE;
	return s;
}

/* A configuration: iss, MSS 1460, window scale 0, 64 KB window. */
static inline struct wr_tcp_cfg
tcfg(uint32_t iss, uint64_t app_bytes)
{
	struct wr_tcp_cfg cfg;

	memset(&cfg, 0, sizeof(cfg));
	cfg.iss = iss;
	cfg.rcv_wnd_bytes = 65535;
	cfg.mss_bytes = 1460;
	cfg.wscale = 0;
	cfg.app_tx_bytes = app_bytes;
	return cfg;
}

/*
 * An active connection brought to ESTABLISHED by hand: our ISS iss, the
 * peer's irs, no options on the peer's side (MSS 536 then: pass its MSS
 * in mss), its window wnd. The SYN's time is 0, the SYN,ACK's 1000 us.
 */
static inline void
testab(struct wr_tcp_conn *c, uint32_t iss, uint32_t irs, uint16_t mss,
	uint16_t wnd, uint64_t app_bytes, struct wr_tcp_out *out)
{
	struct wr_tcp_cfg cfg = tcfg(iss, app_bytes);
	struct wr_tcp_seg s = tseg(irs, iss + 1, WR_TCP_SYN | WR_TCP_ACK, 0,
		wnd);

	s.mss_bytes = mss;
	wr_tcp_connect(c, &cfg, 0, out);
	wr_tcp_input(c, &s, 1000, out);
}

/*
 * A connection (ISS 1000, IRS 5000) brought to state st by segments, as
 * RFC 9293 3.6's figures go (SYN_RCVD: a passive open; the others
 * active); *rcv_nxt is where the peer's next byte is.
 */
static inline void
ttostate(struct wr_tcp_conn *c, uint8_t st, uint32_t *rcv_nxt)
{
	struct wr_tcp_cfg cfg = tcfg(1000, 0);
	struct wr_tcp_out out;
	struct wr_tcp_seg s;

	*rcv_nxt = 5001;
	if (st == WR_TCP_SYN_RCVD) {           /* passive: the peer's SYN */
		s = tseg(5000, 0, WR_TCP_SYN, 0, 65535);
		s.mss_bytes = 1460;
		wr_tcp_accept(c, &cfg, &s, 0, &out);
		return;
	}
	testab(c, 1000, 5000, 1460, 65535, 0, &out);
	if (st == WR_TCP_CLOSE_WAIT || st == WR_TCP_LAST_ACK) {
		s = tseg(5001, 1001, WR_TCP_FIN | WR_TCP_ACK, 0, 65535);
		wr_tcp_input(c, &s, 2000, &out);
		*rcv_nxt = 5002;
		if (st == WR_TCP_LAST_ACK)
			wr_tcp_close(c, 2100, &out);
		return;
	}
	if (st == WR_TCP_ESTABLISHED)
		return;
	wr_tcp_close(c, 2000, &out);            /* FIN_WAIT_1 */
	if (st == WR_TCP_CLOSING) {
		s = tseg(5001, 1001, WR_TCP_FIN | WR_TCP_ACK, 0, 65535);
		wr_tcp_input(c, &s, 2100, &out);
		*rcv_nxt = 5002;
		return;
	}
	if (st == WR_TCP_FIN_WAIT_1)
		return;
	s = tseg(5001, 1002, WR_TCP_ACK, 0, 65535);
	wr_tcp_input(c, &s, 2100, &out);       /* FIN_WAIT_2 */
	if (st == WR_TCP_TIME_WAIT) {
		s = tseg(5001, 1002, WR_TCP_FIN | WR_TCP_ACK, 0, 65535);
		wr_tcp_input(c, &s, 2200, &out);
		*rcv_nxt = 5002;
	}
}

#endif /* WR_TEST_TCP_UTIL_H */
