/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The sending side of the state machine (tcp.h): segments, the send
 * window, the FIN after the data, and the one timer's decision.
 */
#include <string.h>

#include "tcp/rto.h"
#include "tcp/sm.h"

void
wr_tcp_out_clear(struct wr_tcp_out *out)
{
	out->nb_segs = 0;
	out->nb_rtx_segs = 0;
	out->nb_delivered_bytes = 0;
	out->timer_us = 0;
	out->timer = WR_TCP_TIMER_KEEP;
	out->fail = WR_TCP_FAIL_NONE;
	out->events = 0;
	out->more = false;
	out->rto_keep = false;
	out->probe = false;
	out->ack_batch = false;
}

/* The window field: unscaled in a SYN (RFC 7323 2.2), scaled otherwise. */
static uint16_t
wnd_field(const struct wr_tcp_conn *c, uint8_t flags)
{
	uint32_t w = c->rcv_wnd_bytes;

	if (!(flags & WR_TCP_SYN))
		w >>= c->rcv_wscale;
	return (uint16_t)(w > UINT16_MAX ? UINT16_MAX : w);
}

/*
 * SACK blocks for an ACK (RFC 2018 4): the out-of-order ranges, the one
 * the latest segment went to first, then the others from the lowest.
 * Three ranges and three blocks (28 bytes of options) always fit: we send
 * no timestamps.
 */
static void
sack_fill(const struct wr_tcp_conn *c, struct wr_tcp_seg *s)
{
	const struct wr_tcp_range *r = c->ooo;
	unsigned int i, last = c->ooo_last;

	if (last < WR_TCP_OOO_RANGES && r[last].start != r[last].end) {
		s->sack[0].left = r[last].start;
		s->sack[0].right = r[last].end;
		s->nb_sack = 1;
	}
	for (i = 0; i < WR_TCP_OOO_RANGES && r[i].start != r[i].end; i++) {
		if (i == last)
			continue;
		s->sack[s->nb_sack].left = r[i].start;
		s->sack[s->nb_sack].right = r[i].end;
		s->nb_sack++;
	}
}

bool
wr_tcp_emit(struct wr_tcp_conn *c, struct wr_tcp_out *out, uint32_t seq,
	uint8_t flags, uint32_t len_bytes)
{
	struct wr_tcp_seg *s;

	if (out->nb_segs >= WR_TCP_OUT_MAX_SEGS) {
		out->more = true;
		return false;
	}
	s = &out->segs[out->nb_segs++];
	memset(s, 0, sizeof(*s));
	s->seq = seq;
	s->flags = flags;
	s->len_bytes = len_bytes;
	s->wscale = WR_TCP_WSCALE_NONE;
	if (flags & WR_TCP_ACK) {
		s->ack = c->rcv_nxt;
		c->flags &= (uint8_t)~(WR_TCP_F_ACK_NOW | WR_TCP_F_ACK_DELAYED);
	}
	s->wnd_raw = wnd_field(c, flags);
	if (flags & WR_TCP_SYN) {
		/* RFC 9293 3.7.1 MSS; RFC 7323 2.2: ours in a SYN when we
		 * start, in a SYN,ACK only if the peer's SYN had one */
		s->mss_bytes = c->mss_bytes;
		if (c->state == WR_TCP_SYN_SENT || (c->flags & WR_TCP_F_WSCALE))
			s->wscale = c->rcv_wscale;
		/* RFC 2018 2: offered in a SYN, answered in a SYN,ACK only
		 * to a SYN that offered it (take_syn) */
		s->sack_ok = c->sack_ok;
	} else if ((flags & WR_TCP_ACK) && c->sack_ok && len_bytes == 0) {
		/* blocks on segments without payload only: an MSS-sized
		 * one has no room left for them */
		sack_fill(c, s);
	}
	/* the payload's stream offset: tx_sent_bytes is snd_max's */
	if (len_bytes > 0)
		s->stream_off = c->tx_sent_bytes -
			(uint32_t)(wr_tcp_data_end(c) - seq);
	return true;
}

