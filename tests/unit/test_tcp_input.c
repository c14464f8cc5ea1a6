/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for lib/tcp/input.c and input_ack.c: crafted segments through
 * the states of RFC 9293 3.10.7. Every expected value is worked out here
 * from the RFC (sequence numbers, windows, the reply's fields), not taken
 * from the module's output.
 */
#include "tcp/tcp.h"
#include "tcp_util.h"
#include "wr_test.h"

/* Active open with options: SYN, SYN,ACK, ACK (RFC 9293 3.5, RFC 7323). */
static void
test_active_open(void)
{
	struct wr_tcp_cfg cfg = tcfg(1000, 0);
	struct wr_tcp_conn c;
	struct wr_tcp_out out;
	struct wr_tcp_seg s;

	cfg.rcv_wnd_bytes = 1u << 20;
	cfg.wscale = 7;
	wr_tcp_connect(&c, &cfg, 0, &out);
	WR_CHECK_U64(c.state, WR_TCP_SYN_SENT);
	WR_CHECK_U64(out.nb_segs, 1);
	WR_CHECK_U64(out.segs[0].seq, 1000);
	WR_CHECK_U64(out.segs[0].flags, WR_TCP_SYN);
	WR_CHECK_U64(out.segs[0].mss_bytes, 1460);
	WR_CHECK_U64(out.segs[0].wscale, 7);
	WR_CHECK_U64(out.segs[0].wnd_raw, 65535);   /* SYN: unscaled, capped */
	WR_CHECK_U64(out.timer, WR_TCP_TIMER_RTO);
	WR_CHECK_U64(out.timer_us, 1000000);        /* RFC 6298 2.1: 1 s */

	s = tseg(5000, 1001, WR_TCP_SYN | WR_TCP_ACK, 0, 1000);
	s.mss_bytes = 1400;
	s.wscale = 2;
	wr_tcp_input(&c, &s, 3000, &out);
	WR_CHECK_U64(c.state, WR_TCP_ESTABLISHED);
	WR_CHECK(out.events & WR_TCP_EV_ESTABLISHED);
	WR_CHECK_U64(out.nb_segs, 1);
	WR_CHECK_U64(out.segs[0].seq, 1001);
	WR_CHECK_U64(out.segs[0].ack, 5001);
	WR_CHECK_U64(out.segs[0].flags, WR_TCP_ACK);
	WR_CHECK_U64(out.segs[0].wnd_raw, (1u << 20) >> 7);
	WR_CHECK_U64(c.mss_bytes, 1400);            /* min(1460, 1400) */
	WR_CHECK_U64(c.snd_wnd_bytes, 1000);        /* a SYN's: unscaled */
	WR_CHECK_U64(c.srtt_us, 3000);              /* RFC 6298 2.2 */
	WR_CHECK_U64(out.timer, WR_TCP_TIMER_CANCEL);
	/* later windows are scaled by the peer's shift: 500 << 2 */
	s = tseg(5001, 1001, WR_TCP_ACK, 0, 500);
	wr_tcp_input(&c, &s, 4000, &out);
	WR_CHECK_U64(c.snd_wnd_bytes, 2000);
	WR_CHECK_U64(out.nb_segs, 0);
}

/* Passive open from a listener; the peer's SYN has no option. */
static void
test_passive_open(void)
{
	struct wr_tcp_cfg cfg = tcfg(9000, 0);
	struct wr_tcp_conn c;
	struct wr_tcp_out out;
	struct wr_tcp_seg s = tseg(3000, 0, WR_TCP_SYN, 0, 8000);

	cfg.wscale = 5;
	wr_tcp_accept(&c, &cfg, &s, 0, &out);
	WR_CHECK_U64(c.state, WR_TCP_SYN_RCVD);
	WR_CHECK_U64(out.nb_segs, 1);
	WR_CHECK_U64(out.segs[0].flags, WR_TCP_SYN | WR_TCP_ACK);
	WR_CHECK_U64(out.segs[0].seq, 9000);
	WR_CHECK_U64(out.segs[0].ack, 3001);
	/* RFC 9293 3.7.1: our SYN,ACK announces what we receive, ours;
	 * what we send to a peer without the option is 536 at most */
	WR_CHECK_U64(out.segs[0].mss_bytes, 1460);
	WR_CHECK_U64(out.segs[0].wscale, WR_TCP_WSCALE_NONE); /* 7323 2.2 */
	WR_CHECK_U64(out.timer, WR_TCP_TIMER_RTO);

	/* a duplicate SYN: the SYN,ACK again */
	wr_tcp_input(&c, &s, 100, &out);
	WR_CHECK_U64(c.state, WR_TCP_SYN_RCVD);
	WR_CHECK_U64(out.nb_segs, 1);
	WR_CHECK_U64(out.segs[0].flags, WR_TCP_SYN | WR_TCP_ACK);
	WR_CHECK_U64(out.segs[0].seq, 9000);
	/* an ACK of something not sent: RST <SEQ=SEG.ACK> (3.10.7.4) */
	s = tseg(3001, 9005, WR_TCP_ACK, 0, 8000);
	wr_tcp_input(&c, &s, 200, &out);
	WR_CHECK_U64(out.nb_segs, 1);
	WR_CHECK_U64(out.segs[0].flags, WR_TCP_RST);
	WR_CHECK_U64(out.segs[0].seq, 9005);
	WR_CHECK_U64(c.state, WR_TCP_SYN_RCVD);
	/* the right ACK: ESTABLISHED, window not scaled (no option) */
	s = tseg(3001, 9001, WR_TCP_ACK, 0, 8000);
	wr_tcp_input(&c, &s, 300, &out);
	WR_CHECK_U64(c.state, WR_TCP_ESTABLISHED);
	WR_CHECK(out.events & WR_TCP_EV_ESTABLISHED);
	WR_CHECK_U64(c.snd_wnd_bytes, 8000);
	WR_CHECK_U64(c.rcv_wscale, 0);
	WR_CHECK_U64(c.mss_bytes, 536);
	WR_CHECK_U64(c.cwnd_bytes, 4 * 536);        /* RFC 5681 3.1 IW */
	WR_CHECK_U64(out.nb_segs, 0);
}

/* CLOSED and LISTEN answer with RSTs (RFC 9293 3.10.7.1, 3.10.7.2). */
static void
test_closed_listen(void)
{
	struct wr_tcp_cfg cfg = tcfg(1, 0);
	struct wr_tcp_conn c;
	struct wr_tcp_out out;
	struct wr_tcp_seg s = tseg(77, 0, WR_TCP_PSH, 10, 100);

	memset(&c, 0, sizeof(c));
	wr_tcp_input(&c, &s, 0, &out);
	WR_CHECK_U64(out.nb_segs, 1);
	WR_CHECK_U64(out.segs[0].flags, WR_TCP_RST | WR_TCP_ACK);
	WR_CHECK_U64(out.segs[0].seq, 0);
	WR_CHECK_U64(out.segs[0].ack, 87);          /* SEG.SEQ + SEG.LEN */
	s = tseg(77, 4444, WR_TCP_ACK, 0, 100);
	wr_tcp_input(&c, &s, 0, &out);
	WR_CHECK_U64(out.segs[0].flags, WR_TCP_RST);
	WR_CHECK_U64(out.segs[0].seq, 4444);
	s.flags = WR_TCP_RST;
	wr_tcp_input(&c, &s, 0, &out);
	WR_CHECK_U64(out.nb_segs, 0);               /* never RST a RST */

	wr_tcp_listen(&c, &cfg);
	s = tseg(77, 4444, WR_TCP_ACK, 0, 100);
	wr_tcp_input(&c, &s, 0, &out);
	WR_CHECK_U64(out.nb_segs, 1);
	WR_CHECK_U64(out.segs[0].seq, 4444);
	WR_CHECK_U64(out.segs[0].flags, WR_TCP_RST);
	s.flags = WR_TCP_RST;
	wr_tcp_input(&c, &s, 0, &out);
	WR_CHECK_U64(out.nb_segs, 0);
	WR_CHECK_U64(c.state, WR_TCP_LISTEN);
}

/* SYN_SENT: RST refused, bad ACKs (RFC 9293 3.10.7.3, RFC 5961 3.2). */
static void
test_syn_sent(void)
{
	struct wr_tcp_cfg cfg = tcfg(1000, 0);
	struct wr_tcp_conn c;
	struct wr_tcp_out out;
	struct wr_tcp_seg s;

	wr_tcp_connect(&c, &cfg, 0, &out);
	s = tseg(0, 1000, WR_TCP_ACK, 0, 0);     /* SEG.ACK =< ISS */
	wr_tcp_input(&c, &s, 1, &out);
	WR_CHECK_U64(out.nb_segs, 1);
	WR_CHECK_U64(out.segs[0].flags, WR_TCP_RST);
	WR_CHECK_U64(out.segs[0].seq, 1000);
	WR_CHECK_U64(c.state, WR_TCP_SYN_SENT);
	s = tseg(0, 0, WR_TCP_RST, 0, 0);        /* RST without ACK: ignored */
	wr_tcp_input(&c, &s, 1, &out);
	WR_CHECK_U64(c.state, WR_TCP_SYN_SENT);
	WR_CHECK_U64(out.nb_segs, 0);
	s = tseg(0, 1001, WR_TCP_RST | WR_TCP_ACK, 0, 0);
	wr_tcp_input(&c, &s, 1, &out);
	WR_CHECK_U64(c.state, WR_TCP_CLOSED);
	WR_CHECK(out.events & WR_TCP_EV_FAILED);
	WR_CHECK_U64(out.fail, WR_TCP_FAIL_REFUSED);
	WR_CHECK_U64(out.timer, WR_TCP_TIMER_CANCEL);
}

/* Simultaneous open (RFC 9293 3.5, figure 7). */
static void
test_simultaneous_open(void)
{
	struct wr_tcp_cfg ca = tcfg(100, 0), cb = tcfg(300, 0);
	struct wr_tcp_conn a, b;
	struct wr_tcp_out oa, ob;
	struct wr_tcp_seg syn_a, syn_b;

	wr_tcp_connect(&a, &ca, 0, &oa);
	wr_tcp_connect(&b, &cb, 0, &ob);
	syn_a = oa.segs[0];
	syn_b = ob.segs[0];
	wr_tcp_input(&a, &syn_b, 10, &oa);
	wr_tcp_input(&b, &syn_a, 10, &ob);
	WR_CHECK_U64(a.state, WR_TCP_SYN_RCVD);
	WR_CHECK_U64(b.state, WR_TCP_SYN_RCVD);
	WR_CHECK_U64(oa.nb_segs, 1);
	WR_CHECK_U64(oa.segs[0].flags, WR_TCP_SYN | WR_TCP_ACK);
	WR_CHECK_U64(oa.segs[0].seq, 100);
	WR_CHECK_U64(oa.segs[0].ack, 301);
	syn_a = oa.segs[0];
	syn_b = ob.segs[0];
	wr_tcp_input(&a, &syn_b, 20, &oa);
	wr_tcp_input(&b, &syn_a, 20, &ob);
	WR_CHECK_U64(a.state, WR_TCP_ESTABLISHED);
	WR_CHECK_U64(b.state, WR_TCP_ESTABLISHED);
	WR_CHECK_U64(a.snd_una, 101);
	WR_CHECK_U64(a.rcv_nxt, 301);
}

/* RST in the synchronized states (RFC 9293 3.10.7.4, RFC 5961 3.2). */
static void
test_rst_established(void)
{
	struct wr_tcp_conn c;
	struct wr_tcp_out out;
	struct wr_tcp_seg s;

	testab(&c, 1000, 5000, 1460, 65535, 0, &out);
	s = tseg(5001 + 70000, 0, WR_TCP_RST, 0, 0);   /* out of window */
	wr_tcp_input(&c, &s, 2000, &out);
	WR_CHECK_U64(out.nb_segs, 0);
	WR_CHECK_U64(c.state, WR_TCP_ESTABLISHED);
	s = tseg(5011, 0, WR_TCP_RST, 0, 0);   /* in window, not rcv_nxt */
	wr_tcp_input(&c, &s, 2000, &out);
	WR_CHECK_U64(c.state, WR_TCP_ESTABLISHED);
	WR_CHECK_U64(out.nb_segs, 1);          /* the challenge ACK */
	WR_CHECK_U64(out.segs[0].flags, WR_TCP_ACK);
	WR_CHECK_U64(out.segs[0].seq, 1001);
	WR_CHECK_U64(out.segs[0].ack, 5001);
	s = tseg(5001, 0, WR_TCP_RST, 0, 0);
	wr_tcp_input(&c, &s, 2000, &out);
	WR_CHECK_U64(c.state, WR_TCP_CLOSED);
	WR_CHECK(out.events & WR_TCP_EV_RESET);
	WR_CHECK_U64(out.fail, WR_TCP_FAIL_RESET);
	WR_CHECK_U64(out.nb_segs, 0);
}

/* A SYN once synchronized: challenge ACK, state kept (RFC 5961 4.2). */
static void
test_syn_established(void)
{
	struct wr_tcp_conn c;
	struct wr_tcp_out out;
	struct wr_tcp_seg s;

	testab(&c, 1000, 5000, 1460, 65535, 0, &out);
	s = tseg(5100, 0, WR_TCP_SYN, 0, 100);
	wr_tcp_input(&c, &s, 2000, &out);
	WR_CHECK_U64(c.state, WR_TCP_ESTABLISHED);
	WR_CHECK_U64(out.nb_segs, 1);
	WR_CHECK_U64(out.segs[0].flags, WR_TCP_ACK);
	WR_CHECK_U64(out.segs[0].ack, 5001);
	s = tseg(5000, 0, WR_TCP_SYN, 0, 100);   /* the old SYN again */
	wr_tcp_input(&c, &s, 2000, &out);
	WR_CHECK_U64(c.state, WR_TCP_ESTABLISHED);
	WR_CHECK_U64(out.nb_segs, 1);
	WR_CHECK_U64(out.segs[0].ack, 5001);
}

/* A RST at rcv_nxt in every state: what RFC 9293 3.10.7.4 says of each. */
static void
test_rst_each_state(void)
{
	static const struct {
		uint8_t st;
		uint8_t fail;
	} cases[] = {
		{ WR_TCP_ESTABLISHED, WR_TCP_FAIL_RESET },
		{ WR_TCP_FIN_WAIT_1, WR_TCP_FAIL_RESET },
		{ WR_TCP_FIN_WAIT_2, WR_TCP_FAIL_RESET },
		{ WR_TCP_CLOSE_WAIT, WR_TCP_FAIL_RESET },
		{ WR_TCP_CLOSING, WR_TCP_FAIL_NONE },
		{ WR_TCP_LAST_ACK, WR_TCP_FAIL_NONE },
		{ WR_TCP_TIME_WAIT, WR_TCP_FAIL_NONE },
	};
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct wr_tcp_conn c;
		struct wr_tcp_out out;
		struct wr_tcp_seg s;
		uint32_t rn;

		ttostate(&c, cases[i].st, &rn);
		WR_CHECK_U64(c.state, cases[i].st);
		s = tseg(rn + 1, 0, WR_TCP_RST, 0, 0);  /* in window: challenge */
		wr_tcp_input(&c, &s, 3000, &out);
		WR_CHECK_U64(c.state, cases[i].st);
		WR_CHECK_U64(out.nb_segs, 1);
		WR_CHECK_U64(out.segs[0].ack, rn);
		s = tseg(rn, 0, WR_TCP_RST, 0, 0);
		wr_tcp_input(&c, &s, 3000, &out);
		WR_CHECK_U64(c.state, WR_TCP_CLOSED);
		WR_CHECK(out.events & WR_TCP_EV_CLOSED);
		WR_CHECK_U64(out.fail, cases[i].fail);
		WR_CHECK_U64(out.nb_segs, 0);
	}
}

