/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Crafted segments through RFC 9293 3.10.7, state by state, for what
 * tests/unit/test_tcp_input.c leaves out: a RST outside the window in
 * every state and a RST in SYN_RCVD, a FIN in every state (a resent FIN
 * ACKed again, a FIN beyond a hole), a SYN in SYN_RCVD and in TIME_WAIT,
 * SYN options at their bounds, a segment past the right edge of the
 * window, the sequence space wrapping right after the SYN, and the retry
 * bounds of the SYN,ACK, of the RTO and of unanswered persist probes with
 * their backoff. Every expected value is worked out here from the RFCs.
 */
#include "tcp/tcp.h"
#include "tcp_util.h"
#include "wr_test.h"

static const uint8_t all_states[] = {
	WR_TCP_SYN_RCVD, WR_TCP_ESTABLISHED, WR_TCP_FIN_WAIT_1,
	WR_TCP_FIN_WAIT_2, WR_TCP_CLOSE_WAIT, WR_TCP_CLOSING,
	WR_TCP_LAST_ACK, WR_TCP_TIME_WAIT,
};

#define NB_STATES (sizeof(all_states) / sizeof(all_states[0]))

/*
 * A RST outside the receive window, below or above it, in every state:
 * dropped without an answer (RFC 9293 3.10.7.4 first, RFC 5961 3.2).
 */
static void
test_rst_out_of_window(void)
{
	unsigned int i;

	for (i = 0; i < NB_STATES; i++) {
		struct wr_tcp_conn c;
		struct wr_tcp_out out;
		struct wr_tcp_seg s;
		uint32_t rn;

		ttostate(&c, all_states[i], &rn);
		WR_CHECK_U64(c.state, all_states[i]);
		s = tseg(rn + 65535 + 10, 0, WR_TCP_RST, 0, 0);
		wr_tcp_input(&c, &s, 3000, &out);
		WR_CHECK_U64(c.state, all_states[i]);
		WR_CHECK_U64(out.nb_segs, 0);
		WR_CHECK(!(out.events & WR_TCP_EV_CLOSED));
		s = tseg(rn - 10, 0, WR_TCP_RST | WR_TCP_ACK, 0, 0);
		wr_tcp_input(&c, &s, 3000, &out);
		WR_CHECK_U64(c.state, all_states[i]);
		WR_CHECK_U64(out.nb_segs, 0);
	}
}

/*
 * SYN_RCVD (a passive open): a RST in the window but not at rcv_nxt gets
 * a challenge ACK <SEQ=SND.NXT><ACK=RCV.NXT> (RFC 5961 3.2); one at
 * rcv_nxt closes the connection, a reset.
 */
static void
test_rst_syn_rcvd(void)
{
	struct wr_tcp_conn c;
	struct wr_tcp_out out;
	struct wr_tcp_seg s;
	uint32_t rn;

	ttostate(&c, WR_TCP_SYN_RCVD, &rn);
	s = tseg(rn + 100, 0, WR_TCP_RST, 0, 0);
	wr_tcp_input(&c, &s, 3000, &out);
	WR_CHECK_U64(c.state, WR_TCP_SYN_RCVD);
	WR_CHECK_U64(out.nb_segs, 1);
	WR_CHECK_U64(out.segs[0].flags, WR_TCP_ACK);
	WR_CHECK_U64(out.segs[0].seq, 1001);
	WR_CHECK_U64(out.segs[0].ack, 5001);
	s = tseg(rn, 0, WR_TCP_RST, 0, 0);
	wr_tcp_input(&c, &s, 3000, &out);
	WR_CHECK_U64(c.state, WR_TCP_CLOSED);
	WR_CHECK(out.events & WR_TCP_EV_RESET);
	WR_CHECK_U64(out.fail, WR_TCP_FAIL_RESET);
	WR_CHECK_U64(out.nb_segs, 0);
	WR_CHECK_U64(out.timer, WR_TCP_TIMER_CANCEL);
}

