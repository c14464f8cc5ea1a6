/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Replay mode (--replay, docs/replay.md): TX queues send the frames of a
 * capture, loaded once into mbufs at set-up (setup/replay_setup.c), instead
 * of test frames. A frame is sent by reference, from copies of the
 * queue's own: the copy's reference count is 1 (ours) while the PMD does
 * not hold it; staging it sets the count to 2 with a plain store (no
 * other lcore holds it, so no atomic read-modify-write is needed), and
 * the PMD's free takes it back to 1. A queue has enough copies (its
 * descriptors, a ring pair's slots, what --capture keeps of them, and two
 * bursts) that the one it stages next was given back long ago; one still
 * held (a receiver slow to free a ring pair's frames) makes the queue
 * wait, as a full port does. The frames are written to after set-up only
 * by --replay-stamp (the test header and UDP checksum of a copy the
 * queue alone holds); the ports run without
 * RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE, which assumes a count of one.
 *
 * Timing, decided at set-up for the whole run: the capture's own (each
 * frame leaves once the TSC passes its due time, the capture's gap over
 * --replay-speed), a fixed rate (the pacer, pace.h), or none (as fast as
 * the port takes them). A worker with replay TX queues runs
 * wr_replay_main instead of the generator's loop, so the generator's TX
 * path carries no replay branch.
 */
#ifndef WR_REPLAY_H
#define WR_REPLAY_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_mbuf.h>

struct wr_worker;

/*
 * --replay-stamp, per frame of a queue: where its test header goes (the
 * UDP payload; 0: the frame is sent as captured) and its UDP checksum,
 * with the magic and stream id written at set-up, seq and timestamp 0.
 */
struct wr_replay_stamp {
	uint16_t th_off;          /* test header, 0: not stamped */
	uint16_t ck_off;          /* UDP checksum */
	uint16_t ck_base;         /* the checksum with seq and timestamp 0 */
};

/* One TX queue's share of the capture. */
struct wr_replayq {
	/* Set up before launch, then read-only. */
	struct rte_mbuf **mbufs;  /* nb_copies: copies of this queue's frames,
	                           * copy c holding frame c % nb */
	uint64_t *due_tsc;        /* frame k's time after its loop's start, in
	                           * TSC cycles; NULL: not timed by the file */
	uint64_t *prefix_bytes;   /* bytes (FCS included) of frames 0..k-1,
	                           * nb + 1 entries */
	struct wr_replay_stamp *stamp; /* nb, NULL: none stamped */
	uint32_t *prefix_stamped; /* stamped frames of 0..k-1, nb + 1 entries
	                           * (NULL with stamp) */
	uint32_t nb;              /* frames per loop on this queue */
	uint32_t nb_copies;       /* a multiple of nb, 0 when nb is */
	uint64_t loop_tsc;        /* one loop's length on the TSC (timed) */

	/* Private to the owning lcore (reset at each trial's start). */
	uint32_t pos;             /* next frame to stage, < nb */
	uint32_t copy;            /* its copy, < nb_copies, copy % nb == pos */
	uint64_t stamp_seq;       /* the next stamped frame's sequence number */
	uint64_t loop_start_tsc;  /* TSC at which the current loop began */
};

/*
 * Bytes (FCS included) of the first pkts frames queue r sends: frames
 * leave in file order, loop after loop. Not for the hot path (one
 * division). This function can't fail.
 */
static inline uint64_t
wr_replayq_bytes(const struct wr_replayq *r, uint64_t pkts)
{
	if (r->nb == 0)
		return 0;
	return pkts / r->nb * r->prefix_bytes[r->nb] + r->prefix_bytes[pkts % r->nb];
}

/*
 * Frames with a test header among the first pkts frames queue r sends
 * (--replay-stamp; 0 without): its stream's sent count. Not for the hot
 * path. This function can't fail.
 */
static inline uint64_t
wr_replayq_stamped(const struct wr_replayq *r, uint64_t pkts)
{
	if (r->nb == 0 || r->prefix_stamped == NULL)
		return 0;
	return pkts / r->nb * r->prefix_stamped[r->nb] + r->prefix_stamped[pkts % r->nb];
}

/*
 * The lcore loop of a worker whose TX queues replay (WR_WORKER_REPLAY):
 * each TX queue sends its frames, timed as set up, until it sent its
 * limit_pkts or ctl->tx_stop; its RX queues are polled as the
 * generator's are. Returns 0.
 */
int wr_replay_main(struct wr_worker *w);

#endif /* WR_REPLAY_H */
