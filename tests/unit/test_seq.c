/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests for seq.c/seq.h: per-stream sequence tracking. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "seq_feed.h"

/* Uniform-ish in [0, n) for small n; the bias is irrelevant here. */
static uint64_t
prng_below(uint64_t *state, uint64_t n)
{
	return (wr_test_prng(state) >> 11) % n;
}

static void
test_empty(void)
{
	struct wr_seq s;

	wr_seq_init(&s);
	WR_CHECK(!s.started);
	check_counts(&s, 0, 0, 0, 0, 0);
	WR_CHECK_U64(wr_seq_gaps(&s), 0);
	WR_CHECK_U64(wr_seq_lost(&s, 10), 10);
	WR_CHECK_U64(wr_seq_lost(&s, 0), 0);
	WR_CHECK(!wr_seq_seen(&s, 0));

	/* A zeroed tracker is the same "nothing seen" as wr_seq_init(). */
	memset(&s, 0, sizeof(s));
	wr_seq_update(&s, 7);
	wr_seq_update(&s, 8);
	check_counts(&s, 2, 0, 0, 0, 0);
	WR_CHECK_U64(s.first_seq, 7);
	WR_CHECK_U64(wr_seq_gaps(&s), 0);
}

static void
test_in_order(void)
{
	struct wr_seq s;

	wr_seq_init(&s);
	feed_range(&s, 0, 0, 5000);
	WR_CHECK(s.started);
	check_counts(&s, 5000, 0, 0, 0, 0);
	WR_CHECK_U64(s.first_seq, 0);
	WR_CHECK_U64(s.next_seq, 5000);
	WR_CHECK_U64(wr_seq_gaps(&s), 0);
	WR_CHECK(wr_seq_lost(&s, 5000) == 0);
	WR_CHECK(wr_seq_seen(&s, 4999));
	WR_CHECK(wr_seq_seen(&s, 5000 - W));
	WR_CHECK(!wr_seq_seen(&s, 5000 - W - 1)); /* outside the window */
	WR_CHECK(!wr_seq_seen(&s, 5000));

	/* A stream need not start at 0. */
	wr_seq_init(&s);
	feed_range(&s, 123456789, 0, 100);
	check_counts(&s, 100, 0, 0, 0, 0);
	WR_CHECK_U64(s.first_seq, 123456789);
	WR_CHECK_U64(s.next_seq, 123456889);
	WR_CHECK_U64(wr_seq_gaps(&s), 0);
}

static void
test_single_gap(void)
{
	struct wr_seq s;
	uint64_t i;

	wr_seq_init(&s);
	feed_range(&s, 0, 0, 10);
	feed_range(&s, 0, 15, 20);
	check_counts(&s, 15, 0, 0, 0, 0);
	WR_CHECK_U64(s.next_seq, 20);
	WR_CHECK_U64(wr_seq_gaps(&s), 5);
	WR_CHECK(wr_seq_lost(&s, 20) == 5);
	for (i = 10; i < 15; i++)
		WR_CHECK(!wr_seq_seen(&s, i));
	WR_CHECK(wr_seq_seen(&s, 9));
	WR_CHECK(wr_seq_seen(&s, 15));
}

static void
test_multiple_gaps(void)
{
	static const uint64_t seqs[] = { 0, 1, 2, 5, 6, 10, 11, 20, 21, 100 };
	struct wr_seq s;

	wr_seq_init(&s);
	feed_list(&s, seqs, 10);
	check_counts(&s, 10, 0, 0, 0, 0);
	/* Missing: 3-4 (2), 7-9 (3), 12-19 (8), 22-99 (78). */
	WR_CHECK_U64(wr_seq_gaps(&s), 91);
	WR_CHECK(wr_seq_lost(&s, 101) == 91);
	WR_CHECK(wr_seq_lost(&s, 150) == 140);
}

