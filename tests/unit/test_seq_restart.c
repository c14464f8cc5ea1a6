/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for seq.c/seq.h: restart detection (candidates, confirmation by
 * the next frame) and the stray frames of the old numbering that must not
 * read as a restart.
 */
#include "seq_feed.h"

static void
test_restart_zero(void)
{
	static const uint64_t late0[] = { 1, 2, 3, 0 };
	struct wr_seq s;

	/* Sender restarts a short stream: a second copy of 0. */
	wr_seq_init(&s);
	feed_range(&s, 0, 0, 100);
	feed_range(&s, 0, 0, 50);
	check_counts(&s, 150, 0, 0, 0, 1);
	WR_CHECK_U64(s.first_seq, 0);
	WR_CHECK_U64(s.next_seq, 50);
	WR_CHECK_U64(s.closed_span_pkts, 100);
	WR_CHECK_U64(wr_seq_gaps(&s), 0);
	WR_CHECK(wr_seq_lost(&s, 150) == 0);

	/* A first copy of 0 arriving late is late, not a restart. */
	wr_seq_init(&s);
	feed_list(&s, late0, 4);
	check_counts(&s, 4, 1, 0, 0, 0);
	WR_CHECK_U64(s.first_seq, 0);
	wr_seq_update(&s, 0); /* a copy of 0: a restart until a frame says */
	check_counts(&s, 5, 1, 0, 0, 1);
	WR_CHECK_U64(s.next_seq, 4);
	WR_CHECK_U64(wr_seq_gaps(&s), 0);
	/* The restart shows when the numbering goes on from 0. */
	wr_seq_update(&s, 1);
	check_counts(&s, 6, 1, 0, 0, 1);
	WR_CHECK_U64(s.next_seq, 2);
	WR_CHECK_U64(s.closed_span_pkts, 4);
	WR_CHECK_U64(wr_seq_gaps(&s), 0);
}

/*
 * Stray frames of the old numbering are no restart: a
 * duplicate of sequence 0 (--impair dup=100000@0 on 100k frames) and an
 * early frame held back far beyond the window, whether or not frames
 * follow them.
 */

static void
test_restart_far(void)
{
	const uint64_t base = UINT64_C(1) << 40;
	const uint64_t top = base + WR_SEQ_RESTART_BEHIND_PKTS + 100;
	struct wr_seq s;

	/* Back near 0, beyond the window, though 0 .. 2 were lost. */
	wr_seq_init(&s);
	feed_range(&s, 0, 0, 5000);
	feed_range(&s, 0, 3, 10);
	check_counts(&s, 5007, 0, 0, 0, 1);
	WR_CHECK_U64(s.first_seq, 3);
	WR_CHECK_U64(s.next_seq, 10);
	WR_CHECK_U64(wr_seq_gaps(&s), 0);
	WR_CHECK(wr_seq_lost(&s, 5010) == 3);
	WR_CHECK(wr_seq_seen(&s, 9));
	WR_CHECK(!wr_seq_seen(&s, 2)); /* window cleared at the restart */

	/* After a restart, old epoch bits must not turn a late frame dup. */
	wr_seq_init(&s);
	feed_range(&s, 0, 0, 5000);
	wr_seq_update(&s, 500);
	wr_seq_update(&s, 501);
	wr_seq_update(&s, 300);
	check_counts(&s, 5003, 1, 0, 0, 1);
	WR_CHECK_U64(s.first_seq, 300);
	WR_CHECK_U64(wr_seq_gaps(&s), 199); /* 301 .. 499 */

	/* Rule (b): an early frame held back W or more, with nothing after it,
	 * stays an old frame; no restart, no gap. */
	wr_seq_init(&s);
	feed_range(&s, 0, 0, 50);
	feed_range(&s, 0, 51, 2000);
	wr_seq_update(&s, 50);
	check_counts(&s, 2000, 1, 0, 1, 0);
	WR_CHECK_U64(wr_seq_gaps(&s), 0);
	WR_CHECK(wr_seq_lost(&s, 2000) == 0); /* the balance still holds */

	/* Cost: a restart 5000 back, above the window, goes unseen. */
	wr_seq_init(&s);
	feed_range(&s, 0, 2000, 10000);
	feed_range(&s, 0, 5000, 10000); /* 5000 .. 8975 old, then dup */
	check_counts(&s, 8000 + 3976, 3976, W, 3976, 0);
	WR_CHECK(wr_seq_lost(&s, 13000) == W);

	/* Far backwards from a high sequence: threshold is inclusive. */
	wr_seq_init(&s);
	wr_seq_update(&s, base);
	wr_seq_update(&s, top);
	wr_seq_update(&s, top - (WR_SEQ_RESTART_BEHIND_PKTS - 1)); /* old */
	check_counts(&s, 3, 1, 0, 1, 0);
	wr_seq_update(&s, top - WR_SEQ_RESTART_BEHIND_PKTS); /* candidate */
	check_counts(&s, 4, 2, 0, 2, 0);
	wr_seq_update(&s, top - WR_SEQ_RESTART_BEHIND_PKTS + 1); /* restart */
	check_counts(&s, 5, 1, 0, 1, 1);
	WR_CHECK_U64(s.first_seq, top - WR_SEQ_RESTART_BEHIND_PKTS);
	WR_CHECK_U64(s.closed_span_pkts, top + 1 - base);
	/* Closed epoch: span 2^24 + 101 with 3 received. */
	WR_CHECK_U64(wr_seq_gaps(&s), WR_SEQ_RESTART_BEHIND_PKTS + 101 - 3);
}


