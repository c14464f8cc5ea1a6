/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The retransmission timer's arithmetic, RFC 6298: SRTT, RTTVAR and RTO
 * from RTT samples, exponential backoff and the retry bound. Pure, in
 * microseconds, on the fields of struct wr_tcp_conn. Karn's rule (RFC 6298
 * 3) is the caller's: it takes no sample from a retransmitted segment.
 */
#ifndef WR_TCP_RTO_H
#define WR_TCP_RTO_H

#include <stdbool.h>
#include <stdint.h>

#include "tcp/conn.h"

/* RFC 6298 2.1: the RTO before any sample. */
#define WR_TCP_RTO_INIT_US 1000000u
/*
 * The lower bound. RFC 6298 2.4 says 1 s "SHOULD"; like Linux (200 ms) we
 * take less, because a test bed's RTT is microseconds and 1 s would make
 * every loss a second-long stall.
 */
#define WR_TCP_RTO_MIN_US 200000u
/*
 * The tail loss probe's timeout (RFC 8985 7.2): 2 SRTT, at least
 * WR_TCP_PTO_MIN_US (the engines' timer wheel ticks about every
 * millisecond, and a worker answers in bursts), plus the worst delayed
 * ACK (WCDelAckT) when one segment is in flight, and never later than
 * the RTO. Not added for the last data with the FIN (a bulk sender's
 * tail): the peer answers it with its own FIN once its application reads
 * the end, and a lost tail would otherwise wait for the RTO. An answer
 * later than the probe costs that segment once more (counted as a
 * probe's resend).
 */
#define WR_TCP_PTO_MIN_US 2000u
#define WR_TCP_PTO_DELACK_US 200000u

/* RFC 6298 2.5: an upper bound of at least 60 s. */
#define WR_TCP_RTO_MAX_US 60000000u
/* RFC 6298 2: the clock granularity G, a microsecond here. */
#define WR_TCP_RTO_G_US 1u
/*
 * RTO expiries in a row after which the connection fails: RFC 9293
 * 3.8.3's R2, as a count of retransmissions.
 */
#define WR_TCP_RTO_MAX_RETRIES 8u
_Static_assert(WR_TCP_RTO_MAX_RETRIES + 1 < 16,
	"nb_retries is a 4-bit field of struct wr_tcp_conn");

/* RFC 6298 2.1: a connection's timer before any sample. Can't fail. */
void wr_tcp_rto_init(struct wr_tcp_conn *c);

/*
 * Take one RTT sample of rtt_us (RFC 6298 2.2 for the first, 2.3 after),
 * and set rto_us from it, bounded by WR_TCP_RTO_MIN_US and _MAX_US
 * (2.4, 2.5). An ACK of new data after a backoff keeps the new RTO (5.7):
 * nb_retries goes back to 0. Can't fail.
 */
void wr_tcp_rto_sample(struct wr_tcp_conn *c, uint32_t rtt_us);

/*
 * The timer expired (RFC 6298 5.5): double rto_us up to the maximum and
 * count the retry. Returns false once WR_TCP_RTO_MAX_RETRIES expiries in
 * a row have passed: the connection then fails (its class: a SYN timeout
 * in SYN_SENT, a retransmission timeout otherwise).
 */
bool wr_tcp_rto_backoff(struct wr_tcp_conn *c);

#endif /* WR_TCP_RTO_H */
