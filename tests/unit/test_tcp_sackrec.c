/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for SACK recovery in the state machine (cc.c, output.c,
 * RFC 6675) with crafted segments: a sender of ten MSS-sized segments
 * loses segments 0, 2 and 4; the peer's duplicate ACKs carry the SACK
 * blocks a receiver sends for what arrived (worked out here from the
 * segments delivered). With a scoreboard the holes are resent in order,
 * each when pipe allows; with the pool empty the connection recovers as
 * NewReno (one hole, cwnd inflated) and the refusal is counted. The
 * scoreboard goes back to the pool on a full ACK, on an RTO and when
 * the owner gives back a freed connection's: the pool's free count
 * returns to full.
 */
#include <stdbool.h>
#include <string.h>

#include "tcp/sack.h"
#include "tcp/seq.h"
#include "tcp/tcp.h"
#include "tcp_util.h"
#include "wr_test.h"

#define MSS 1000u
#define ISS 0xfffff000u         /* the window straddles 2^32 */
#define IRS 5000u

static uint64_t mem[1024];
static struct wr_tcp_conn conns[2];
static struct wr_tcp_sb_pool pool;
static struct wr_tcp_out out;

/* The first sequence number of segment s of the window. */
static uint32_t
sq(uint32_t s)
{
	return ISS + 1 + s * MSS;
}

/* conns[0] established, SACK agreed or not, 20 segments to send, cwnd
 * of ten sent at once; a pool of nb_sbs scoreboards. */
static void
setup_sack(uint32_t nb_sbs, uint8_t sack_ok)
{
	struct wr_tcp_cfg cfg = tcfg(ISS, 20 * MSS);
	struct wr_tcp_seg s = tseg(IRS, ISS + 1, WR_TCP_SYN | WR_TCP_ACK, 0,
		65535);
	struct wr_error err;
	struct wr_tcp_conn *c = &conns[0];

	WR_CHECK(wr_tcp_sb_mem_bytes(nb_sbs, 2) <= sizeof(mem));
	WR_CHECK_U64(wr_tcp_sb_pool_init(&pool, mem, nb_sbs, conns, 2, &err),
		0);
	memset(&out, 0, sizeof(out));
	out.sb_pool = &pool;
	cfg.sb_use = 1;
	s.mss_bytes = MSS;
	s.sack_ok = sack_ok;
	wr_tcp_connect(c, &cfg, 0, &out);
	wr_tcp_input(c, &s, 1000, &out);
	WR_CHECK_U64(c->state, WR_TCP_ESTABLISHED);
	WR_CHECK_U64(c->sack_ok, sack_ok);
	WR_CHECK_U64(out.nb_segs, 4);     /* the initial window */
	c->cwnd_bytes = 10 * MSS;
	wr_tcp_output(c, 2000, &out);
	WR_CHECK_U64(out.nb_segs, 6);
	WR_CHECK_U64(c->snd_max, sq(10));
}

static void
setup(uint32_t nb_sbs)
{
	setup_sack(nb_sbs, 1);
}

/* An ACK of snd_una with window wnd after the segments in got (a bit
 * mask) of the first 16 arrived: the receiver's blocks if sack, the
 * latest segment's range first, then the others from the lowest (three
 * at most). */
static void
dupack_wnd(uint32_t got, uint32_t latest, uint16_t wnd, bool sack)
{
	struct wr_tcp_seg s = tseg(IRS + 1, sq(0), WR_TCP_ACK, 0, wnd);
	struct wr_tcp_sack_blk r[16];
	unsigned int k, n = 0, i;

	for (k = 1; k < 16; k++) {
		if (!(got & (1u << k)))
			continue;
		if (n > 0 && r[n - 1].right == sq(k)) {
			r[n - 1].right = sq(k + 1);
			continue;
		}
		r[n].left = sq(k);
		r[n++].right = sq(k + 1);
	}
	for (i = 0; i < n; i++) {
		if (wr_tcp_seq_ge(sq(latest), r[i].left) &&
			wr_tcp_seq_lt(sq(latest), r[i].right))
			s.sack[s.nb_sack++] = r[i];
	}
	for (i = 0; i < n && s.nb_sack < 3; i++) {
		if (!(wr_tcp_seq_ge(sq(latest), r[i].left) &&
			wr_tcp_seq_lt(sq(latest), r[i].right)))
			s.sack[s.nb_sack++] = r[i];
	}
	if (!sack)
		s.nb_sack = 0;
	wr_tcp_input(&conns[0], &s, 3000, &out);
}

