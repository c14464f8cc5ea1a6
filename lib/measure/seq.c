/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Rare paths of the sequence tracker (first frame, restarts, frames older
 * than the window) and the read side used by the stats core. The per-packet
 * path is wr_seq_update() in seq.h.
 */
#include <string.h>

#include "seq.h"

void
wr_seq_init(struct wr_seq *s)
{
	memset(s, 0, sizeof(*s));
}

void
wr_seq_init_tag(struct wr_seq *s, uint16_t tag)
{
	memset(s, 0, sizeof(*s));
	s->tagged = true;
	s->tag = tag;
}

bool
wr_seq_other_trial(struct wr_seq *s, uint64_t seq)
{
	unsigned int back;

	if (!s->tagged || wr_seq_tag_of(seq) == s->tag)
		return false;
	back = wr_seq_tag_back(s->tag, wr_seq_tag_of(seq));
	if (back != 0)
		s->nb_prev_pkts[back - 1]++;
	else
		s->nb_stray_pkts++;
	/*
	 * Listed as a stream of the queue (started) without a frame of its
	 * own: steady stays 0, so every frame comes here until one does.
	 */
	if (!s->started) {
		s->started = true;
		s->tag_idle = true;
	}
	return true;
}

void
wr_seq_restart(struct wr_seq *s, uint64_t seq)
{
	if (s->started) {
		s->closed_span_pkts += s->next_seq - s->first_seq;
		s->nb_restarts++;
	}
	memset(s->window, 0, sizeof(s->window));
	s->window[wr_seq_word(seq)] = wr_seq_bit(seq);
	s->first_seq = seq;
	s->next_seq = seq + 1;
	s->nb_rx_pkts++;
	s->started = true;
	s->pending = false;
	s->steady = 1;
}

/* Take back the provisional count of the pending candidate (seq.h). */
static void
candidate_uncount(struct wr_seq *s)
{
	if (s->cand_zero) {
		s->nb_rx_pkts--;
		s->nb_restarts--;
		s->closed_span_pkts--;
		return;
	}
	s->nb_rx_pkts--;
	s->nb_late_pkts--;
	s->nb_old_pkts--;
	s->first_seq = s->cand_first_seq;
}

/*
 * Whether seq, the frame after the pending candidate, continues the
 * candidate's numbering and not the old one: behind the old top and 1 ..
 * WR_SEQ_WINDOW_BITS - 1 after the candidate. After a copy of 0 (inside the
 * window, which the candidate left untouched) it must also be a sequence
 * the old numbering already delivered: a not yet seen one is an ordinary
 * late frame. One more copy of 0 continues a sender numbering every frame
 * 0 (--stamp none).
 */
static bool
candidate_confirmed(const struct wr_seq *s, uint64_t seq)
{
	uint64_t after_cand = seq - s->cand_seq;

	if (seq - s->next_seq < (UINT64_C(1) << 63))
		return false; /* ahead of the old top: the old numbering */
	if (s->cand_zero && seq == 0)
		return true;
	if (after_cand == 0 || after_cand >= WR_SEQ_WINDOW_BITS)
		return false;
	return !s->cand_zero || wr_seq_seen(s, seq);
}

void
wr_seq_update_rare(struct wr_seq *s, uint64_t seq)
{
	if (wr_seq_other_trial(s, seq))
		return;
	if (!s->started || s->tag_idle) {
		s->started = false;
		s->tag_idle = false;
		wr_seq_restart(s, seq);
		return;
	}
	s->pending = false;
	s->steady = 1;
	if (candidate_confirmed(s, seq)) {
		candidate_uncount(s);
		wr_seq_restart(s, s->cand_seq);
	} else if (s->cand_zero) {
		/* The old numbering goes on: that copy of 0 was a duplicate. */
		candidate_uncount(s);
		s->nb_dup_pkts++;
	}
	wr_seq_update(s, seq);
}

/* Whether the current epoch's numbering went past UINT64_MAX back to 0. */
static bool
epoch_wrapped(const struct wr_seq *s)
{
	return s->first_seq > s->next_seq - 1;
}

