/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The TCP state machine, pure: a parsed segment and the time in, actions
 * out (RFC 9293 3.10). No packet is read or built here: the caller turns
 * the actions' segments into frames (the payload of a segment is named by
 * its stream offset and length, seg.h) and keeps the connection's one
 * timer in its wheel (wheel.h).
 *
 * One call = one struct wr_tcp_out, cleared by the call. Every public
 * function below ends by sending what the windows allow (wr_tcp_output's
 * rule), so the caller needs no second call unless out filled up
 * (out->more).
 */
#ifndef WR_TCP_TCP_H
#define WR_TCP_TCP_H

#include <stdbool.h>
#include <stdint.h>

#include "tcp/conn.h"
#include "tcp/seg.h"

struct wr_tcp_sb_pool;

/* Segments one call may emit. */
#define WR_TCP_OUT_MAX_SEGS 32

/* Delayed ACK: RFC 9293 3.8.6.3 says less than 0.5 s; Linux's 40 ms. */
#define WR_TCP_DELACK_US 40000u
/* TIME_WAIT: 2 MSL (RFC 9293 3.3.2), MSL of 30 s as Linux. */
#define WR_TCP_TIME_WAIT_US 60000000u
/* RFC 9293 3.7.1: the send MSS without the peer's option. */
#define WR_TCP_MSS_DEFAULT_BYTES 536u
/* RFC 7323 2.3: the largest shift. */
#define WR_TCP_WSCALE_MAX 14u

/* What the caller does with the connection's one timer. */
enum wr_tcp_timer_op {
	WR_TCP_TIMER_KEEP = 0,  /* leave it as it is */
	WR_TCP_TIMER_CANCEL,
	WR_TCP_TIMER_RTO,       /* RFC 6298 */
	WR_TCP_TIMER_PERSIST,   /* zero window, RFC 9293 3.8.6.1 */
	WR_TCP_TIMER_DELACK,    /* RFC 9293 3.8.6.3 */
	WR_TCP_TIMER_TIME_WAIT, /* 2 MSL */
};

/* Events for the books, or-ed in wr_tcp_out.events. */
enum wr_tcp_event {
	WR_TCP_EV_ESTABLISHED = 1 << 0,
	WR_TCP_EV_DELIVERED = 1 << 1,   /* nb_delivered_bytes > 0 */
	WR_TCP_EV_PEER_FIN = 1 << 2,
	WR_TCP_EV_CLOSED = 1 << 3,      /* now CLOSED (or TIME_WAIT ended) */
	WR_TCP_EV_RESET = 1 << 4,       /* a RST from the peer was accepted */
	WR_TCP_EV_FAILED = 1 << 5,      /* see wr_tcp_out.fail */
	WR_TCP_EV_TIME_WAIT = 1 << 6,   /* entered TIME_WAIT */
	WR_TCP_EV_ACK_DUE = 1 << 7,     /* wr_tcp_input_batch: an ACK is
					 * due by the end of the caller's
					 * receive burst */
};

/* Why a connection failed. */
enum wr_tcp_fail {
	WR_TCP_FAIL_NONE = 0,
	WR_TCP_FAIL_SYN_TIMEOUT,  /* no answer to our SYN */
	WR_TCP_FAIL_REFUSED,      /* RST in answer to our SYN */
	WR_TCP_FAIL_RESET,        /* RST once synchronized */
	WR_TCP_FAIL_RTX_TIMEOUT,  /* retry bound passed once synchronized */
};

/* What one call asks of its caller. */
struct wr_tcp_out {
	struct wr_tcp_seg segs[WR_TCP_OUT_MAX_SEGS];
	uint32_t nb_segs;
	uint32_t nb_rtx_segs;     /* of segs, retransmissions */
	uint64_t nb_delivered_bytes; /* new bytes delivered in order */
	uint64_t timer_us;        /* expiry of timer (absolute), if armed */
	uint8_t timer;            /* enum wr_tcp_timer_op */
	uint8_t fail;             /* enum wr_tcp_fail */
	uint16_t events;          /* enum wr_tcp_event */
	bool more;                /* out filled up: call wr_tcp_output again */
	bool rto_keep;            /* internal: a running RTO is not restarted */
	bool probe;               /* the call sent a tail loss probe (RFC
				   * 8985 7.3); its resend, if any, is in
				   * nb_rtx_segs */
	/* the caller's: the scoreboard pool of connections whose cfg had
	 * sb_use (kept by every call; read only for those) */
	struct wr_tcp_sb_pool *sb_pool;
	bool ack_batch;           /* internal: wr_tcp_input_batch's call */
};