void
wr_tcp_emit_rst(struct wr_tcp_out *out, uint32_t seq, uint32_t ack,
	uint8_t flags)
{
	struct wr_tcp_seg *s;

	if (out->nb_segs >= WR_TCP_OUT_MAX_SEGS) {
		out->more = true;
		return;
	}
	s = &out->segs[out->nb_segs++];
	memset(s, 0, sizeof(*s));
	s->seq = seq;
	s->ack = ack;
	s->flags = flags;
	s->wscale = WR_TCP_WSCALE_NONE;
}

void
wr_tcp_rtx_first(struct wr_tcp_conn *c, struct wr_tcp_out *out)
{
	uint32_t end = wr_tcp_data_end(c), len = end - c->snd_una;
	uint8_t flags = WR_TCP_ACK;

	if (c->snd_una == c->snd_max)
		return;
	if (len > c->mss_bytes)
		len = c->mss_bytes;
	if ((c->flags & WR_TCP_F_FIN_SENT) && c->snd_una + len == end)
		flags |= WR_TCP_FIN;
	c->flags &= (uint8_t)~WR_TCP_F_TIMING;   /* Karn, RFC 6298 3 */
	if (wr_tcp_emit(c, out, c->snd_una, flags, len))
		out->nb_rtx_segs++;
}

/* Whether the state may send payload or a FIN from snd_nxt. */
static bool
may_send(const struct wr_tcp_conn *c)
{
	switch (c->state) {
	case WR_TCP_ESTABLISHED:
	case WR_TCP_CLOSE_WAIT:
		return true;
	case WR_TCP_FIN_WAIT_1:
	case WR_TCP_CLOSING:
	case WR_TCP_LAST_ACK:
		return wr_tcp_seq_lt(c->snd_nxt, c->snd_max); /* resend only */
	default:
		return false;
	}
}

/*
 * The next segment from snd_nxt: a resend below snd_max (after an RTO,
 * go-back-N) or new data; *fin when it carries the FIN. Returns its
 * payload length.
 */
static uint32_t
next_seg(const struct wr_tcp_conn *c, bool *fin)
{
	uint32_t len;

	if (wr_tcp_seq_lt(c->snd_nxt, c->snd_max)) {
		uint32_t end = wr_tcp_data_end(c);

		len = wr_tcp_seq_lt(c->snd_nxt, end) ? end - c->snd_nxt : 0;
		if (len > c->mss_bytes)
			len = c->mss_bytes;
		*fin = (c->flags & WR_TCP_F_FIN_SENT) &&
			c->snd_nxt + len == end;
		return len;
	}
	len = c->app_tx_left_bytes > c->mss_bytes ? c->mss_bytes :
		(uint32_t)c->app_tx_left_bytes;
	*fin = (c->flags & WR_TCP_F_FIN_QUEUED) &&
		!(c->flags & WR_TCP_F_FIN_SENT) && len == c->app_tx_left_bytes;
	return len;
}

/* Account one segment just sent from snd_nxt. */
static void
sent(struct wr_tcp_conn *c, uint32_t len, bool fin, uint64_t now_us)
{
	bool fresh = !wr_tcp_seq_lt(c->snd_nxt, c->snd_max);

	if (fresh) {
		if (len > 0 && !(c->flags & WR_TCP_F_TIMING)) {
			c->flags |= WR_TCP_F_TIMING;
			c->rtt_seq = c->snd_nxt;
			c->rtt_start_us = (uint32_t)now_us;
		}
		c->app_tx_left_bytes -= len;
		c->tx_sent_bytes += len;
	}
	c->snd_nxt += len + (fin ? 1 : 0);
	c->snd_max = wr_tcp_seq_max(c->snd_max, c->snd_nxt);
	if (fin && fresh) {
		/* RFC 9293 3.10.4: ESTABLISHED -> FIN_WAIT_1,
		 * CLOSE_WAIT -> LAST_ACK */
		c->flags |= WR_TCP_F_FIN_SENT;
		c->state = c->state == WR_TCP_CLOSE_WAIT ? WR_TCP_LAST_ACK :
			WR_TCP_FIN_WAIT_1;
	}
}

/*
 * Limited transmit (RFC 3042 2): the first and second duplicate ACKs each
 * let one new segment go past cwnd (which does not change), so that a
 * small window still gets the three duplicates of fast retransmit.
 */
