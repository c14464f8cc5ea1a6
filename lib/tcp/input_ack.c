/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A segment's ACK field and text in the synchronized states (RFC 9293
 * 3.10.7.4, its fifth and seventh steps): the send window, RTT samples,
 * congestion control, and the receive side's in-order count and
 * out-of-order ranges (no byte is kept: the payload is synthetic).
 */
#include <string.h>

#include "tcp/rto.h"
#include "tcp/sm.h"

/*
 * RFC 5961 5.2: an ACK below snd_una by more than the largest window the
 * peer may have seen is suspicious. MAX.SND.WND is not kept: the current
 * window, at least 64 KB, stands for it.
 */
static bool
ack_too_old(const struct wr_tcp_conn *c, uint32_t ack)
{
	uint32_t wnd = c->snd_wnd_bytes > UINT16_MAX ? c->snd_wnd_bytes :
		UINT16_MAX;

	return wr_tcp_seq_lt(ack, c->snd_una - wnd);
}

/* An ACK of new data: RTT, congestion control, snd_una (RFC 9293). */
static void
ack_new(struct wr_tcp_conn *c, uint32_t ack, uint64_t now_us,
	struct wr_tcp_out *out)
{
	/* RFC 6298 3: only the timed segment, never a resent one (Karn) */
	if ((c->flags & WR_TCP_F_TIMING) && wr_tcp_seq_gt(ack, c->rtt_seq)) {
		c->flags &= (uint8_t)~WR_TCP_F_TIMING;
		wr_tcp_rto_sample(c, (uint32_t)now_us - c->rtt_start_us);
	}
	/* the peer answers: the retry count starts again */
	c->nb_retries = 0;
	wr_tcp_cc_on_ack(c, ack, out);
	c->snd_una = ack;
	/* nothing left in flight: an idle time may start here (cc.c,
	 * wr_tcp_cc_on_idle); the timed segment was acked, so the field is
	 * free */
	if (ack == c->snd_max)
		c->rtt_start_us = (uint32_t)now_us;
	if (wr_tcp_seq_lt(c->snd_nxt, ack)) {
		/* a go-back reached data the receiver had (cc.c) */
		wr_tcp_cc_on_leap(c, ack - c->snd_nxt);
		c->snd_nxt = ack;
	}
}

/*
 * A duplicate ACK: RFC 5681 2 (same ack, no data, same window, flight);
 * with SACK agreed, also RFC 6675 2's, whatever the window: an ACK of
 * snd_una that SACKs data above it (a Linux receiver grows its window
 * with each out-of-order segment, so its duplicates never repeat one:
 * the window rule alone left every loss of a slow start to the RTO).
 * Not under a zero window: those are answers to persist probes.
 */
static bool
is_dupack(const struct wr_tcp_conn *c, const struct wr_tcp_seg *seg,
	uint32_t wnd)
{
	if (seg->ack != c->snd_una || seg->len_bytes != 0 ||
		(seg->flags & (WR_TCP_SYN | WR_TCP_FIN)) || wnd == 0 ||
		c->snd_una == c->snd_max)
		return false;
	return wnd == c->snd_wnd_bytes ||
		(c->sack_ok && wr_tcp_sacks_past(c, seg, c->snd_una));
}

/*
 * The scoreboard for seg's blocks: the one c holds, or (SACK agreed, not
 * in a NewReno recovery, seg SACKs data above snd_una) one from the pool
 * (sack.h: held from the first such ACK, so that no block is missed).
 */
static struct wr_tcp_sb *
sb_for_blocks(const struct wr_tcp_conn *c, const struct wr_tcp_seg *seg,
	struct wr_tcp_out *out)
{
	struct wr_tcp_sb *sb = wr_tcp_sb_cur(c, out);

	if (sb != NULL || out->sb_pool == NULL || !c->sb_use ||
		!c->sack_ok || (c->flags & WR_TCP_F_IN_RECOVERY) ||
		!wr_tcp_sacks_past(c, seg, c->snd_una))
		return sb;
	return wr_tcp_sb_hold(out->sb_pool,
		wr_tcp_sb_conn_idx(out->sb_pool, c), c->snd_una);
}