void
wr_seq_update_far(struct wr_seq *s, uint64_t seq, uint64_t behind)
{
	uint64_t first_seq = s->first_seq;

	if (wr_seq_other_trial(s, seq))
		return;
	if (behind >= WR_SEQ_RESTART_BEHIND_PKTS ||
	    (seq < WR_SEQ_WINDOW_BITS && !epoch_wrapped(s)))
		wr_seq_candidate(s, seq, false, first_seq);
	/*
	 * Too old to be looked up in the window (or a restart candidate, until
	 * the next frame says). Counted as a first copy: a generator's stream
	 * does not duplicate, so this keeps sent == rx + lost exact.
	 */
	s->nb_rx_pkts++;
	s->nb_late_pkts++;
	s->nb_old_pkts++;
	if (behind > s->next_seq - 1 - s->first_seq)
		s->first_seq = seq;
}

uint64_t
wr_seq_gaps(const struct wr_seq *s)
{
	uint64_t span;

	if (!s->started || s->tag_idle)
		return 0;
	span = s->closed_span_pkts + (s->next_seq - s->first_seq);
	return span > s->nb_rx_pkts ? span - s->nb_rx_pkts : 0;
}

int64_t
wr_seq_lost(const struct wr_seq *s, uint64_t nb_sent)
{
	return (int64_t)(nb_sent - s->nb_rx_pkts);
}

/*
 * Keep only the ring bits of a view that stopped at next_seq when the
 * merged view goes up to top_next: sequences next_seq .. top_next - 1 were
 * not seen by it, whatever its ring still holds in their slots.
 */
static void
window_align(uint64_t *window, uint64_t next_seq, uint64_t top_next)
{
	wr_seq_window_clear(window, next_seq, top_next - next_seq);
}

/* Whether modular sequence a comes after b (within half the number space). */
static bool
seq_after(uint64_t a, uint64_t b)
{
	return a != b && a - b < (UINT64_C(1) << 63);
}

void
wr_seq_merge(struct wr_seq *dst, const struct wr_seq *src)
{
	uint64_t win[WR_SEQ_WINDOW_WORDS];
	uint64_t top_next;
	unsigned int i;

	if (!src->started)
		return;
	for (i = 0; i < WR_SEQ_TAG_PREV; i++)
		dst->nb_prev_pkts[i] += src->nb_prev_pkts[i];
	dst->nb_stray_pkts += src->nb_stray_pkts;
	if (src->tag_idle) {
		/* Frames of other trials only: nothing else to join. */
		if (!dst->started) {
			dst->started = true;
			dst->tag_idle = true;
			dst->tagged = src->tagged;
			dst->tag = src->tag;
		}
		return;
	}
	if (!dst->started || dst->tag_idle) {
		uint64_t prev[WR_SEQ_TAG_PREV], stray = dst->nb_stray_pkts;

		memcpy(prev, dst->nb_prev_pkts, sizeof(prev));
		*dst = *src;
		memcpy(dst->nb_prev_pkts, prev, sizeof(prev));
		dst->nb_stray_pkts = stray;
		dst->pending = false;
		dst->steady = 1;
		return;
	}
	/* A merged view is read, not fed by one queue: candidates stand. */
	dst->pending = false;
	dst->steady = 1;
	top_next = seq_after(src->next_seq, dst->next_seq) ?
		src->next_seq : dst->next_seq;
	memcpy(win, src->window, sizeof(win));
	window_align(win, src->next_seq, top_next);
	window_align(dst->window, dst->next_seq, top_next);
	for (i = 0; i < WR_SEQ_WINDOW_WORDS; i++)
		dst->window[i] |= win[i];
	if (seq_after(dst->first_seq, src->first_seq))
		dst->first_seq = src->first_seq;
	dst->next_seq = top_next;
	dst->nb_rx_pkts += src->nb_rx_pkts;
	dst->nb_late_pkts += src->nb_late_pkts;
	dst->nb_dup_pkts += src->nb_dup_pkts;
	dst->nb_old_pkts += src->nb_old_pkts;
	if (src->nb_restarts > dst->nb_restarts)
		dst->nb_restarts = src->nb_restarts;
	if (src->closed_span_pkts > dst->closed_span_pkts)
		dst->closed_span_pkts = src->closed_span_pkts;
}
