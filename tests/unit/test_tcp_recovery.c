/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for lib/tcp/cc.c's recovery after a burst loss: the go-back
 * on a partial ACK of one segment, the cut of cwnd when an ACK leaps past
 * snd_nxt (and no false fast retransmit from the duplicates after it),
 * ssthresh kept by an RTO in fast recovery, byte counting in congestion
 * avoidance. Expected values are worked out here from RFC 5681, 6582,
 * 3042 and 3465; the goodput they buy is tests/unit/test_tcp_sim.c's.
 */
#include "tcp/tcp.h"
#include "tcp_util.h"
#include "wr_test.h"

/*
 * MSS 1000, 100000 bytes to send: IW 4 (1001..5001), the ACK of 5001
 * (cwnd 5000: 5001..10001 out), then n duplicate ACKs of 5001 (the first
 * two send 10001 and 11001, RFC 3042; the third resends 5001).
 */
static void
to_recovery(struct wr_tcp_conn *c, struct wr_tcp_out *out, int n)
{
	struct wr_tcp_seg s = tseg(5001, 5001, WR_TCP_ACK, 0, 65535);
	int i;

	testab(c, 1000, 5000, 1000, 65535, 100000, out);
	wr_tcp_input(c, &s, 2000, out);
	WR_CHECK_U64(c->snd_max, 10001);
	for (i = 0; i < n; i++)
		wr_tcp_input(c, &s, 3000, out);
}

/*
 * A partial ACK of just the segment resent: the receiver holds nothing
 * past the hole. Go back: resend from there in slow start (cwnd one
 * SMSS), out of recovery, recover at snd_max. NewReno would stay in
 * recovery and resend one segment per RTT.
 */
static void
test_go_back(void)
{
	struct wr_tcp_conn c;
	struct wr_tcp_out out;
	struct wr_tcp_seg s;

	to_recovery(&c, &out, 3);
	WR_CHECK(c.flags & WR_TCP_F_IN_RECOVERY);
	WR_CHECK_U64(c.ssthresh_bytes, 3500);        /* 7000 in flight / 2 */
	WR_CHECK_U64(c.recover, 12001);
	s = tseg(5001, 6001, WR_TCP_ACK, 0, 65535);
	wr_tcp_input(&c, &s, 4000, &out);
	WR_CHECK(!(c.flags & WR_TCP_F_IN_RECOVERY));
	WR_CHECK_U64(c.cwnd_bytes, 1000);
	WR_CHECK_U64(c.ssthresh_bytes, 3500);
	WR_CHECK_U64(c.recover, 12001);
	WR_CHECK_U64(out.nb_segs, 1);
	WR_CHECK_U64(out.nb_rtx_segs, 1);
	WR_CHECK_U64(out.segs[0].seq, 6001);
	WR_CHECK_U64(out.segs[0].stream_off, 5000);
	WR_CHECK_U64(c.snd_nxt, 7001);
	/* its ACK: slow start, two more of the window resent */
	s = tseg(5001, 7001, WR_TCP_ACK, 0, 65535);
	wr_tcp_input(&c, &s, 5000, &out);
	WR_CHECK_U64(c.cwnd_bytes, 2000);
	WR_CHECK_U64(out.nb_segs, 2);
	WR_CHECK_U64(out.nb_rtx_segs, 2);
	WR_CHECK_U64(out.segs[0].seq, 7001);
	WR_CHECK_U64(out.segs[1].seq, 8001);
	/* duplicates of the old window (below recover): no fast
	 * retransmit (RFC 6582 3.2 step 2) */
	s = tseg(5001, 7001, WR_TCP_ACK, 0, 65535);
	wr_tcp_input(&c, &s, 5100, &out);
	wr_tcp_input(&c, &s, 5200, &out);
	wr_tcp_input(&c, &s, 5300, &out);
	WR_CHECK(!(c.flags & WR_TCP_F_IN_RECOVERY));
	WR_CHECK_U64(out.nb_rtx_segs, 0);
}