/* Active close: FIN_WAIT_1, FIN_WAIT_2, TIME_WAIT, CLOSED (3.6 fig. 12). */
static void
test_active_close(void)
{
	struct wr_tcp_conn c;
	struct wr_tcp_out out;
	struct wr_tcp_seg s;

	testab(&c, 1000, 5000, 1460, 65535, 0, &out);
	wr_tcp_close(&c, 2000, &out);
	WR_CHECK_U64(c.state, WR_TCP_FIN_WAIT_1);
	WR_CHECK_U64(out.nb_segs, 1);
	WR_CHECK_U64(out.segs[0].flags, WR_TCP_FIN | WR_TCP_ACK);
	WR_CHECK_U64(out.segs[0].seq, 1001);
	WR_CHECK_U64(out.segs[0].ack, 5001);
	WR_CHECK_U64(out.timer, WR_TCP_TIMER_RTO);
	s = tseg(5001, 1002, WR_TCP_ACK, 0, 65535);
	wr_tcp_input(&c, &s, 2100, &out);
	WR_CHECK_U64(c.state, WR_TCP_FIN_WAIT_2);
	WR_CHECK_U64(out.timer, WR_TCP_TIMER_CANCEL);
	/* FIN_WAIT_2 still receives data */
	s = tseg(5001, 1002, WR_TCP_ACK, 300, 65535);
	wr_tcp_input(&c, &s, 2200, &out);
	WR_CHECK_U64(out.nb_delivered_bytes, 300);
	s = tseg(5301, 1002, WR_TCP_FIN | WR_TCP_ACK, 0, 65535);
	wr_tcp_input(&c, &s, 2300, &out);
	WR_CHECK_U64(c.state, WR_TCP_TIME_WAIT);
	WR_CHECK(out.events & WR_TCP_EV_PEER_FIN);
	WR_CHECK_U64(out.nb_segs, 1);
	WR_CHECK_U64(out.segs[0].ack, 5302);
	WR_CHECK_U64(out.segs[0].seq, 1002);
	WR_CHECK_U64(out.timer, WR_TCP_TIMER_TIME_WAIT);
	WR_CHECK_U64(out.timer_us, 2300 + 60000000ull);   /* 2 MSL */
	/* the FIN again (our ACK was lost): ACK it, 2 MSL from now */
	wr_tcp_input(&c, &s, 9000, &out);
	WR_CHECK_U64(c.state, WR_TCP_TIME_WAIT);
	WR_CHECK_U64(out.nb_segs, 1);
	WR_CHECK_U64(out.segs[0].ack, 5302);
	WR_CHECK_U64(out.timer, WR_TCP_TIMER_TIME_WAIT);
	WR_CHECK_U64(out.timer_us, 9000 + 60000000ull);
	wr_tcp_timeout(&c, 9000 + 60000000ull, &out);
	WR_CHECK_U64(c.state, WR_TCP_CLOSED);
	WR_CHECK(out.events & WR_TCP_EV_CLOSED);
	WR_CHECK_U64(out.fail, WR_TCP_FAIL_NONE);
}

