/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for lib/tcp/output.c and cc.c: the send window, slow start,
 * congestion avoidance, fast retransmit and NewReno, the RTO and its
 * retry bound, zero window probes, the FIN after the data, the restart
 * window after an idle time. Expected values
 * are worked out here from RFC 5681, 6582, 6298 and 9293.
 */
#include "tcp/tcp.h"
#include "tcp_util.h"
#include "wr_test.h"

/* IW of 3 segments for MSS 1460, then slow start (RFC 5681 3.1). */
static void
test_slow_start(void)
{
	struct wr_tcp_conn c;
	struct wr_tcp_out out;
	struct wr_tcp_seg s;

	testab(&c, 1000, 5000, 1460, 65535, 100000, &out);
	WR_CHECK_U64(c.cwnd_bytes, 4380);
	WR_CHECK_U64(out.nb_segs, 3);
	WR_CHECK_U64(out.segs[0].seq, 1001);
	WR_CHECK_U64(out.segs[0].ack, 5001);
	WR_CHECK_U64(out.segs[1].seq, 2461);
	WR_CHECK_U64(out.segs[2].seq, 3921);
	WR_CHECK_U64(out.segs[2].len_bytes, 1460);
	WR_CHECK_U64(out.segs[2].stream_off, 2920);
	/* SRTT 1000 us from the SYN: RTO at its 200 ms floor */
	WR_CHECK_U64(out.timer, WR_TCP_TIMER_RTO);
	WR_CHECK_U64(out.timer_us, 1000 + 200000);
	s = tseg(5001, 2461, WR_TCP_ACK, 0, 65535);
	wr_tcp_input(&c, &s, 3000, &out);
	WR_CHECK_U64(c.cwnd_bytes, 5840);            /* + min(1460, SMSS) */
	WR_CHECK_U64(out.nb_segs, 2);                /* 5840 - 2920 in flight */
	WR_CHECK_U64(out.segs[0].seq, 5381);
	WR_CHECK_U64(out.segs[1].seq, 6841);
	WR_CHECK_U64(out.nb_rtx_segs, 0);
	/* the first data segment was timed from 1000 us: a 2000 us sample;
	 * RTTVAR = 3/4 * 500 + 1/4 * 1000, SRTT = 7/8 * 1000 + 1/8 * 2000 */
	WR_CHECK_U64(c.srtt_us, 1125);
	WR_CHECK_U64(c.rttvar_us, 625);
	WR_CHECK_U64(out.timer, WR_TCP_TIMER_RTO);   /* restarted, 6298 5.3 */
	WR_CHECK_U64(out.timer_us, 3000 + 200000);
}

/* Congestion avoidance: SMSS * SMSS / cwnd per ACK (RFC 5681 eq. 3). */
static void
test_congestion_avoidance(void)
{
	struct wr_tcp_conn c;
	struct wr_tcp_out out;
	struct wr_tcp_seg s;

	testab(&c, 1000, 5000, 1460, 65535, 100000, &out);
	c.ssthresh_bytes = 4380;
	s = tseg(5001, 2461, WR_TCP_ACK, 0, 65535);
	wr_tcp_input(&c, &s, 3000, &out);
	WR_CHECK_U64(c.cwnd_bytes, 4380 + 486);     /* 2131600 / 4380 */
}

/*
 * Fast retransmit and NewReno (RFC 5681 3.2, RFC 6582 3.2) with limited
 * transmit (RFC 3042): MSS 1000, segments 1001..7001 out, 2001 and 4001
 * lost; three duplicate ACKs.
 */
