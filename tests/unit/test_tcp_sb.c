/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for the SACK sender's scoreboard (lib/tcp/sack.c, RFC
 * 6675): the pool's take, refusal count and give-back (its free count
 * back to full); SACK blocks as a receiver would send them for a window
 * whose lost segments the test picks, parsed into ranges (merged, cut at
 * snd_una, those below snd_una or past snd_max ignored); the holes
 * resent in order with pipe after each, worked out here from the
 * segments lost; the same windows across 2^32; lost_to and a new round
 * of resends (a resend lost, judged from the latest resend); a full
 * scoreboard's forgotten range never counted lost.
 */
#include <string.h>

#include "tcp/sack.h"
#include "tcp/seq.h"
#include "wr_test.h"

#define MSS 1000u
#define NB_SEGS 10u

static uint64_t mem[4096];

static void
pool(struct wr_tcp_sb_pool *p, uint32_t nb_sbs, uint32_t nb_conns)
{
	struct wr_error err;

	WR_CHECK(wr_tcp_sb_mem_bytes(nb_sbs, nb_conns) <= sizeof(mem));
	WR_CHECK_U64(wr_tcp_sb_pool_init(p, mem, nb_sbs, NULL, nb_conns,
		&err), 0);
}

/* Four scoreboards for six connections: the fifth take is refused and
 * counted; give-backs (twice for one is once) fill the pool again. */
static void
test_pool(void)
{
	struct wr_tcp_sb_pool p;
	struct wr_tcp_sb *sb[6];
	struct wr_error err;
	uint32_t i;

	WR_CHECK(wr_tcp_sb_pool_init(&p, mem, 0, NULL, 6, &err) < 0);
	WR_CHECK(wr_tcp_sb_pool_init(&p, mem, WR_TCP_SB_NONE, NULL, 6,
		&err) < 0);
	pool(&p, 4, 6);
	for (i = 0; i < 5; i++) {
		sb[i] = wr_tcp_sb_take(&p, i, 100 * i);
		WR_CHECK(wr_tcp_sb_of(&p, i) == sb[i]);
	}
	for (i = 0; i < 4; i++) {
		WR_CHECK(sb[i] != NULL);
		WR_CHECK_U64(sb[i]->high_rxt, 100 * i);
		WR_CHECK_U64(sb[i]->nb_ranges, 0);
	}
	WR_CHECK(sb[4] == NULL);
	WR_CHECK_U64(p.nb_refused, 1);
	WR_CHECK_U64(p.nb_taken, 4);
	WR_CHECK_U64(p.nb_free, 0);
	/* a connection that holds one gets the same one, its ranges kept,
	 * HighRxt at the new snd_una; holding takes none and counts none */
	sb[0]->nb_ranges = 3;
	WR_CHECK(wr_tcp_sb_take(&p, 0, 7) == sb[0]);
	WR_CHECK_U64(sb[0]->nb_ranges, 3);
	WR_CHECK_U64(sb[0]->high_rxt, 7);
	WR_CHECK_U64(p.nb_refused, 1);
	WR_CHECK_U64(p.nb_taken, 5);
	WR_CHECK(wr_tcp_sb_hold(&p, 0, 9) == sb[0]);
	WR_CHECK(wr_tcp_sb_hold(&p, 5, 9) == NULL);
	WR_CHECK_U64(p.nb_taken, 5);
	WR_CHECK_U64(p.nb_refused, 1);
	wr_tcp_sb_give(&p, 2);
	wr_tcp_sb_give(&p, 2);
	wr_tcp_sb_give(&p, 5);   /* holds none */
	WR_CHECK_U64(p.nb_free, 1);
	WR_CHECK(wr_tcp_sb_of(&p, 2) == NULL);
	WR_CHECK(wr_tcp_sb_take(&p, 4, 0) == sb[2]);
	for (i = 0; i < 6; i++)
		wr_tcp_sb_give(&p, i);
	WR_CHECK_U64(p.nb_free, 4);
	for (i = 0; i < 6; i++)
		WR_CHECK(wr_tcp_sb_of(&p, i) == NULL);
}

/* The blocks a receiver sends for segments 0..NB_SEGS-1 of MSS bytes
 * from una when the segments in lost[] are missing: one per run. */
