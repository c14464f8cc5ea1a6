/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Per-stream sequence tracker. Pure: no EAL, no I/O, no allocation.
 *
 * The sender numbers each stream 0, 1, 2, ... contiguously (modulo 2^64).
 * One tracker per (RX queue, stream), written only by the lcore that polls
 * that queue; the stats core reads it between runs or from a snapshot and
 * combines the views of several queues with wr_seq_merge().
 *
 * Classification of one arrival, seq, against the highest sequence seen so
 * far, top = next_seq - 1 (all differences modulo 2^64, so a stream that
 * starts near UINT64_MAX and wraps to 0 is tracked like any other):
 *
 *   ahead:  seq >= next_seq (seq - next_seq < 2^63). In order when
 *           seq == next_seq; otherwise the skipped sequences next_seq ..
 *           seq - 1 become missing (a gap). Counted rx.
 *   late:   top - seq < WR_SEQ_WINDOW_BITS and seq not yet seen: a
 *           reordered frame that fills a gap. Counted rx and late.
 *   dup:    top - seq < WR_SEQ_WINDOW_BITS and seq already seen. Counted
 *           dup only (a second copy of sequence 0 is a restart candidate).
 *   old:    top - seq >= WR_SEQ_WINDOW_BITS: too far behind to tell late
 *           from dup. Since a generator's own stream (almost) never
 *           duplicates, it is counted rx, late and old, so that
 *           sent == rx + lost stays exact when there are no duplicates.
 *   restart candidate: seq is behind top and either
 *           (a) top - seq >= WR_SEQ_RESTART_BEHIND_PKTS (far backwards), or
 *           (b) seq < WR_SEQ_WINDOW_BITS and top - seq >= WR_SEQ_WINDOW_BITS
 *               (back to the start of the numbering, beyond the window),
 *               unless the epoch wrapped past 2^64 (first_seq > top), or
 *           (c) seq == 0 and sequence 0 was already seen (inside window).
 *           A candidate is only a stray frame of the old numbering (a
 *           duplicate of 0, an early frame held back very long) unless the
 *           sender really restarted, and the next frame tells which. The
 *           candidate is counted at once, provisionally: by (c) as a
 *           restart (rx, restarts, and a closed span of 1), by (a) and (b)
 *           as an old frame; the tracker remembers it (pending). The next
 *           frame confirms a restart when it continues the candidate's
 *           numbering but not the old one: it is behind the old top and
 *           1 .. WR_SEQ_WINDOW_BITS - 1 after the candidate (after (c), a
 *           sequence already seen, not a late frame the old numbering is
 *           still delivering), or, after (c), one more copy of 0 (a sender
 *           numbering every frame 0, --stamp none). Then the provisional count is undone and a new
 *           epoch starts at the candidate: the window is cleared,
 *           first_seq and next_seq restart from it, nb_restarts counts it,
 *           it is counted rx; all nb_ counters stay cumulative and the
 *           span of the closed epoch is kept in closed_span_pkts so
 *           wr_seq_gaps() still adds up. Otherwise the old numbering goes
 *           on: a (c) candidate becomes a dup, an (a) or (b) one stays
 *           old. With no frame after it, the provisional count stands.
 *           The very first frame starts epoch 0 and is no restart.
 *
 * A jump of 2^63 or more ahead cannot be told from one behind and is
 * handled as behind (a restart by rule (a)). A frame with a sequence before
 * first_seq that is not a restart (the first frames were reordered) lowers
 * first_seq, so first_seq is the lowest sequence received in the epoch.
 *
 * What the rules cost, on purpose: a copy older than the window counts as
 * a unique frame (nb_rx_pkts one too high); a duplicate of 0 that is the
 * stream's last frame reads as a restart, and a restart by (a) or (b)
 * after which no frame follows as an old frame; a restart by (c) whose
 * next frame the old numbering had lost (not seen) reads as a duplicate
 * of 0 then late frames and duplicates; a restart to a
 * base above WR_SEQ_WINDOW_BITS less than
 * WR_SEQ_RESTART_BEHIND_PKTS back goes unseen (its frames count as old,
 * then up to a window of them as dup). wr_seq_lost() stays exact under the
 * second; wr_seq_gaps() does not. Reset trackers (wr_seq_init) between
 * trials rather than rely on restart detection.
 *
 * Window: window[] is a ring bitmap (RFC 6479 style) rather than a shift
 * register, so an in-order update sets one bit and a jump ahead of k
 * sequences clears min(k, WR_SEQ_WINDOW_BITS) bits a word at a time, never
 * looping over the jump length. Bit (seq % WR_SEQ_WINDOW_BITS) of the ring
 * says whether seq was seen, and is meaningful for the WR_SEQ_WINDOW_BITS
 * sequences next_seq - WR_SEQ_WINDOW_BITS .. next_seq - 1 only.
 */