static uint32_t
limited_transmit_bytes(const struct wr_tcp_conn *c)
{
	if ((c->flags & WR_TCP_F_IN_RECOVERY) || c->nb_dupacks == 0 ||
		c->nb_dupacks > 2)
		return 0;
	return (uint32_t)c->nb_dupacks * c->mss_bytes;
}

/*
 * SACK recovery (RFC 6675 5, step (C)): while cwnd - pipe is at least one
 * SMSS, NextSeg's hole (rule 1) is resent, else new data goes within the
 * peer's window. pipe is worked out once and then counts what leaves.
 */
static void
push_sack(struct wr_tcp_conn *c, struct wr_tcp_sb *sb, uint64_t now_us,
	struct wr_tcp_out *out)
{
	uint32_t mss = c->mss_bytes, end = wr_tcp_data_end(c), seq, len;
	uint32_t pipe;
	bool fin;

	if (wr_tcp_sb_rxt_lost(sb, c->snd_una, mss))
		wr_tcp_sb_round(sb, c->snd_una, c->snd_max);   /* sack.h */
	pipe = wr_tcp_sb_pipe(sb, c->snd_una, c->snd_max, mss);

	while (pipe + mss <= c->cwnd_bytes) {
		if (wr_tcp_sb_next(sb, c->snd_una, mss, &seq, &len)) {
			/* a hole that reaches the FIN (lost_to) resends it */
			fin = (c->flags & WR_TCP_F_FIN_SENT) &&
				wr_tcp_seq_gt(seq + len, end);
			if (fin)
				len = end - seq;
			if (!wr_tcp_emit(c, out, seq, (uint8_t)(WR_TCP_ACK |
				(fin ? WR_TCP_FIN : 0)), len))
				return;
			out->nb_rtx_segs++;
			c->flags &= (uint8_t)~WR_TCP_F_TIMING;   /* Karn */
			wr_tcp_sb_rxt(sb, seq, len + (fin ? 1 : 0),
				c->snd_max);
			pipe += len + (fin ? 1 : 0);
			continue;
		}
		if (!may_send(c) || c->snd_nxt != c->snd_max)
			return;
		len = next_seg(c, &fin);
		if ((len == 0 && !fin) ||
			c->snd_nxt + len - c->snd_una > c->snd_wnd_bytes)
			return;
		if (!wr_tcp_emit(c, out, c->snd_nxt, (uint8_t)(WR_TCP_ACK |
			(fin ? WR_TCP_FIN : 0)), len))
			return;
		sent(c, len, fin, now_us);
		pipe += len + (fin ? 1 : 0);
	}
}

/*
 * Send from snd_nxt within min(cwnd, snd_wnd) (RFC 5681 2, RFC 9293
 * 3.8.6.2.1: a short segment only when it ends the data or nothing is in
 * flight); force_bytes > 0 sends that much past a closed window (the
 * persist probe, RFC 9293 3.8.6.1).
 */
static void
push_window(struct wr_tcp_conn *c, uint64_t now_us, struct wr_tcp_out *out,
	uint32_t force_bytes)
{
	uint32_t cwnd = c->cwnd_bytes + limited_transmit_bytes(c);
	struct wr_tcp_sb *sb = wr_tcp_sb_rec(c, out);

	if (sb != NULL && force_bytes == 0) {
		push_sack(c, sb, now_us, out);
		return;
	}
	if (c->snd_una == c->snd_max) {
		wr_tcp_cc_on_idle(c, now_us);
		cwnd = c->cwnd_bytes + limited_transmit_bytes(c);
	}
	while (may_send(c)) {
		uint32_t wnd = cwnd < c->snd_wnd_bytes ? cwnd : c->snd_wnd_bytes;
		uint32_t used = c->snd_nxt - c->snd_una, usable, len;
		bool fin, rtx = wr_tcp_seq_lt(c->snd_nxt, c->snd_max);

		usable = wnd > used ? wnd - used : 0;
		if (usable < force_bytes)
			usable = force_bytes;
		len = next_seg(c, &fin);
		if (len == 0 && !fin)
			break;
		if (len > usable) {
			if (usable == 0 || used > 0)
				break;
			len = usable;
			fin = false;
		}
		if (!wr_tcp_emit(c, out, c->snd_nxt, (uint8_t)(WR_TCP_ACK |
			(fin ? WR_TCP_FIN : 0)), len))
			break;
		if (rtx) {
			out->nb_rtx_segs++;
			c->flags &= (uint8_t)~WR_TCP_F_TIMING;
		}
		sent(c, len, fin, now_us);
		if (force_bytes > 0)
			break;
	}
}