static unsigned int
blocks_for(uint32_t una, uint32_t lost, struct wr_tcp_sack_blk *b)
{
	unsigned int k, n = 0;

	for (k = 0; k < NB_SEGS; k++) {
		if (lost & (1u << k))
			continue;
		if (n > 0 && b[n - 1].right == una + k * MSS) {
			b[n - 1].right += MSS;
			continue;
		}
		b[n].left = una + k * MSS;
		b[n].right = b[n].left + MSS;
		n++;
	}
	return n;
}

/* Segments 0, 2 and 4 of ten lost: blocks [1], [3], [5-9] (sent one at a
 * time, as a receiver's ACKs), the three resent in order, pipe after
 * each; segment 9's loss too is no hole (nothing SACKed above it). */
static void
run_window(uint32_t una)
{
	struct wr_tcp_sb_pool p;
	struct wr_tcp_sack_blk b[NB_SEGS];
	struct wr_tcp_sb *sb;
	uint32_t max = una + NB_SEGS * MSS, seq, len, k, lost = 0x15;
	uint32_t want_pipe = 0;
	unsigned int n, i;

	pool(&p, 1, 1);
	sb = wr_tcp_sb_take(&p, 0, una);
	n = blocks_for(una, lost, b);
	WR_CHECK_U64(n, 3);
	for (i = 0; i < n; i++)
		wr_tcp_sb_update(sb, una, max, &b[i], 1);
	WR_CHECK_U64(sb->nb_ranges, 3);
	WR_CHECK_U64(wr_tcp_sb_sacked(sb), 7 * MSS);
	WR_CHECK_U64(sb->r[2].start, una + 5 * MSS);
	WR_CHECK_U64(sb->r[2].end, max);
	WR_CHECK_U64(wr_tcp_sb_pipe(sb, una, max, MSS), want_pipe);
	for (k = 0; k < NB_SEGS; k++) {
		if (!(lost & (1u << k)))
			continue;
		WR_CHECK(wr_tcp_sb_next(sb, una, MSS, &seq, &len));
		WR_CHECK_U64(seq, una + k * MSS);
		WR_CHECK_U64(len, MSS);
		wr_tcp_sb_rxt(sb, seq, len, max);
		want_pipe += MSS;
		WR_CHECK_U64(wr_tcp_sb_pipe(sb, una, max, MSS), want_pipe);
	}
	WR_CHECK(!wr_tcp_sb_next(sb, una, MSS, &seq, &len));
	/* a partial ACK to segment 3: the ranges below go, holes stay */
	wr_tcp_sb_update(sb, una + 3 * MSS, max, b, n);
	WR_CHECK_U64(sb->nb_ranges, 2);
	WR_CHECK_U64(sb->r[0].start, una + 3 * MSS);
	WR_CHECK_U64(wr_tcp_sb_sacked(sb), 6 * MSS);
	/* the ACK past all: nothing left */
	wr_tcp_sb_update(sb, max, max, b, n);
	WR_CHECK_U64(sb->nb_ranges, 0);
	WR_CHECK_U64(sb->high_rxt, max);
	/* segment 9 lost as well: no hole above the highest SACKed byte */
	sb = wr_tcp_sb_take(&p, 0, una);
	n = blocks_for(una, 0x201, b);
	wr_tcp_sb_update(sb, una, max, b, n);
	WR_CHECK(wr_tcp_sb_next(sb, una, MSS, &seq, &len));
	WR_CHECK_U64(seq, una);
	wr_tcp_sb_rxt(sb, seq, len, max);
	WR_CHECK(!wr_tcp_sb_next(sb, una, MSS, &seq, &len));
	WR_CHECK_U64(wr_tcp_sb_pipe(sb, una, max, MSS), 2 * MSS);
}

static void
test_holes(void)
{
	run_window(1000);
}

/* The same window with snd_una 4 segments below 2^32. */
static void
test_wrap(void)
{
	run_window(0u - 4 * MSS);
	run_window(0u - 4 * MSS - 123);
}

/* IsLost: a hole with no more than 2 SMSS SACKed above is not resent;
 * a hole shorter than the MSS is resent as it is. */