#ifndef WR_SEQ_H
#define WR_SEQ_H

#include <stdbool.h>
#include <stdint.h>

/* Duplicate-detection window, in sequences; a power of two, multiple of 64. */
#define WR_SEQ_WINDOW_BITS 1024
#define WR_SEQ_WINDOW_WORDS (WR_SEQ_WINDOW_BITS / 64)
_Static_assert(WR_SEQ_WINDOW_BITS >= 64 &&
	(WR_SEQ_WINDOW_BITS & (WR_SEQ_WINDOW_BITS - 1)) == 0,
	"the window ring is indexed with masks");
/*
 * A frame this many sequences or more behind the highest one seen is taken
 * as a restart of the stream, not a late frame: 2^24 frames is over a
 * second of traffic at 14.88 Mpps, far more than any buffer can hold back.
 */
#define WR_SEQ_RESTART_BEHIND_PKTS (UINT64_C(1) << 24)

/*
 * Trial tags (two-ended runs, docs/twoended.md): a sender whose far end
 * counts for it numbers trial k's frames (k << WR_SEQ_TAG_SHIFT) + n, n
 * from 0: 16 bits of trial id (modulo 2^16), 48 of sequence (2^48 frames
 * is over 200 days at 14.88 Mpps). A tracker given a tag (wr_seq_init_tag)
 * counts only its trial's frames as its own; a frame of the
 * WR_SEQ_TAG_PREV trials before it is counted in nb_prev_pkts (a late frame
 * of that trial), anything else tagged otherwise in nb_stray_pkts. Such
 * frames always reach the out-of-line paths (they are 2^48 or more behind
 * the top, or the tracker has no frame of its own yet) or the gap branch
 * (a later trial's frame is 2^48 or more ahead): a frame in order costs
 * what it did.
 */
#define WR_SEQ_TAG_SHIFT 48
#define WR_SEQ_TAG_PREV 3
#define WR_SEQ_TAG_MASK ((UINT64_C(1) << WR_SEQ_TAG_SHIFT) - 1)

/* The sequence number n of trial tag. This function can't fail. */
static inline uint64_t
wr_seq_make(uint16_t tag, uint64_t n)
{
	return ((uint64_t)tag << WR_SEQ_TAG_SHIFT) | (n & WR_SEQ_TAG_MASK);
}

/* The trial tag a sequence number carries. This function can't fail. */
static inline uint16_t
wr_seq_tag_of(uint64_t seq)
{
	return (uint16_t)(seq >> WR_SEQ_TAG_SHIFT);
}

/*
 * How many trials before tag a frame tagged seq_tag is: 1 for the trial
 * just before, up to WR_SEQ_TAG_PREV; 0 for its own trial or one outside
 * that reach (modulo 2^16). This function can't fail.
 */
static inline unsigned int
wr_seq_tag_back(uint16_t tag, uint16_t seq_tag)
{
	uint16_t d = (uint16_t)(tag - seq_tag);

	return d <= WR_SEQ_TAG_PREV ? d : 0;
}