void
wr_tcp_push(struct wr_tcp_conn *c, uint64_t now_us, struct wr_tcp_out *out)
{
	push_window(c, now_us, out, 0);
	if (c->flags & WR_TCP_F_ACK_NOW)
		wr_tcp_emit(c, out, c->snd_nxt, WR_TCP_ACK, 0);
}

/*
 * Whether what is in flight is the last data with the FIN: its answer is
 * the peer's own FIN as soon as its application reads the end, not an
 * ACK its stack may delay (rto.h).
 */
static bool
data_fin_tail(const struct wr_tcp_conn *c)
{
	return (c->flags & WR_TCP_F_FIN_SENT) && wr_tcp_flight_bytes(c) > 1;
}

/*
 * The tail loss probe's timeout for what is in flight (rto.h), or 0 when
 * no probe may go (RFC 8985 7.2): SACK agreed (the answer to a probe
 * tells what arrived), an RTT measured, no recovery and no RTO backoff
 * under way, a synchronized state.
 */
static uint32_t
pto_us(const struct wr_tcp_conn *c)
{
	uint32_t pto = 2 * c->srtt_us;

	if (!c->sack_ok || c->srtt_us == 0 || c->nb_retries != 0 ||
		(c->flags & WR_TCP_F_IN_RECOVERY) || !wr_tcp_synced(c))
		return 0;
	if (pto < WR_TCP_PTO_MIN_US)
		pto = WR_TCP_PTO_MIN_US;
	if (wr_tcp_flight_bytes(c) <= c->mss_bytes && !data_fin_tail(c))
		pto += WR_TCP_PTO_DELACK_US;
	return pto < c->rto_us ? pto : 0;
}

/* The timer of data in flight: persist under a zero window, else the
 * tail loss probe's when one may go, else the RTO. */
static void
arm_flight_timer(struct wr_tcp_conn *c, uint64_t now_us,
	struct wr_tcp_out *out)
{
	uint32_t pto = pto_us(c);

	c->pto = 0;
	out->timer_us = now_us + c->rto_us;
	if (c->snd_wnd_bytes == 0 && wr_tcp_synced(c)) {
		out->timer = WR_TCP_TIMER_PERSIST;
		return;
	}
	out->timer = WR_TCP_TIMER_RTO;
	if (pto != 0) {
		c->pto = 1;
		out->timer_us = now_us + pto;
	}
}

void
wr_tcp_timer_decide(struct wr_tcp_conn *c, uint64_t now_us,
	struct wr_tcp_out *out, uint32_t una0, bool in_flight0, bool delack0)
{
	bool pending = c->app_tx_left_bytes > 0 ||
		((c->flags & WR_TCP_F_FIN_QUEUED) &&
		!(c->flags & WR_TCP_F_FIN_SENT));

	if (c->state == WR_TCP_CLOSED || c->state == WR_TCP_LISTEN) {
		c->pto = 0;
		out->timer = WR_TCP_TIMER_CANCEL;
		return;
	}
	if (c->state == WR_TCP_TIME_WAIT)
		return;   /* armed on entry (and on a resent FIN) */
	if (c->snd_una != c->snd_max) {
		/* RFC 6298 5.1 (start when data leaves and the timer is
		 * off), 5.3 (restart on an ACK of new data), 5.6; not on
		 * NewReno's later partial ACKs (RFC 6582 4, "Impatient") */
		if (!in_flight0 || (!out->rto_keep &&
			(c->snd_una != una0 || out->nb_rtx_segs > 0)))
			arm_flight_timer(c, now_us, out);
		return;
	}
	c->pto = 0;
	if (c->snd_wnd_bytes == 0 && pending && wr_tcp_synced(c)) {
		out->timer = WR_TCP_TIMER_PERSIST;
		out->timer_us = now_us + c->rto_us;
	} else if (c->flags & WR_TCP_F_ACK_DELAYED) {
		if (!delack0 || in_flight0) {
			out->timer = WR_TCP_TIMER_DELACK;
			out->timer_us = now_us + WR_TCP_DELACK_US;
		}
	} else if (in_flight0 || delack0) {
		out->timer = WR_TCP_TIMER_CANCEL;
	}
}