static void
test_newreno(void)
{
	struct wr_tcp_conn c;
	struct wr_tcp_out out;
	struct wr_tcp_seg s;
	int i;

	testab(&c, 1000, 5000, 1000, 65535, 20000, &out);
	WR_CHECK_U64(out.nb_segs, 4);                /* IW: 4 * 1000 */
	s = tseg(5001, 2001, WR_TCP_ACK, 0, 65535);
	wr_tcp_input(&c, &s, 2000, &out);
	WR_CHECK_U64(out.nb_segs, 2);                /* cwnd 5000 */
	WR_CHECK_U64(c.snd_max, 7001);
	/* RFC 3042: the first two duplicates each send one new segment,
	 * cwnd unchanged */
	for (i = 0; i < 2; i++) {
		wr_tcp_input(&c, &s, 3000, &out);
		WR_CHECK_U64(out.nb_segs, 1);
		WR_CHECK_U64(out.nb_rtx_segs, 0);
		WR_CHECK_U64(out.segs[0].seq, 7001 + (uint32_t)i * 1000);
		WR_CHECK_U64(c.cwnd_bytes, 5000);
	}
	wr_tcp_input(&c, &s, 3000, &out);
	/* ssthresh = max(7000 / 2, 2 * 1000), cwnd = ssthresh + 3 SMSS */
	WR_CHECK_U64(c.ssthresh_bytes, 3500);
	WR_CHECK_U64(c.cwnd_bytes, 6500);
	WR_CHECK_U64(c.recover, 9001);
	WR_CHECK_U64(out.nb_segs, 1);
	WR_CHECK_U64(out.nb_rtx_segs, 1);
	WR_CHECK_U64(out.segs[0].seq, 2001);
	WR_CHECK_U64(out.segs[0].len_bytes, 1000);
	WR_CHECK_U64(out.segs[0].stream_off, 1000);
	/* partial ACK: resend 4001, cwnd 6500 - 2000 + 1000; 5000 in
	 * flight leaves no room for a new segment */
	s = tseg(5001, 4001, WR_TCP_ACK, 0, 65535);
	wr_tcp_input(&c, &s, 4000, &out);
	WR_CHECK_U64(c.cwnd_bytes, 5500);
	WR_CHECK_U64(out.nb_segs, 1);
	WR_CHECK_U64(out.nb_rtx_segs, 1);
	WR_CHECK_U64(out.segs[0].seq, 4001);
	WR_CHECK(c.flags & WR_TCP_F_IN_RECOVERY);
	/* full ACK: cwnd = min(ssthresh, FlightSize + SMSS) = 1000 */
	s = tseg(5001, 9001, WR_TCP_ACK, 0, 65535);
	wr_tcp_input(&c, &s, 5000, &out);
	WR_CHECK_U64(c.cwnd_bytes, 1000);
	WR_CHECK(!(c.flags & WR_TCP_F_IN_RECOVERY));
	WR_CHECK_U64(out.nb_segs, 1);
	WR_CHECK_U64(out.segs[0].seq, 9001);
}

/* RTO: go back to snd_una, cwnd 1 SMSS, back off, Karn (RFC 6298, 5681). */
static void
test_rto(void)
{
	struct wr_tcp_conn c;
	struct wr_tcp_out out;
	struct wr_tcp_seg s;

	testab(&c, 1000, 5000, 1000, 65535, 20000, &out);
	WR_CHECK_U64(out.timer_us, 201000);
	wr_tcp_timeout(&c, 201000, &out);
	WR_CHECK_U64(c.ssthresh_bytes, 2000);       /* max(4000 / 2, 2000) */
	WR_CHECK_U64(c.cwnd_bytes, 1000);
	WR_CHECK_U64(c.rto_us, 400000);
	WR_CHECK_U64(out.nb_segs, 1);
	WR_CHECK_U64(out.nb_rtx_segs, 1);
	WR_CHECK_U64(out.segs[0].seq, 1001);
	WR_CHECK_U64(out.timer, WR_TCP_TIMER_RTO);
	WR_CHECK_U64(out.timer_us, 601000);
	s = tseg(5001, 2001, WR_TCP_ACK, 0, 65535);
	wr_tcp_input(&c, &s, 250000, &out);
	WR_CHECK_U64(c.srtt_us, 1000);              /* Karn: no sample */
	WR_CHECK_U64(c.rto_us, 400000);             /* kept (6298 5.7) */
	WR_CHECK_U64(c.cwnd_bytes, 2000);
	WR_CHECK_U64(out.nb_segs, 2);               /* go-back-N */
	WR_CHECK_U64(out.nb_rtx_segs, 2);
	WR_CHECK_U64(out.segs[0].seq, 2001);
	WR_CHECK_U64(out.segs[1].seq, 3001);
	WR_CHECK_U64(out.timer_us, 650000);
}