static void
test_lost_rule(void)
{
	struct wr_tcp_sb_pool p;
	struct wr_tcp_sack_blk b[2] = {
		{ 1000 + MSS, 1000 + 3 * MSS },
		{ 1000 + 3 * MSS + 300, 1000 + 3 * MSS + 301 },
	};
	struct wr_tcp_sb *sb;
	uint32_t seq, len, max = 1000 + 10 * MSS;

	pool(&p, 1, 1);
	sb = wr_tcp_sb_take(&p, 0, 1000);
	wr_tcp_sb_update(sb, 1000, max, b, 1);
	WR_CHECK(!wr_tcp_sb_next(sb, 1000, MSS, &seq, &len));
	WR_CHECK_U64(wr_tcp_sb_pipe(sb, 1000, max, MSS), 8 * MSS);
	wr_tcp_sb_update(sb, 1000, max, &b[1], 1);
	WR_CHECK(wr_tcp_sb_next(sb, 1000, MSS, &seq, &len));
	WR_CHECK_U64(seq, 1000);
	WR_CHECK_U64(len, MSS);
	wr_tcp_sb_rxt(sb, seq, len, max);
	/* the 300-byte hole between the two ranges has 1 byte above it */
	WR_CHECK(!wr_tcp_sb_next(sb, 1000, MSS, &seq, &len));
	b[1].right = 1000 + 6 * MSS;
	wr_tcp_sb_update(sb, 1000, max, &b[1], 1);
	WR_CHECK(wr_tcp_sb_next(sb, 1000, MSS, &seq, &len));
	WR_CHECK_U64(seq, 1000 + 3 * MSS);
	WR_CHECK_U64(len, 300);
}

/* Blocks that are empty, below snd_una (a D-SACK), past snd_max, or
 * straddling snd_una; overlapping ones merge; a full scoreboard forgets
 * its highest range. */
static void
test_bad_blocks(void)
{
	struct wr_tcp_sb_pool p;
	struct wr_tcp_sack_blk b[WR_TCP_SB_RANGES + 1];
	struct wr_tcp_sb *sb;
	uint32_t una = 0u - 2500, max = una + 100 * MSS, i;

	pool(&p, 1, 1);
	sb = wr_tcp_sb_take(&p, 0, una);
	b[0].left = una - 3000;        /* D-SACK: wholly below */
	b[0].right = una;
	b[1].left = max - MSS;         /* past snd_max */
	b[1].right = max + 1;
	b[2].left = una + 5 * MSS;     /* empty */
	b[2].right = una + 5 * MSS;
	b[3].left = una + 7 * MSS;     /* reversed */
	b[3].right = una + 6 * MSS;
	wr_tcp_sb_update(sb, una, max, b, 4);
	WR_CHECK_U64(sb->nb_ranges, 0);
	b[0].left = una - 10;          /* straddles: cut at snd_una */
	b[0].right = una + 10;
	b[1].left = max - MSS;         /* ends at snd_max: kept */
	b[1].right = max;
	wr_tcp_sb_update(sb, una, max, b, 2);
	WR_CHECK_U64(sb->nb_ranges, 2);
	WR_CHECK_U64(sb->r[0].start, una);
	WR_CHECK_U64(sb->r[0].end, una + 10);
	WR_CHECK_U64(sb->r[1].start, max - MSS);
	/* fill: 8 ranges in all, then one more below the highest */
	for (i = 0; i < WR_TCP_SB_RANGES; i++) {
		b[i].left = una + (2 * i + 2) * MSS;
		b[i].right = b[i].left + MSS;
	}
	wr_tcp_sb_update(sb, una, max, b, WR_TCP_SB_RANGES - 2);
	WR_CHECK_U64(sb->nb_ranges, WR_TCP_SB_RANGES);
	WR_CHECK_U64(sb->r[WR_TCP_SB_RANGES - 1].start, max - MSS);
	wr_tcp_sb_update(sb, una, max, &b[WR_TCP_SB_RANGES - 2], 1);
	WR_CHECK_U64(sb->nb_ranges, WR_TCP_SB_RANGES);
	WR_CHECK_U64(sb->r[WR_TCP_SB_RANGES - 1].start,
		b[WR_TCP_SB_RANGES - 2].left);
	/* a block over ranges 1 to 3 merges them into one */
	b[0].left = una + 2 * MSS + 1;
	b[0].right = una + 6 * MSS + 1;
	wr_tcp_sb_update(sb, una, max, b, 1);
	WR_CHECK_U64(sb->nb_ranges, WR_TCP_SB_RANGES - 2);
	WR_CHECK_U64(sb->r[1].start, una + 2 * MSS);
	WR_CHECK_U64(sb->r[1].end, una + 7 * MSS);
	WR_CHECK_U64(sb->r[2].start, una + 8 * MSS);
	/* snd_una inside range 1: range 0 dropped, range 1 cut */
	wr_tcp_sb_update(sb, una + 3 * MSS, max, b, 0);
	WR_CHECK_U64(sb->nb_ranges, WR_TCP_SB_RANGES - 3);
	WR_CHECK_U64(sb->r[0].start, una + 3 * MSS);
}

