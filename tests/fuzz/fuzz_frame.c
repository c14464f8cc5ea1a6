/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The receive path without a NIC: arbitrary bytes as received frames
 * (runts, giants, truncated headers, forged signatures) through
 * wr_frame_classify, and the sequence numbers of the frames it accepts
 * (plus raw and near-window sequences: wrapped, repeated, far behind)
 * through the sequence tracker of lib/measure/seq.h, exactly as a worker feeds it.
 *
 * Input: the whole input is first classified as one frame; then it is read
 * as records [kind, len_lo, len_hi, bytes...]:
 *   kind % 3 == 0  a frame of len bytes (at most WR_FRAME_MAX_SIZE)
 *   kind % 3 == 1  sequence next_seq + (int16_t)len of stream kind / 3 % 4
 *   kind % 3 == 2  sequence from the next 8 bytes, raw (little-endian)
 * Properties: classification reads nothing past the frame and an own frame
 * has consistent lengths; the first UDP header --replay-stamp would stamp
 * (wr_stack_first_udp) lies, with its payload, inside the frame; every update counts the frame as received or
 * duplicate, never both, never neither; a received sequence inside the
 * window reads as seen; merged views add up.
 */
#include "base/frame.h"
#include "config/config.h"
#include "fuzz.h"
#include "measure/seq.h"

#define NB_TRACKERS 4u

struct fuzz_rx {
	struct wr_seq seq[NB_TRACKERS];
	uint64_t nb_updates[NB_TRACKERS];
	uint64_t nb_frames, nb_own, nb_foreign, nb_malformed;
};

/* The first UDP header of len bytes, if any, and its payload are in them. */
static void
first_udp(const uint8_t *data, uint32_t len)
{
	struct wr_stack_udp u;

	if (wr_stack_first_udp(data, len, &u) == 0)
		return;
	FUZZ_CHECK(u.ip_off + 20 <= u.udp_off);
	FUZZ_CHECK((uint64_t)u.udp_off + 8 + u.payload_len <= len);
	FUZZ_CHECK(u.ipv6 == ((data[u.ip_off] >> 4) == 6));
}

/* Classify len bytes in an exact-size heap copy, as the worker does. */
static enum wr_frame_class
classify(const uint8_t *data, uint32_t len, struct wr_frame_rx *fr)
{
	uint8_t *copy = malloc(len ? len : 1);
	enum wr_frame_class c;

	if (copy == NULL)
		abort();
	memcpy(copy, data, len);
	c = wr_frame_classify(copy, len, fr);
	if (c == WR_FRAME_OWN) {
		uint32_t l2 = copy[12] == 0x81 && copy[13] == 0x00 ? 18 : 14;

		FUZZ_CHECK(len >= l2 + 20 + 8 + WR_FRAME_TH_LEN);
		FUZZ_CHECK(((uint32_t)copy[l2 + 2] << 8 | copy[l2 + 3]) == len - l2);
	}
	first_udp(copy, len);
	free(copy);
	FUZZ_CHECK(c == WR_FRAME_OWN || c == WR_FRAME_FOREIGN ||
		c == WR_FRAME_MALFORMED);
	return c;
}

/* One update, checked: received or duplicate, exactly one of them. */
static void
update(struct fuzz_rx *rx, unsigned int t, uint64_t seq)
{
	struct wr_seq *s = &rx->seq[t];
	uint64_t rx0 = s->nb_rx_pkts, dup0 = s->nb_dup_pkts, old0 = s->nb_old_pkts;
	uint64_t late0 = s->nb_late_pkts;

	wr_seq_update(s, seq);
	rx->nb_updates[t]++;
	FUZZ_CHECK((s->nb_rx_pkts - rx0) + (s->nb_dup_pkts - dup0) == 1);
	FUZZ_CHECK(s->nb_rx_pkts + s->nb_dup_pkts == rx->nb_updates[t]);
	/* This frame is late at most once. The update may also settle the
	 * previous frame, a restart candidate counted provisionally (seq.h):
	 * a copy of 0 turned duplicate moves one count from rx to dup, so rx
	 * can stand still while this frame counts late. */
	FUZZ_CHECK(s->nb_late_pkts - late0 <= 1 ||
		(int64_t)(s->nb_late_pkts - late0) < 0);
	FUZZ_CHECK(s->nb_late_pkts <= s->nb_rx_pkts);
	FUZZ_CHECK(s->started && s->next_seq - 1 - seq < (UINT64_C(1) << 63));
	if (s->nb_old_pkts == old0)
		FUZZ_CHECK(wr_seq_seen(s, seq));
	(void)wr_seq_gaps(s);
}

static void
frame_record(struct fuzz_rx *rx, const uint8_t *p, uint32_t len)
{
	struct wr_frame_rx fr;

	rx->nb_frames++;
	switch (classify(p, len, &fr)) {
	case WR_FRAME_OWN:
		rx->nb_own++;
		update(rx, fr.stream_id % NB_TRACKERS, fr.seq);
		break;
	case WR_FRAME_FOREIGN:
		rx->nb_foreign++;
		break;
	default:
		rx->nb_malformed++;
		break;
	}
}

/* Every record of the input; returns bytes used by the record at p. */
static size_t
record(struct fuzz_rx *rx, const uint8_t *p, size_t left)
{
	unsigned int kind = p[0], t = kind / 3 % NB_TRACKERS;
	uint16_t len = left >= 3 ? (uint16_t)(p[1] | p[2] << 8) : 0;
	uint64_t seq = 0;

	if (left < 3)
		return left;
	if (kind % 3 == 0) {
		uint32_t n = len % (WR_FRAME_MAX_SIZE + 1);

		if (n > left - 3)
			n = (uint32_t)(left - 3);
		frame_record(rx, p + 3, n);
		return 3 + n;
	}
	if (kind % 3 == 1) {
		update(rx, t, rx->seq[t].next_seq + (uint64_t)(int64_t)(int16_t)len);
		return 3;
	}
	if (left < 11)
		return left;
	memcpy(&seq, p + 3, sizeof(seq));
	update(rx, t, seq);
	return 11;
}

/* Merged views sum what each tracker received. */
static void
check_merge(const struct fuzz_rx *rx)
{
	struct wr_seq all;
	uint64_t sum = 0, dups = 0;
	unsigned int t;

	wr_seq_init(&all);
	for (t = 0; t < NB_TRACKERS; t++) {
		wr_seq_merge(&all, &rx->seq[t]);
		sum += rx->seq[t].nb_rx_pkts;
		dups += rx->seq[t].nb_dup_pkts;
	}
	FUZZ_CHECK(all.nb_rx_pkts == sum && all.nb_dup_pkts == dups);
	(void)wr_seq_gaps(&all);
	FUZZ_CHECK(wr_seq_lost(&all, sum) == 0);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fuzz_rx rx;
	struct wr_frame_rx fr;
	size_t off = 0;
	unsigned int t;

	if (size > 1 << 16)
		return 0;
	(void)classify(data, (uint32_t)size, &fr);
	memset(&rx, 0, sizeof(rx));
	for (t = 0; t < NB_TRACKERS; t++)
		wr_seq_init(&rx.seq[t]);
	while (off < size)
		off += record(&rx, data + off, size - off);
	FUZZ_CHECK(rx.nb_own + rx.nb_foreign + rx.nb_malformed == rx.nb_frames);
	check_merge(&rx);
	return 0;
}
