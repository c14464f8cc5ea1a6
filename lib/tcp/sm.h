/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Inside the state machine (tcp.h): helpers shared by input, output and
 * congestion control. Not for callers outside lib/tcp.
 */
#ifndef WR_TCP_SM_H
#define WR_TCP_SM_H

#include "tcp/sack.h"
#include "tcp/seq.h"
#include "tcp/tcp.h"

/* Sequence number just past the last payload byte sent (FIN excluded). */
static inline uint32_t
wr_tcp_data_end(const struct wr_tcp_conn *c)
{
	return c->snd_max - ((c->flags & WR_TCP_F_FIN_SENT) ? 1 : 0);
}

/* Bytes sent and not yet acknowledged (RFC 5681's FlightSize). */
static inline uint32_t
wr_tcp_flight_bytes(const struct wr_tcp_conn *c)
{
	return c->snd_max - c->snd_una;
}

/* Whether the state is synchronized (RFC 9293 3.10.7.4). */
static inline bool
wr_tcp_synced(const struct wr_tcp_conn *c)
{
	return c->state >= WR_TCP_ESTABLISHED;
}

/*
 * The scoreboard c holds (sack.h says when), or NULL. The pool is read
 * only when c's cfg had sb_use.
 */
static inline struct wr_tcp_sb *
wr_tcp_sb_cur(const struct wr_tcp_conn *c, const struct wr_tcp_out *out)
{
	if (!c->sb_use || out->sb_pool == NULL)
		return NULL;
	return wr_tcp_sb_of(out->sb_pool,
		wr_tcp_sb_conn_idx(out->sb_pool, c));
}

/* Whether seg SACKs data sent after seq: a block whose end is above seq
 * and not above snd_max. */
static inline bool
wr_tcp_sacks_past(const struct wr_tcp_conn *c, const struct wr_tcp_seg *seg,
	uint32_t seq)
{
	unsigned int k;

	for (k = 0; k < seg->nb_sack; k++)
		if (wr_tcp_seq_gt(seg->sack[k].right, seq) &&
			wr_tcp_seq_le(seg->sack[k].right, c->snd_max))
			return true;
	return false;
}

/* The scoreboard of c's SACK recovery: the one it holds while in fast
 * recovery, else NULL. */
static inline struct wr_tcp_sb *
wr_tcp_sb_rec(const struct wr_tcp_conn *c, const struct wr_tcp_out *out)
{
	if (!(c->flags & WR_TCP_F_IN_RECOVERY))
		return NULL;
	return wr_tcp_sb_cur(c, out);
}

/* Clear out for a new call. */
void wr_tcp_out_clear(struct wr_tcp_out *out);

/*
 * Append one segment: seq, control bits, payload [seq, seq + len) named by
 * its stream offset; ack, window and SYN options from c. Sending an ACK
 * clears a pending one. Returns false (out->more set) when out is full.
 */
bool wr_tcp_emit(struct wr_tcp_conn *c, struct wr_tcp_out *out,
	uint32_t seq, uint8_t flags, uint32_t len_bytes);

/* RST <SEQ=seq><ACK=ack><CTL=flags> for a segment we do not accept. */
void wr_tcp_emit_rst(struct wr_tcp_out *out, uint32_t seq, uint32_t ack,
	uint8_t flags);

/*
 * Retransmit the one segment at snd_una (fast retransmit, a NewReno
 * partial ACK, a probe); snd_nxt does not move. Karn: no RTT sample.
 */
void wr_tcp_rtx_first(struct wr_tcp_conn *c, struct wr_tcp_out *out);

/* Send what the windows allow (wr_tcp_output without clearing out). */
void wr_tcp_push(struct wr_tcp_conn *c, uint64_t now_us,
	struct wr_tcp_out *out);

/*
 * The end of every public call: what the one timer does, from the state
 * and what the call changed (una0: snd_una at the start, in_flight0 and
 * delack0: flight and a delayed ACK pending then).
 */
void wr_tcp_timer_decide(struct wr_tcp_conn *c, uint64_t now_us,
	struct wr_tcp_out *out, uint32_t una0, bool in_flight0, bool delack0);

/* Go to CLOSED with these events (and failure class). */
void wr_tcp_to_closed(struct wr_tcp_conn *c, struct wr_tcp_out *out,
	uint16_t events, uint8_t fail);

/* Enter TIME_WAIT: 2 MSL from now (RFC 9293 3.3.2). */
void wr_tcp_to_time_wait(struct wr_tcp_conn *c, uint64_t now_us,
	struct wr_tcp_out *out);

/* Process the ACK field of a segment in a synchronized state (input_ack.c):
 * returns false when the segment is to be dropped. */
bool wr_tcp_input_ack(struct wr_tcp_conn *c, const struct wr_tcp_seg *seg,
	uint64_t now_us, struct wr_tcp_out *out);

/* The segment's text (input_ack.c): in order counted, out of order kept. */
void wr_tcp_input_text(struct wr_tcp_conn *c, const struct wr_tcp_seg *seg,
	struct wr_tcp_out *out);

/* Congestion control (cc.c), RFC 5681 and RFC 6582. */
void wr_tcp_cc_init(struct wr_tcp_conn *c);
void wr_tcp_cc_on_ack(struct wr_tcp_conn *c, uint32_t ack,
	struct wr_tcp_out *out);
void wr_tcp_cc_on_dupack(struct wr_tcp_conn *c, const struct wr_tcp_seg *seg,
	struct wr_tcp_out *out);
void wr_tcp_cc_on_rto(struct wr_tcp_conn *c, struct wr_tcp_out *out);
void wr_tcp_cc_on_leap(struct wr_tcp_conn *c, uint32_t leap_bytes);
/* Before sending with nothing in flight: the restart window after an
 * idle time over the RTO (RFC 5681 4.1). */
void wr_tcp_cc_on_idle(struct wr_tcp_conn *c, uint64_t now_us);

#endif /* WR_TCP_SM_H */