/* lost_to: the unSACKed bytes below it are lost, also above the
 * highest SACKed range; a new round once more than 2 SMSS sent after
 * the round began are SACKed while resent data is unacknowledged. */
static void
test_lost_to_round(void)
{
	struct wr_tcp_sb_pool p;
	struct wr_tcp_sack_blk b = { 0u - 500 + MSS, 0u - 500 + 2 * MSS };
	struct wr_tcp_sb *sb;
	uint32_t una = 0u - 500, max = una + 6 * MSS, seq, len;

	pool(&p, 1, 1);
	sb = wr_tcp_sb_take(&p, 0, una);
	wr_tcp_sb_update(sb, una, max, &b, 1);
	wr_tcp_sb_round(sb, una, max);
	WR_CHECK(!wr_tcp_sb_next(sb, una, MSS, &seq, &len));
	wr_tcp_sb_lose_to(sb, una + 4 * MSS);
	WR_CHECK(wr_tcp_sb_next(sb, una, MSS, &seq, &len));
	WR_CHECK_U64(seq, una);
	wr_tcp_sb_rxt(sb, seq, len, max);
	WR_CHECK(wr_tcp_sb_next(sb, una, MSS, &seq, &len));
	WR_CHECK_U64(seq, una + 2 * MSS);
	WR_CHECK_U64(len, MSS);
	wr_tcp_sb_rxt(sb, seq, len, max);
	WR_CHECK(wr_tcp_sb_next(sb, una, MSS, &seq, &len));
	WR_CHECK_U64(seq, una + 3 * MSS);
	wr_tcp_sb_rxt(sb, seq, len, max);
	WR_CHECK(!wr_tcp_sb_next(sb, una, MSS, &seq, &len));
	/* flight 6, SACKed 1, resent 3 in flight, 4 and 5 not lost */
	WR_CHECK_U64(wr_tcp_sb_pipe(sb, una, max, MSS), 5 * MSS);
	/* 2 SMSS sent after the round began SACKed: not yet */
	b.left = max;
	b.right = max + 2 * MSS;
	wr_tcp_sb_update(sb, una, max + 3 * MSS, &b, 1);
	WR_CHECK(!wr_tcp_sb_rxt_lost(sb, una, MSS));
	b.right = max + 3 * MSS;
	wr_tcp_sb_update(sb, una, max + 3 * MSS, &b, 1);
	WR_CHECK(wr_tcp_sb_rxt_lost(sb, una, MSS));
	wr_tcp_sb_round(sb, una, max + 3 * MSS);
	WR_CHECK(!wr_tcp_sb_rxt_lost(sb, una, MSS));
	WR_CHECK(wr_tcp_sb_next(sb, una, MSS, &seq, &len));
	WR_CHECK_U64(seq, una);
}

/*
 * A hole resent late in the round: holes 0 and 2 of six segments (1 and
 * 3 to 5 SACKed). Hole 0 goes at once, then three new segments, then
 * hole 2 (its IsLost came later). The new segments SACKed and hole 0's
 * resend acknowledged (snd_una at hole 2): hole 2's resend left after
 * them, so nothing says it is lost, and it does not go again. Three
 * segments sent after it SACKed do say so: a new round, hole 2 again.
 */