static void
test_reorder_in_window(void)
{
	static const uint64_t seqs[] = { 0, 1, 3, 2, 4, 7, 5, 6, 8 };
	static const uint64_t first_late[] = { 5, 3, 4, 2, 6 };
	struct wr_seq s;

	wr_seq_init(&s);
	feed_list(&s, seqs, 9);
	check_counts(&s, 9, 3, 0, 0, 0);
	WR_CHECK_U64(wr_seq_gaps(&s), 0);
	WR_CHECK_U64(s.next_seq, 9);

	/* The first frames reordered: first_seq follows the lowest one. */
	wr_seq_init(&s);
	feed_list(&s, first_late, 5);
	check_counts(&s, 5, 3, 0, 0, 0);
	WR_CHECK_U64(s.first_seq, 2);
	WR_CHECK_U64(s.next_seq, 7);
	WR_CHECK_U64(wr_seq_gaps(&s), 0);

	/* Edge of the window: W - 1 behind the top is still late. */
	wr_seq_init(&s);
	wr_seq_update(&s, 5000);
	wr_seq_update(&s, 5000 + W);
	WR_CHECK_U64(wr_seq_gaps(&s), W - 1);
	wr_seq_update(&s, 5001);
	check_counts(&s, 3, 1, 0, 0, 0);
	WR_CHECK(wr_seq_seen(&s, 5001));
	WR_CHECK(!wr_seq_seen(&s, 5000)); /* W behind: out of the window */
	WR_CHECK_U64(wr_seq_gaps(&s), W - 2);
}

static void
test_reorder_beyond_window(void)
{
	struct wr_seq s;

	wr_seq_init(&s);
	feed_range(&s, 5000, 0, 50);
	feed_range(&s, 5000, 51, 2000);
	WR_CHECK_U64(wr_seq_gaps(&s), 1);
	wr_seq_update(&s, 5050); /* 1949 behind: old, counted rx + late + old */
	check_counts(&s, 2000, 1, 0, 1, 0);
	WR_CHECK_U64(wr_seq_gaps(&s), 0);
	WR_CHECK(wr_seq_lost(&s, 2000) == 0);

	/* Exactly W behind is old, W - 1 behind is late. */
	wr_seq_init(&s);
	wr_seq_update(&s, 10000);
	wr_seq_update(&s, 10000 + W + 1);
	wr_seq_update(&s, 10001); /* W behind */
	wr_seq_update(&s, 10002); /* W - 1 behind */
	check_counts(&s, 4, 2, 0, 1, 0);
	WR_CHECK(!wr_seq_seen(&s, 10001));
	WR_CHECK(wr_seq_seen(&s, 10002));
	WR_CHECK_U64(wr_seq_gaps(&s), W + 2 - 4);

	/* An old frame below first_seq extends the epoch downwards. */
	wr_seq_init(&s);
	feed_range(&s, 0, 5000, 7000);
	wr_seq_update(&s, 4000);
	check_counts(&s, 2001, 1, 0, 1, 0);
	WR_CHECK_U64(s.first_seq, 4000);
	WR_CHECK_U64(wr_seq_gaps(&s), 999);

	/* The documented cost: an old duplicate is counted as received. */
	wr_seq_init(&s);
	feed_range(&s, 5000, 0, 2000);
	wr_seq_update(&s, 6500);
	wr_seq_update(&s, 5100);
	check_counts(&s, 2001, 1, 1, 1, 0);
	WR_CHECK_U64(wr_seq_gaps(&s), 0);
	WR_CHECK(wr_seq_lost(&s, 2000) == -1);
}

static void
test_duplicates(void)
{
	static const uint64_t adjacent[] = { 0, 1, 1, 2, 2, 2, 3 };
	static const uint64_t late_dup[] = { 10, 12, 11, 11, 12, 10 };
	struct wr_seq s;

	wr_seq_init(&s);
	feed_list(&s, adjacent, 7);
	check_counts(&s, 4, 0, 3, 0, 0);
	WR_CHECK_U64(wr_seq_gaps(&s), 0);
	WR_CHECK(wr_seq_lost(&s, 4) == 0);

	/* A late frame, then its copy: late once, dup once. */
	wr_seq_init(&s);
	feed_list(&s, late_dup, 6);
	check_counts(&s, 3, 1, 3, 0, 0);

	/* Copies inside the window, up to its far edge. */
	wr_seq_init(&s);
	feed_range(&s, 0, 1, 3000);
	wr_seq_update(&s, 2999);
	wr_seq_update(&s, 2500);
	wr_seq_update(&s, 3000 - W); /* W - 1 behind: still known */
	check_counts(&s, 2999, 0, 3, 0, 0);
	wr_seq_update(&s, 2999 - W); /* W behind: old, counted as rx */
	check_counts(&s, 3000, 1, 3, 1, 0);
}