/*
 * The peer's FIN again (our ACK of it was lost) in CLOSE_WAIT, CLOSING,
 * LAST_ACK and TIME_WAIT: below rcv_nxt, so unacceptable: ACKed, state
 * kept (RFC 9293 3.10.7.4 first and eighth); TIME_WAIT restarts 2 MSL.
 */
static void
test_fin_again(void)
{
	static const uint8_t st[] = { WR_TCP_CLOSE_WAIT, WR_TCP_CLOSING,
		WR_TCP_LAST_ACK, WR_TCP_TIME_WAIT };
	unsigned int i;

	for (i = 0; i < sizeof(st); i++) {
		struct wr_tcp_conn c;
		struct wr_tcp_out out;
		struct wr_tcp_seg s;
		uint32_t rn;

		ttostate(&c, st[i], &rn);
		WR_CHECK_U64(rn, 5002);
		s = tseg(5001, c.snd_una, WR_TCP_FIN | WR_TCP_ACK, 0, 65535);
		wr_tcp_input(&c, &s, 5000000, &out);
		WR_CHECK_U64(c.state, st[i]);
		WR_CHECK_U64(out.nb_segs, 1);
		WR_CHECK_U64(out.segs[0].flags, WR_TCP_ACK);
		WR_CHECK_U64(out.segs[0].ack, 5002);
		WR_CHECK_U64(out.segs[0].seq, c.snd_nxt);
		WR_CHECK(!(out.events & WR_TCP_EV_PEER_FIN));
		if (st[i] == WR_TCP_TIME_WAIT) {
			WR_CHECK_U64(out.timer, WR_TCP_TIMER_TIME_WAIT);
			WR_CHECK_U64(out.timer_us, 5000000 + 60000000ull);
		}
	}
}

/*
 * A FIN in SYN_RCVD with the ACK of our SYN,ACK: ESTABLISHED, then
 * CLOSE_WAIT (RFC 9293 3.10.7.4 fifth and eighth).
 */
static void
test_fin_syn_rcvd(void)
{
	struct wr_tcp_conn c;
	struct wr_tcp_out out;
	struct wr_tcp_seg s;
	uint32_t rn;

	ttostate(&c, WR_TCP_SYN_RCVD, &rn);
	s = tseg(rn, 1001, WR_TCP_FIN | WR_TCP_ACK, 0, 65535);
	wr_tcp_input(&c, &s, 3000, &out);
	WR_CHECK_U64(c.state, WR_TCP_CLOSE_WAIT);
	WR_CHECK(out.events & WR_TCP_EV_ESTABLISHED);
	WR_CHECK(out.events & WR_TCP_EV_PEER_FIN);
	WR_CHECK_U64(out.nb_segs, 1);
	WR_CHECK_U64(out.segs[0].ack, 5002);
}

/*
 * A FIN beyond a hole is not processed (RFC 9293 3.10.7.4 eighth: only
 * once in order); the segment is out of order, so a duplicate ACK goes
 * at once (RFC 5681 4.2: it tells the peer of the hole). The FIN is not
 * kept (no byte is): once the hole fills, the peer's resent FIN closes.
 */
static void
test_fin_beyond_hole(void)
{
	struct wr_tcp_conn c;
	struct wr_tcp_out out;
	struct wr_tcp_seg s;

	testab(&c, 1000, 5000, 1460, 65535, 0, &out);
	s = tseg(5101, 1001, WR_TCP_FIN | WR_TCP_ACK, 0, 65535);
	wr_tcp_input(&c, &s, 2000, &out);
	WR_CHECK_U64(c.state, WR_TCP_ESTABLISHED);
	WR_CHECK(!(out.events & WR_TCP_EV_PEER_FIN));
	WR_CHECK_U64(out.nb_segs, 1);
	WR_CHECK_U64(out.segs[0].ack, 5001);
	s = tseg(5001, 1001, WR_TCP_ACK, 100, 65535);
	wr_tcp_input(&c, &s, 2100, &out);
	WR_CHECK_U64(out.nb_delivered_bytes, 100);
	WR_CHECK_U64(c.state, WR_TCP_ESTABLISHED);
	s = tseg(5101, 1001, WR_TCP_FIN | WR_TCP_ACK, 0, 65535);
	wr_tcp_input(&c, &s, 2200, &out);
	WR_CHECK_U64(c.state, WR_TCP_CLOSE_WAIT);
	WR_CHECK_U64(out.segs[0].ack, 5102);
}