/* The retry bound: SYN timeout, then retransmission timeout. */
static void
test_retry_bound(void)
{
	struct wr_tcp_cfg cfg = tcfg(1000, 0);
	struct wr_tcp_conn c;
	struct wr_tcp_out out;
	uint64_t now = 0, rto = 1000000;
	int i;

	wr_tcp_connect(&c, &cfg, 0, &out);
	for (i = 1; i <= 8; i++) {
		now += rto;
		wr_tcp_timeout(&c, now, &out);
		rto = rto * 2 > 60000000 ? 60000000 : rto * 2;
		WR_CHECK_U64(out.nb_segs, 1);
		WR_CHECK_U64(out.segs[0].flags, WR_TCP_SYN);
		WR_CHECK_U64(out.segs[0].seq, 1000);
		WR_CHECK_U64(out.timer_us, now + rto);
	}
	wr_tcp_timeout(&c, now + rto, &out);
	WR_CHECK_U64(c.state, WR_TCP_CLOSED);
	WR_CHECK(out.events & WR_TCP_EV_FAILED);
	WR_CHECK_U64(out.fail, WR_TCP_FAIL_SYN_TIMEOUT);
	WR_CHECK_U64(out.nb_segs, 0);

	testab(&c, 1000, 5000, 1000, 65535, 20000, &out);
	for (i = 1; i <= 8; i++) {
		wr_tcp_timeout(&c, (uint64_t)i * 100000000, &out);
		WR_CHECK_U64(out.segs[0].seq, 1001);
	}
	wr_tcp_timeout(&c, 900000000, &out);
	WR_CHECK_U64(c.state, WR_TCP_CLOSED);
	WR_CHECK_U64(out.fail, WR_TCP_FAIL_RTX_TIMEOUT);
}

/* Zero window: persist probes of one byte (RFC 9293 3.8.6.1). */
static void
test_zero_window(void)
{
	struct wr_tcp_conn c;
	struct wr_tcp_out out;
	struct wr_tcp_seg s;
	int i;

	testab(&c, 1000, 5000, 1460, 0, 5000, &out);
	WR_CHECK_U64(out.nb_segs, 1);                /* the ACK only */
	WR_CHECK_U64(out.segs[0].len_bytes, 0);
	WR_CHECK_U64(out.timer, WR_TCP_TIMER_PERSIST);
	WR_CHECK_U64(out.timer_us, 201000);
	wr_tcp_timeout(&c, 201000, &out);
	WR_CHECK_U64(out.nb_segs, 1);
	WR_CHECK_U64(out.segs[0].seq, 1001);
	WR_CHECK_U64(out.segs[0].len_bytes, 1);
	WR_CHECK_U64(out.segs[0].stream_off, 0);
	WR_CHECK_U64(out.timer, WR_TCP_TIMER_PERSIST);
	WR_CHECK_U64(out.timer_us, 201000 + 400000);
	/* the window stays shut: probes go on past the retry bound */
	for (i = 0; i < 12; i++) {
		s = tseg(5001, 1001, WR_TCP_ACK, 0, 0);
		wr_tcp_input(&c, &s, 700000 + (uint64_t)i * 1000, &out);
		WR_CHECK_U64(out.nb_segs, 0);
		wr_tcp_timeout(&c, 800000 + (uint64_t)i * 1000, &out);
		WR_CHECK_U64(out.nb_segs, 1);
		WR_CHECK_U64(out.segs[0].seq, 1001);
		WR_CHECK_U64(out.segs[0].len_bytes, 1);
		WR_CHECK(!(out.events & WR_TCP_EV_FAILED));
	}
	WR_CHECK_U64(c.state, WR_TCP_ESTABLISHED);
	/* the probe's byte taken, a window of 4000: two full segments */
	s = tseg(5001, 1002, WR_TCP_ACK, 0, 4000);
	wr_tcp_input(&c, &s, 900000, &out);
	WR_CHECK_U64(out.nb_segs, 2);
	WR_CHECK_U64(out.segs[0].seq, 1002);
	WR_CHECK_U64(out.segs[0].stream_off, 1);
	WR_CHECK_U64(out.segs[0].len_bytes, 1460);
	WR_CHECK_U64(out.segs[1].seq, 2462);
	WR_CHECK_U64(out.timer, WR_TCP_TIMER_RTO);
}