/*
 * State of one stream as seen by one RX queue. Written only by the owning
 * lcore (wr_seq_update), read by the stats core. Counters are cumulative
 * over all epochs.
 */
struct wr_seq {
	/* Highest sequence seen + 1 (valid when started). */
	uint64_t next_seq;
	/* Lowest sequence seen in the current epoch. */
	uint64_t first_seq;
	/* Unique frames (first copy of each sequence), old ones included. */
	uint64_t nb_rx_pkts;
	/* Unique frames that arrived after a higher one (reordered). */
	uint64_t nb_late_pkts;
	/* Further copies of a sequence already seen (inside the window). */
	uint64_t nb_dup_pkts;
	/* Arrived further behind than the window: late vs dup untold. */
	uint64_t nb_old_pkts;
	/* Stream restarts detected (new epochs after the first). */
	uint64_t nb_restarts;
	/* Sum of next_seq - first_seq of the epochs closed by restarts. */
	uint64_t closed_span_pkts;
	/* A frame was seen since wr_seq_init(). */
	bool started;
	/* A restart candidate (cand_seq) awaits the next frame. */
	bool pending;
	/* started && !pending: the one flag the per-packet path tests. Zero
	 * (like a zeroed tracker) sends a frame to wr_seq_update_rare(). */
	uint8_t steady;
	/* The candidate is a copy of 0 (rule (c)), counted as a restart;
	 * else counted rx, late and old. */
	bool cand_zero;
	/* The candidate's sequence, and first_seq before it was counted. */
	uint64_t cand_seq;
	uint64_t cand_first_seq;
	/* Ring: bit seq % WR_SEQ_WINDOW_BITS set when seq was seen. */
	uint64_t window[WR_SEQ_WINDOW_WORDS];
	/* Trial tags (wr_seq_init_tag): counts only frames tagged tag. */
	bool tagged;
	/* Started by frames of other trials only: no frame of its own yet
	 * (next_seq, first_seq unset; steady stays 0). */
	bool tag_idle;
	uint16_t tag;
	/* nb_prev_pkts[i]: frames of trial tag - 1 - i (late ones). */
	uint64_t nb_prev_pkts[WR_SEQ_TAG_PREV];
	/* Tagged with none of tag .. tag - WR_SEQ_TAG_PREV. */
	uint64_t nb_stray_pkts;
};

/* Reset s to "nothing seen". This function can't fail. */
void wr_seq_init(struct wr_seq *s);

/*
 * Reset s to "nothing seen" for trial tag: from now on only frames tagged
 * tag are its own (see WR_SEQ_TAG_SHIFT). This function can't fail.
 */
void wr_seq_init_tag(struct wr_seq *s, uint16_t tag);

/*
 * A frame of another trial than s's own (out-of-line paths of
 * wr_seq_update): counted as a previous trial's or stray. Returns true when seq is such a
 * frame (then counted), false when it is s's own or s is not tagged.
 */
bool wr_seq_other_trial(struct wr_seq *s, uint64_t seq);

/*
 * Start a new epoch at seq: clear the window, count seq as received and,
 * when s was already started, count a restart; a pending candidate is
 * dropped (its provisional count stands). Called by wr_seq_update();
 * callers may also use it to force a new epoch. This function can't fail.
 */
void wr_seq_restart(struct wr_seq *s, uint64_t seq);

/*
 * Out-of-line part of wr_seq_update() for a frame at least
 * WR_SEQ_WINDOW_BITS behind the top: either a restart candidate or an old
 * frame. behind is next_seq - 1 - seq (modulo 2^64). This function can't
 * fail.
 */
void wr_seq_update_far(struct wr_seq *s, uint64_t seq, uint64_t behind);

/*
 * Out-of-line part of wr_seq_update() for the rare states: the first frame
 * since wr_seq_init(), or a restart candidate pending (confirmed or
 * dismissed by seq, which is then accounted). This function can't fail.
 */