/*
 * A SYN in TIME_WAIT, in the window or past it (a new connection on the
 * same tuple): a challenge ACK, TIME_WAIT kept (RFC 5961 4.2; no reuse of
 * the tuple before 2 MSL: the client's source port allocator skips
 * tuples still in the table).
 */
static void
test_syn_time_wait(void)
{
	struct wr_tcp_conn c;
	struct wr_tcp_out out;
	struct wr_tcp_seg s;
	uint32_t rn;

	ttostate(&c, WR_TCP_TIME_WAIT, &rn);
	s = tseg(rn + 10, 0, WR_TCP_SYN, 0, 65535);
	wr_tcp_input(&c, &s, 3000, &out);
	WR_CHECK_U64(c.state, WR_TCP_TIME_WAIT);
	WR_CHECK_U64(out.nb_segs, 1);
	WR_CHECK_U64(out.segs[0].flags, WR_TCP_ACK);
	WR_CHECK_U64(out.segs[0].seq, 1002);
	WR_CHECK_U64(out.segs[0].ack, 5002);
	s = tseg(rn + 1000000, 0, WR_TCP_SYN, 0, 65535);
	wr_tcp_input(&c, &s, 3000, &out);
	WR_CHECK_U64(c.state, WR_TCP_TIME_WAIT);
	WR_CHECK_U64(out.nb_segs, 1);
	WR_CHECK_U64(out.segs[0].flags, WR_TCP_ACK);
	WR_CHECK_U64(out.segs[0].ack, 5002);
}

/*
 * A SYN in SYN_RCVD that is not the peer's first one again (another
 * sequence number, in the window or not): a challenge ACK, the state
 * kept (RFC 5961 4.2); the first SYN again gets the SYN,ACK again
 * (test_tcp_input's test_passive_open).
 */
static void
test_syn_syn_rcvd(void)
{
	struct wr_tcp_conn c;
	struct wr_tcp_out out;
	struct wr_tcp_seg s;
	uint32_t rn;

	ttostate(&c, WR_TCP_SYN_RCVD, &rn);
	s = tseg(rn + 99, 0, WR_TCP_SYN, 0, 65535);
	wr_tcp_input(&c, &s, 3000, &out);
	WR_CHECK_U64(c.state, WR_TCP_SYN_RCVD);
	WR_CHECK_U64(out.nb_segs, 1);
	WR_CHECK_U64(out.segs[0].flags, WR_TCP_ACK);
	WR_CHECK_U64(out.segs[0].seq, 1001);
	WR_CHECK_U64(out.segs[0].ack, 5001);
	s = tseg(rn + 900000, 0, WR_TCP_SYN, 0, 65535);
	wr_tcp_input(&c, &s, 3100, &out);
	WR_CHECK_U64(c.state, WR_TCP_SYN_RCVD);
	WR_CHECK_U64(out.nb_segs, 1);
	WR_CHECK_U64(out.segs[0].flags, WR_TCP_ACK);
	WR_CHECK_U64(out.segs[0].ack, 5001);
}

/*
 * SYN options at their bounds: a window shift above 14 is taken as 14
 * (RFC 7323 2.3); the send MSS is the smaller of the two (RFC 9293
 * 3.7.1); the SYN,ACK carries our MSS and shift, its window unscaled.
 */
