/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for the trial tags of seq.h (two-ended runs,
 * docs/twoended.md): the trial id / sequence split of the 64-bit number,
 * the attribution of a frame of an earlier trial to that trial (late),
 * never to the trial being counted, no frame counted twice, and the merge
 * of RX queues' views.
 */
#include "seq_feed.h"

/* Every frame a tagged tracker saw, counted once somewhere. */
static uint64_t
seen(const struct wr_seq *s)
{
	uint64_t n = s->nb_rx_pkts + s->nb_dup_pkts + s->nb_stray_pkts;
	unsigned int i;

	for (i = 0; i < WR_SEQ_TAG_PREV; i++)
		n += s->nb_prev_pkts[i];
	return n;
}

static void
test_split(void)
{
	WR_CHECK_U64(wr_seq_make(5, 7), (UINT64_C(5) << 48) | 7);
	WR_CHECK_U64(wr_seq_make(65535, WR_SEQ_TAG_MASK), UINT64_MAX);
	/* A sequence beyond 48 bits does not spill into the tag. */
	WR_CHECK_U64(wr_seq_make(1, UINT64_C(1) << 48), UINT64_C(1) << 48);
	WR_CHECK_U64(wr_seq_tag_of(wr_seq_make(4321, 99)), 4321);
	WR_CHECK_U64(wr_seq_make(4321, 99) & WR_SEQ_TAG_MASK, 99);
	WR_CHECK_U64(wr_seq_tag_back(5, 4), 1);
	WR_CHECK_U64(wr_seq_tag_back(5, 2), 3);
	WR_CHECK_U64(wr_seq_tag_back(5, 1), 0);     /* four back: too far */
	WR_CHECK_U64(wr_seq_tag_back(5, 5), 0);     /* its own */
	WR_CHECK_U64(wr_seq_tag_back(5, 6), 0);     /* ahead */
	WR_CHECK_U64(wr_seq_tag_back(1, 65535), 2); /* across the wrap */
	WR_CHECK_U64(wr_seq_tag_back(0, 65535), 1);
}

/* Trial 3 counting while trial 2's last frames still arrive. */
static void
test_late_of_previous(void)
{
	struct wr_seq s;
	uint64_t i;

	wr_seq_init_tag(&s, 3);
	for (i = 0; i < 100; i++) {
		wr_seq_update(&s, wr_seq_make(3, i));
		if (i % 10 == 0)
			wr_seq_update(&s, wr_seq_make(2, 5000 + i));
	}
	check_counts(&s, 100, 0, 0, 0, 0);
	check_span(&s, wr_seq_make(3, 0), wr_seq_make(3, 100), 0, 0);
	WR_CHECK_U64(s.nb_prev_pkts[0], 10);
	WR_CHECK_U64(s.nb_prev_pkts[1] + s.nb_prev_pkts[2] + s.nb_stray_pkts, 0);
	WR_CHECK_U64(seen(&s), 110);
	WR_CHECK(wr_seq_lost(&s, 100) == 0);
}

/* Late frames before the trial's first own frame: no epoch from them. */
static void
test_late_first(void)
{
	struct wr_seq s;

	wr_seq_init_tag(&s, 7);
	feed_range(&s, wr_seq_make(6, 0), 900, 1000);
	feed_range(&s, wr_seq_make(4, 0), 0, 5);
	WR_CHECK(s.started && s.tag_idle);
	check_counts(&s, 0, 0, 0, 0, 0);
	WR_CHECK_U64(wr_seq_gaps(&s), 0);
	WR_CHECK_U64(s.nb_prev_pkts[0], 100);
	WR_CHECK_U64(s.nb_prev_pkts[2], 5);
	feed_range(&s, wr_seq_make(7, 0), 0, 50);
	check_counts(&s, 50, 0, 0, 0, 0);
	check_span(&s, wr_seq_make(7, 0), wr_seq_make(7, 50), 0, 0);
	WR_CHECK(!s.tag_idle);
	WR_CHECK_U64(seen(&s), 155);
}