/* A duplicate ACK (dupack_wnd) with the window of the handshake. */
static void
dupack(uint32_t got, uint32_t latest)
{
	dupack_wnd(got, latest, 65535, true);
}

/* The payload segments of out below max0 (resent): their seqs. */
static unsigned int
resent(uint32_t max0, uint32_t *seqs)
{
	unsigned int i, n = 0;

	for (i = 0; i < out.nb_segs; i++) {
		if (out.segs[i].len_bytes > 0 &&
			wr_tcp_seq_lt(out.segs[i].seq, max0))
			seqs[n++] = out.segs[i].seq;
	}
	return n;
}

/*
 * Segments 0, 2 and 4 lost; 1, 3, 5, 6, 7, 8, 9 arrive, each answered by
 * a duplicate ACK. Limited transmit sends 10 and 11 on the first two.
 * The third enters recovery: segment 0 again, cwnd and ssthresh half the
 * flight (6 segments). pipe (flight less SACKed, less lost holes not
 * resent) lets hole 2 go on the fifth and hole 4 on the sixth; then new
 * data. Each hole once, in order.
 */
static void
test_holes_in_order(void)
{
	static const uint32_t arrive[] = { 1, 3, 5, 6, 7, 8, 9 };
	uint32_t seqs[WR_TCP_OUT_MAX_SEGS], all[8], got = 0, max0;
	unsigned int i, n, nb_all = 0;
	struct wr_tcp_conn *c = &conns[0];

	setup(4);
	for (i = 0; i < sizeof(arrive) / sizeof(arrive[0]); i++) {
		got |= 1u << arrive[i];
		max0 = c->snd_max;
		dupack(got, arrive[i]);
		n = resent(max0, seqs);
		WR_CHECK(nb_all + n <= 8);
		if (nb_all + n <= 8) {
			memcpy(&all[nb_all], seqs, n * sizeof(seqs[0]));
			nb_all += n;
		}
		if (i == 1)
			WR_CHECK_U64(c->snd_max, sq(12));
		if (i == 2) {
			WR_CHECK(c->flags & WR_TCP_F_IN_RECOVERY);
			WR_CHECK_U64(pool.nb_free, 3);
			WR_CHECK_U64(pool.nb_taken, 1);
			WR_CHECK_U64(c->ssthresh_bytes, 6 * MSS);
			WR_CHECK_U64(c->cwnd_bytes, 6 * MSS);
		}
	}
	WR_CHECK_U64(nb_all, 3);
	WR_CHECK_U64(all[0], sq(0));
	WR_CHECK_U64(all[1], sq(2));
	WR_CHECK_U64(all[2], sq(4));
	/* no inflation in SACK recovery; new data went after the holes */
	WR_CHECK_U64(c->cwnd_bytes, 6 * MSS);
	WR_CHECK(wr_tcp_seq_gt(c->snd_max, sq(12)));
	/* a partial ACK (0 arrived): no go-back, snd_nxt stays; 10 and
	 * 11, sent before recovery began and not SACKed, are lost now */
	max0 = c->snd_max;
	{
		struct wr_tcp_seg s = tseg(IRS + 1, sq(2), WR_TCP_ACK, 0,
			65535);

		wr_tcp_input(c, &s, 4000, &out);
		WR_CHECK(c->flags & WR_TCP_F_IN_RECOVERY);
		WR_CHECK_U64(resent(max0, seqs), 2);
		WR_CHECK_U64(seqs[0], sq(10));
		WR_CHECK_U64(seqs[1], sq(11));
		WR_CHECK_U64(c->snd_nxt, c->snd_max);
		/* the full ACK ends recovery: the scoreboard goes back */
		s.ack = max0;
		wr_tcp_input(c, &s, 5000, &out);
		WR_CHECK(!(c->flags & WR_TCP_F_IN_RECOVERY));
		WR_CHECK_U64(pool.nb_free, 4);
	}
	WR_CHECK_U64(pool.nb_refused, 0);
}