static void
test_wrap_around(void)
{
	const uint64_t base = UINT64_MAX - 4;
	struct wr_seq s;

	wr_seq_init(&s);
	feed_range(&s, base, 0, 10); /* MAX-4 .. MAX, 0 .. 4 */
	check_counts(&s, 10, 0, 0, 0, 0);
	WR_CHECK_U64(s.first_seq, base);
	WR_CHECK_U64(s.next_seq, 5);
	WR_CHECK_U64(wr_seq_gaps(&s), 0);
	WR_CHECK(wr_seq_lost(&s, 10) == 0);
	WR_CHECK(wr_seq_seen(&s, UINT64_MAX));

	/* Gap and reorder across the wrap, and a copy of UINT64_MAX. */
	wr_seq_init(&s);
	wr_seq_update(&s, UINT64_MAX - 2);
	wr_seq_update(&s, UINT64_MAX);
	wr_seq_update(&s, 1);
	WR_CHECK_U64(wr_seq_gaps(&s), 2);
	wr_seq_update(&s, 0);
	wr_seq_update(&s, UINT64_MAX - 1);
	wr_seq_update(&s, UINT64_MAX);
	check_counts(&s, 5, 2, 1, 0, 0);
	WR_CHECK_U64(wr_seq_gaps(&s), 0);

	/* After a wrap, an old small sequence is not a restart. */
	wr_seq_init(&s);
	feed_range(&s, UINT64_MAX - 1999, 0, 5000); /* ends at 2999 */
	WR_CHECK_U64(s.next_seq, 3000);
	wr_seq_update(&s, 0);
	wr_seq_update(&s, 100);
	check_counts(&s, 5002, 2, 0, 2, 0);
	WR_CHECK_U64(wr_seq_gaps(&s), 0);
	WR_CHECK(wr_seq_lost(&s, 5000) == -2);
}

static void
test_big_jump(void)
{
	const uint64_t far = UINT64_C(1000000000);
	struct wr_seq s;
	uint64_t i;
	bool ok = true;

	wr_seq_init(&s);
	feed_range(&s, 0, 0, 3 * W + 17); /* every slot of the ring set */
	wr_seq_update(&s, far);
	check_counts(&s, 3 * W + 18, 0, 0, 0, 0);
	WR_CHECK_U64(wr_seq_gaps(&s), far - (3 * W + 17));
	/* Stale bits of the old window must not show through. */
	for (i = far - W + 1; i < far; i++)
		ok = ok && !wr_seq_seen(&s, i);
	WR_CHECK(ok);
	WR_CHECK(wr_seq_seen(&s, far));
	wr_seq_update(&s, far - 5);
	wr_seq_update(&s, far - 5);
	check_counts(&s, 3 * W + 19, 1, 1, 0, 0);

	/* Jumps of W - 1, W and W + 1 over a full window. */
	for (i = W - 1; i <= W + 1; i++) {
		uint64_t j, bad = 0;

		wr_seq_init(&s);
		feed_range(&s, 0, 0, 2 * W + 5);
		wr_seq_update(&s, 2 * W + 4 + i);
		for (j = 2 * W + 5; j < 2 * W + 4 + i; j++)
			bad += wr_seq_seen(&s, j);
		WR_CHECK_U64(bad, 0);
		WR_CHECK_U64(wr_seq_gaps(&s), i - 1);
		WR_CHECK(wr_seq_seen(&s, 2 * W + 4) == (i < W));
	}

	/* 2^63 - 1 ahead is the largest gap; 2^63 ahead reads as behind. */
	wr_seq_init(&s);
	wr_seq_update(&s, 7);
	wr_seq_update(&s, 8 + (UINT64_C(1) << 63) - 1);
	check_counts(&s, 2, 0, 0, 0, 0);
	WR_CHECK_U64(wr_seq_gaps(&s), (UINT64_C(1) << 63) - 1);
	i = s.next_seq + (UINT64_C(1) << 63);
	wr_seq_update(&s, i); /* a restart candidate: old until confirmed */
	check_counts(&s, 3, 1, 0, 1, 0);
	wr_seq_update(&s, i + 1);
	check_counts(&s, 4, 0, 0, 0, 1);
}