/* Passive close: CLOSE_WAIT, LAST_ACK, CLOSED. */
static void
test_passive_close(void)
{
	struct wr_tcp_conn c;
	struct wr_tcp_out out;
	struct wr_tcp_seg s;

	testab(&c, 1000, 5000, 1460, 65535, 0, &out);
	s = tseg(5001, 1001, WR_TCP_FIN | WR_TCP_ACK, 0, 65535);
	wr_tcp_input(&c, &s, 2000, &out);
	WR_CHECK_U64(c.state, WR_TCP_CLOSE_WAIT);
	WR_CHECK(out.events & WR_TCP_EV_PEER_FIN);
	WR_CHECK_U64(out.nb_segs, 1);
	WR_CHECK_U64(out.segs[0].ack, 5002);
	wr_tcp_close(&c, 2100, &out);
	WR_CHECK_U64(c.state, WR_TCP_LAST_ACK);
	WR_CHECK_U64(out.segs[0].flags, WR_TCP_FIN | WR_TCP_ACK);
	WR_CHECK_U64(out.segs[0].seq, 1001);
	s = tseg(5002, 1002, WR_TCP_ACK, 0, 65535);
	wr_tcp_input(&c, &s, 2200, &out);
	WR_CHECK_U64(c.state, WR_TCP_CLOSED);
	WR_CHECK(out.events & WR_TCP_EV_CLOSED);
	WR_CHECK_U64(out.fail, WR_TCP_FAIL_NONE);
}