static void
test_syn_options(void)
{
	struct wr_tcp_cfg cfg = tcfg(9000, 0);
	struct wr_tcp_conn c;
	struct wr_tcp_out out;
	struct wr_tcp_seg s = tseg(3000, 0, WR_TCP_SYN, 0, 8000);

	cfg.wscale = 9;
	cfg.rcv_wnd_bytes = 1u << 20;
	s.mss_bytes = 1400;
	s.wscale = 15;
	wr_tcp_accept(&c, &cfg, &s, 0, &out);
	WR_CHECK_U64(out.nb_segs, 1);
	WR_CHECK_U64(out.segs[0].mss_bytes, 1460);
	WR_CHECK_U64(out.segs[0].wscale, 9);
	WR_CHECK_U64(out.segs[0].wnd_raw, 65535);
	WR_CHECK_U64(c.snd_wscale, 14);
	/* the SYN,ACK resent announces ours too */
	wr_tcp_timeout(&c, 1000000, &out);
	WR_CHECK_U64(out.segs[0].flags, WR_TCP_SYN | WR_TCP_ACK);
	WR_CHECK_U64(out.segs[0].mss_bytes, 1460);
	s = tseg(3001, 9001, WR_TCP_ACK, 0, 3);
	wr_tcp_input(&c, &s, 1000100, &out);
	WR_CHECK_U64(c.state, WR_TCP_ESTABLISHED);
	WR_CHECK_U64(c.mss_bytes, 1400);
	WR_CHECK_U64(c.cwnd_bytes, 3 * 1400);       /* RFC 5681 3.1 IW */
	WR_CHECK_U64(c.snd_wnd_bytes, 3u << 14);
	/* our later windows: 1 MB >> 9 */
	s = tseg(3001, 9001, WR_TCP_ACK, 10, 3);
	wr_tcp_input(&c, &s, 1000200, &out);
	wr_tcp_timeout(&c, 1000200 + 40000, &out);
	WR_CHECK_U64(out.nb_segs, 1);
	WR_CHECK_U64(out.segs[0].wnd_raw, (1u << 20) >> 9);
}

/*
 * A segment that starts in the window and runs past its right edge: only
 * the part inside is taken (RFC 9293 3.10.7.4, "trimmed").
 */
static void
test_window_edge(void)
{
	struct wr_tcp_cfg cfg = tcfg(1000, 0);
	struct wr_tcp_conn c;
	struct wr_tcp_out out;
	struct wr_tcp_seg s = tseg(5000, 1001, WR_TCP_SYN | WR_TCP_ACK, 0,
		65535);

	cfg.rcv_wnd_bytes = 2000;
	wr_tcp_connect(&c, &cfg, 0, &out);
	wr_tcp_input(&c, &s, 1000, &out);
	s = tseg(5001, 1001, WR_TCP_ACK, 3000, 65535);
	wr_tcp_input(&c, &s, 2000, &out);
	WR_CHECK_U64(out.nb_delivered_bytes, 2000);
	WR_CHECK_U64(c.rcv_nxt, 7001);
	/* wholly past the edge now: ACKed, not taken */
	s = tseg(9001, 1001, WR_TCP_ACK, 100, 65535);
	wr_tcp_input(&c, &s, 2100, &out);
	WR_CHECK_U64(out.nb_delivered_bytes, 0);
	WR_CHECK_U64(out.nb_segs, 1);
	WR_CHECK_U64(out.segs[0].ack, 7001);
	WR_CHECK_U64(c.ooo[0].start, c.ooo[0].end);
}

/*
 * Both ISSs at 2^32 - 1: each SYN takes the last number, the data starts
 * at 0 (RFC 9293 3.4). Out-of-order data, ACKs, a FIN and an old RST
 * across the wrap.
 */