static void
test_lost_tail(void)
{
	struct wr_seq s;

	wr_seq_init(&s);
	feed_range(&s, 0, 0, 400);
	feed_range(&s, 0, 410, 900); /* 10 lost inside, 100 at the tail */
	WR_CHECK_U64(wr_seq_gaps(&s), 10);
	WR_CHECK(wr_seq_lost(&s, 1000) == 110);
	WR_CHECK_U64(s.nb_rx_pkts + (uint64_t)wr_seq_lost(&s, 1000), 1000);
	/* Head loss too: frames 0 .. 4 never came. */
	wr_seq_init(&s);
	feed_range(&s, 0, 5, 95);
	WR_CHECK_U64(wr_seq_gaps(&s), 0);
	WR_CHECK(wr_seq_lost(&s, 100) == 10);
}

/*
 * Split stream 0 .. n-1 over two queues (even / odd by a mixing hash), drop
 * every frame with seq % 7 == 3, and reorder pairs on queue 0 only.
 */
static void
split_stream(struct wr_seq *q, uint64_t n, uint64_t *nb_dropped)
{
	uint64_t i, held = UINT64_MAX;
	unsigned int k;

	*nb_dropped = 0;
	for (i = 0; i < n; i++) {
		k = (unsigned int)((i * UINT64_C(0x9E3779B97F4A7C15)) >> 63);
		if (i % 7 == 3) {
			(*nb_dropped)++;
			continue;
		}
		if (k == 1) {
			wr_seq_update(&q[1], i);
		} else if (held == UINT64_MAX) {
			held = i; /* swap with the next frame of queue 0 */
		} else {
			wr_seq_update(&q[0], i);
			wr_seq_update(&q[0], held);
			held = UINT64_MAX;
		}
	}
	if (held != UINT64_MAX)
		wr_seq_update(&q[0], held);
}

static void
test_merge(void)
{
	struct wr_seq q[2], m, empty;
	uint64_t dropped, i, bad = 0;
	const uint64_t n = 5000; /* 4999 % 7 == 1: last frame kept */

	wr_seq_init(&q[0]);
	wr_seq_init(&q[1]);
	split_stream(q, n, &dropped);
	WR_CHECK(q[0].nb_rx_pkts > 1000 && q[1].nb_rx_pkts > 1000);
	WR_CHECK(q[0].nb_late_pkts > 0);
	WR_CHECK_U64(q[1].nb_late_pkts, 0);

	wr_seq_init(&m);
	wr_seq_merge(&m, &q[0]); /* into an empty view: a copy */
	wr_seq_merge(&m, &q[1]);
	WR_CHECK_U64(m.nb_rx_pkts, n - dropped);
	WR_CHECK_U64(m.nb_late_pkts, q[0].nb_late_pkts);
	WR_CHECK_U64(m.first_seq, 0);
	WR_CHECK_U64(m.next_seq, n);
	WR_CHECK_U64(wr_seq_gaps(&m), dropped);
	WR_CHECK(wr_seq_lost(&m, n) == (int64_t)dropped);
	/* The merged window is the union of both. */
	for (i = n - W; i < n; i++)
		bad += wr_seq_seen(&m, i) != (i % 7 != 3);
	WR_CHECK_U64(bad, 0);

	/* Merging an empty view changes nothing. */
	wr_seq_init(&empty);
	wr_seq_merge(&m, &empty);
	WR_CHECK_U64(m.nb_rx_pkts, n - dropped);

	/* The merged view keeps working: late fill, cross-queue copy. */
	wr_seq_update(&m, n - 4);   /* 4996 % 7 == 5: seen on some queue */
	wr_seq_update(&m, n - 6);   /* 4994 % 7 == 3: missing, late now */
	check_counts(&m, n - dropped + 1, q[0].nb_late_pkts + 1, 1, 0, 0);
	WR_CHECK_U64(wr_seq_gaps(&m), dropped - 1);
}