/* Outside recovery, a scoreboard with nothing SACKed goes back. */
static void
sb_release(const struct wr_tcp_conn *c, struct wr_tcp_out *out)
{
	const struct wr_tcp_sb *sb = wr_tcp_sb_cur(c, out);

	if (sb != NULL && !(c->flags & WR_TCP_F_IN_RECOVERY) &&
		sb->nb_ranges == 0 && !sb->forgot)
		wr_tcp_sb_give(out->sb_pool,
			wr_tcp_sb_conn_idx(out->sb_pool, c));
}

bool
wr_tcp_input_ack(struct wr_tcp_conn *c, const struct wr_tcp_seg *seg,
	uint64_t now_us, struct wr_tcp_out *out)
{
	uint32_t wnd = (uint32_t)seg->wnd_raw << c->snd_wscale;
	uint32_t una0 = c->snd_una;
	struct wr_tcp_sb *sb;
	bool probed;

	if (wr_tcp_seq_gt(seg->ack, c->snd_max) || ack_too_old(c, seg->ack)) {
		/* RFC 9293 3.10.7.4 fifth (ACK of what was not sent) and
		 * RFC 5961 5.2: ACK and drop */
		c->flags |= WR_TCP_F_ACK_NOW;
		return false;
	}
	/* the blocks into the scoreboard (RFC 6675 5) */
	sb = sb_for_blocks(c, seg, out);
	if (sb != NULL)
		wr_tcp_sb_update(sb, wr_tcp_seq_max(seg->ack, c->snd_una),
			c->snd_max, seg->sack, seg->nb_sack);
	if (wr_tcp_seq_gt(seg->ack, c->snd_una)) {
		probed = c->nb_dupacks >= 2 &&
			!(c->flags & WR_TCP_F_IN_RECOVERY);
		ack_new(c, seg->ack, now_us, out);
		if (probed && c->sack_ok && c->snd_una != c->snd_max &&
			wr_tcp_sacks_past(c, seg, c->snd_una)) {
			/* a probe's answer (output.c), or an ACK after two
			 * duplicates, that acknowledges new data and SACKs
			 * above a hole: the third duplicate */
			c->nb_dupacks = 2;
			wr_tcp_cc_on_dupack(c, seg, out);
		}
	} else if (is_dupack(c, seg, wnd))
		wr_tcp_cc_on_dupack(c, seg, out);
	sb_release(c, out);
	/* the window update test (conn.h: Linux's, without SND.WL2) */
	if (wr_tcp_seq_gt(seg->ack, una0) || wr_tcp_seq_gt(seg->seq, c->snd_wl1) ||
		(seg->seq == c->snd_wl1 && wnd > c->snd_wnd_bytes)) {
		if (c->snd_wnd_bytes == 0 && wnd > 0 &&
			wr_tcp_seq_lt(c->snd_nxt, c->snd_max) &&
			c->snd_max - c->snd_una <= 1)
			c->snd_nxt = c->snd_una;   /* the probe byte goes again */
		c->snd_wnd_bytes = wnd;
		c->snd_wl1 = seg->seq;
	}
	if (c->snd_wnd_bytes == 0)
		c->nb_retries = 0;   /* persist: the peer answers our probes */
	return true;
}

/* Insert [s, e) into the out-of-order ranges, merging; false if full. */
static void
ooo_add(struct wr_tcp_conn *c, uint32_t s, uint32_t e)
{
	struct wr_tcp_range *r = c->ooo;
	int i, j, n = 0;

	for (i = 0; i < WR_TCP_OOO_RANGES && r[i].start != r[i].end; i++)
		n++;
	for (i = 0; i < n; i++) {
		if (wr_tcp_seq_gt(s, r[i].end))
			continue;
		if (wr_tcp_seq_lt(e, r[i].start))
			break;
		/* overlaps or touches range i: merge, then absorb the next */
		if (wr_tcp_seq_lt(s, r[i].start))
			r[i].start = s;
		r[i].end = wr_tcp_seq_max(r[i].end, e);
		while (i + 1 < n && wr_tcp_seq_ge(r[i].end, r[i + 1].start)) {
			r[i].end = wr_tcp_seq_max(r[i].end, r[i + 1].end);
			for (j = i + 1; j + 1 < n; j++)
				r[j] = r[j + 1];
			n--;
			r[n].start = r[n].end = 0;
		}
		return;
	}
	/* a new range at i; when full, the highest one is forgotten (the
	 * peer sends it again: nothing was acknowledged) */
	if (n == WR_TCP_OOO_RANGES) {
		if (i == n)
			return;
		n--;
	}
	for (j = n; j > i; j--)
		r[j] = r[j - 1];
	r[i].start = s;
	r[i].end = e;
}

