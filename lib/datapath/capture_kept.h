/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The copies --capture's stats core drained from the capture rings, kept
 * on the heap until the file is written, in a bounded store: past
 * max_kept copies (capture.c: 4 times the copy pool, docs/accounting.md)
 * or without memory a copy is counted lost, so a b2b, sweep or MLR run of
 * many trials, each adding its last frames, cannot grow without end.
 * Stats core only; no EAL (unit tested).
 */
#ifndef WR_CAPTURE_KEPT_H
#define WR_CAPTURE_KEPT_H

#include <stdint.h>

/*
 * What a worker writes in front of each raw copy (in its headroom): the
 * stats core turns the copy into a pcapng block later, in TSC order.
 */
struct cap_meta {
	uint64_t tsc;                /* RX burst timestamp */
	uint64_t idx;                /* arrival index on the queue */
	uint16_t port;               /* RX port (not every PMD sets mbuf->port) */
	uint16_t queue;
	uint32_t orig_len;           /* frame bytes before the snap */
};

/*
 * A copy the stats core drained, moved off the copy pool onto the heap so
 * that the pool only carries copies in transit: the last frames of every
 * stop (each trial of a test mode) never crowd out later anomalies.
 */
struct cap_copy {
	struct cap_meta meta;
	uint32_t len;                /* bytes in data[]: the snap */
	uint8_t data[];
};

/* The store; zeroed, then wr_capkept_init. */
struct wr_capkept {
	struct cap_copy **copies;    /* nb_kept of them */
	uint32_t nb_kept;
	uint32_t nb_slots;           /* entries copies[] has room for */
	uint32_t max_kept;           /* copies kept at most */
	uint64_t nb_lost;            /* copies not kept: past max_kept, no memory */
};

/* An empty store of at most max_kept copies. This function can't fail. */
void wr_capkept_init(struct wr_capkept *k, uint32_t max_kept);

/*
 * Keep a copy of meta and room for len bytes of snap, returned for the
 * caller to fill. NULL, and the copy counted in nb_lost, when k holds
 * max_kept copies already or memory ran out.
 */
void *wr_capkept_add(struct wr_capkept *k, const void *meta, uint32_t len);

/* Order copies[] by RX TSC, then port, queue and arrival index. */
void wr_capkept_sort(const struct wr_capkept *k);

/* Free every copy; k is empty (and still bounded) after. */
void wr_capkept_free(struct wr_capkept *k);

#endif /* WR_CAPTURE_KEPT_H */