static void
test_merge_uneven(void)
{
	struct wr_seq a, b;
	uint64_t i, bad = 0;

	/* Queue b stopped at 1500 (rest went to a): its ring is stale above. */
	wr_seq_init(&a);
	wr_seq_init(&b);
	feed_range(&b, 0, 0, 1500);
	for (i = 1500; i < 2000; i += 2)
		wr_seq_update(&a, i);
	wr_seq_merge(&a, &b);
	WR_CHECK_U64(a.first_seq, 0);
	WR_CHECK_U64(a.next_seq, 1999);
	WR_CHECK_U64(a.nb_rx_pkts, 1750);
	WR_CHECK_U64(wr_seq_gaps(&a), 249);
	for (i = 1999 - W; i < 1999; i++)
		bad += wr_seq_seen(&a, i) != (i < 1500 || i % 2 == 0);
	WR_CHECK_U64(bad, 0);

	/* Merge order does not matter for the totals. */
	wr_seq_init(&a);
	for (i = 1500; i < 2000; i += 2)
		wr_seq_update(&a, i);
	wr_seq_merge(&b, &a);
	WR_CHECK_U64(b.next_seq, 1999);
	WR_CHECK_U64(wr_seq_gaps(&b), 249);
	for (i = 1999 - W, bad = 0; i < 1999; i++)
		bad += wr_seq_seen(&b, i) != (i < 1500 || i % 2 == 0);
	WR_CHECK_U64(bad, 0);
}

/* Arrival of a frame: its offset from the stream base and its order key. */
struct arrival {
	uint64_t off;
	uint64_t key;
};

static int
arrival_cmp(const void *pa, const void *pb)
{
	const struct arrival *a = pa, *b = pb;

	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return a->off < b->off ? -1 : a->off > b->off;
}

/*
 * Random drops (about 1 in 40) and delays (about 1 in 16 frames held back
 * by 1..700 positions, always inside the window); no duplicates. Checks the
 * exact balance sent == rx + lost and the exact late count, computed here
 * from the arrival order, from base (which may wrap around 2^64).
 */
static void
random_stream(uint64_t seed, uint64_t base, uint64_t n)
{
	struct arrival *arr = calloc(n, sizeof(*arr));
	bool *got = calloc(n, sizeof(*got));
	uint64_t st = seed, i, nb_arr = 0, max_off = 0, min_off = n, late = 0;
	uint64_t bad = 0;
	struct wr_seq s;

	if (arr == NULL || got == NULL) {
		WR_CHECK(!"out of memory");
		goto out;
	}
	for (i = 0; i < n; i++) {
		if (prng_below(&st, 40) == 0)
			continue;
		arr[nb_arr].off = i;
		arr[nb_arr].key = i;
		if (prng_below(&st, 16) == 0)
			arr[nb_arr].key += 1 + prng_below(&st, 700);
		nb_arr++;
	}
	qsort(arr, nb_arr, sizeof(*arr), arrival_cmp);
	wr_seq_init(&s);
	for (i = 0; i < nb_arr; i++) {
		if (i > 0 && arr[i].off < max_off)
			late++;
		if (i == 0 || arr[i].off > max_off)
			max_off = arr[i].off;
		if (arr[i].off < min_off)
			min_off = arr[i].off;
		got[arr[i].off] = true;
		wr_seq_update(&s, base + arr[i].off);
	}
	WR_CHECK(late > 100);
	check_counts(&s, nb_arr, late, 0, 0, 0);
	WR_CHECK(wr_seq_lost(&s, n) == (int64_t)(n - nb_arr));
	WR_CHECK_U64(s.nb_rx_pkts + (uint64_t)wr_seq_lost(&s, n), n);
	WR_CHECK_U64(s.first_seq, base + min_off);
	WR_CHECK_U64(s.next_seq, base + max_off + 1);
	WR_CHECK_U64(wr_seq_gaps(&s), max_off + 1 - min_off - nb_arr);
	for (i = max_off + 1 - W; i <= max_off; i++)
		bad += wr_seq_seen(&s, base + i) != got[i];
	WR_CHECK_U64(bad, 0);
out:
	free(arr);
	free(got);
}

static void
test_random_stream(void)
{
	random_stream(0x5EEDu, 0, 200000);
	random_stream(0xC0FFEEu, UINT64_MAX - 100000, 200000);
	random_stream(42, UINT64_C(1) << 50, 50000);
}

/*
 * Reference model of the documented rules, brute force over a bool array
 * (sequences start high enough that no restart rule applies).
 */
struct model {
	bool *seen;
	uint64_t top, first, rx, late, dup, old;
	bool started;
};

static void
model_update(struct model *m, uint64_t x)
{
	if (!m->started || x > m->top) {
		if (!m->started)
			m->first = x;
		m->started = true;
		m->top = x;
		m->seen[x] = true;
		m->rx++;
		return;
	}
	if (m->top - x < W && m->seen[x]) {
		m->dup++;
		return;
	}
	m->rx++;
	m->late++;
	m->old += m->top - x >= W;
	m->seen[x] = true;
	if (x < m->first)
		m->first = x;
}

