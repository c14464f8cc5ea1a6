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

#endif /* WR_TEST_TCP_UTIL_H */