/* Simultaneous close: CLOSING, then TIME_WAIT (3.6 figure 13). */
static void
test_simultaneous_close(void)
{
	struct wr_tcp_conn c;
	struct wr_tcp_out out;
	struct wr_tcp_seg s;

	testab(&c, 1000, 5000, 1460, 65535, 0, &out);
	wr_tcp_close(&c, 2000, &out);
	s = tseg(5001, 1001, WR_TCP_FIN | WR_TCP_ACK, 0, 65535);
	wr_tcp_input(&c, &s, 2100, &out);
	WR_CHECK_U64(c.state, WR_TCP_CLOSING);
	WR_CHECK_U64(out.segs[0].ack, 5002);
	s = tseg(5002, 1002, WR_TCP_ACK, 0, 65535);
	wr_tcp_input(&c, &s, 2200, &out);
	WR_CHECK_U64(c.state, WR_TCP_TIME_WAIT);
	WR_CHECK_U64(out.timer, WR_TCP_TIMER_TIME_WAIT);
	/* a FIN that also acks ours in FIN_WAIT_1: TIME_WAIT at once */
	testab(&c, 1000, 5000, 1460, 65535, 0, &out);
	wr_tcp_close(&c, 2000, &out);
	s = tseg(5001, 1002, WR_TCP_FIN | WR_TCP_ACK, 0, 65535);
	wr_tcp_input(&c, &s, 2100, &out);
	WR_CHECK_U64(c.state, WR_TCP_TIME_WAIT);
}