/*
 * Random walk with gaps of 0..5 and rare jumps of up to 3000, and copies
 * of recent frames up to 1300 back (so late, dup and old all occur),
 * checked step by step against the model, window included.
 */
static void
test_random_model(void)
{
	const uint64_t base = 10000, n = 5000000;
	struct model m = { .seen = calloc(n + 4000, sizeof(bool)) };
	uint64_t st = 0xDEADBEEFu, pos = base, x, r, i, j, bad = 0;
	struct wr_seq s;

	if (m.seen == NULL) {
		WR_CHECK(!"out of memory");
		return;
	}
	wr_seq_init(&s);
	for (i = 0; i < 20000 && pos < n; i++) {
		if (prng_below(&st, 4) == 0 && pos - base > 1300) {
			x = pos - 1 - prng_below(&st, 1300);
		} else {
			r = prng_below(&st, 64);
			if (r == 0)
				pos += prng_below(&st, 3000);
			else if (r < 8)
				pos += prng_below(&st, 6);
			x = pos++;
		}
		model_update(&m, x);
		wr_seq_update(&s, x);
		if (s.nb_rx_pkts != m.rx || s.nb_dup_pkts != m.dup ||
		    s.nb_late_pkts != m.late || s.nb_old_pkts != m.old ||
		    s.next_seq != m.top + 1 || s.first_seq != m.first)
			bad++;
		for (j = m.top + 1 - W; i % 64 == 0 && j <= m.top; j++)
			bad += wr_seq_seen(&s, j) != m.seen[j];
	}
	WR_CHECK_U64(bad, 0);
	WR_CHECK(m.late > 100 && m.dup > 100 && m.old > 100);
	WR_CHECK_U64(s.nb_restarts, 0);
	free(m.seen);
}

/*
 * A run of in-order frames counted at once (wr_seq_update_run, the RX
 * loop's) leaves the tracker byte for byte as one update per frame: runs
 * of 1 to more than the window, starting at every offset of a window
 * word, after a history with gaps and late frames (window bits mixed).
 */
static void
test_run(void)
{
	static const uint64_t lens[] = { 1, 2, 63, 64, 65, 200, W - 1, W, W + 5, 3 * W };
	uint64_t state = 11, bad = 0;
	unsigned int k, off;

	for (k = 0; k < sizeof(lens) / sizeof(lens[0]); k++) {
		for (off = 0; off < 64; off += 7) {
			struct wr_seq a, b;
			uint64_t top, i;

			memset(&a, 0, sizeof(a));
			wr_seq_init(&a);
			feed_range(&a, 0, 0, 2000 + off);
			for (i = 0; i < 40; i++)  /* gaps, then some filled late */
				wr_seq_update(&a, a.next_seq + prng_below(&state, 90));
			for (i = 0; i < 40; i++)
				wr_seq_update(&a, a.next_seq - 1 - prng_below(&state, W));
			wr_seq_update(&a, a.next_seq);
			WR_CHECK(a.steady);
			memcpy(&b, &a, sizeof(b));
			top = a.next_seq;
			feed_range(&a, top, 0, lens[k]);
			wr_seq_update_run(&b, top, lens[k]);
			bad += memcmp(&a, &b, sizeof(a)) != 0;
		}
	}
	WR_CHECK_U64(bad, 0);
}

int
main(void)
{
	WR_TEST_RUN(test_empty);
	WR_TEST_RUN(test_in_order);
	WR_TEST_RUN(test_single_gap);
	WR_TEST_RUN(test_multiple_gaps);
	WR_TEST_RUN(test_reorder_in_window);
	WR_TEST_RUN(test_reorder_beyond_window);
	WR_TEST_RUN(test_duplicates);
	WR_TEST_RUN(test_wrap_around);
	WR_TEST_RUN(test_big_jump);
	WR_TEST_RUN(test_lost_tail);
	WR_TEST_RUN(test_merge);
	WR_TEST_RUN(test_merge_uneven);
	WR_TEST_RUN(test_random_stream);
	WR_TEST_RUN(test_random_model);
	WR_TEST_RUN(test_run);
	return wr_test_summary();
}