/* How a connection starts. */
struct wr_tcp_cfg {
	uint32_t iss;             /* initial send sequence (RFC 9293 3.4.1) */
	uint32_t rcv_wnd_bytes;   /* receive window we advertise */
	uint16_t mss_bytes;       /* MSS we announce (our largest segment) */
	uint8_t wscale;           /* our window shift, at most 14 */
	uint8_t no_sack;          /* offer no SACK-permitted (RFC 2018) */
	uint8_t sb_use;           /* SACK recovery (RFC 6675) from the pool
				   * in wr_tcp_out.sb_pool */
	uint64_t app_tx_bytes;    /* bytes the application will send */
};

/*
 * Active open (RFC 9293 3.10.1): from CLOSED to SYN_SENT, a SYN with MSS,
 * window scale and (unless cfg->no_sack) SACK-permitted options in out,
 * the RTO armed. Can't fail.
 */
void wr_tcp_connect(struct wr_tcp_conn *c, const struct wr_tcp_cfg *cfg,
	uint64_t now_us, struct wr_tcp_out *out);

/* Passive open: c becomes a LISTEN template (no output). Can't fail. */
void wr_tcp_listen(struct wr_tcp_conn *c, const struct wr_tcp_cfg *cfg);

/*
 * A listener got a SYN: c (a fresh connection) takes the listener's
 * configuration and the SYN goes through it, to SYN_RCVD and a SYN,ACK
 * in out (or a RST when syn is no SYN). Can't fail.
 */
void wr_tcp_accept(struct wr_tcp_conn *c, const struct wr_tcp_cfg *cfg,
	const struct wr_tcp_seg *syn, uint64_t now_us, struct wr_tcp_out *out);

/*
 * One received segment (RFC 9293 3.10.7): updates c, fills out (ACKs,
 * RSTs, data the window now allows, the timer, events). Can't fail: a
 * bad segment is dropped (and answered as the RFC says).
 */
void wr_tcp_input(struct wr_tcp_conn *c, const struct wr_tcp_seg *seg,
	uint64_t now_us, struct wr_tcp_out *out);

/*
 * wr_tcp_input for a caller that receives in bursts: in-order text past
 * a first unacknowledged segment leaves the ACK delayed and raises
 * WR_TCP_EV_ACK_DUE, for the caller to send one ACK for all the segments
 * of its burst at the burst's end (wr_tcp_ack_due), as a receiver that
 * coalesces segments does, instead of one ACK every second segment.
 */
void wr_tcp_input_batch(struct wr_tcp_conn *c, const struct wr_tcp_seg *seg,
	uint64_t now_us, struct wr_tcp_out *out);

/*
 * Send what is allowed now (RFC 9293 3.10.2/3.10.4, RFC 5681): new data
 * from snd_max within min(cwnd, peer's window), MSS-sized, the FIN after
 * the data once the application closed, a pending ACK. Can't fail.
 */
void wr_tcp_output(struct wr_tcp_conn *c, uint64_t now_us,
	struct wr_tcp_out *out);

/*
 * The end of a receive burst in which a segment raised WR_TCP_EV_ACK_DUE
 * (wr_tcp_out.ack_batch): the ACK still delayed goes now, as in
 * wr_tcp_output (with data the window allows); nothing when no ACK is
 * delayed any more (data carried it) or c is not synchronized. Can't
 * fail.
 */
void wr_tcp_ack_due(struct wr_tcp_conn *c, uint64_t now_us,
	struct wr_tcp_out *out);

/*
 * The application has no more to send beyond app_tx_left_bytes: a FIN
 * follows the data (RFC 9293 3.10.4). Can't fail.
 */
void wr_tcp_close(struct wr_tcp_conn *c, uint64_t now_us,
	struct wr_tcp_out *out);

/*
 * The connection's timer fired at now_us: a tail loss probe (one new
 * segment, or the last one again), RTO (retransmit from snd_una, back
 * off, fail past the bound), persist probe, delayed ACK or the end of
 * TIME_WAIT, whichever the state says. Can't fail.
 */
void wr_tcp_timeout(struct wr_tcp_conn *c, uint64_t now_us,
	struct wr_tcp_out *out);

#endif /* WR_TCP_TCP_H */
