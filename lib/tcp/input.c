/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The receiving side of the state machine (tcp.h): opens, and one segment
 * through RFC 9293 3.10.7 in its order (CLOSED, LISTEN, SYN_SENT, then the
 * sequence test, RST, SYN, ACK, text, FIN of the other states), with RFC
 * 5961's checks on RST and SYN.
 */
#include <string.h>

#include "tcp/rto.h"
#include "tcp/sm.h"

/* The fields a connection starts with, active or passive. */
static void
conn_init(struct wr_tcp_conn *c, const struct wr_tcp_cfg *cfg)
{
	memset(c, 0, sizeof(*c));
	c->iss = cfg->iss;
	c->snd_una = cfg->iss;
	c->snd_nxt = cfg->iss;
	c->snd_max = cfg->iss;
	c->rcv_wnd_bytes = cfg->rcv_wnd_bytes;
	c->mss_bytes = cfg->mss_bytes;
	c->rcv_wscale = (uint8_t)(cfg->wscale > WR_TCP_WSCALE_MAX ?
		WR_TCP_WSCALE_MAX : cfg->wscale);
	c->app_tx_left_bytes = cfg->app_tx_bytes;
	/* until the peer's SYN: whether we offer SACK (take_syn) */
	c->sack_ok = cfg->no_sack ? 0 : 1;
	c->sb_use = cfg->sb_use ? 1 : 0;
	c->ooo_last = WR_TCP_OOO_RANGES;
	wr_tcp_rto_init(c);
}

/* Send our SYN (or SYN,ACK) from iss; snd_nxt past it. */
static void
send_syn(struct wr_tcp_conn *c, uint8_t flags, uint64_t now_us,
	struct wr_tcp_out *out)
{
	wr_tcp_emit(c, out, c->iss, flags, 0);
	c->rtt_start_us = (uint32_t)now_us;
	c->snd_nxt = c->iss + 1;
	c->snd_max = c->iss + 1;
}

void
wr_tcp_connect(struct wr_tcp_conn *c, const struct wr_tcp_cfg *cfg,
	uint64_t now_us, struct wr_tcp_out *out)
{
	conn_init(c, cfg);
	wr_tcp_out_clear(out);
	c->state = WR_TCP_SYN_SENT;
	send_syn(c, WR_TCP_SYN, now_us, out);
	out->timer = WR_TCP_TIMER_RTO;
	out->timer_us = now_us + c->rto_us;
}

void
wr_tcp_listen(struct wr_tcp_conn *c, const struct wr_tcp_cfg *cfg)
{
	conn_init(c, cfg);
	c->state = WR_TCP_LISTEN;
	c->flags = WR_TCP_F_PASSIVE;
}

void
wr_tcp_accept(struct wr_tcp_conn *c, const struct wr_tcp_cfg *cfg,
	const struct wr_tcp_seg *syn, uint64_t now_us, struct wr_tcp_out *out)
{
	wr_tcp_listen(c, cfg);
	wr_tcp_input(c, syn, now_us, out);
}

/*
 * The peer's SYN options (RFC 9293 3.7.1, RFC 7323 2.2-2.3): window
 * scaling only when both SYNs carry it, SACK too (RFC 2018 2). The peer's MSS (536 without the
 * option) waits in rtt_seq (nothing is timed before the handshake ends:
 * conn.h) until take_mss: until then mss_bytes is ours, which our SYN,ACK
 * announces (the largest segment we receive, not the peer's).
 */
static void
take_syn(struct wr_tcp_conn *c, const struct wr_tcp_seg *seg)
{
	c->rcv_nxt = seg->seq + 1;
	c->sack_ok = c->sack_ok && seg->sack_ok;
	c->rtt_seq = seg->mss_bytes ? seg->mss_bytes :
		WR_TCP_MSS_DEFAULT_BYTES;
	if (seg->wscale != WR_TCP_WSCALE_NONE) {
		c->flags |= WR_TCP_F_WSCALE;
		c->snd_wscale = (uint8_t)(seg->wscale > WR_TCP_WSCALE_MAX ?
			WR_TCP_WSCALE_MAX : seg->wscale);
	} else {
		c->flags &= (uint8_t)~WR_TCP_F_WSCALE;
		c->snd_wscale = 0;
		c->rcv_wscale = 0;
	}
	/* a SYN's window is never scaled (RFC 7323 2.2) */
	c->snd_wnd_bytes = seg->wnd_raw;
	c->snd_wl1 = seg->seq;
}

/*
 * The handshake ends: the send MSS is the smaller of ours and the peer's
 * (RFC 9293 3.7.1), and the initial window follows from it (RFC 5681 3.1).
 */
