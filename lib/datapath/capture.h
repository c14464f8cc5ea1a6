/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --capture FILE.pcapng: the frames that explain a bad run, written with
 * DPDK's rte_pcapng (no writer of our own).
 *
 * What is kept, per RX queue (options choose; docs/accounting.md):
 *   foreign  frames without our signature, and malformed ones;
 *   seq      around every sequence anomaly (an own frame whose sequence is
 *            not the one its stream expected: the first frame after a gap,
 *            a late frame, a duplicate), the around_pkts frames before it
 *            and after it in arrival order on that queue;
 *   last     the last last_pkts frames the queue received before each stop.
 * foreign and seq frames count against max_pkts per queue; past it they
 * are counted (over_budget) and not copied.
 *
 * Cost. The worker only takes this path when capture is on, decided once
 * per burst. It holds the last max(around, last) received mbufs by pointer
 * (a frame leaves the hold when a newer one takes its slot: no copy, and
 * every mbuf still goes back to its pool) and copies (rte_pcapng_copy) only
 * frames it keeps. Copies go to the stats core through one single-producer
 * ring per queue; a full ring or an empty copy pool drops the copy, never
 * waits, and counts it (dropped). The stats core drains the rings at every
 * interval and after each stop, moves the copies off the copy pool into
 * heap memory (so the pool only bounds copies in transit, and the last
 * frames of every trial never exhaust it), at most 4 times the pool's
 * copies there (capture_kept.h; past it a copy counts as dropped), and
 * writes the file once, atomically, at the end.
 */
#ifndef WR_CAPTURE_H
#define WR_CAPTURE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <rte_mbuf.h>

#include "config/config.h"

/* Why a received frame may be kept; one byte per frame of a burst. */
enum wr_capture_why {
	WR_CAPTURE_WHY_NONE = 0,
	WR_CAPTURE_WHY_FOREIGN = 1,
	WR_CAPTURE_WHY_MALFORMED = 2,
	WR_CAPTURE_WHY_SEQ = 3,
};

/* Counters of one queue's capture; written only by the owning lcore. */
struct wr_capq_stats {
	uint64_t nb_copied_pkts;     /* copies handed to the stats core */
	uint64_t nb_dropped_pkts;    /* copy pool empty or ring full */
	uint64_t nb_over_budget_pkts;/* kept-worthy, past max_pkts */
	uint64_t nb_anomalies;       /* foreign, malformed or seq frames seen */
	uint64_t nb_budget_pkts;     /* foreign/seq copies made (budget used) */
} __rte_cache_aligned;

/* One RX queue's capture state. */
struct wr_capq {
	/* Set up before launch, then read-only. */
	struct rte_ring *ring;       /* copies to the stats core, SP/SC */
	struct rte_mempool *pool;    /* copies (rte_pcapng_copy), shared */
	uint16_t port;
	uint16_t queue;
	uint32_t what;               /* WR_CAPTURE_* bits */
	uint32_t around_pkts;
	uint32_t last_pkts;
	uint32_t max_pkts;
	uint32_t snaplen;            /* bytes copied per frame */
	uint32_t nb_hold;            /* slots of the hold, a power of 2, or 0 */

	/* Private to the owning lcore. */
	uint64_t nb_seen;            /* frames received since creation */
	uint64_t next_uncopied;      /* arrival index after the last copy */
	uint64_t held_from;          /* lowest arrival index still held */
	uint32_t after_left;         /* frames still to keep after an anomaly */

	struct wr_capq_stats st;
	struct rte_mbuf **held;      /* nb_hold slots, by arrival index */
	uint64_t *held_tsc;          /* RX TSC of each held frame */
	bool *held_raw;              /* held frame may go back by bulk put */
};

/* One received burst, as the worker hands it over. */
struct wr_capq_burst {
	struct rte_mbuf **pkts;
	const uint8_t *why;          /* per frame: enum wr_capture_why */
	uint64_t tsc;                /* RX timestamp of the burst */
	uint16_t nb;
	bool anomalous;              /* some why[i] != WR_CAPTURE_WHY_NONE */
	bool raw;                    /* every mbuf plain, from pkts[0]'s pool */
};

struct wr_capture;

/*
 * Keep what c wants of a received burst and give every mbuf of it back
 * to its pool, now or (held ones) later. Frames are only scanned when the
 * burst is anomalous or follows an anomaly. Called by the owning lcore
 * only; never blocks. This function can't fail (what cannot be copied is
 * counted).
 */
void wr_capq_burst(struct wr_capq *c, const struct wr_capq_burst *b);

/*
 * The stop: copy the last last_pkts frames still held (unless already
 * copied), free every held mbuf. Called by the owning lcore when it stops
 * receiving. This function can't fail.
 */
void wr_capq_flush(struct wr_capq *c);

/*
 * Mbufs one RX queue holds with conf: max(around, last) rounded up to a
 * power of 2 (0: none). This function can't fail.
 */
uint32_t wr_capture_hold_slots(const struct wr_capture_conf *conf);

/*
 * The run's capture for conf: a copy pool sized for nb_rxq queues of
 * frames up to frame_size bytes. NULL with rte_errno on failure.
 */
struct wr_capture *wr_capture_create(const struct wr_capture_conf *conf,
		unsigned int nb_rxq, uint32_t frame_size);

/*
 * A queue's capture state on socket, registered with cap. NULL with
 * rte_errno on failure (cap keeps nothing then).
 */
struct wr_capq *wr_capture_queue(struct wr_capture *cap, uint16_t port,
		uint16_t queue, int socket);

/*
 * Stats core: move the copies waiting in every ring into heap memory and
 * give their mbufs back to the copy pool. A copy that finds no memory is
 * counted (dropped_pkts). At most one ring's worth a queue a call (workers
 * refill their rings meanwhile); once the workers returned, one call
 * empties every ring.
 */
void wr_capture_drain(struct wr_capture *cap);

/*
 * Write every copy kept so far to f (pcapng, rte_pcapng), oldest first.
 * Returns 0 or a negative errno. Signature of wr_file_fill_t.
 */
int wr_capture_write(FILE *f, const void *cap);

/*
 * Stats core, during the run: rewrite the file (atomically, as at the end)
 * when period_tsc passed since the last time and new copies came in, so a
 * crash no handler survives leaves the frames kept until then.
 * period_tsc 0: never. This function can't fail (failures are counted).
 */
void wr_capture_checkpoint(struct wr_capture *cap, uint64_t now_tsc,
		uint64_t period_tsc);

/* What a capture kept and lost, for the result's "capture" object
 * (results/result.c writes it). */
struct wr_capture_figures {
	const char *path;
	uint64_t frames;             /* kept, to be written */
	uint64_t copied_pkts;        /* copies the workers made */
	uint64_t dropped_pkts;       /* copies lost: pool or ring full */
	uint64_t over_budget_pkts;   /* past --capture-max */
	uint64_t anomalies;          /* anomalies seen */
	uint32_t snaplen;
	uint64_t checkpoints_failed;
	uint64_t around_pkts, last_pkts, max_pkts; /* the configuration */
};

/* Fill f from cap. This function can't fail. */
void wr_capture_figures(const struct wr_capture *cap, struct wr_capture_figures *f);

/* Free everything (held mbufs too); safe on NULL. */
void wr_capture_destroy(struct wr_capture *cap);

#endif /* WR_CAPTURE_H */