/* The FIN rides the last data segment once the app closed. */
static void
test_fin_after_data(void)
{
	struct wr_tcp_cfg cfg = tcfg(1000, 3000);
	struct wr_tcp_conn c;
	struct wr_tcp_out out;
	struct wr_tcp_seg s = tseg(5000, 1001, WR_TCP_SYN | WR_TCP_ACK, 0,
		65535);

	wr_tcp_connect(&c, &cfg, 0, &out);
	wr_tcp_close(&c, 10, &out);
	WR_CHECK_U64(out.nb_segs, 0);
	WR_CHECK_U64(c.state, WR_TCP_SYN_SENT);
	s.mss_bytes = 1460;
	wr_tcp_input(&c, &s, 1000, &out);
	WR_CHECK_U64(out.nb_segs, 3);
	WR_CHECK_U64(out.segs[2].seq, 3921);
	WR_CHECK_U64(out.segs[2].len_bytes, 80);
	WR_CHECK_U64(out.segs[2].flags, WR_TCP_ACK | WR_TCP_FIN);
	WR_CHECK_U64(c.state, WR_TCP_FIN_WAIT_1);
	WR_CHECK_U64(c.snd_max, 4002);              /* 3000 bytes + SYN + FIN */
	s = tseg(5001, 4002, WR_TCP_ACK, 0, 65535);
	wr_tcp_input(&c, &s, 2000, &out);
	WR_CHECK_U64(c.state, WR_TCP_FIN_WAIT_2);
}

/*
 * Restart after an idle time (RFC 5681 4.1): a window grown to four
 * segments, all acked; new data more than an RTO after that ACK goes out
 * with the restart window (IW: 3 segments at MSS 1460), at the RTO's end
 * or earlier with the whole window. ssthresh stays.
 */
static void
test_restart_after_idle(void)
{
	struct wr_tcp_conn c, d;
	struct wr_tcp_out out;
	struct wr_tcp_seg s;
	uint64_t acked_us = 3000;

	testab(&c, 1000, 5000, 1460, 65535, 3 * 1460, &out);
	WR_CHECK_U64(out.nb_segs, 3);
	s = tseg(5001, 1001 + 3 * 1460, WR_TCP_ACK, 0, 65535);
	wr_tcp_input(&c, &s, acked_us, &out);
	WR_CHECK_U64(c.cwnd_bytes, 5840);
	WR_CHECK_U64(out.nb_segs, 0);
	d = c;
	c.app_tx_left_bytes = 10 * 1460;
	wr_tcp_output(&c, acked_us + c.rto_us + 1, &out);
	WR_CHECK_U64(out.nb_segs, 3);
	WR_CHECK_U64(c.cwnd_bytes, 4380);
	WR_CHECK_U64(c.ssthresh_bytes, d.ssthresh_bytes);
	/* the restart window grows again as slow start does */
	s = tseg(5001, 1001 + 4 * 1460, WR_TCP_ACK, 0, 65535);
	wr_tcp_input(&c, &s, acked_us + c.rto_us + 2000, &out);
	WR_CHECK_U64(c.cwnd_bytes, 5840);
	/* not idle for more than the RTO: the whole window */
	d.app_tx_left_bytes = 10 * 1460;
	wr_tcp_output(&d, acked_us + d.rto_us, &out);
	WR_CHECK_U64(out.nb_segs, 4);
	WR_CHECK_U64(d.cwnd_bytes, 5840);
}

int
main(void)
{
	WR_TEST_RUN(test_slow_start);
	WR_TEST_RUN(test_congestion_avoidance);
	WR_TEST_RUN(test_newreno);
	WR_TEST_RUN(test_rto);
	WR_TEST_RUN(test_retry_bound);
	WR_TEST_RUN(test_zero_window);
	WR_TEST_RUN(test_fin_after_data);
	WR_TEST_RUN(test_restart_after_idle);
	return wr_test_summary();
}