/*
 * The ACK leaps past snd_nxt (the go-back reached data the receiver
 * had): cwnd to three segments, not the whole window at once; and the
 * duplicates of what was resent start no fast retransmit.
 */
static void
test_leap(void)
{
	struct wr_tcp_conn c;
	struct wr_tcp_out out;
	struct wr_tcp_seg s;
	int i;

	to_recovery(&c, &out, 3);
	s = tseg(5001, 6001, WR_TCP_ACK, 0, 65535);
	wr_tcp_input(&c, &s, 4000, &out);            /* go back: 6001 */
	WR_CHECK_U64(c.snd_nxt, 7001);
	c.cwnd_bytes = 30000;                        /* as if it had grown */
	s = tseg(5001, 12001, WR_TCP_ACK, 0, 65535);
	wr_tcp_input(&c, &s, 5000, &out);
	WR_CHECK_U64(c.snd_una, 12001);
	WR_CHECK_U64(c.cwnd_bytes, 3000);
	WR_CHECK_U64(out.nb_segs, 3);
	WR_CHECK_U64(out.nb_rtx_segs, 0);
	WR_CHECK_U64(out.segs[0].seq, 12001);
	WR_CHECK_U64(c.ssthresh_bytes, 3500);
	/* the resent 7001..12001 arrive again: duplicate ACKs of 12001 */
	for (i = 0; i < 4; i++) {
		wr_tcp_input(&c, &s, 5100 + (uint64_t)i, &out);
		WR_CHECK_U64(out.nb_rtx_segs, 0);
	}
	WR_CHECK(!(c.flags & WR_TCP_F_IN_RECOVERY));
	/* a short leap (a probe's byte, a segment or two) changes nothing */
	s = tseg(5001, 13001, WR_TCP_ACK, 0, 65535);
	c.snd_nxt = 12001;
	c.cwnd_bytes = 8000;
	wr_tcp_input(&c, &s, 6000, &out);
	WR_CHECK(c.cwnd_bytes > 8000);
}

/*
 * The RTO fires in fast recovery after many duplicates inflated cwnd
 * and the flight: ssthresh stays what the loss set (3500), not half the
 * inflated flight.
 */
static void
test_rto_in_recovery(void)
{
	struct wr_tcp_conn c;
	struct wr_tcp_out out;

	to_recovery(&c, &out, 13);
	WR_CHECK(c.flags & WR_TCP_F_IN_RECOVERY);
	WR_CHECK_U64(c.cwnd_bytes, 16500);           /* 6500 + 10 SMSS */
	WR_CHECK(c.snd_max - c.snd_una >= 16000);
	wr_tcp_timeout(&c, 1000000, &out);
	WR_CHECK_U64(c.ssthresh_bytes, 3500);
	WR_CHECK_U64(c.cwnd_bytes, 1000);
	WR_CHECK(!(c.flags & WR_TCP_F_IN_RECOVERY));
	WR_CHECK_U64(out.nb_segs, 1);
	WR_CHECK_U64(out.segs[0].seq, 5001);
}

/*
 * Congestion avoidance counts bytes (RFC 5681 3.1, RFC 3465 2.1): a
 * delayed ACK of two segments grows cwnd twice what an ACK of one does.
 */
static void
test_ca_byte_counting(void)
{
	struct wr_tcp_conn c;
	struct wr_tcp_out out;
	struct wr_tcp_seg s;

	testab(&c, 1000, 5000, 1460, 65535, 100000, &out);
	c.ssthresh_bytes = 4380;
	s = tseg(5001, 3921, WR_TCP_ACK, 0, 65535);  /* 2920 bytes */
	wr_tcp_input(&c, &s, 3000, &out);
	WR_CHECK_U64(c.cwnd_bytes, 4380 + 973);      /* 2920 * 1460 / 4380 */
}

int
main(void)
{
	WR_TEST_RUN(test_go_back);
	WR_TEST_RUN(test_leap);
	WR_TEST_RUN(test_rto_in_recovery);
	WR_TEST_RUN(test_ca_byte_counting);
	return wr_test_summary();
}
