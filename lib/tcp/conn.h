/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The per-connection state of the TCP core: compact because the payload is
 * synthetic. A sender keeps no bytes: the byte at stream offset k is a
 * function of (connection, k), so a retransmission regenerates it from the
 * offset. A receiver keeps no bytes either: rcv_nxt and a few out-of-order
 * ranges say what arrived; bytes delivered in order are only counted.
 *
 * What is not here, on purpose: the 4-tuple lives in the lookup table's
 * entry of the same index, the timer links in the timer wheel's array of
 * the same index (wheel.h). One struct is written only by the lcore that
 * owns the connection.
 */
#ifndef WR_TCP_CONN_H
#define WR_TCP_CONN_H

#include <stdint.h>

/* RFC 9293 3.3.2: the connection states. */
enum wr_tcp_state {
	WR_TCP_CLOSED = 0,
	WR_TCP_LISTEN,
	WR_TCP_SYN_SENT,
	WR_TCP_SYN_RCVD,
	WR_TCP_ESTABLISHED,
	WR_TCP_FIN_WAIT_1,
	WR_TCP_FIN_WAIT_2,
	WR_TCP_CLOSE_WAIT,
	WR_TCP_CLOSING,
	WR_TCP_LAST_ACK,
	WR_TCP_TIME_WAIT,
	WR_TCP_NB_STATES
};

/* The duplicate ACK count's largest value (it stays there). */
#define WR_TCP_DUPACKS_MAX 127u

/* Out-of-order ranges a receiver remembers beyond rcv_nxt. */
#define WR_TCP_OOO_RANGES 3

/* One received range [start, end) beyond rcv_nxt, sequence numbers. */
struct wr_tcp_range {
	uint32_t start;
	uint32_t end;
};

/*
 * One connection. Sequence fields follow RFC 9293 3.3.1's names; times are
 * microseconds (the low 32 bits of the caller's clock where a field says
 * so: 71 minutes of range, enough for an RTT sample).
 *
 * Two RFC variables are left out to fit the budget: SND.WL2 (the window
 * update test is Linux's: a newer ACK, a newer SEQ, or the same SEQ and a
 * larger window) and IRS (needed only until the handshake ends: rcv_nxt
 * - 1 is the peer's SYN then). Their room holds tx_sent_bytes, which
 * gives a segment's 64-bit stream offset (a transfer may pass 4 GB).
 */
struct wr_tcp_conn {
	/* send side, RFC 9293 3.3.1 */
	uint32_t iss;
	uint32_t snd_una;
	uint32_t snd_nxt;
	uint32_t snd_max;       /* highest sequence sent + 1 */
	uint32_t snd_wl1;       /* seq of the segment of the last window update */
	uint32_t snd_wnd_bytes; /* peer's window, already scaled */
	/* congestion control, RFC 5681 and RFC 6582 */
	uint32_t cwnd_bytes;
	uint32_t ssthresh_bytes;
	uint32_t recover;       /* snd_max when fast recovery began */
	/* retransmission timer, RFC 6298 */
	uint32_t srtt_us;
	uint32_t rttvar_us;
	uint32_t rto_us;
	uint32_t rtt_seq;       /* the segment being timed (Karn's rule);
				 * before ESTABLISHED, the peer's MSS */
	uint32_t rtt_start_us;  /* low 32 bits of the clock when it left;
				 * with nothing in flight, of the ACK that
				 * left nothing (an idle time, cc.c) */
	/* receive side */
	uint32_t rcv_nxt;
	uint32_t rcv_wnd_bytes; /* what we advertise, before scaling */
	struct wr_tcp_range ooo[WR_TCP_OOO_RANGES];
	/* the application, in stream bytes (payload is synthetic) */
	uint64_t app_tx_left_bytes;   /* still to send after snd_max */
	uint64_t tx_sent_bytes; /* payload bytes up to snd_max: its offset */
	uint64_t nb_rx_delivered_bytes; /* delivered in order */
	uint16_t mss_bytes;     /* effective send MSS */
	uint8_t state;          /* enum wr_tcp_state */
	uint8_t snd_wscale;     /* peer's shift, RFC 7323 2.3 */
	uint8_t rcv_wscale;     /* our shift */
	uint8_t flags;          /* WR_TCP_F_* */
	/* one byte for four fields (flags is full): */
	uint8_t nb_retries : 4; /* RTO expiries in a row (backoff exponent),
				 * at most WR_TCP_RTO_MAX_RETRIES + 1 */
	uint8_t sack_ok : 1;    /* both SYNs carried SACK-permitted */
	uint8_t ooo_last : 2;   /* ooo[] index of the range the latest
				 * out-of-order segment went to (its
				 * SACK block goes first, RFC 2018 4);
				 * WR_TCP_OOO_RANGES: none */
	uint8_t sb_use : 1;     /* may take a SACK scoreboard from the
				 * pool its calls' out names (sack.h) */
	uint8_t nb_dupacks : 7; /* RFC 5681 3.2, at most
				 * WR_TCP_DUPACKS_MAX */
	uint8_t pto : 1;        /* the timer armed is a tail loss probe's
				 * (RFC 8985 7), not the RTO */
	/*
	 * Application state: a few bytes for an incremental parser (the HTTP
	 * status line and Content-Length of a later step), owned by the app.
	 */
	uint8_t app[8];
};

/* Flags of struct wr_tcp_conn.flags. */
enum wr_tcp_conn_flag {
	WR_TCP_F_FIN_QUEUED = 1 << 0, /* the app closed: FIN after the data */
	WR_TCP_F_FIN_SENT = 1 << 1,
	WR_TCP_F_WSCALE = 1 << 2,     /* both sides sent window scale */
	WR_TCP_F_IN_RECOVERY = 1 << 3, /* NewReno fast recovery, RFC 6582 */
	WR_TCP_F_ACK_NOW = 1 << 4,
	WR_TCP_F_ACK_DELAYED = 1 << 5,
	WR_TCP_F_PASSIVE = 1 << 6,    /* opened by a listener */
	WR_TCP_F_TIMING = 1 << 7,     /* rtt_seq is being timed (RFC 6298 3) */
};

/* The budget the struct must fit (tests/unit/test_tcp_seq.c checks it). */
#define WR_TCP_CONN_MAX_BYTES 128

_Static_assert(sizeof(struct wr_tcp_conn) <= WR_TCP_CONN_MAX_BYTES,
	"struct wr_tcp_conn outgrew its 128-byte budget");

#endif /* WR_TCP_CONN_H */