/* Blocks below snd_una or past snd_max are not taken: no hole is resent
 * for them; an RTO in recovery gives the scoreboard back. */
static void
test_bad_blocks_rto(void)
{
	struct wr_tcp_conn *c = &conns[0];
	struct wr_tcp_seg s = tseg(IRS + 1, sq(0), WR_TCP_ACK, 0, 65535);
	uint32_t seqs[WR_TCP_OUT_MAX_SEGS], max0;
	unsigned int k;

	setup(1);
	for (k = 0; k < 3; k++) {
		s.nb_sack = 2;
		s.sack[0].left = sq(0) - 3 * MSS;   /* below snd_una */
		s.sack[0].right = sq(0);
		s.sack[1].left = sq(5);             /* past snd_max */
		s.sack[1].right = sq(13);
		wr_tcp_input(c, &s, 3000, &out);
	}
	WR_CHECK(c->flags & WR_TCP_F_IN_RECOVERY);
	WR_CHECK_U64(pool.nb_free, 0);
	WR_CHECK_U64(wr_tcp_sb_of(&pool, 0)->nb_ranges, 0);
	/* more duplicates with the same blocks: nothing resent */
	max0 = c->snd_max;
	wr_tcp_input(c, &s, 3100, &out);
	WR_CHECK_U64(resent(max0, seqs), 0);
	wr_tcp_timeout(c, 1000000, &out);
	WR_CHECK(!(c->flags & WR_TCP_F_IN_RECOVERY));
	WR_CHECK_U64(pool.nb_free, 1);
	WR_CHECK_U64(resent(max0, seqs), 1);
	WR_CHECK_U64(seqs[0], sq(0));
}

/* The pool empty (its one scoreboard held by connection 1): NewReno's
 * recovery, counted; giving back connection 1's (its free) fills the
 * pool, and the next recovery of connection 0 takes it. */
static void
test_exhausted(void)
{
	struct wr_tcp_conn *c = &conns[0];
	uint32_t seqs[WR_TCP_OUT_MAX_SEGS], got = 0, max0;
	static const uint32_t arrive[] = { 1, 3, 5, 6, 7 };
	unsigned int i, nb_rtx = 0;

	setup(1);
	WR_CHECK(wr_tcp_sb_take(&pool, 1, 0) != NULL);
	for (i = 0; i < sizeof(arrive) / sizeof(arrive[0]); i++) {
		got |= 1u << arrive[i];
		max0 = c->snd_max;
		dupack(got, arrive[i]);
		nb_rtx += resent(max0, seqs);
		if (i == 2) {
			WR_CHECK_U64(pool.nb_refused, 1);
			WR_CHECK_U64(c->ssthresh_bytes, 6 * MSS);
			/* NewReno's inflation: ssthresh + 3 SMSS */
			WR_CHECK_U64(c->cwnd_bytes, 9 * MSS);
		}
	}
	WR_CHECK(c->flags & WR_TCP_F_IN_RECOVERY);
	WR_CHECK(wr_tcp_sb_of(&pool, 0) == NULL);
	WR_CHECK_U64(nb_rtx, 1);     /* one hole per round trip */
	WR_CHECK_U64(c->cwnd_bytes, 11 * MSS);
	wr_tcp_sb_give(&pool, 1);    /* connection 1 freed */
	WR_CHECK_U64(pool.nb_free, 1);
	/* a full ACK, then a new loss: this time SACK recovery */
	{
		struct wr_tcp_seg s = tseg(IRS + 1, c->snd_max, WR_TCP_ACK, 0,
			65535);

		wr_tcp_input(c, &s, 4000, &out);
		WR_CHECK(!(c->flags & WR_TCP_F_IN_RECOVERY));
		WR_CHECK(c->snd_max != c->snd_una);
		s.ack = c->snd_una;
		s.nb_sack = 1;
		s.sack[0].left = c->snd_una + MSS;
		s.sack[0].right = c->snd_una + 2 * MSS;
		for (i = 0; i < 3; i++)
			wr_tcp_input(c, &s, 5000, &out);
	}
	WR_CHECK(c->flags & WR_TCP_F_IN_RECOVERY);
	WR_CHECK(wr_tcp_sb_of(&pool, 0) != NULL);
	WR_CHECK_U64(pool.nb_taken, 2);
	WR_CHECK_U64(pool.nb_refused, 1);
	wr_tcp_sb_give(&pool, 0);    /* connection 0 freed in recovery */
	WR_CHECK_U64(pool.nb_free, 1);
}