static void
take_mss(struct wr_tcp_conn *c)
{
	if (c->rtt_seq < c->mss_bytes)
		c->mss_bytes = (uint16_t)c->rtt_seq;
	wr_tcp_cc_init(c);
}

/* The reply to a segment for no connection (RFC 9293 3.10.7.1). */
static void
reply_rst(const struct wr_tcp_seg *seg, struct wr_tcp_out *out)
{
	uint32_t len = seg->len_bytes + ((seg->flags & WR_TCP_SYN) ? 1 : 0) +
		((seg->flags & WR_TCP_FIN) ? 1 : 0);

	if (seg->flags & WR_TCP_RST)
		return;
	if (seg->flags & WR_TCP_ACK)
		wr_tcp_emit_rst(out, seg->ack, 0, WR_TCP_RST);
	else
		wr_tcp_emit_rst(out, 0, seg->seq + len, WR_TCP_RST | WR_TCP_ACK);
}

/* RFC 9293 3.10.7.2: LISTEN. */
static void
in_listen(struct wr_tcp_conn *c, const struct wr_tcp_seg *seg,
	uint64_t now_us, struct wr_tcp_out *out)
{
	if (seg->flags & WR_TCP_RST)
		return;
	if (seg->flags & WR_TCP_ACK) {
		wr_tcp_emit_rst(out, seg->ack, 0, WR_TCP_RST);
		return;
	}
	if (!(seg->flags & WR_TCP_SYN))
		return;
	take_syn(c, seg);
	wr_tcp_cc_init(c);
	c->state = WR_TCP_SYN_RCVD;
	send_syn(c, WR_TCP_SYN | WR_TCP_ACK, now_us, out);
}

/* RFC 9293 3.10.7.3: SYN_SENT. */
static void
in_syn_sent(struct wr_tcp_conn *c, const struct wr_tcp_seg *seg,
	uint64_t now_us, struct wr_tcp_out *out)
{
	bool has_ack = seg->flags & WR_TCP_ACK;

	if (has_ack && (wr_tcp_seq_le(seg->ack, c->iss) ||
		wr_tcp_seq_gt(seg->ack, c->snd_max))) {
		if (!(seg->flags & WR_TCP_RST))
			wr_tcp_emit_rst(out, seg->ack, 0, WR_TCP_RST);
		return;
	}
	if (seg->flags & WR_TCP_RST) {
		/* acceptable only with an ACK of our SYN (RFC 5961 3.2) */
		if (has_ack)
			wr_tcp_to_closed(c, out, WR_TCP_EV_RESET,
				WR_TCP_FAIL_REFUSED);
		return;
	}
	if (!(seg->flags & WR_TCP_SYN))
		return;
	take_syn(c, seg);
	wr_tcp_cc_init(c);
	if (!has_ack) {
		/* simultaneous open: SYN_RCVD, our SYN again with an ACK */
		c->state = WR_TCP_SYN_RCVD;
		wr_tcp_emit(c, out, c->iss, WR_TCP_SYN | WR_TCP_ACK, 0);
		return;
	}
	/* our SYN was not resent: its time is an RTT sample (Karn) */
	if (c->nb_retries == 0)
		wr_tcp_rto_sample(c, (uint32_t)now_us - c->rtt_start_us);
	c->nb_retries = 0;
	c->snd_una = seg->ack;
	take_mss(c);
	c->state = WR_TCP_ESTABLISHED;
	c->flags |= WR_TCP_F_ACK_NOW;
	out->events |= WR_TCP_EV_ESTABLISHED;
}

/*
 * RFC 9293 3.10.7.4 second, with RFC 5961 3.2: a RST exactly at rcv_nxt
 * resets the connection; one elsewhere in the window gets a challenge
 * ACK. (The caller dropped those outside the window.)
 */
static void
in_rst(struct wr_tcp_conn *c, const struct wr_tcp_seg *seg,
	struct wr_tcp_out *out)
{
	if (seg->seq != c->rcv_nxt) {
		c->flags |= WR_TCP_F_ACK_NOW;
		return;
	}
	switch (c->state) {
	case WR_TCP_SYN_RCVD:
		wr_tcp_to_closed(c, out, WR_TCP_EV_RESET,
			(c->flags & WR_TCP_F_PASSIVE) ? WR_TCP_FAIL_RESET :
			WR_TCP_FAIL_REFUSED);
		break;
	case WR_TCP_ESTABLISHED:
	case WR_TCP_FIN_WAIT_1:
	case WR_TCP_FIN_WAIT_2:
	case WR_TCP_CLOSE_WAIT:
		wr_tcp_to_closed(c, out, WR_TCP_EV_RESET, WR_TCP_FAIL_RESET);
		break;
	default:   /* CLOSING, LAST_ACK, TIME_WAIT: just close */
		wr_tcp_to_closed(c, out, WR_TCP_EV_RESET, WR_TCP_FAIL_NONE);
		break;
	}
}

