/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Set-up of --replay (datapath/replay.h, docs/replay.md): the capture is
 * read (base/pcapread.h) and copied into mbufs of a pool of its own, once;
 * every TX port sends the whole file, its frames split round robin over
 * the port's TX queues (frame k of the file on queue k % nb_txq), each
 * queue with the due times of its frames and copies of its own of them:
 * enough that the copy it stages was given back by the PMD (the port's
 * TX descriptors, a ring pair's slots, what --capture keeps of them
 * and two bursts).
 */
#ifndef WR_REPLAY_SETUP_H
#define WR_REPLAY_SETUP_H

#include <stdint.h>

#include "base/error.h"

struct wr_run;
struct rte_mempool;
struct rte_mbuf;

/* The loaded capture of a run. Written by set-up, then read-only. */
struct wr_replay_set {
	struct rte_mempool *pool;  /* every TX queue's copies of its frames */
	struct rte_mbuf **mbufs;   /* nb_mbufs: the TX queues' copies, queue
	                            * after queue (wr_replayq.mbufs points in
	                            * here); one reference ours */
	uint32_t nb;               /* frames in the file */
	uint32_t nb_mbufs;         /* copies of frames in all */
	uint64_t pool_bytes;       /* hugepage memory of their pool */
	uint64_t span_ns;          /* last frame's time less the first's */
	uint64_t loop_ns;          /* one loop at the capture's timing: the span
	                            * and the mean gap (the first frame of the
	                            * next loop follows the last one by it) */
	int released;              /* our references given back (close) */
};

/*
 * With --replay: load the file into mbufs, give every TX queue its share
 * (txq->replay) and its workers WR_WORKER_REPLAY. Call after the workers
 * are made. Returns 0 (also without --replay), -EINVAL for a bad file
 * (class usage: the file, the frame number, what is wrong), or -ENOMEM
 * naming the memory the frames need (class environment).
 */
int wr_replay_setup(struct wr_run *run, struct wr_error *err);

/*
 * Once the ports are closed: give back our reference of every frame.
 * Returns the mbufs not back in the replay pool (0 when every reference a
 * PMD took was returned). Safe on partial state and without --replay.
 */
uint64_t wr_replay_release(struct wr_run *run);

/*
 * --replay-stamp, for set-up only: choose r's frames with room for the
 * test header (the first UDP payload of 18 bytes or more whose length is
 * consistent), write the header with stream_id into every copy of them
 * and set r->stamp and r->prefix_stamped. r's copies must be filled.
 * Returns 0 or -ENOMEM (what was allocated stays in r for free_queue).
 */
struct wr_replayq;
int wr_replay_stamp_setup(struct wr_replayq *r, uint16_t stream_id, int socket);

/* Free what wr_replay_setup made (after wr_replay_release). Safe always. */
void wr_replay_teardown(struct wr_run *run);

#endif /* WR_REPLAY_SETUP_H */