void
wr_tcp_output(struct wr_tcp_conn *c, uint64_t now_us, struct wr_tcp_out *out)
{
	uint32_t una0 = c->snd_una;
	bool fl0 = c->snd_una != c->snd_max;
	bool da0 = c->flags & WR_TCP_F_ACK_DELAYED;

	wr_tcp_out_clear(out);
	wr_tcp_push(c, now_us, out);
	wr_tcp_timer_decide(c, now_us, out, una0, fl0, da0);
}

void
wr_tcp_ack_due(struct wr_tcp_conn *c, uint64_t now_us, struct wr_tcp_out *out)
{
	if (!(c->flags & WR_TCP_F_ACK_DELAYED) || !wr_tcp_synced(c)) {
		wr_tcp_out_clear(out);
		return;
	}
	c->flags |= WR_TCP_F_ACK_NOW;
	wr_tcp_output(c, now_us, out);
}

void
wr_tcp_close(struct wr_tcp_conn *c, uint64_t now_us, struct wr_tcp_out *out)
{
	if (c->state == WR_TCP_ESTABLISHED || c->state == WR_TCP_CLOSE_WAIT ||
		c->state == WR_TCP_SYN_RCVD || c->state == WR_TCP_SYN_SENT)
		c->flags |= WR_TCP_F_FIN_QUEUED;
	wr_tcp_output(c, now_us, out);
}

void
wr_tcp_to_closed(struct wr_tcp_conn *c, struct wr_tcp_out *out,
	uint16_t events, uint8_t fail)
{
	c->state = WR_TCP_CLOSED;
	c->pto = 0;
	out->events |= (uint16_t)(events | WR_TCP_EV_CLOSED);
	if (fail != WR_TCP_FAIL_NONE) {
		out->events |= WR_TCP_EV_FAILED;
		out->fail = fail;
	}
	out->timer = WR_TCP_TIMER_CANCEL;
}

void
wr_tcp_to_time_wait(struct wr_tcp_conn *c, uint64_t now_us,
	struct wr_tcp_out *out)
{
	c->state = WR_TCP_TIME_WAIT;
	c->pto = 0;
	out->events |= WR_TCP_EV_TIME_WAIT;
	out->timer = WR_TCP_TIMER_TIME_WAIT;
	out->timer_us = now_us + WR_TCP_TIME_WAIT_US;
}

/* RTO past the retry bound: the connection fails (RFC 9293 3.8.3, R2). */
static void
rto_fail(struct wr_tcp_conn *c, struct wr_tcp_out *out)
{
	wr_tcp_to_closed(c, out, 0, c->state == WR_TCP_SYN_SENT ||
		c->state == WR_TCP_SYN_RCVD ? WR_TCP_FAIL_SYN_TIMEOUT :
		WR_TCP_FAIL_RTX_TIMEOUT);
}

/*
 * RFC 6298 5.4-5.6: retransmit from snd_una, back off; RFC 5681 3.1: cwnd
 * to one segment. With a zero window this is the persist probe (RFC 9293
 * 3.8.6.1): one byte past the window, probing on while the peer answers
 * (each answer starts the count again: input_ack.c); probes left
 * unanswered count as retransmissions, and fail at the same bound.
 */
static void
rto_expired(struct wr_tcp_conn *c, uint64_t now_us, struct wr_tcp_out *out)
{
	bool persist = wr_tcp_synced(c) && c->snd_wnd_bytes == 0;

	if (!wr_tcp_rto_backoff(c)) {
		rto_fail(c, out);
		return;
	}
	c->flags &= (uint8_t)~WR_TCP_F_TIMING;   /* Karn, RFC 6298 3 */
	if (c->state == WR_TCP_SYN_SENT || c->state == WR_TCP_SYN_RCVD) {
		uint8_t f = c->state == WR_TCP_SYN_SENT ? WR_TCP_SYN :
			WR_TCP_SYN | WR_TCP_ACK;

		if (wr_tcp_emit(c, out, c->iss, f, 0))
			out->nb_rtx_segs++;
		return;
	}
	if (!persist && c->snd_una != c->snd_max)
		wr_tcp_cc_on_rto(c, out);
	c->snd_nxt = c->snd_una;
	push_window(c, now_us, out, persist ? 1 : 0);
}