/* RFC 9293 3.10.7.4 fifth, in SYN_RCVD: the ACK of our SYN. */
static bool
in_syn_rcvd_ack(struct wr_tcp_conn *c, const struct wr_tcp_seg *seg,
	uint64_t now_us, struct wr_tcp_out *out)
{
	if (!wr_tcp_seq_gt(seg->ack, c->snd_una) ||
		wr_tcp_seq_gt(seg->ack, c->snd_max)) {
		wr_tcp_emit_rst(out, seg->ack, 0, WR_TCP_RST);
		return false;
	}
	if (c->nb_retries == 0)   /* Karn: our SYN,ACK left once */
		wr_tcp_rto_sample(c, (uint32_t)now_us - c->rtt_start_us);
	c->nb_retries = 0;
	c->snd_una = seg->ack;
	take_mss(c);
	c->snd_wnd_bytes = (uint32_t)seg->wnd_raw << c->snd_wscale;
	c->snd_wl1 = seg->seq;
	c->state = WR_TCP_ESTABLISHED;
	out->events |= WR_TCP_EV_ESTABLISHED;
	return true;
}

/* Our FIN is acknowledged: FIN_WAIT_1, CLOSING, LAST_ACK move on. */
static void
our_fin_acked(struct wr_tcp_conn *c, uint64_t now_us, struct wr_tcp_out *out)
{
	if (!(c->flags & WR_TCP_F_FIN_SENT) || c->snd_una != c->snd_max)
		return;
	if (c->state == WR_TCP_FIN_WAIT_1)
		c->state = WR_TCP_FIN_WAIT_2;
	else if (c->state == WR_TCP_CLOSING)
		wr_tcp_to_time_wait(c, now_us, out);
	else if (c->state == WR_TCP_LAST_ACK)
		wr_tcp_to_closed(c, out, 0, WR_TCP_FAIL_NONE);
}

/*
 * RFC 9293 3.10.7.4 eighth: the peer's FIN, once in order. Into
 * CLOSE_WAIT from a burst (out->ack_batch), none of our data in flight,
 * its ACK waits for the burst's end as text's does (Linux delays it
 * there too): an application that closes at the peer's FIN sends its
 * own FIN with it, one segment, not two.
 */
static void
in_fin(struct wr_tcp_conn *c, uint64_t now_us, struct wr_tcp_out *out)
{
	c->rcv_nxt++;
	out->events |= WR_TCP_EV_PEER_FIN;
	switch (c->state) {
	case WR_TCP_SYN_RCVD:
	case WR_TCP_ESTABLISHED:
		c->state = WR_TCP_CLOSE_WAIT;
		if (out->ack_batch && !(c->flags & WR_TCP_F_ACK_NOW) &&
			c->snd_una == c->snd_max) {
			c->flags |= WR_TCP_F_ACK_DELAYED;
			out->events |= WR_TCP_EV_ACK_DUE;
			return;
		}
		break;
	case WR_TCP_FIN_WAIT_1:
		if ((c->flags & WR_TCP_F_FIN_SENT) && c->snd_una == c->snd_max)
			wr_tcp_to_time_wait(c, now_us, out);
		else
			c->state = WR_TCP_CLOSING;
		break;
	case WR_TCP_FIN_WAIT_2:
		wr_tcp_to_time_wait(c, now_us, out);
		break;
	default:
		break;
	}
	c->flags |= WR_TCP_F_ACK_NOW;
}

/* A segment outside the window (RFC 9293 3.10.7.4 first): ACK, drop. */
static void
in_unacceptable(struct wr_tcp_conn *c, const struct wr_tcp_seg *seg,
	uint64_t now_us, struct wr_tcp_out *out)
{
	if (seg->flags & WR_TCP_RST)
		return;
	if (c->state == WR_TCP_SYN_RCVD && (seg->flags & WR_TCP_SYN) &&
		!(seg->flags & WR_TCP_ACK) && seg->seq == c->rcv_nxt - 1) {
		/* the peer's SYN again: our SYN,ACK was lost */
		if (wr_tcp_emit(c, out, c->iss, WR_TCP_SYN | WR_TCP_ACK, 0))
			out->nb_rtx_segs++;
		return;
	}
	if (c->state == WR_TCP_TIME_WAIT && (seg->flags & WR_TCP_FIN))
		wr_tcp_to_time_wait(c, now_us, out);   /* restart 2 MSL */
	c->flags |= WR_TCP_F_ACK_NOW;
}

