/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The SACK sender's scoreboard (RFC 6675 3 and 4), kept apart from the
 * 128-byte connection: a per-lcore pool of scoreboards. A connection
 * with SACK agreed holds one from the first ACK that SACKs data above
 * snd_una (so that no block is missed: a receiver repeats only its 3 or
 * 4 latest) until no SACKed range is left outside recovery, an RTO, or
 * its end. When none is free at a fast retransmit the connection
 * recovers as NewReno, and that is counted.
 *
 * A scoreboard holds the SACKed ranges above snd_una (sorted, disjoint,
 * at most WR_TCP_SB_RANGES; when full, the highest is forgotten: later
 * blocks report it again) and HighRxt, the end of what was retransmitted.
 * From the start of the lowest range it forgot, nothing counts lost
 * (the receiver may hold any of it) until snd_una passes there or a
 * block covering that start is kept again.
 * What is simplified against RFC 6675:
 * - IsLost (4) is its byte rule alone: a hole counts as lost when more
 *   than 2 SMSS (DupThresh - 1) above its start were SACKed; and, not in
 *   RFC 6675 (as RACK, RFC 8985, by order of sending rather than time),
 *   everything not SACKed below lost_to, which the state machine sets
 *   to where recovery began on a partial ACK (the resent segment came
 *   back: what left before it and is still missing is lost, also above
 *   the highest SACKed byte, where our own receiver's three ranges and
 *   a drop-tail burst leave data that is never SACKed);
 * - a lost resend (RFC 6675 waits for the RTO): once more than 2 SMSS
 *   sent after the latest resend are SACKed while resent data is still
 *   not acknowledged, a new round begins: HighRxt back to snd_una, so
 *   the holes go again (what left after the latest resend arrived, so
 *   every resend before it should have: measured from where the round
 *   began instead, a hole resent late in the round went twice);
 * - NextSeg (4) takes rule 1 only (the first lost hole byte above
 *   HighRxt); rules 2 to 4 (new data, rescue retransmissions) are the
 *   state machine's plain sending of new data;
 * - pipe (SetPipe, 4) is the flight less the SACKed bytes and less the
 *   lost bytes not retransmitted yet; a retransmitted lost byte counts
 *   once, not twice.
 *
 * The caller passes the memory (wr_tcp_sb_mem_bytes): the scoreboards
 * and, per connection, the index of the scoreboard it holds. Pure: no
 * EAL, no prints. Written only by the owning lcore.
 */
#ifndef WR_TCP_SACK_H
#define WR_TCP_SACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "tcp/conn.h"
#include "tcp/seg.h"

/* SACKed ranges one scoreboard remembers. */
#define WR_TCP_SB_RANGES 8
/* Scoreboards of an engine's pool unless told otherwise. */
#define WR_TCP_SB_DEFAULT 256u
/* The per-connection map's value for "none held". */
#define WR_TCP_SB_NONE UINT16_MAX

/* One scoreboard. */
struct wr_tcp_sb {
	uint32_t high_rxt;       /* RFC 6675 HighRxt: resent up to here */
	uint32_t lost_to;        /* what is not SACKed below is lost */
	uint32_t rxt_mark;       /* snd_max when the latest resend left
				  * (or this round began) */
	uint32_t forgot_from;    /* start of the lowest range forgotten */
	uint16_t nb_ranges;
	uint16_t forgot;         /* 1: forgot_from holds */
	struct wr_tcp_range r[WR_TCP_SB_RANGES]; /* SACKed, above snd_una */
};

/* The pool: the scoreboards, a stack of free ones, a map by connection. */
struct wr_tcp_sb_pool {
	struct wr_tcp_sb *sbs;
	uint16_t *free_idx;      /* free_idx[0 .. nb_free) are free */
	uint16_t *of_conn;       /* by connection index: its scoreboard */
	const struct wr_tcp_conn *conns; /* index 0 (a connection's index
				  * is its distance from it) */
	uint32_t nb_sbs;
	uint32_t nb_free;
	uint32_t nb_conns;
	uint64_t nb_taken;       /* takes that got one (SACK recoveries) */
	uint64_t nb_refused;     /* takes refused: none free (NewReno then) */
};

/* Bytes of memory wr_tcp_sb_pool_init needs. Can't fail. */
size_t wr_tcp_sb_mem_bytes(uint32_t nb_sbs, uint32_t nb_conns);

