/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The store of drained capture copies (datapath/capture_kept.h): copies
 * moved onto the heap used to pile up without a limit, the last frames of
 * every trial stop of a b2b, sweep or MLR run included.
 */
#include <string.h>

#include "datapath/capture_kept.h"
#include "wr_test.h"

static void
add(struct wr_capkept *k, uint64_t tsc, uint16_t queue, uint64_t idx,
		const char *snap, int kept)
{
	struct cap_meta m = { .tsc = tsc, .idx = idx, .queue = queue,
		.orig_len = 60 };
	uint32_t len = (uint32_t)strlen(snap);
	void *room = wr_capkept_add(k, &m, len);

	WR_CHECK((room != NULL) == kept);
	if (room != NULL)
		memcpy(room, snap, len);
}

/* Past max_kept a copy is counted lost, not stored: memory stays bounded. */
static void
test_bounded(void)
{
	struct wr_capkept k;
	unsigned int i;

	wr_capkept_init(&k, 3);
	for (i = 0; i < 3; i++)
		add(&k, 10 + i, 0, i, "abc", 1);
	for (i = 0; i < 2000; i++)
		add(&k, 20 + i, 0, 3 + i, "late", 0);
	WR_CHECK_U64(k.nb_kept, 3);
	WR_CHECK_U64(k.nb_lost, 2000);
	WR_CHECK(k.nb_slots < 2000);
	wr_capkept_free(&k);
	WR_CHECK_U64(k.nb_kept, 0);
	WR_CHECK_U64(k.max_kept, 3);
}

/* Every copy keeps its snap, and the store sorts by TSC, queue, arrival. */
static void
test_sorted(void)
{
	struct wr_capkept k;

	wr_capkept_init(&k, 1u << 20);
	add(&k, 30, 0, 7, "c", 1);
	add(&k, 10, 1, 2, "b", 1);
	add(&k, 10, 0, 5, "a", 1);
	add(&k, 30, 0, 6, "bb", 1);
	wr_capkept_sort(&k);
	WR_CHECK_U64(k.nb_kept, 4);
	WR_CHECK(k.copies[0]->len == 1 && k.copies[0]->data[0] == 'a');
	WR_CHECK(k.copies[1]->len == 1 && k.copies[1]->data[0] == 'b');
	WR_CHECK(k.copies[2]->len == 2 && memcmp(k.copies[2]->data, "bb", 2) == 0);
	WR_CHECK(k.copies[3]->meta.idx == 7 && k.copies[3]->meta.orig_len == 60);
	WR_CHECK_U64(k.nb_lost, 0);
	wr_capkept_free(&k);
}

int
main(void)
{
	WR_TEST_RUN(test_bounded);
	WR_TEST_RUN(test_sorted);
	return wr_test_summary();
}