/* RFC 9293 3.10.7.4: SYN_RCVD and the synchronized states. */
static void
in_synced(struct wr_tcp_conn *c, const struct wr_tcp_seg *seg,
	uint64_t now_us, struct wr_tcp_out *out)
{
	uint32_t seglen = seg->len_bytes + ((seg->flags & WR_TCP_SYN) ? 1 : 0) +
		((seg->flags & WR_TCP_FIN) ? 1 : 0);

	if (!wr_tcp_seq_acceptable(seg->seq, seglen, c->rcv_nxt,
		c->rcv_wnd_bytes)) {
		in_unacceptable(c, seg, now_us, out);
		return;
	}
	if (seg->flags & WR_TCP_RST) {
		in_rst(c, seg, out);
		return;
	}
	if (seg->flags & WR_TCP_SYN) {
		/* RFC 5961 4.2: a SYN in the window gets a challenge ACK */
		c->flags |= WR_TCP_F_ACK_NOW;
		return;
	}
	if (!(seg->flags & WR_TCP_ACK))
		return;
	if (c->state == WR_TCP_SYN_RCVD && !in_syn_rcvd_ack(c, seg, now_us, out))
		return;
	if (!wr_tcp_input_ack(c, seg, now_us, out))
		return;
	our_fin_acked(c, now_us, out);
	if (c->state == WR_TCP_CLOSED)
		return;
	if (c->state == WR_TCP_ESTABLISHED || c->state == WR_TCP_FIN_WAIT_1 ||
		c->state == WR_TCP_FIN_WAIT_2)
		wr_tcp_input_text(c, seg, out);
	if (!(seg->flags & WR_TCP_FIN))
		return;
	if (seg->seq + seg->len_bytes == c->rcv_nxt)
		in_fin(c, now_us, out);
	else if (wr_tcp_seq_gt(seg->seq + seg->len_bytes, c->rcv_nxt))
		c->flags |= WR_TCP_F_ACK_NOW;   /* beyond a hole: RFC 5681 4.2 */
}

/*
 * Simultaneous open (RFC 9293 3.5, figure 7): in SYN_RCVD the peer's
 * SYN,ACK repeats its SYN just below rcv_nxt. The SYN is trimmed (the
 * part of a segment before the window, 3.10.7.4) and the ACK processed,
 * so that both ends reach ESTABLISHED on the SYN,ACKs, as the figure.
 */
static void
in_syn_rcvd_synack(struct wr_tcp_conn *c, const struct wr_tcp_seg *seg,
	uint64_t now_us, struct wr_tcp_out *out)
{
	struct wr_tcp_seg t = *seg;

	t.seq++;
	t.flags &= (uint8_t)~WR_TCP_SYN;
	in_synced(c, &t, now_us, out);
}

static __attribute__((always_inline)) inline void
input(struct wr_tcp_conn *c, const struct wr_tcp_seg *seg, uint64_t now_us,
	struct wr_tcp_out *out, bool batch)
{
	uint32_t una0 = c->snd_una;
	bool fl0 = c->snd_una != c->snd_max;
	bool da0 = c->flags & WR_TCP_F_ACK_DELAYED;

	wr_tcp_out_clear(out);
	out->ack_batch = batch;
	switch (c->state) {
	case WR_TCP_CLOSED:
		reply_rst(seg, out);
		return;
	case WR_TCP_LISTEN:
		in_listen(c, seg, now_us, out);
		if (c->state == WR_TCP_SYN_RCVD) {
			out->timer = WR_TCP_TIMER_RTO;
			out->timer_us = now_us + c->rto_us;
		}
		return;
	case WR_TCP_SYN_SENT:
		in_syn_sent(c, seg, now_us, out);
		break;
	case WR_TCP_SYN_RCVD:
		if ((seg->flags & (WR_TCP_SYN | WR_TCP_ACK | WR_TCP_RST)) ==
			(WR_TCP_SYN | WR_TCP_ACK) && seg->seq == c->rcv_nxt - 1)
			in_syn_rcvd_synack(c, seg, now_us, out);
		else
			in_synced(c, seg, now_us, out);
		break;
	default:
		in_synced(c, seg, now_us, out);
		break;
	}
	if (c->state == WR_TCP_CLOSED)
		return;
	wr_tcp_push(c, now_us, out);
	wr_tcp_timer_decide(c, now_us, out, una0, fl0, da0);
}

void
wr_tcp_input(struct wr_tcp_conn *c, const struct wr_tcp_seg *seg,
	uint64_t now_us, struct wr_tcp_out *out)
{
	input(c, seg, now_us, out, false);
}

void
wr_tcp_input_batch(struct wr_tcp_conn *c, const struct wr_tcp_seg *seg,
	uint64_t now_us, struct wr_tcp_out *out)
{
	input(c, seg, now_us, out, true);
}