static void
test_wrap_at_syn(void)
{
	struct wr_tcp_conn c;
	struct wr_tcp_out out;
	struct wr_tcp_seg s;

	testab(&c, 0xffffffffu, 0xffffffffu, 1000, 65535, 3000, &out);
	WR_CHECK_U64(c.state, WR_TCP_ESTABLISHED);
	WR_CHECK_U64(c.snd_una, 0);
	WR_CHECK_U64(c.rcv_nxt, 0);
	WR_CHECK_U64(out.nb_segs, 3);
	WR_CHECK_U64(out.segs[0].seq, 0);
	WR_CHECK_U64(out.segs[0].ack, 0);
	WR_CHECK_U64(out.segs[0].stream_off, 0);
	WR_CHECK_U64(out.segs[2].seq, 2000);
	s = tseg(1000, 0, WR_TCP_ACK, 500, 65535);     /* beyond a hole */
	wr_tcp_input(&c, &s, 2000, &out);
	WR_CHECK_U64(out.nb_delivered_bytes, 0);
	WR_CHECK_U64(out.segs[0].ack, 0);
	s = tseg(0, 2000, WR_TCP_ACK, 1000, 65535);
	wr_tcp_input(&c, &s, 3000, &out);
	WR_CHECK_U64(out.nb_delivered_bytes, 1500);
	WR_CHECK_U64(c.rcv_nxt, 1500);
	WR_CHECK_U64(c.snd_una, 2000);
	/* an old RST (before rcv_nxt, across the wrap): dropped */
	s = tseg(0xfffffff0u, 0, WR_TCP_RST, 0, 0);
	wr_tcp_input(&c, &s, 3100, &out);
	WR_CHECK_U64(c.state, WR_TCP_ESTABLISHED);
	WR_CHECK_U64(out.nb_segs, 0);
	/* an old ACK from before the wrap: a duplicate, nothing moves */
	s = tseg(1500, 0xfffffff0u, WR_TCP_ACK, 0, 65535);
	wr_tcp_input(&c, &s, 3200, &out);
	WR_CHECK_U64(c.snd_una, 2000);
	s = tseg(1500, 3000, WR_TCP_FIN | WR_TCP_ACK, 0, 65535);
	wr_tcp_input(&c, &s, 3300, &out);
	WR_CHECK_U64(c.state, WR_TCP_CLOSE_WAIT);
	WR_CHECK_U64(c.snd_una, 3000);
	WR_CHECK_U64(out.segs[0].ack, 1501);
}

/*
 * The passive side's retry bound: the SYN,ACK again at 1, 2, 4 ... s
 * (RFC 6298 2.1 and 5.5), 8 times; the next expiry fails the connection
 * as a SYN timeout (RFC 9293 3.8.3 R2).
 */
static void
test_syn_ack_retry_bound(void)
{
	struct wr_tcp_conn c;
	struct wr_tcp_out out;
	uint64_t now = 0, rto = 1000000;
	uint32_t rn;
	int i;

	ttostate(&c, WR_TCP_SYN_RCVD, &rn);
	for (i = 1; i <= 8; i++) {
		now += rto;
		rto *= 2;
		wr_tcp_timeout(&c, now, &out);
		WR_CHECK_U64(out.nb_segs, 1);
		WR_CHECK_U64(out.nb_rtx_segs, 1);
		WR_CHECK_U64(out.segs[0].flags, WR_TCP_SYN | WR_TCP_ACK);
		WR_CHECK_U64(out.segs[0].seq, 1000);
		WR_CHECK_U64(out.segs[0].ack, 5001);
		WR_CHECK_U64(out.segs[0].mss_bytes, 1460);
		WR_CHECK_U64(out.timer, WR_TCP_TIMER_RTO);
		WR_CHECK_U64(out.timer_us, now + (rto > 60000000 ? 60000000 :
			rto));
	}
	wr_tcp_timeout(&c, now + rto, &out);
	WR_CHECK_U64(c.state, WR_TCP_CLOSED);
	WR_CHECK_U64(out.fail, WR_TCP_FAIL_SYN_TIMEOUT);
	WR_CHECK_U64(out.nb_segs, 0);
}