/* The latest out-of-order segment began at s: the range now holding it
 * is the first SACK block (RFC 2018 4; output.c). */
static void
ooo_mark(struct wr_tcp_conn *c, uint32_t s)
{
	const struct wr_tcp_range *r = c->ooo;
	unsigned int i;

	c->ooo_last = WR_TCP_OOO_RANGES;
	for (i = 0; i < WR_TCP_OOO_RANGES && r[i].start != r[i].end; i++) {
		if (wr_tcp_seq_ge(s, r[i].start) && wr_tcp_seq_lt(s, r[i].end)) {
			c->ooo_last = (uint8_t)(i & 3);
			return;
		}
	}
}

/* rcv_nxt moved: take the ranges it reached; returns the bytes gained. */
static uint32_t
ooo_pull(struct wr_tcp_conn *c)
{
	struct wr_tcp_range *r = c->ooo;
	uint32_t gained = 0;
	unsigned int taken = 0;

	while (r[0].start != r[0].end &&
		wr_tcp_seq_le(r[0].start, c->rcv_nxt)) {
		if (wr_tcp_seq_gt(r[0].end, c->rcv_nxt)) {
			gained += r[0].end - c->rcv_nxt;
			c->rcv_nxt = r[0].end;
		}
		memmove(&r[0], &r[1], sizeof(r[0]) * (WR_TCP_OOO_RANGES - 1));
		r[WR_TCP_OOO_RANGES - 1].start = 0;
		r[WR_TCP_OOO_RANGES - 1].end = 0;
		taken++;
	}
	/* the latest range moved down with the others, or was taken */
	if (c->ooo_last < WR_TCP_OOO_RANGES)
		c->ooo_last = c->ooo_last < taken ? WR_TCP_OOO_RANGES :
			(uint8_t)((c->ooo_last - taken) & 3);
	return gained;
}

/*
 * RFC 9293 3.10.7.4 seventh: the text. In order: counted, rcv_nxt moves
 * and takes what the ranges hold; ACK every second segment (RFC 9293
 * 3.8.6.3, RFC 5681 4.2), at once while our own data is in flight (one
 * timer: conn.h); with out->ack_batch the second segment's ACK is left
 * to the caller's end of burst (WR_TCP_EV_ACK_DUE), one for all of it.
 * Out of order: kept as a range, a duplicate ACK at once (RFC 5681
 * 4.2); so is the ACK of a segment that fills a hole.
 */
void
wr_tcp_input_text(struct wr_tcp_conn *c, const struct wr_tcp_seg *seg,
	struct wr_tcp_out *out)
{
	uint32_t s = seg->seq, e = seg->seq + seg->len_bytes;
	uint32_t wnd_end = c->rcv_nxt + c->rcv_wnd_bytes, got;
	bool had_ooo = c->ooo[0].start != c->ooo[0].end;

	if (seg->len_bytes == 0)
		return;
	if (wr_tcp_seq_gt(e, wnd_end))
		e = wnd_end;    /* trim to the window (RFC 9293 3.10.7.4) */
	if (wr_tcp_seq_gt(s, c->rcv_nxt)) {
		if (wr_tcp_seq_lt(s, e)) {
			ooo_add(c, s, e);
			ooo_mark(c, s);
		}
		c->flags |= WR_TCP_F_ACK_NOW;
		return;
	}
	if (!wr_tcp_seq_gt(e, c->rcv_nxt)) {
		c->flags |= WR_TCP_F_ACK_NOW;   /* all old: a duplicate */
		return;
	}
	got = e - c->rcv_nxt;
	c->rcv_nxt = e;
	got += ooo_pull(c);
	c->nb_rx_delivered_bytes += got;
	out->nb_delivered_bytes += got;
	out->events |= WR_TCP_EV_DELIVERED;
	if (had_ooo || c->snd_una != c->snd_max)
		c->flags |= WR_TCP_F_ACK_NOW;
	else if (!(c->flags & WR_TCP_F_ACK_DELAYED))
		c->flags |= WR_TCP_F_ACK_DELAYED;
	else if (out->ack_batch)
		out->events |= WR_TCP_EV_ACK_DUE;
	else
		c->flags |= WR_TCP_F_ACK_NOW;
}
