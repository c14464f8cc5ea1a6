/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The balance of a two-ended run: the JSON result of the sender (frames
 * sent per stream, `tx_streams`) against the result of a receiver in
 * another process or host (what it saw of each stream, `streams`). Pure:
 * jansson only, no EAL, no printing.
 *
 * For each stream the sender numbered 0 .. sent - 1:
 *
 *     sent = received + lost,   lost = head + gaps + tail
 *
 * received is the receiver's count of unique frames; head the sequences
 * below the first one it saw (first_seq), gaps the holes it proved between
 * first and highest, tail the sequences the sender sent after the highest
 * one received (sent - next_seq). A stream is balanced when both equations
 * hold with no negative term, in one epoch (no restart). See
 * docs/accounting.md.
 */
#ifndef WR_MERGE_H
#define WR_MERGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>
#include "base/error.h"
#include "oneway.h"

#define WR_MERGE_SCHEMA "wirerate-merge/1"
#define WR_MERGE_MAX_ROWS 1024u
#define WR_MERGE_WHY_LEN 128u

/* One stream: the sender's count against the receiver's view. */
struct wr_merge_row {
	uint16_t stream_id;
	bool in_sender;           /* in the sender's tx_streams */
	bool in_receiver;         /* the receiver saw frames of it */
	int rx_port;              /* receiver port; -1 when not seen */
	uint64_t sent_pkts;       /* sender: accepted by its TX queue */
	uint64_t rx_pkts;         /* receiver: unique frames */
	int64_t lost_pkts;        /* sent - rx */
	uint64_t head_lost_pkts;  /* sequences below the first received */
	uint64_t gap_pkts;        /* holes between first and highest */
	uint64_t tail_lost_pkts;  /* sent after the highest received */
	uint64_t first_seq;       /* receiver: lowest sequence received */
	uint64_t next_seq;        /* receiver: highest sequence received + 1 */
	uint64_t late_pkts;
	uint64_t dup_pkts;
	uint64_t old_pkts;
	uint64_t restarts;
	json_t *latency;          /* receiver's latency fields (borrowed), or NULL */
	bool balanced;
	char why[WR_MERGE_WHY_LEN]; /* empty when balanced */
};

struct wr_merge {
	/* A side was written during its run (stop_reason "running"): its
	 * counts stop at its last interval, so the balance is provisional. */
	bool incomplete;
	/* The sender's side was written during its run (a sender that
	 * crashed leaves its last checkpoint): it went on sending after it,
	 * so each row's sent_pkts is a lower bound (the checkpoint's count,
	 * raised to the highest sequence the receiver saw + 1), and lost_pkts
	 * is what is proven lost; frames sent after the checkpoint that never
	 * arrived cannot be counted. */
	bool sent_lower_bound;
	unsigned int nb_rows;
	struct wr_merge_row rows[WR_MERGE_MAX_ROWS];
	/* Over the rows in the sender. */
	uint64_t sent_pkts;
	uint64_t rx_pkts;
	int64_t lost_pkts;
	uint64_t head_lost_pkts;
	uint64_t gap_pkts;
	uint64_t tail_lost_pkts;
	uint64_t late_pkts;
	uint64_t dup_pkts;
	unsigned int nb_unbalanced;
	bool balanced;            /* every row balanced, and at least one row */
	/* Whether the receiver's latency of these streams is one-way
	 * latency (oneway.h): the rows' latency fields follow it. */
	struct wr_oneway oneway;
};

/*
 * Read a JSON result file. Returns 0 with *doc (caller json_decref()s), or
 * -ENOENT / -EINVAL with a message naming the file (and line and column of
 * a syntax error).
 */
int wr_merge_load(const char *path, json_t **doc, struct wr_error *err);

/*
 * Pair the sender's tx_streams with the receiver's streams into m.
 * Returns 0 (m->balanced says whether the books close), or -EINVAL when a
 * document is not a wirerate result with the fields needed, with a message
 * saying which document and field. m borrows from rcv: keep rcv alive while
 * m is used.
 */
int wr_merge_compute(const json_t *snd, const json_t *rcv, struct wr_merge *m,
		struct wr_error *err);

/*
 * The merge as a JSON document (schema WR_MERGE_SCHEMA); the two inputs
 * are named by path and by their env (hostname, cmdline). NULL on memory
 * exhaustion. Caller json_decref()s.
 */
json_t *wr_merge_json(const struct wr_merge *m, const json_t *snd,
		const char *snd_path, const json_t *rcv, const char *rcv_path);

#endif /* WR_MERGE_H */