/*
 * Set the pool up in mem (wr_tcp_sb_mem_bytes bytes, 8-byte aligned):
 * every scoreboard free, no connection of conns[0 .. nb_conns) holding
 * one. Returns 0, or
 * -EINVAL with err filled when nb_sbs is 0 or not below WR_TCP_SB_NONE.
 */
int wr_tcp_sb_pool_init(struct wr_tcp_sb_pool *p, void *mem,
	uint32_t nb_sbs, const struct wr_tcp_conn *conns, uint32_t nb_conns,
	struct wr_error *err);

/*
 * Connection conn_idx got SACK blocks: the scoreboard it holds, or a
 * free one cleared (marks at snd_una), not counted. NULL when none is
 * free. Can't fail.
 */
struct wr_tcp_sb *wr_tcp_sb_hold(struct wr_tcp_sb_pool *p,
	uint32_t conn_idx, uint32_t snd_una);

/*
 * Connection conn_idx enters recovery at snd_una: the scoreboard it
 * holds (its ranges kept) or a free one cleared, HighRxt and the marks
 * at snd_una; counted in nb_taken. NULL when none is free, counted in
 * nb_refused. Can't fail.
 */
struct wr_tcp_sb *wr_tcp_sb_take(struct wr_tcp_sb_pool *p,
	uint32_t conn_idx, uint32_t snd_una);

/* The scoreboard conn_idx holds, or NULL. Can't fail. */
struct wr_tcp_sb *wr_tcp_sb_of(const struct wr_tcp_sb_pool *p,
	uint32_t conn_idx);

/* The index of connection c, one of the pool's conns. */
static inline uint32_t
wr_tcp_sb_conn_idx(const struct wr_tcp_sb_pool *p,
	const struct wr_tcp_conn *c)
{
	return (uint32_t)(c - p->conns);
}

/* Give back what conn_idx holds (nothing when it holds none). */
void wr_tcp_sb_give(struct wr_tcp_sb_pool *p, uint32_t conn_idx);

/*
 * A segment's ACK and SACK blocks (RFC 6675 5): ranges below snd_una
 * dropped or cut; each block is added (merged) unless it is empty, ends
 * at or below snd_una (a D-SACK, RFC 2883, or an old one) or ends past
 * snd_max (data never sent); a block starting below snd_una is cut to
 * it. Sequence order is modulo 2^32 (seq.h). Can't fail.
 */
void wr_tcp_sb_update(struct wr_tcp_sb *sb, uint32_t snd_una,
	uint32_t snd_max, const struct wr_tcp_sack_blk *blk, unsigned int nb);

/* Bytes SACKed above snd_una. */
uint32_t wr_tcp_sb_sacked(const struct wr_tcp_sb *sb);

/*
 * RFC 6675 NextSeg, rule 1 (simplified: see above): the first hole byte
 * at or above max(HighRxt, snd_una) that IsLost; *seq and *len (at most
 * mss, up to the next SACKed range) name the segment to resend. False
 * when there is none. Can't fail.
 */
bool wr_tcp_sb_next(const struct wr_tcp_sb *sb, uint32_t snd_una,
	uint32_t mss, uint32_t *seq, uint32_t *len);

/* A round of resends begins: HighRxt at snd_una, the mark at snd_max. */
void wr_tcp_sb_round(struct wr_tcp_sb *sb, uint32_t snd_una,
	uint32_t snd_max);

/* Whether a resend of the round is lost (see above): a new round is
 * due. */
bool wr_tcp_sb_rxt_lost(const struct wr_tcp_sb *sb, uint32_t snd_una,
	uint32_t mss);

/* What is not SACKed below seq is lost (see above). */
void wr_tcp_sb_lose_to(struct wr_tcp_sb *sb, uint32_t seq);

/* [seq, seq + len) was resent with snd_max at snd_max: HighRxt moves
 * past it, the mark of the latest resend to snd_max. */
void wr_tcp_sb_rxt(struct wr_tcp_sb *sb, uint32_t seq, uint32_t len,
	uint32_t snd_max);

/* RFC 6675 pipe (simplified: see above). */
uint32_t wr_tcp_sb_pipe(const struct wr_tcp_sb *sb, uint32_t snd_una,
	uint32_t snd_max, uint32_t mss);

#endif /* WR_TCP_SACK_H */