/* Out-of-window data and ACKs: ACK and drop (3.10.7.4, RFC 5961 5.2). */
static void
test_out_of_window(void)
{
	struct wr_tcp_conn c;
	struct wr_tcp_out out;
	struct wr_tcp_seg s;

	testab(&c, 1000, 5000, 1460, 65535, 0, &out);
	s = tseg(5001 + 65535, 1001, WR_TCP_ACK, 100, 65535);
	wr_tcp_input(&c, &s, 2000, &out);
	WR_CHECK_U64(out.nb_delivered_bytes, 0);
	WR_CHECK_U64(out.nb_segs, 1);
	WR_CHECK_U64(out.segs[0].ack, 5001);
	s = tseg(4001, 1001, WR_TCP_ACK, 100, 65535);   /* old data */
	wr_tcp_input(&c, &s, 2000, &out);
	WR_CHECK_U64(out.nb_segs, 1);
	WR_CHECK_U64(c.rcv_nxt, 5001);
	s = tseg(5001, 1500, WR_TCP_ACK, 0, 65535);     /* acks unsent */
	wr_tcp_input(&c, &s, 2000, &out);
	WR_CHECK_U64(out.nb_segs, 1);
	WR_CHECK_U64(c.snd_una, 1001);
}

/* Out of order kept as ranges, merged when the hole fills. */
static void
test_ooo_fill(void)
{
	struct wr_tcp_conn c;
	struct wr_tcp_out out;
	struct wr_tcp_seg s;

	testab(&c, 1000, 5000, 1460, 65535, 0, &out);
	s = tseg(6001, 1001, WR_TCP_ACK, 1000, 65535);
	wr_tcp_input(&c, &s, 2000, &out);
	WR_CHECK_U64(out.nb_delivered_bytes, 0);
	WR_CHECK_U64(out.nb_segs, 1);                  /* duplicate ACK */
	WR_CHECK_U64(out.segs[0].ack, 5001);
	s = tseg(8001, 1001, WR_TCP_ACK, 1000, 65535);
	wr_tcp_input(&c, &s, 2000, &out);
	s = tseg(7501, 1001, WR_TCP_ACK, 500, 65535);  /* joins [8001,9001) */
	wr_tcp_input(&c, &s, 2000, &out);
	WR_CHECK_U64(c.ooo[0].start, 6001);
	WR_CHECK_U64(c.ooo[0].end, 7001);
	WR_CHECK_U64(c.ooo[1].start, 7501);
	WR_CHECK_U64(c.ooo[1].end, 9001);
	s = tseg(5001, 1001, WR_TCP_ACK, 1000, 65535); /* first hole */
	wr_tcp_input(&c, &s, 2000, &out);
	WR_CHECK_U64(out.nb_delivered_bytes, 2000);
	WR_CHECK_U64(c.rcv_nxt, 7001);
	WR_CHECK_U64(out.nb_segs, 1);
	WR_CHECK_U64(out.segs[0].ack, 7001);
	s = tseg(7001, 1001, WR_TCP_ACK, 500, 65535);
	wr_tcp_input(&c, &s, 2000, &out);
	WR_CHECK_U64(out.nb_delivered_bytes, 2000);    /* 500 + 1500 */
	WR_CHECK_U64(c.rcv_nxt, 9001);
	WR_CHECK_U64(c.nb_rx_delivered_bytes, 4000);
	WR_CHECK_U64(c.ooo[0].start, c.ooo[0].end);   /* none left */
}