/* Frames of no recent trial: stray, neither own nor late. */
static void
test_stray(void)
{
	struct wr_seq s;

	wr_seq_init_tag(&s, 10);
	feed_range(&s, wr_seq_make(10, 0), 0, 20);
	wr_seq_update(&s, wr_seq_make(2, 3));   /* eight trials back */
	wr_seq_update(&s, wr_seq_make(11, 0));  /* a trial not begun */
	wr_seq_update(&s, 17);                  /* an untagged sender */
	check_counts(&s, 20, 0, 0, 0, 0);
	WR_CHECK_U64(s.nb_stray_pkts, 3);
	check_span(&s, wr_seq_make(10, 0), wr_seq_make(10, 20), 0, 0);
}

/*
 * Two trials end to end: trial k's tracker counted 900 of its 1000
 * frames before it ended; the other 100 arrived while trial k+1 was
 * counted, and went to k (late), never to k+1: both trials' loss is
 * exactly sent - received.
 */
static void
test_two_trials(void)
{
	struct wr_seq k, k1;
	uint64_t i, late;

	wr_seq_init_tag(&k, 41);
	feed_range(&k, wr_seq_make(41, 0), 0, 900);
	wr_seq_init_tag(&k1, 42);
	for (i = 0; i < 500; i++) {
		wr_seq_update(&k1, wr_seq_make(42, i));
		if (i < 100)
			wr_seq_update(&k1, wr_seq_make(41, 900 + i));
	}
	/* k+1 lost its frames 500..799 of 800. */
	late = k1.nb_prev_pkts[0];
	WR_CHECK_U64(late, 100);
	WR_CHECK(wr_seq_lost(&k, 1000) - (int64_t)late == 0);
	WR_CHECK(wr_seq_lost(&k1, 800) == 300);
	check_counts(&k1, 500, 0, 0, 0, 0);
}

/* RSS: one queue saw only late frames, the other the trial's own. */
static void
test_merge(void)
{
	struct wr_seq a, b, m;

	wr_seq_init_tag(&a, 9);
	wr_seq_init_tag(&b, 9);
	feed_range(&a, wr_seq_make(8, 0), 0, 30);
	feed_range(&b, wr_seq_make(9, 0), 0, 70);
	feed_range(&b, wr_seq_make(7, 0), 0, 4);
	wr_seq_init(&m);
	wr_seq_merge(&m, &a);
	WR_CHECK(m.tag_idle);
	wr_seq_merge(&m, &b);
	check_counts(&m, 70, 0, 0, 0, 0);
	check_span(&m, wr_seq_make(9, 0), wr_seq_make(9, 70), 0, 0);
	WR_CHECK_U64(m.nb_prev_pkts[0], 30);
	WR_CHECK_U64(m.nb_prev_pkts[1], 4);
	WR_CHECK(!m.tag_idle);
	/* The other order: the late-only view joins a started one. */
	wr_seq_init(&m);
	wr_seq_merge(&m, &b);
	wr_seq_merge(&m, &a);
	check_counts(&m, 70, 0, 0, 0, 0);
	check_span(&m, wr_seq_make(9, 0), wr_seq_make(9, 70), 0, 0);
	WR_CHECK_U64(m.nb_prev_pkts[0], 30);
}

/* Without a tag the tracker is as before, whatever the high bits hold. */
static void
test_untagged(void)
{
	struct wr_seq s;

	wr_seq_init(&s);
	feed_range(&s, wr_seq_make(3, 0), 0, 100);
	check_counts(&s, 100, 0, 0, 0, 0);
	check_span(&s, wr_seq_make(3, 0), wr_seq_make(3, 100), 0, 0);
	WR_CHECK_U64(s.nb_stray_pkts + s.nb_prev_pkts[0], 0);
}

int
main(void)
{
	WR_TEST_RUN(test_split);
	WR_TEST_RUN(test_late_of_previous);
	WR_TEST_RUN(test_late_first);
	WR_TEST_RUN(test_stray);
	WR_TEST_RUN(test_two_trials);
	WR_TEST_RUN(test_merge);
	WR_TEST_RUN(test_untagged);
	return wr_test_summary();
}
