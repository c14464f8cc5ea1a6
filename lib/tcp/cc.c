/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Congestion control: slow start and congestion avoidance (RFC 5681 3.1),
 * fast retransmit and NewReno fast recovery (RFC 5681 3.2, RFC 6582 3.2),
 * the collapse to one segment after an RTO (RFC 5681 3.1, equation 4).
 * Limited transmit (RFC 3042) is in output.c.
 *
 * The receiver of a synthetic stream keeps three out-of-order ranges
 * (conn.h), not every byte: after a burst loss of more than three holes
 * it has dropped what followed them, and NewReno would repair it one
 * segment per RTT. Two rules below cope with that: a partial ACK that
 * acknowledges no more than the one segment resent starts a go-back
 * (the receiver holds nothing past the hole: resend from snd_una as
 * after an RTO, without waiting for it); and when an ACK leaps past
 * snd_nxt (a go-back reached data the receiver had), cwnd is cut to a
 * small burst (Linux's tcp_moderate_cwnd), and the duplicates of the
 * resent data still in flight start no false fast retransmit.
 *
 * Congestion avoidance divides once per ACK (acked * SMSS / cwnd, the
 * per-ACK form of RFC 5681 3.1's byte counting): per ACK, not per packet
 * sent, and the only division here.
 */
#include "tcp/sm.h"

/* cwnd never grows past this: 1 GB, the largest window (RFC 7323 2.3). */
#define CC_CWND_MAX_BYTES (1u << 30)
/* Segments one ACK may release past the flight (Linux's tcp_max_burst). */
#define CC_MAX_BURST_SEGS 3u

/* RFC 5681 3.1 equation 4: ssthresh = max(FlightSize / 2, 2 * SMSS). */
static uint32_t
half_flight(const struct wr_tcp_conn *c)
{
	uint32_t half = wr_tcp_flight_bytes(c) / 2, two = 2u * c->mss_bytes;

	return half > two ? half : two;
}

/* RFC 5681 3.1: the initial window, by SMSS (equation 3's table). */
static uint32_t
initial_window(uint32_t mss)
{
	if (mss > 2190)
		return 2 * mss;
	if (mss > 1095)
		return 3 * mss;
	return 4 * mss;
}

void
wr_tcp_cc_init(struct wr_tcp_conn *c)
{
	c->cwnd_bytes = initial_window(c->mss_bytes);
	/* "arbitrarily high": the largest window */
	c->ssthresh_bytes = CC_CWND_MAX_BYTES;
	c->recover = c->iss;
	c->nb_dupacks = 0;
	c->flags &= (uint8_t)~WR_TCP_F_IN_RECOVERY;
}

/*
 * RFC 5681 4.1: a sender that has sent nothing for more than an RTO
 * starts again from at most the restart window, min(IW, cwnd), instead of
 * sending a whole old window at once into queues that have since filled.
 * Called with nothing in flight: the idle time counts from the ACK that
 * left nothing in flight, whose time input_ack.c keeps in rtt_start_us
 * (free while no segment is timed). ssthresh stays: slow start climbs
 * back to it. An idle time over 2^32 us (71 minutes) may read short.
 */
void
wr_tcp_cc_on_idle(struct wr_tcp_conn *c, uint64_t now_us)
{
	uint32_t rw = initial_window(c->mss_bytes);

	if (c->cwnd_bytes > rw && wr_tcp_synced(c) &&
		(uint32_t)now_us - c->rtt_start_us > c->rto_us)
		c->cwnd_bytes = rw;
}

static void
grow(struct wr_tcp_conn *c, uint32_t acked)
{
	uint32_t mss = c->mss_bytes, inc;

	if (c->cwnd_bytes < c->ssthresh_bytes) {
		/* slow start, RFC 5681 3.1 equation 2 */
		inc = acked < mss ? acked : mss;
	} else {
		/* congestion avoidance: RFC 5681 3.1 recommends byte
		 * counting, one SMSS per cwnd of bytes acknowledged; per
		 * ACK that is acked * SMSS / cwnd (equation 3 when acked is
		 * one SMSS), so a delayed ACK of two segments counts two
		 * (RFC 3465 2.1), at most one SMSS per ACK */
		inc = (uint32_t)((uint64_t)acked * mss / c->cwnd_bytes);
		if (inc == 0)
			inc = 1;
		if (inc > mss)
			inc = mss;
	}
	c->cwnd_bytes = c->cwnd_bytes + inc > CC_CWND_MAX_BYTES ?
		CC_CWND_MAX_BYTES : c->cwnd_bytes + inc;
}

/*
 * SACK recovery ends at a full ACK: NextSeg may have resent holes above
 * the recovery point, still in flight. recover moves to snd_max as the
 * latest resend left (RFC 6582 4's rule, for the resends still in
 * flight): the duplicates the receiver sends until they arrive SACK
 * only what was sent before them, and start no second recovery and no
 * second resend of the same hole (wr_tcp_cc_on_dupack).
 */
static void
sb_end_recover(struct wr_tcp_conn *c, const struct wr_tcp_out *out)
{
	const struct wr_tcp_sb *sb = wr_tcp_sb_cur(c, out);

	if (sb != NULL && wr_tcp_seq_gt(sb->rxt_mark, c->recover))
		c->recover = sb->rxt_mark;
}

/* Give the scoreboard back, if c holds one (an RTO: sack.h). */
static void
sb_leave(const struct wr_tcp_conn *c, struct wr_tcp_out *out)
{
	if (c->sb_use && out->sb_pool != NULL)
		wr_tcp_sb_give(out->sb_pool,
			wr_tcp_sb_conn_idx(out->sb_pool, c));
}

/*
 * SACK recovery (RFC 6675 5) on the third duplicate ACK, SACK agreed and
 * a scoreboard free: ssthresh and cwnd to half the flight (no inflation:
 * pipe counts what is in flight), the first segment resent, the holes
 * after it by NextSeg in wr_tcp_push as pipe allows. False (NewReno's
 * recovery then) when no scoreboard is free: the pool counts that.
 */
static bool
sb_enter(struct wr_tcp_conn *c, const struct wr_tcp_seg *seg,
	struct wr_tcp_out *out)
{
	uint32_t len = wr_tcp_data_end(c) - c->snd_una;
	struct wr_tcp_sb *sb;

	if (!c->sack_ok || !c->sb_use || out->sb_pool == NULL)
		return false;
	sb = wr_tcp_sb_take(out->sb_pool,
		wr_tcp_sb_conn_idx(out->sb_pool, c), c->snd_una);
	if (sb == NULL)
		return false;
	wr_tcp_sb_update(sb, c->snd_una, c->snd_max, seg->sack, seg->nb_sack);
	wr_tcp_sb_round(sb, c->snd_una, c->snd_max);
	c->ssthresh_bytes = half_flight(c);
	c->cwnd_bytes = c->ssthresh_bytes;
	c->recover = c->snd_max;
	c->flags |= WR_TCP_F_IN_RECOVERY;
	wr_tcp_rtx_first(c, out);
	wr_tcp_sb_rxt(sb, c->snd_una, len < c->mss_bytes ? len : c->mss_bytes,
		c->snd_max);
	return true;
}

/*
 * A partial ACK that acknowledges no more than the segment resent: the
 * receiver kept nothing past the hole (its ranges were full), so the rest
 * of the window is resent from ack, as after an RTO (RFC 5681 3.1: cwnd
 * to one SMSS, ssthresh kept; RFC 6582 4.1: recover at snd_max, so that
 * the duplicate ACKs of the window sent before start no fast
 * retransmit). NewReno would resend one segment per RTT, or wait for the
 * RTO.
 */
static void
go_back(struct wr_tcp_conn *c, uint32_t ack)
{
	c->snd_una = ack;
	c->snd_nxt = ack;
	c->cwnd_bytes = c->mss_bytes;
	c->recover = c->snd_max;
	c->nb_dupacks = 0;
	c->flags &= (uint8_t)~WR_TCP_F_IN_RECOVERY;
}

/*
 * An ACK of new data; called before snd_una moves to ack. In recovery
 * (RFC 6582 3.2): a full ACK (covering recover) ends it, cwnd to
 * min(ssthresh, FlightSize + SMSS) (step 3, its second option); a partial
 * ACK retransmits the next hole and deflates cwnd by the amount acked,
 * plus one SMSS back if that was at least one SMSS (step 4); a partial
 * ACK of no more than one SMSS goes back (go_back).
 */
void
wr_tcp_cc_on_ack(struct wr_tcp_conn *c, uint32_t ack, struct wr_tcp_out *out)
{
	uint32_t acked = ack - c->snd_una, mss = c->mss_bytes;
	struct wr_tcp_sb *sb;

	if (!(c->flags & WR_TCP_F_IN_RECOVERY)) {
		c->nb_dupacks = 0;
		grow(c, acked);
		return;
	}
	if (wr_tcp_seq_ge(ack, c->recover)) {
		c->nb_dupacks = 0;
		uint32_t flight = c->snd_max - ack + mss;

		c->cwnd_bytes = flight < c->ssthresh_bytes ? flight :
			c->ssthresh_bytes;
		c->flags &= (uint8_t)~WR_TCP_F_IN_RECOVERY;
		sb_end_recover(c, out);   /* input_ack.c gives it back */
		return;
	}
	/* SACK recovery: a partial ACK changes no window; the scoreboard
	 * (input_ack.c) and pipe say what goes next (wr_tcp_push). The
	 * resent segment came back: what left before recovery began and
	 * is not SACKed is lost (sack.h) */
	sb = wr_tcp_sb_rec(c, out);
	if (sb != NULL) {
		wr_tcp_sb_lose_to(sb, c->recover);
		return;
	}
	if (acked <= mss) {
		go_back(c, ack);
		return;
	}
	/* RFC 6582 3.2 step 4 and section 4: the RTO restarts on the first
	 * partial ACK only ("Impatient"), so that a window of many losses
	 * ends in an RTO and slow start rather than one hole per RTT.
	 * nb_dupacks at its largest marks "first partial ACK seen". */
	if (c->nb_dupacks == WR_TCP_DUPACKS_MAX)
		out->rto_keep = true;
	c->nb_dupacks = WR_TCP_DUPACKS_MAX;
	c->snd_una = ack;
	wr_tcp_rtx_first(c, out);
	c->cwnd_bytes = c->cwnd_bytes > acked ? c->cwnd_bytes - acked : 0;
	if (acked >= mss)
		c->cwnd_bytes += mss;
	if (c->cwnd_bytes < mss)
		c->cwnd_bytes = mss;
}

/*
 * A duplicate ACK (RFC 5681 2's definition, checked by the caller). The
 * third starts fast retransmit unless snd_una is still below recover
 * (RFC 6582 3.2 step 2: duplicates of a window an RTO already resent;
 * recover is snd_max, one past the highest sequence sent); further ones
 * inflate cwnd by one SMSS (RFC 5681 3.2 step 4).
 */
void
wr_tcp_cc_on_dupack(struct wr_tcp_conn *c, const struct wr_tcp_seg *seg,
	struct wr_tcp_out *out)
{
	uint32_t mss = c->mss_bytes;

	if (c->nb_dupacks < WR_TCP_DUPACKS_MAX)
		c->nb_dupacks++;
	if (c->flags & WR_TCP_F_IN_RECOVERY) {
		if (wr_tcp_sb_rec(c, out) == NULL)
			c->cwnd_bytes += mss;
		return;
	}
	if (c->nb_dupacks != 3)
		return;
	/* RFC 6582 4: duplicates of what was sent before recover start no
	 * fast retransmit; with a scoreboard, one that SACKs data sent
	 * after it does (what left before that data, a resend included,
	 * is missing) */
	if (wr_tcp_seq_lt(c->snd_una, c->recover) &&
		(wr_tcp_sb_cur(c, out) == NULL ||
		!wr_tcp_sacks_past(c, seg, c->recover)))
		return;
	if (sb_enter(c, seg, out))
		return;
	c->ssthresh_bytes = half_flight(c);
	c->recover = c->snd_max;
	c->flags |= WR_TCP_F_IN_RECOVERY;
	wr_tcp_rtx_first(c, out);
	c->cwnd_bytes = c->ssthresh_bytes + 3 * mss;
}

/*
 * The RTO fired with data in flight: RFC 5681 3.1 equation 4 on the first
 * expiry of a series (later ones keep ssthresh: the flight is then one
 * segment) unless in fast recovery (its ssthresh already halved the
 * flight of this loss, and the dup-ACK inflation since then made the
 * flight no measure of the path: Linux's tcp_enter_loss keeps it too);
 * cwnd to the loss window of one SMSS; recovery ends and recover marks
 * the highest sequence sent, so that duplicate ACKs below it start no
 * false fast retransmit (RFC 6582 3.2 step 2, section 4.1); a SACK
 * scoreboard is given back (RFC 6675 5.1 would keep it: simplified).
 */
void
wr_tcp_cc_on_rto(struct wr_tcp_conn *c, struct wr_tcp_out *out)
{
	sb_leave(c, out);
	if (c->nb_retries <= 1 && !(c->flags & WR_TCP_F_IN_RECOVERY))
		c->ssthresh_bytes = half_flight(c);
	c->cwnd_bytes = c->mss_bytes;
	c->recover = c->snd_max;
	c->nb_dupacks = 0;
	c->flags &= (uint8_t)~WR_TCP_F_IN_RECOVERY;
}

/*
 * The ACK passed snd_nxt by leap_bytes (snd_una and snd_nxt are at it
 * now): a go-back (or an RTO's) reached data the receiver had. A leap of
 * a few segments changes nothing; a larger one would let the whole cwnd
 * leave at once, so cwnd goes to a small burst (Linux's
 * tcp_moderate_cwnd; ssthresh is kept, slow start climbs back). The
 * resent segments still in flight come back as duplicate ACKs of this
 * ack, which must start no fast retransmit (as RFC 6582 4.1 after an
 * RTO): recover just past it.
 */
void
wr_tcp_cc_on_leap(struct wr_tcp_conn *c, uint32_t leap_bytes)
{
	uint32_t lim = CC_MAX_BURST_SEGS * c->mss_bytes;

	if (leap_bytes <= lim)
		return;
	if (c->cwnd_bytes > lim)
		c->cwnd_bytes = lim;
	c->recover = c->snd_una + 1;
	c->nb_dupacks = 0;
}