static void
test_late_resend(void)
{
	struct wr_tcp_sb_pool p;
	struct wr_tcp_sack_blk b[2] = {
		{ 1000 + MSS, 1000 + 2 * MSS }, { 1000 + 3 * MSS, 1000 + 6 * MSS },
	};
	struct wr_tcp_sb *sb;
	uint32_t una = 1000, max = una + 6 * MSS, seq, len;

	pool(&p, 1, 1);
	sb = wr_tcp_sb_take(&p, 0, una);
	wr_tcp_sb_update(sb, una, max, b, 2);
	wr_tcp_sb_round(sb, una, max);
	WR_CHECK(wr_tcp_sb_next(sb, una, MSS, &seq, &len));
	WR_CHECK_U64(seq, una);
	wr_tcp_sb_rxt(sb, seq, len, max);
	WR_CHECK(wr_tcp_sb_next(sb, una, MSS, &seq, &len));
	WR_CHECK_U64(seq, una + 2 * MSS);
	max += 3 * MSS;                       /* three new segments */
	wr_tcp_sb_rxt(sb, seq, len, max);     /* then hole 2 */
	/* hole 0 back, the new segments SACKed */
	una += MSS;
	b[0].left = una + 2 * MSS;
	b[0].right = max;
	wr_tcp_sb_update(sb, una, max, b, 1);
	una += MSS;
	wr_tcp_sb_update(sb, una, max, b, 1);
	WR_CHECK(!wr_tcp_sb_rxt_lost(sb, una, MSS));
	WR_CHECK(!wr_tcp_sb_next(sb, una, MSS, &seq, &len));
	/* three sent after hole 2's resend SACKed: it was lost */
	b[0].right = max + 3 * MSS;
	wr_tcp_sb_update(sb, una, max + 3 * MSS, b, 1);
	WR_CHECK(wr_tcp_sb_rxt_lost(sb, una, MSS));
	wr_tcp_sb_round(sb, una, max + 3 * MSS);
	WR_CHECK(wr_tcp_sb_next(sb, una, MSS, &seq, &len));
	WR_CHECK_U64(seq, una);
}

/*
 * The scoreboard full: nine ranges SACKed (segments 1, 3, ..., 17 of a
 * window of 20, the even ones lost), the ninth forgotten. lost_to past
 * them all: holes up to the seventh range go, nothing from the ninth
 * range's start (the receiver holds it); ACKs that fill the first holes
 * make room, and when the block that covers that start is kept again,
 * its hole above counts lost again.
 */
static void
test_forgotten(void)
{
	struct wr_tcp_sb_pool p;
	struct wr_tcp_sack_blk b[9];
	struct wr_tcp_sb *sb;
	uint32_t una = 1000, max = una + 20 * MSS, seq, len, k, last = 0;

	pool(&p, 1, 1);
	sb = wr_tcp_sb_take(&p, 0, una);
	for (k = 0; k < 9; k++) {
		b[k].left = una + (2 * k + 1) * MSS;
		b[k].right = una + (2 * k + 2) * MSS;
	}
	wr_tcp_sb_update(sb, una, max, b, 4);
	wr_tcp_sb_update(sb, una, max, b + 4, 4);
	wr_tcp_sb_update(sb, una, max, b + 8, 1);
	WR_CHECK_U64(sb->nb_ranges, WR_TCP_SB_RANGES);
	WR_CHECK_U64(sb->forgot, 1);
	WR_CHECK_U64(sb->forgot_from, una + 17 * MSS);
	wr_tcp_sb_lose_to(sb, max);
	while (wr_tcp_sb_next(sb, una, MSS, &seq, &len)) {
		WR_CHECK(wr_tcp_seq_lt(seq + len, una + 17 * MSS + 1));
		last = seq;
		wr_tcp_sb_rxt(sb, seq, len, max);
	}
	WR_CHECK_U64(last, una + 16 * MSS);
	/* pipe counts no forgotten byte lost: 3 segments from 17 on */
	WR_CHECK(wr_tcp_sb_pipe(sb, una, max, MSS) >= 3 * MSS);
	/* holes 0 and 2 filled: room for the ninth block again */
	wr_tcp_sb_update(sb, una + 4 * MSS, max, b + 8, 1);
	WR_CHECK_U64(sb->forgot, 0);
	WR_CHECK(wr_tcp_sb_next(sb, una + 4 * MSS, MSS, &seq, &len));
	WR_CHECK_U64(seq, una + 18 * MSS);
	/* forgotten again, then snd_una past its start: cleared */
	sb->forgot = 1;
	sb->forgot_from = una + 17 * MSS;
	wr_tcp_sb_update(sb, una + 18 * MSS, max, NULL, 0);
	WR_CHECK_U64(sb->forgot, 0);
}

int
main(void)
{
	WR_TEST_RUN(test_forgotten);
	WR_TEST_RUN(test_late_resend);
	WR_TEST_RUN(test_pool);
	WR_TEST_RUN(test_holes);
	WR_TEST_RUN(test_wrap);
	WR_TEST_RUN(test_lost_rule);
	WR_TEST_RUN(test_bad_blocks);
	WR_TEST_RUN(test_lost_to_round);
	return wr_test_summary();
}