void wr_seq_update_rare(struct wr_seq *s, uint64_t seq);

/*
 * Remember seq as a restart candidate already counted as a restart (zero
 * true: a copy of 0) or as an old frame whose count left first_seq at
 * first_seq_before. This function can't fail.
 */
static inline void
wr_seq_candidate(struct wr_seq *s, uint64_t seq, bool zero,
		uint64_t first_seq_before)
{
	s->pending = true;
	s->steady = 0;
	s->cand_zero = zero;
	s->cand_seq = seq;
	s->cand_first_seq = first_seq_before;
}

/* Word index and bit mask of sequence seq in the window ring. */
static inline unsigned int
wr_seq_word(uint64_t seq)
{
	return (unsigned int)(seq >> 6) & (WR_SEQ_WINDOW_WORDS - 1);
}

static inline uint64_t
wr_seq_bit(uint64_t seq)
{
	return UINT64_C(1) << (seq & 63);
}

/*
 * Clear the ring bits of the nb sequences from, from + 1, ... (all of them
 * when nb >= WR_SEQ_WINDOW_BITS). At most WR_SEQ_WINDOW_WORDS + 1 word
 * operations whatever nb is.
 */
static inline void
wr_seq_window_clear(uint64_t *window, uint64_t from, uint64_t nb)
{
	unsigned int i, pos, n;
	uint64_t mask;

	if (nb >= WR_SEQ_WINDOW_BITS)
		nb = WR_SEQ_WINDOW_BITS;
	pos = (unsigned int)from & (WR_SEQ_WINDOW_BITS - 1);
	while (nb > 0) {
		i = pos & 63;
		n = 64 - i;
		if (n > nb)
			n = (unsigned int)nb;
		mask = n == 64 ? UINT64_MAX : ((UINT64_C(1) << n) - 1) << i;
		window[pos >> 6] &= ~mask;
		pos = (pos + n) & (WR_SEQ_WINDOW_BITS - 1);
		nb -= n;
	}
}

/*
 * Whether seq was seen, for seq inside the window (at most
 * WR_SEQ_WINDOW_BITS - 1 behind the top); false outside it or before the
 * first frame. Meant for tests and diagnostics.
 */
static inline bool
wr_seq_seen(const struct wr_seq *s, uint64_t seq)
{
	if (!s->started || s->next_seq - 1 - seq >= WR_SEQ_WINDOW_BITS)
		return false;
	return (s->window[wr_seq_word(seq)] & wr_seq_bit(seq)) != 0;
}

/* Frame seq inside the window and behind the top: late, dup or restart. */
static inline void
wr_seq_update_behind(struct wr_seq *s, uint64_t seq, uint64_t behind)
{
	uint64_t *w = &s->window[wr_seq_word(seq)];
	uint64_t bit = wr_seq_bit(seq);

	if (*w & bit) {
		if (seq == 0) {
			/* Provisionally a restart to the one-frame epoch {0}. */
			s->nb_rx_pkts++;
			s->nb_restarts++;
			s->closed_span_pkts++;
			wr_seq_candidate(s, seq, true, s->first_seq);
			return;
		}
		s->nb_dup_pkts++;
		return;
	}
	*w |= bit;
	s->nb_rx_pkts++;
	s->nb_late_pkts++;
	/* Before first_seq: the first frames of the epoch came reordered. */
	if (behind > s->next_seq - 1 - s->first_seq)
		s->first_seq = seq;
}

/*
 * Account one received frame carrying sequence seq. Called per packet by
 * the lcore owning s: no division, no allocation, one bit set in order.
 * This function can't fail.
 */
