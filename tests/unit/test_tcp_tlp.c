/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for the tail loss probe (output.c, RFC 8985 7) with crafted
 * segments. A connection with SACK agreed and an RTT measured arms the
 * probe's timeout (2 SRTT, at least WR_TCP_PTO_MIN_US) for a window in
 * flight instead of the RTO; when it fires, one new segment goes if the
 * peer's window takes it, else the last segment again, and the RTO
 * follows; a duplicate that SACKs the probe, or an ACK of part of the
 * flight that SACKs it, starts recovery. Without
 * SACK, with one segment in flight (the probe would come after the RTO)
 * or after the RTO fired, there is no probe; the last data with the FIN
 * alone in flight has one.
 */
#include <stdbool.h>
#include <string.h>

#include "tcp/rto.h"
#include "tcp/tcp.h"
#include "tcp_util.h"
#include "wr_test.h"

#define MSS 1000u
#define ISS 1000u
#define IRS 5000u

static struct wr_tcp_conn conn;
static struct wr_tcp_out out;
static uint8_t armed;            /* the timer the handshake's end armed */
static uint64_t armed_us;

/* The first sequence number of segment s. */
static uint32_t
sq(uint32_t s)
{
	return ISS + 1 + s * MSS;
}

/* Established at 1000 us (an RTT of 1000 us measured on the SYN), SACK
 * agreed or not, nb_bytes to send (and the FIN after them with fin): the
 * initial window leaves then (the timer it arms in armed, armed_us), the
 * rest of cwnd_segs at 2000 us. */
static void
setup_bytes(bool sack, uint64_t nb_bytes, uint32_t cwnd_segs, bool fin)
{
	struct wr_tcp_cfg cfg = tcfg(ISS, nb_bytes);
	struct wr_tcp_seg s = tseg(IRS, ISS + 1, WR_TCP_SYN | WR_TCP_ACK, 0,
		65535);

	memset(&out, 0, sizeof(out));
	s.mss_bytes = MSS;
	s.sack_ok = sack;
	wr_tcp_connect(&conn, &cfg, 0, &out);
	if (fin)
		wr_tcp_close(&conn, 0, &out);
	wr_tcp_input(&conn, &s, 1000, &out);
	WR_CHECK_U64(conn.state, WR_TCP_ESTABLISHED);
	WR_CHECK(conn.srtt_us > 0);
	armed = out.timer;
	armed_us = out.timer_us;
	conn.cwnd_bytes = cwnd_segs * MSS;
	wr_tcp_output(&conn, 2000, &out);
}

/* The same with nb_segs full segments and no FIN. */
static void
setup(bool sack, uint32_t nb_segs, uint32_t cwnd_segs)
{
	setup_bytes(sack, (uint64_t)nb_segs * MSS, cwnd_segs, false);
}

/* The probe's timeout for more than one segment in flight (rto.h). */
static uint32_t
pto_2srtt(void)
{
	return 2 * conn.srtt_us < WR_TCP_PTO_MIN_US ? WR_TCP_PTO_MIN_US :
		2 * conn.srtt_us;
}

/* The payload segments out holds: how many, the first one's seq. */
static uint32_t
data_segs(uint32_t *seq0)
{
	uint32_t i, n = 0;

	for (i = 0; i < out.nb_segs; i++) {
		if (out.segs[i].len_bytes == 0)
			continue;
		if (n++ == 0)
			*seq0 = out.segs[i].seq;
	}
	return n;
}

/* Five segments sent, all of the data: the probe resends the fifth, then
 * the RTO; the ACK of all of it (the probe repaired the tail) stops the
 * timer. */
static void
test_probe_last(void)
{
	uint32_t seq = 0, pto;

	setup(true, 5, 10);
	WR_CHECK_U64(conn.snd_max, sq(5));
	WR_CHECK_U64(armed, WR_TCP_TIMER_RTO);
	WR_CHECK_U64(out.timer, WR_TCP_TIMER_KEEP);
	WR_CHECK_U64(conn.pto, 1);
	pto = pto_2srtt();
	WR_CHECK_U64(armed_us, 1000 + pto);
	WR_CHECK(pto < conn.rto_us);
	wr_tcp_timeout(&conn, 1000 + pto, &out);
	WR_CHECK(out.probe);
	WR_CHECK_U64(data_segs(&seq), 1);
	WR_CHECK_U64(seq, sq(4));
	WR_CHECK_U64(out.nb_rtx_segs, 1);
	WR_CHECK_U64(conn.pto, 0);
	WR_CHECK_U64(out.timer, WR_TCP_TIMER_RTO);
	WR_CHECK_U64(out.timer_us, 1000 + pto + conn.rto_us);
	WR_CHECK_U64(conn.cwnd_bytes, 10 * MSS);
	{
		struct wr_tcp_seg a = tseg(IRS + 1, sq(5), WR_TCP_ACK, 0,
			65535);

		wr_tcp_input(&conn, &a, 1000 + pto + 500, &out);
		WR_CHECK_U64(conn.snd_una, sq(5));
		WR_CHECK_U64(out.timer, WR_TCP_TIMER_CANCEL);
	}
}