/*
 * The RTO's backoff once synchronized: 200 ms (the floor, SRTT 1 ms),
 * then 400, 800 ... ms (RFC 6298 5.5), the segment at snd_una each time;
 * the ninth expiry fails the connection.
 */
static void
test_rto_backoff(void)
{
	struct wr_tcp_conn c;
	struct wr_tcp_out out;
	uint64_t now = 1000, rto = 200000;
	int i;

	testab(&c, 1000, 5000, 1000, 65535, 20000, &out);
	WR_CHECK_U64(out.timer_us, now + rto);
	for (i = 1; i <= 8; i++) {
		now += rto;
		rto *= 2;
		wr_tcp_timeout(&c, now, &out);
		WR_CHECK_U64(out.nb_segs, 1);
		WR_CHECK_U64(out.segs[0].seq, 1001);
		WR_CHECK_U64(out.segs[0].len_bytes, 1000);
		WR_CHECK_U64(out.timer, WR_TCP_TIMER_RTO);
		WR_CHECK_U64(out.timer_us, now + rto);
	}
	wr_tcp_timeout(&c, now + rto, &out);
	WR_CHECK_U64(c.state, WR_TCP_CLOSED);
	WR_CHECK_U64(out.fail, WR_TCP_FAIL_RTX_TIMEOUT);
}

/*
 * Zero window, and the peer goes silent: probes at 200 ms, then backed
 * off (RFC 9293 3.8.6.1: "increase exponentially"); the connection may
 * not close while the peer answers (RFC 1122 4.2.2.17, test_tcp_output's
 * test_zero_window), but unanswered probes count as retransmissions: the
 * same bound as the RTO's fails the connection, so that a dead peer
 * holds no connection for ever.
 */
static void
test_persist_silent(void)
{
	struct wr_tcp_conn c;
	struct wr_tcp_out out;
	uint64_t now = 1000, rto = 200000;
	int i;

	testab(&c, 1000, 5000, 1460, 0, 5000, &out);
	WR_CHECK_U64(out.timer, WR_TCP_TIMER_PERSIST);
	WR_CHECK_U64(out.timer_us, now + rto);
	for (i = 1; i <= 8; i++) {
		now += rto;
		rto *= 2;
		wr_tcp_timeout(&c, now, &out);
		WR_CHECK_U64(out.nb_segs, 1);
		WR_CHECK_U64(out.segs[0].seq, 1001);
		WR_CHECK_U64(out.segs[0].len_bytes, 1);
		WR_CHECK_U64(out.timer, WR_TCP_TIMER_PERSIST);
		WR_CHECK_U64(out.timer_us, now + rto);
		WR_CHECK(!(out.events & WR_TCP_EV_FAILED));
	}
	wr_tcp_timeout(&c, now + rto, &out);
	WR_CHECK_U64(c.state, WR_TCP_CLOSED);
	WR_CHECK(out.events & WR_TCP_EV_FAILED);
	WR_CHECK_U64(out.fail, WR_TCP_FAIL_RTX_TIMEOUT);
	WR_CHECK_U64(out.timer, WR_TCP_TIMER_CANCEL);
}

int
main(void)
{
	WR_TEST_RUN(test_rst_out_of_window);
	WR_TEST_RUN(test_rst_syn_rcvd);
	WR_TEST_RUN(test_fin_again);
	WR_TEST_RUN(test_fin_syn_rcvd);
	WR_TEST_RUN(test_fin_beyond_hole);
	WR_TEST_RUN(test_syn_time_wait);
	WR_TEST_RUN(test_syn_syn_rcvd);
	WR_TEST_RUN(test_syn_options);
	WR_TEST_RUN(test_window_edge);
	WR_TEST_RUN(test_wrap_at_syn);
	WR_TEST_RUN(test_syn_ack_retry_bound);
	WR_TEST_RUN(test_rto_backoff);
	WR_TEST_RUN(test_persist_silent);
	return wr_test_summary();
}