static inline void
wr_seq_update(struct wr_seq *s, uint64_t seq)
{
	uint64_t ahead = seq - s->next_seq;
	uint64_t behind = ~ahead; /* next_seq - 1 - seq, modulo 2^64 */

	if (__builtin_expect(!s->steady, 0)) {
		wr_seq_update_rare(s, seq);
		return;
	}
	if (__builtin_expect(ahead < (UINT64_C(1) << 63), 1)) {
		if (ahead != 0) {
			/* A gap: rare, and where a later trial's frame lands. */
			if (__builtin_expect(s->tagged, 0) && wr_seq_other_trial(s, seq))
				return;
			wr_seq_window_clear(s->window, s->next_seq, ahead);
		}
		s->window[wr_seq_word(seq)] |= wr_seq_bit(seq);
		s->next_seq = seq + 1;
		s->nb_rx_pkts++;
		return;
	}
	if (behind < WR_SEQ_WINDOW_BITS)
		wr_seq_update_behind(s, seq, behind);
	else
		wr_seq_update_far(s, seq, behind);
}

/*
 * Account nb frames carrying first, first + 1, ..., first + nb - 1 that
 * arrived in that order, with first == s->next_seq and s->steady set: the
 * state nb calls of wr_seq_update() would leave (each frame in order sets
 * its bit and moves the top), in at most WR_SEQ_WINDOW_WORDS + 1 word
 * operations. For a caller that saw the frames one by one (the RX loop's
 * run of one stream). This function can't fail.
 */
static inline void
wr_seq_update_run(struct wr_seq *s, uint64_t first, uint64_t nb)
{
	unsigned int i, pos, n;
	uint64_t left = nb < WR_SEQ_WINDOW_BITS ? nb : WR_SEQ_WINDOW_BITS;

	pos = (unsigned int)first & (WR_SEQ_WINDOW_BITS - 1);
	while (left > 0) {
		i = pos & 63;
		n = 64 - i;
		if (n > left)
			n = (unsigned int)left;
		s->window[pos >> 6] |= n == 64 ? UINT64_MAX :
			((UINT64_C(1) << n) - 1) << i;
		pos = (pos + n) & (WR_SEQ_WINDOW_BITS - 1);
		left -= n;
	}
	s->next_seq = first + nb;
	s->nb_rx_pkts += nb;
}

/*
 * Sequences between first_seq and next_seq - 1 (summed over epochs) not
 * (yet) received: the loss provable from sequence numbers alone, without
 * tail loss. Late frames still on their way reduce it when they arrive.
 * Returns 0 when nothing was seen; also clamps at 0 in the one case where
 * the count could go negative (duplicates older than the window, which are
 * counted as received).
 */
uint64_t wr_seq_gaps(const struct wr_seq *s);

/*
 * Frames lost when the sender's count is known: the sender numbered the
 * stream 0 .. nb_sent - 1 (over all epochs, nb_sent frames in total).
 * Returns nb_sent - nb_rx_pkts, tail loss included. Negative means more
 * unique frames were counted than sent (duplicates older than the window,
 * or frames of another sender using the same stream id).
 */
int64_t wr_seq_lost(const struct wr_seq *s, uint64_t nb_sent);

/*
 * Combine into dst the view src has of the same stream on another RX queue
 * (RSS spreading one stream over several queues). Counters are summed,
 * first_seq is the lower, next_seq the higher (modulo 2^64), and the windows
 * are joined so that a merged view can keep being updated.
 *
 * Exact: nb_rx_pkts, wr_seq_lost() and, without restarts, wr_seq_gaps() —
 * provided no sequence reached two queues (a cross-queue duplicate is
 * counted received twice, never as dup).
 * Not exact: nb_late_pkts only counts reordering seen within one queue;
 * frames reordered across queues are invisible once split, and a frame may
 * be late on its queue yet in order overall. After restarts the closed
 * spans of the views overlap, so closed_span_pkts and nb_restarts take the
 * larger of the two and wr_seq_gaps() is an estimate.
 * This function can't fail; src is not modified.
 */
void wr_seq_merge(struct wr_seq *dst, const struct wr_seq *src);

#endif /* WR_SEQ_H */