/*
 * Segment 0 lost, 1 to 3 arrive, and the receiver's window grows with
 * each ACK, as Linux's does with each out-of-order segment. With SACK
 * agreed those ACKs are duplicates (RFC 6675 2: they SACK new data): the
 * third resends segment 0. Without SACK (RFC 5681 2: a changed window
 * is an update, not a duplicate), or with SACK agreed but no block
 * sent, nothing goes again before the RTO.
 */
static void
test_window_grows(void)
{
	uint32_t seqs[WR_TCP_OUT_MAX_SEGS], got, max0;
	unsigned int k, i, n;

	for (k = 0; k < 3; k++) {
		setup_sack(4, k != 1);
		got = 0;
		n = 0;
		for (i = 1; i <= 3; i++) {
			got |= 1u << i;
			max0 = conns[0].snd_max;
			dupack_wnd(got, i, (uint16_t)(60000 + 300 * i), k != 2);
			n += resent(max0, seqs);
		}
		WR_CHECK_U64(n, k == 0 ? 1 : 0);
		WR_CHECK_U64(!!(conns[0].flags & WR_TCP_F_IN_RECOVERY),
			k == 0);
		if (k == 0)
			WR_CHECK_U64(seqs[0], sq(0));
		WR_CHECK_U64(conns[0].snd_wnd_bytes, 60900);
		if (k == 0)
			wr_tcp_sb_give(&pool, 0);
	}
}

/* An ACK of ack from the peer with the SACK blocks [l[i], r[i]). */
static void
ack_sacks(uint32_t ack, const uint32_t *l, const uint32_t *r,
	unsigned int n)
{
	struct wr_tcp_seg s = tseg(IRS + 1, ack, WR_TCP_ACK, 0, 65535);
	unsigned int i;

	for (i = 0; i < n; i++) {
		s.sack[i].left = l[i];
		s.sack[i].right = r[i];
	}
	s.nb_sack = (uint8_t)n;
	wr_tcp_input(&conns[0], &s, 3000, &out);
}

/*
 * A hole above the recovery point resent, then recovery ends: segments
 * 0 and 13 lost. Recovery begins for 0 (recover at segment 12); data
 * sent in it loses 13, which NextSeg resends. The full ACK (0 back, up
 * to 13) ends recovery while 13's resend is in flight, and the duplicates
 * the receiver sends until it arrives SACK only what was sent before it:
 * no second recovery, no second resend of 13. If that resend was lost,
 * duplicates SACK what was sent after it: the third starts recovery and
 * 13 goes again.
 */