static void
test_stray_not_restart(void)
{
	struct wr_seq s;
	unsigned int i;

	wr_seq_init(&s);
	feed_range(&s, 0, 0, 1);
	wr_seq_update(&s, 0);
	feed_range(&s, 0, 1, 100000);
	check_counts(&s, 100000, 0, 1, 0, 0);
	WR_CHECK_U64(wr_seq_gaps(&s), 0);
	WR_CHECK(wr_seq_lost(&s, 100000) == 0);

	wr_seq_init(&s);
	feed_range(&s, 0, 0, 3);
	wr_seq_update(&s, 0); /* behind a few: the old numbering goes on */
	feed_range(&s, 0, 3, 100000);
	check_counts(&s, 100000, 0, 1, 0, 0);
	WR_CHECK_U64(wr_seq_gaps(&s), 0);
	WR_CHECK_U64(s.closed_span_pkts, 0);

	/* Every frame numbered 0 (--stamp none): each a restart, no loss. */
	wr_seq_init(&s);
	for (i = 0; i < 1000; i++)
		wr_seq_update(&s, 0);
	check_counts(&s, 1000, 0, 0, 0, 999);
	WR_CHECK_U64(wr_seq_gaps(&s), 0);
	WR_CHECK(wr_seq_lost(&s, 1000) == 0);

	wr_seq_init(&s);
	feed_range(&s, 0, 0, 50);
	feed_range(&s, 0, 51, 2000);
	wr_seq_update(&s, 50);
	feed_range(&s, 0, 2000, 3000);
	check_counts(&s, 3000, 1, 0, 1, 0);
	WR_CHECK_U64(s.first_seq, 0);
	WR_CHECK_U64(wr_seq_gaps(&s), 0);
	WR_CHECK(wr_seq_lost(&s, 3000) == 0);

	/* Two stray frames in a row: neither continues the other. */
	wr_seq_init(&s);
	feed_range(&s, 0, 0, 5000);
	wr_seq_update(&s, 500);
	wr_seq_update(&s, 300);
	check_counts(&s, 5002, 2, 0, 2, 0);
	WR_CHECK_U64(wr_seq_gaps(&s), 0);
}


/*
 * In a stream's first window, a duplicate of 0 followed by an ordinary late
 * frame is no restart (--impair dup,reorder): the late frame is a sequence
 * the old numbering has not delivered yet, so the old numbering goes on.
 */
static void
test_dup_zero_then_late(void)
{
	static const uint64_t seqs[] = { 0, 1, 2, 3, 4, 6, 7, 8, 9, 0, 5 };
	struct wr_seq s;

	wr_seq_init(&s);
	feed_list(&s, seqs, 11);
	check_counts(&s, 10, 1, 1, 0, 0);
	feed_range(&s, 0, 10, 100);
	check_counts(&s, 100, 1, 1, 0, 0);
	check_span(&s, 0, 100, 0, 0);
	WR_CHECK(wr_seq_lost(&s, 100) == 0);

	/* The late frame right after the copy of 0 may be 1 itself. */
	wr_seq_init(&s);
	feed_range(&s, 0, 0, 1);
	feed_range(&s, 0, 2, 20);
	wr_seq_update(&s, 0);
	wr_seq_update(&s, 1);
	check_counts(&s, 20, 1, 1, 0, 0);
	check_span(&s, 0, 20, 0, 0);
}

/*
 * A real restart inside the first window is still seen when the new run
 * lost its frame 1: the frame after the copy of 0 is one the old numbering
 * already delivered.
 */
static void
test_restart_zero_lost_one(void)
{
	struct wr_seq s;

	wr_seq_init(&s);
	feed_range(&s, 0, 0, 100);
	wr_seq_update(&s, 0);
	feed_range(&s, 0, 2, 50);
	check_counts(&s, 149, 0, 0, 0, 1);
	check_span(&s, 0, 50, 100, 1);
	WR_CHECK(wr_seq_lost(&s, 150) == 1);

	/* Cost: the old run had lost the new run's frame 1, so 1 reads as a
	 * late frame of the old numbering and no restart is seen. */
	wr_seq_init(&s);
	feed_range(&s, 0, 0, 1);
	feed_range(&s, 0, 2, 100);
	feed_range(&s, 0, 0, 50);
	check_counts(&s, 100, 1, 49, 0, 0);
	check_span(&s, 0, 100, 0, 0);
}

int
main(void)
{
	WR_TEST_RUN(test_restart_zero);
	WR_TEST_RUN(test_restart_far);
	WR_TEST_RUN(test_stray_not_restart);
	WR_TEST_RUN(test_dup_zero_then_late);
	WR_TEST_RUN(test_restart_zero_lost_one);
	return wr_test_summary();
}