/* Ten of twenty sent (cwnd): the probe is the eleventh, new data past
 * cwnd, no retransmission; the next expiry is the RTO's: from snd_una. */
static void
test_probe_new(void)
{
	uint32_t seq = 0, at;

	setup(true, 20, 10);
	WR_CHECK_U64(conn.snd_max, sq(10));
	WR_CHECK_U64(conn.pto, 1);
	at = (uint32_t)armed_us;
	wr_tcp_timeout(&conn, at, &out);
	WR_CHECK(out.probe);
	WR_CHECK_U64(data_segs(&seq), 1);
	WR_CHECK_U64(seq, sq(10));
	WR_CHECK_U64(out.nb_rtx_segs, 0);
	WR_CHECK_U64(conn.snd_max, sq(11));
	WR_CHECK_U64(out.timer_us, at + conn.rto_us);
	wr_tcp_timeout(&conn, at + conn.rto_us, &out);
	WR_CHECK(!out.probe);
	WR_CHECK_U64(data_segs(&seq), 1);
	WR_CHECK_U64(seq, sq(0));
	WR_CHECK_U64(conn.nb_retries, 1);
	/* backing off: still no probe, the RTO again */
	WR_CHECK_U64(conn.pto, 0);
}

/* a's SACK block: segment 4 (nb 1), or none (nb 0). */
static void
sack_4(struct wr_tcp_seg *a, unsigned int nb)
{
	a->nb_sack = (uint8_t)nb;
	a->sack[0].left = sq(4);
	a->sack[0].right = sq(5);
}

/* Five segments sent; a (no SACK) at 2500 arms the probe again, which
 * then resends 4. */
static void
probe_after(struct wr_tcp_seg *a)
{
	uint32_t seq = 0;

	setup(true, 5, 10);
	sack_4(a, 0);
	wr_tcp_input(&conn, a, 2500, &out);
	WR_CHECK_U64(out.timer, WR_TCP_TIMER_RTO);
	WR_CHECK_U64(conn.pto, 1);
	wr_tcp_timeout(&conn, out.timer_us, &out);
	WR_CHECK(out.probe);
	WR_CHECK_U64(data_segs(&seq), 1);
	WR_CHECK_U64(seq, sq(4));
}

/* Recovery began and resent segment s alone. */
static void
check_recovery(uint32_t s)
{
	uint32_t seq = 0;

	WR_CHECK(conn.flags & WR_TCP_F_IN_RECOVERY);
	WR_CHECK_U64(data_segs(&seq), 1);
	WR_CHECK_U64(seq, sq(s));
	WR_CHECK_U64(out.nb_rtx_segs, 1);
}

/*
 * A lost tail: segments 3 and 4 of five. The ACK of 0 to 2 arms the
 * probe again; it resends 4, and its answer, a duplicate SACKing 4,
 * starts recovery at once: 3 goes again, no RTO.
 */
static void
test_probe_answer(void)
{
	struct wr_tcp_seg a = tseg(IRS + 1, sq(3), WR_TCP_ACK, 0, 65535);

	probe_after(&a);
	sack_4(&a, 1);
	wr_tcp_input(&conn, &a, 9000, &out);
	check_recovery(3);
	/* the ACK of all ends it */
	a.nb_sack = 0;
	a.ack = sq(5);
	wr_tcp_input(&conn, &a, 9500, &out);
	WR_CHECK(!(conn.flags & WR_TCP_F_IN_RECOVERY));
	WR_CHECK_U64(out.timer, WR_TCP_TIMER_CANCEL);
	WR_CHECK_U64(conn.nb_retries, 0);
}

/*
 * The probe's answer acknowledges part of the flight and SACKs the
 * probe: of five, 0 and 1 acked, then the probe (4 again), then an ACK of
 * 2 that SACKs 4: 3 is lost, recovery starts at once (not after the
 * RTO); an ACK of new data without SACK after it starts none.
 */