static void
test_resend_past_recover(void)
{
	struct wr_tcp_conn *c = &conns[0];
	uint32_t seqs[WR_TCP_OUT_MAX_SEGS], l[2], r[2], max0, mark = 0;
	unsigned int i, n, nb_13 = 0;

	setup(4);
	for (i = 0; i < 24 && wr_tcp_seq_lt(c->snd_max, sq(19)); i++) {
		l[0] = sq(1);
		r[0] = wr_tcp_seq_lt(c->snd_max, sq(13)) ? c->snd_max : sq(13);
		l[1] = sq(14);
		r[1] = c->snd_max;
		max0 = c->snd_max;
		ack_sacks(sq(0), l, r, wr_tcp_seq_gt(c->snd_max, sq(14)) ? 2 : 1);
		n = resent(max0, seqs);
		while (n-- > 0)
			nb_13 += seqs[n] == sq(13);
	}
	WR_CHECK(c->flags & WR_TCP_F_IN_RECOVERY);
	WR_CHECK_U64(c->recover, sq(12));
	WR_CHECK_U64(nb_13, 1);
	/* snd_max as 13's resend left */
	if (wr_tcp_sb_of(&pool, 0) != NULL)
		mark = wr_tcp_sb_of(&pool, 0)->rxt_mark;
	WR_CHECK(wr_tcp_seq_gt(mark, sq(15)) && wr_tcp_seq_lt(mark, c->snd_max));
	/* 0 back: the ACK covers recover, not 13 */
	l[0] = sq(14);
	r[0] = sq(15);
	ack_sacks(sq(13), l, r, 1);
	WR_CHECK(!(c->flags & WR_TCP_F_IN_RECOVERY));
	/* 14 is still SACKed: the scoreboard stays */
	WR_CHECK_U64(pool.nb_free, 3);
	WR_CHECK_U64(c->recover, mark);
	/* the duplicates of what was sent before 13's resend */
	for (i = 0; i < 4; i++) {
		r[0] = sq(15) + (mark - sq(15)) * (i + 1) / 4;
		max0 = c->snd_max;
		ack_sacks(sq(13), l, r, 1);
		n = resent(max0, seqs);
		while (n-- > 0)
			nb_13 += seqs[n] == sq(13);
	}
	WR_CHECK(!(c->flags & WR_TCP_F_IN_RECOVERY));
	WR_CHECK_U64(nb_13, 1);
	WR_CHECK_U64(pool.nb_taken, 1);
	/* 13's resend lost: what was sent after it is SACKed */
	c->nb_dupacks = 0;
	for (i = 0; i < 3; i++) {
		r[0] = mark + (i + 1) * MSS / 2;
		max0 = c->snd_max;
		ack_sacks(sq(13), l, r, 1);
		n = resent(max0, seqs);
		while (n-- > 0)
			nb_13 += seqs[n] == sq(13);
	}
	WR_CHECK(c->flags & WR_TCP_F_IN_RECOVERY);
	WR_CHECK_U64(nb_13, 2);
	WR_CHECK_U64(pool.nb_taken, 2);
}

/*
 * Blocks before the third duplicate are kept: segments 0, 2 and 4 lost;
 * each duplicate SACKs only its newest range (as a receiver with more
 * ranges than its 3 or 4 blocks ends up doing). The scoreboard, held
 * from the first, knows 1 and 3: recovery resends 0, 2 and 4, never 1
 * or 3 (taken at the third duplicate with its one block, it resent all
 * of 0 to 4).
 */
static void
test_blocks_before_recovery(void)
{
	uint32_t seqs[WR_TCP_OUT_MAX_SEGS], l[1], r[1], max0, got = 0;
	unsigned int i, k, n, j;

	setup(4);
	for (i = 0; i < 8; i++) {
		k = i < 3 ? 2 * i + 1 : 7 + i;
		l[0] = sq(i < 3 ? 1 : 5);
		r[0] = sq(k + 1);
		if (i < 3)
			l[0] = sq(k);
		max0 = conns[0].snd_max;
		ack_sacks(sq(0), l, r, 1);
		n = resent(max0, seqs);
		while (n-- > 0)
			for (j = 0; j < 8; j++)
				if (seqs[n] == sq(j))
					got |= 1u << j;
	}
	WR_CHECK(conns[0].flags & WR_TCP_F_IN_RECOVERY);
	WR_CHECK_U64(got, 0x15);     /* 0, 2 and 4 resent; not 1 nor 3 */
	wr_tcp_sb_give(&pool, 0);
}

int
main(void)
{
	WR_TEST_RUN(test_blocks_before_recovery);
	WR_TEST_RUN(test_resend_past_recover);
	WR_TEST_RUN(test_window_grows);
	WR_TEST_RUN(test_holes_in_order);
	WR_TEST_RUN(test_bad_blocks_rto);
	WR_TEST_RUN(test_exhausted);
	return wr_test_summary();
}