/* Delayed ACK: every second segment, or 40 ms (RFC 9293 3.8.6.3). */
static void
test_delayed_ack(void)
{
	struct wr_tcp_conn c;
	struct wr_tcp_out out;
	struct wr_tcp_seg s;

	testab(&c, 1000, 5000, 1460, 65535, 0, &out);
	s = tseg(5001, 1001, WR_TCP_ACK, 1000, 65535);
	wr_tcp_input(&c, &s, 2000, &out);
	WR_CHECK_U64(out.nb_segs, 0);
	WR_CHECK_U64(out.timer, WR_TCP_TIMER_DELACK);
	WR_CHECK_U64(out.timer_us, 2000 + 40000);
	s = tseg(6001, 1001, WR_TCP_ACK, 1000, 65535);
	wr_tcp_input(&c, &s, 2100, &out);
	WR_CHECK_U64(out.nb_segs, 1);
	WR_CHECK_U64(out.segs[0].ack, 7001);
	WR_CHECK_U64(out.timer, WR_TCP_TIMER_CANCEL);
	s = tseg(7001, 1001, WR_TCP_ACK, 1000, 65535);
	wr_tcp_input(&c, &s, 2200, &out);
	WR_CHECK_U64(out.nb_segs, 0);
	wr_tcp_timeout(&c, 42200, &out);
	WR_CHECK_U64(out.nb_segs, 1);
	WR_CHECK_U64(out.segs[0].ack, 8001);
}

/* 1000 bytes of the peer's at seq (its ACK 1001), by the call batch
 * names. */
static void
data_in(struct wr_tcp_conn *c, uint32_t seq, uint64_t now_us, bool batch,
	struct wr_tcp_out *out)
{
	struct wr_tcp_seg s = tseg(seq, 1001, WR_TCP_ACK, 1000, 65535);

	if (batch)
		wr_tcp_input_batch(c, &s, now_us, out);
	else
		wr_tcp_input(c, &s, now_us, out);
}

/*
 * A receiver in bursts (wr_tcp_input_batch): in-order segments past the
 * first raise the ACK as due and send none; wr_tcp_ack_due at the end of
 * the burst sends one ACK for all and stops the delayed-ACK timer; out of
 * order is ACKed at once as before, and a due ACK that data carried (or
 * none at all) sends nothing.
 */