static void
test_probe_answer_partial(void)
{
	struct wr_tcp_seg a = tseg(IRS + 1, sq(2), WR_TCP_ACK, 0, 65535);
	int k;

	for (k = 0; k < 2; k++) {
		a.ack = sq(2);
		probe_after(&a);
		a.ack = sq(3);
		sack_4(&a, k == 0);
		wr_tcp_input(&conn, &a, 9000, &out);
		WR_CHECK_U64(conn.snd_una, sq(3));
		if (k == 0) {
			check_recovery(3);
			continue;
		}
		WR_CHECK(!(conn.flags & WR_TCP_F_IN_RECOVERY));
		WR_CHECK_U64(out.nb_rtx_segs, 0);
	}
}

/*
 * The same answer after two duplicates, no probe: of five, 0 acked, two
 * duplicates SACKing 4, then an ACK of 1 that SACKs 4: 2 and 3 are
 * missing below it, recovery starts and 2 goes again.
 */
static void
test_partial_after_dups(void)
{
	struct wr_tcp_seg a = tseg(IRS + 1, sq(1), WR_TCP_ACK, 0, 65535);
	int k;

	setup(true, 5, 10);
	sack_4(&a, 1);
	wr_tcp_input(&conn, &a, 2500, &out);    /* new data: 0 acked */
	for (k = 0; k < 2; k++)
		wr_tcp_input(&conn, &a, 2600 + k, &out);
	WR_CHECK_U64(conn.nb_dupacks, 2);
	WR_CHECK(!(conn.flags & WR_TCP_F_IN_RECOVERY));
	a.ack = sq(2);
	wr_tcp_input(&conn, &a, 2700, &out);
	check_recovery(2);
}

/* No probe without SACK, nor with one segment in flight (2 SRTT plus
 * the delayed ACK's bound passes the RTO): the RTO's timer, and its
 * expiry resends from snd_una. */
static void
test_no_probe(void)
{
	uint32_t seq = 0;
	int k;

	for (k = 0; k < 2; k++) {
		setup(k == 1, k == 0 ? 5 : 1, 10);
		WR_CHECK_U64(armed, WR_TCP_TIMER_RTO);
		WR_CHECK_U64(conn.pto, 0);
		WR_CHECK_U64(armed_us, 1000 + conn.rto_us);
		wr_tcp_timeout(&conn, 1000 + conn.rto_us, &out);
		WR_CHECK(!out.probe);
		WR_CHECK_U64(data_segs(&seq), 1);
		WR_CHECK_U64(seq, sq(0));
	}
}

/*
 * The last data with the FIN alone in flight (segment 4 of five, 500
 * bytes, and the FIN: less than an MSS): the ACK of 0 to 3 arms the probe at 2 SRTT, not
 * the RTO (no delayed-ACK allowance, rto.h); it resends the tail. The
 * FIN alone in flight keeps the allowance: the RTO.
 */
static void
test_probe_fin_tail(void)
{
	struct wr_tcp_seg a = tseg(IRS + 1, sq(4), WR_TCP_ACK, 0, 65535);
	uint32_t seq = 0, pto;

	setup_bytes(true, 4 * MSS + 500, 10, true);
	WR_CHECK_U64(conn.snd_max, sq(4) + 501);   /* the data and the FIN */
	wr_tcp_input(&conn, &a, 3000, &out);
	WR_CHECK_U64(conn.snd_una, sq(4));
	pto = pto_2srtt();
	WR_CHECK_U64(out.timer, WR_TCP_TIMER_RTO);
	WR_CHECK_U64(conn.pto, 1);
	WR_CHECK_U64(out.timer_us, 3000 + pto);
	wr_tcp_timeout(&conn, 3000 + pto, &out);
	WR_CHECK(out.probe);
	WR_CHECK_U64(data_segs(&seq), 1);
	WR_CHECK_U64(seq, sq(4));
	WR_CHECK_U64(out.nb_rtx_segs, 1);
	/* the data acked, the FIN alone left: the RTO's timer */
	a.ack = sq(4) + 500;
	wr_tcp_input(&conn, &a, 3000 + pto + 500, &out);
	WR_CHECK_U64(conn.snd_una, sq(4) + 500);
	WR_CHECK_U64(conn.pto, 0);
	WR_CHECK_U64(out.timer, WR_TCP_TIMER_RTO);
	WR_CHECK_U64(out.timer_us, 3000 + pto + 500 + conn.rto_us);
}

int
main(void)
{
	WR_TEST_RUN(test_probe_last);
	WR_TEST_RUN(test_probe_new);
	WR_TEST_RUN(test_probe_answer);
	WR_TEST_RUN(test_probe_answer_partial);
	WR_TEST_RUN(test_partial_after_dups);
	WR_TEST_RUN(test_no_probe);
	WR_TEST_RUN(test_probe_fin_tail);
	return wr_test_summary();
}