/*
 * The tail loss probe (RFC 8985 7.3): one new segment if the peer's
 * window takes it (cwnd aside), else the last segment sent again; then
 * the RTO. Its answer ends the wait without the RTO: an ACK of all, or
 * a duplicate that SACKs the probe, or an ACK of part of the flight that
 * SACKs above a hole (input_ack.c; after two duplicates too), which
 * counts as the third duplicate
 * (RFC 8985 detects the loss by RACK's times there; the probe stands for
 * the duplicates a lost tail never gets) and starts recovery.
 * Simplified: a probe that repaired a loss reduces no cwnd (RFC 8985 7.4
 * would).
 */
static void
tail_probe(struct wr_tcp_conn *c, uint64_t now_us, struct wr_tcp_out *out)
{
	uint32_t end = wr_tcp_data_end(c), len;
	bool fin;

	out->probe = true;
	if (c->nb_dupacks < 2)
		c->nb_dupacks = 2;
	if (c->snd_nxt == c->snd_max && may_send(c)) {
		len = next_seg(c, &fin);
		if ((len > 0 || fin) &&
			c->snd_nxt + len - c->snd_una <= c->snd_wnd_bytes) {
			if (wr_tcp_emit(c, out, c->snd_nxt, (uint8_t)(WR_TCP_ACK |
				(fin ? WR_TCP_FIN : 0)), len))
				sent(c, len, fin, now_us);
			return;
		}
	}
	len = end - c->snd_una < c->mss_bytes ? end - c->snd_una :
		c->mss_bytes;
	fin = c->flags & WR_TCP_F_FIN_SENT;
	c->flags &= (uint8_t)~WR_TCP_F_TIMING;   /* Karn, RFC 6298 3 */
	if (wr_tcp_emit(c, out, end - len, (uint8_t)(WR_TCP_ACK |
		(fin ? WR_TCP_FIN : 0)), len))
		out->nb_rtx_segs++;
}

void
wr_tcp_timeout(struct wr_tcp_conn *c, uint64_t now_us, struct wr_tcp_out *out)
{
	uint32_t una0 = c->snd_una;
	bool pending = c->app_tx_left_bytes > 0 ||
		((c->flags & WR_TCP_F_FIN_QUEUED) &&
		!(c->flags & WR_TCP_F_FIN_SENT));
	bool pto = c->pto;

	wr_tcp_out_clear(out);
	c->pto = 0;
	if (pto && c->snd_una != c->snd_max && wr_tcp_synced(c) &&
		c->state != WR_TCP_TIME_WAIT) {
		tail_probe(c, now_us, out);
		out->timer = WR_TCP_TIMER_RTO;
		out->timer_us = now_us + c->rto_us;
		return;
	}
	switch (c->state) {
	case WR_TCP_CLOSED:
	case WR_TCP_LISTEN:
		return;
	case WR_TCP_TIME_WAIT:
		wr_tcp_to_closed(c, out, 0, WR_TCP_FAIL_NONE);
		return;
	default:
		break;
	}
	if (c->snd_una != c->snd_max) {
		rto_expired(c, now_us, out);
		if (c->state == WR_TCP_CLOSED)
			return;
		out->timer = c->snd_wnd_bytes == 0 && wr_tcp_synced(c) ?
			WR_TCP_TIMER_PERSIST : WR_TCP_TIMER_RTO;
		out->timer_us = now_us + c->rto_us;
		return;
	}
	if (c->snd_wnd_bytes == 0 && pending && wr_tcp_synced(c)) {
		/* the first probe: one new byte (or the FIN) */
		(void)wr_tcp_rto_backoff(c);
		push_window(c, now_us, out, 1);
		out->timer = WR_TCP_TIMER_PERSIST;
		out->timer_us = now_us + c->rto_us;
		return;
	}
	if (c->flags & WR_TCP_F_ACK_DELAYED)
		c->flags |= WR_TCP_F_ACK_NOW;
	wr_tcp_push(c, now_us, out);
	wr_tcp_timer_decide(c, now_us, out, una0, false, false);
}