static void
test_batch_ack(void)
{
	struct wr_tcp_conn c;
	struct wr_tcp_out out;
	uint32_t i;

	testab(&c, 1000, 5000, 1460, 65535, 0, &out);
	for (i = 0; i < 5; i++) {
		data_in(&c, 5001 + 1000 * i, 2000 + i, true, &out);
		WR_CHECK_U64(out.nb_segs, 0);
		WR_CHECK_U64(!!(out.events & WR_TCP_EV_ACK_DUE), i > 0);
	}
	WR_CHECK_U64(c.rcv_nxt, 10001);
	wr_tcp_ack_due(&c, 2010, &out);
	WR_CHECK_U64(out.nb_segs, 1);
	WR_CHECK_U64(out.segs[0].ack, 10001);
	WR_CHECK_U64(out.segs[0].len_bytes, 0);
	WR_CHECK_U64(out.timer, WR_TCP_TIMER_CANCEL);
	wr_tcp_ack_due(&c, 2011, &out);   /* sent already: nothing */
	WR_CHECK_U64(out.nb_segs, 0);
	/* one segment after the ACK: delayed, not due */
	data_in(&c, 10001, 2020, true, &out);
	WR_CHECK_U64(out.nb_segs, 0);
	WR_CHECK_U64(out.events & WR_TCP_EV_ACK_DUE, 0);
	WR_CHECK_U64(out.timer, WR_TCP_TIMER_DELACK);
	/* beyond a hole: a duplicate ACK at once (RFC 5681 4.2) */
	data_in(&c, 12001, 2030, true, &out);
	WR_CHECK_U64(out.nb_segs, 1);
	WR_CHECK_U64(out.segs[0].ack, 11001);
	/* the hole filled: at once; then the plain call keeps one ACK
	 * every second segment */
	data_in(&c, 11001, 2040, false, &out);
	WR_CHECK_U64(out.nb_segs, 1);
	WR_CHECK_U64(out.segs[0].ack, 13001);
	data_in(&c, 13001, 2050, false, &out);
	WR_CHECK_U64(out.nb_segs, 0);
	data_in(&c, 14001, 2060, false, &out);
	WR_CHECK_U64(out.nb_segs, 1);
	WR_CHECK_U64(out.events & WR_TCP_EV_ACK_DUE, 0);
}

/*
 * The peer's FIN in a burst (wr_tcp_input_batch), into CLOSE_WAIT: its
 * ACK is due at the burst's end, not sent; an application that closes
 * before then sends one FIN,ACK that carries it (and wr_tcp_ack_due
 * sends nothing more); one that does not gets the ACK from
 * wr_tcp_ack_due. A FIN with our data in flight, or one that ends
 * FIN_WAIT_2, is ACKed at once as before.
 */
static void
test_batch_fin(void)
{
	struct wr_tcp_conn c;
	struct wr_tcp_out out;
	struct wr_tcp_seg s;

	testab(&c, 1000, 5000, 1460, 65535, 0, &out);
	s = tseg(5001, 1001, WR_TCP_FIN | WR_TCP_ACK, 0, 65535);
	wr_tcp_input_batch(&c, &s, 2000, &out);
	WR_CHECK_U64(c.state, WR_TCP_CLOSE_WAIT);
	WR_CHECK_U64(c.rcv_nxt, 5002);
	WR_CHECK_U64(out.nb_segs, 0);
	WR_CHECK(out.events & WR_TCP_EV_PEER_FIN);
	WR_CHECK(out.events & WR_TCP_EV_ACK_DUE);
	wr_tcp_close(&c, 2001, &out);
	WR_CHECK_U64(c.state, WR_TCP_LAST_ACK);
	WR_CHECK_U64(out.nb_segs, 1);
	WR_CHECK_U64(out.segs[0].flags, WR_TCP_FIN | WR_TCP_ACK);
	WR_CHECK_U64(out.segs[0].ack, 5002);
	WR_CHECK_U64(out.timer, WR_TCP_TIMER_RTO);
	wr_tcp_ack_due(&c, 2002, &out);
	WR_CHECK_U64(out.nb_segs, 0);
	/* the application keeps the connection open: the ACK at the end */
	testab(&c, 1000, 5000, 1460, 65535, 0, &out);
	s = tseg(5001, 1001, WR_TCP_FIN | WR_TCP_ACK, 300, 65535);
	wr_tcp_input_batch(&c, &s, 2000, &out);
	WR_CHECK_U64(out.nb_segs, 0);
	WR_CHECK_U64(out.nb_delivered_bytes, 300);
	wr_tcp_ack_due(&c, 2001, &out);
	WR_CHECK_U64(out.nb_segs, 1);
	WR_CHECK_U64(out.segs[0].flags, WR_TCP_ACK);
	WR_CHECK_U64(out.segs[0].ack, 5302);
	WR_CHECK_U64(c.state, WR_TCP_CLOSE_WAIT);
	/* our data in flight: the ACK at once (RFC 5681 4.2's rule for
	 * text, kept for the FIN) */
	testab(&c, 1000, 5000, 1460, 65535, 500, &out);
	s = tseg(5001, 1001, WR_TCP_FIN | WR_TCP_ACK, 0, 65535);
	wr_tcp_input_batch(&c, &s, 2000, &out);
	WR_CHECK_U64(c.state, WR_TCP_CLOSE_WAIT);
	WR_CHECK_U64(out.nb_segs, 1);
	WR_CHECK_U64(out.segs[0].ack, 5002);
	WR_CHECK_U64(out.events & WR_TCP_EV_ACK_DUE, 0);
	/* FIN_WAIT_2 to TIME_WAIT: nothing follows, the ACK at once */
	testab(&c, 1000, 5000, 1460, 65535, 0, &out);
	wr_tcp_close(&c, 2000, &out);
	s = tseg(5001, 1002, WR_TCP_ACK, 0, 65535);
	wr_tcp_input_batch(&c, &s, 2100, &out);
	WR_CHECK_U64(c.state, WR_TCP_FIN_WAIT_2);
	s = tseg(5001, 1002, WR_TCP_FIN | WR_TCP_ACK, 0, 65535);
	wr_tcp_input_batch(&c, &s, 2200, &out);
	WR_CHECK_U64(c.state, WR_TCP_TIME_WAIT);
	WR_CHECK_U64(out.nb_segs, 1);
	WR_CHECK_U64(out.segs[0].ack, 5002);
}

/* Both sides' sequence numbers cross 2^32 (RFC 9293 3.4). */
static void
test_wrap(void)
{
	struct wr_tcp_conn c;
	struct wr_tcp_out out;
	struct wr_tcp_seg s;

	/* our ISS 2^32 - 1000, the peer's 2^32 - 100 */
	testab(&c, 0xfffffc18u, 0xffffff9cu, 1000, 65535, 3000, &out);
	WR_CHECK_U64(c.state, WR_TCP_ESTABLISHED);
	/* IW for MSS 1000: 4 segments (RFC 5681 3.1); 3000 bytes in 3 */
	WR_CHECK_U64(out.nb_segs, 3);
	WR_CHECK_U64(out.segs[0].seq, 0xfffffc19u);
	WR_CHECK_U64(out.segs[1].seq, 0x1u);         /* 2^32 - 999 + 1000 */
	WR_CHECK_U64(out.segs[2].seq, 0x3e9u);
	WR_CHECK_U64(out.segs[2].stream_off, 2000);
	WR_CHECK_U64(out.segs[0].ack, 0xffffff9du);
	s = tseg(0xffffff9du, 0x7d1u, WR_TCP_ACK, 200, 65535);
	wr_tcp_input(&c, &s, 5000, &out);
	WR_CHECK_U64(c.snd_una, 0x7d1u);             /* two segments acked */
	WR_CHECK_U64(c.rcv_nxt, 0x65u);              /* 2^32 - 99 + 200 */
	WR_CHECK_U64(out.nb_delivered_bytes, 200);
	s = tseg(0x65u, 0xbb9u, WR_TCP_ACK, 0, 65535);
	wr_tcp_input(&c, &s, 6000, &out);
	WR_CHECK_U64(c.snd_una, c.snd_max);
	WR_CHECK_U64(c.tx_sent_bytes, 3000);
}

int
main(void)
{
	WR_TEST_RUN(test_active_open);
	WR_TEST_RUN(test_passive_open);
	WR_TEST_RUN(test_closed_listen);
	WR_TEST_RUN(test_syn_sent);
	WR_TEST_RUN(test_simultaneous_open);
	WR_TEST_RUN(test_rst_established);
	WR_TEST_RUN(test_syn_established);
	WR_TEST_RUN(test_rst_each_state);
	WR_TEST_RUN(test_active_close);
	WR_TEST_RUN(test_passive_close);
	WR_TEST_RUN(test_simultaneous_close);
	WR_TEST_RUN(test_out_of_window);
	WR_TEST_RUN(test_ooo_fill);
	WR_TEST_RUN(test_delayed_ack);
	WR_TEST_RUN(test_batch_ack);
	WR_TEST_RUN(test_batch_fin);
	WR_TEST_RUN(test_wrap);
	return wr_test_summary();
}
