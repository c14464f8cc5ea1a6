/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What TX changes per frame beyond the test header, prepared once per queue
 * so the per-frame work stays a few stores: the size of each frame of a mix
 * (mix.h), the UDP checksum IPv6 requires on every frame, and the header
 * fields of field ranges (txflow.h). Pure: no EAL;
 * the TX burst loops (txstamp.h, worker_tx.h) call the per-frame helpers below.
 *
 * The TX pool's mbufs hold the template of the mix's largest size. A frame
 * of another size only differs in its length and in three 16-bit fields
 * (frame.h WR_FRAME_NB_VAR), because the payload pattern is written by
 * offset; the table holds those per size. Inside a header stack (a mix
 * with --stack) the outer layers' lengths and checksums change with the
 * size too: those words, found by comparing each size's template with the
 * largest's, are written per frame out of line (ext_off, ext_val).
 *
 * The IPv6 UDP checksum is updated incrementally (RFC 1624 eqn 3): from the
 * template's checksum (seq, timestamp 0, first source port) adding the
 * one's complement words of the fields stamped since. The sum is taken in
 * host order over words as they lie in memory, which gives the checksum as
 * stored (RFC 1071 section 2(B)). The seq and timestamp fields start at
 * even offsets from the UDP header, so their bytes pair up as the checksum
 * pairs them. Software on every frame, not the PMD's offload: one code path
 * on every vNIC, and the frame on the wire is checked in tests.
 */
#ifndef WR_TXVAR_H
#define WR_TXVAR_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "base/frame.h"
#include "config/mix.h"
#include "txflow.h"

/*
 * Most 16-bit words beyond var_off that a stacked mix changes per size:
 * each layer has at most two (IPv4 length and checksum, UDP length and
 * checksum, IPv6 length).
 */
#define WR_TXVAR_MAX_EXT (2u * WR_STACK_MAX_LAYERS)

/*
 * The fields of one frame of a mix's sequence (its size's), as stored in
 * the frame: 8 bytes, one load per frame. For IPv6 the last is the UDP
 * checksum of the size's template, the base of the per-frame update.
 */
struct wr_txvar_slot {
	uint16_t data_len;                  /* bytes in the mbuf */
	uint16_t var_val[WR_FRAME_NB_VAR];  /* frame.h: lengths, checksum */
};

/* One TX queue's per-frame variation; read-only once built. */
struct wr_txvar {
	bool mix;                 /* sizes vary: seq[] picks each frame's */
	bool csum6;               /* IPv6: UDP checksum per frame */
	uint16_t ck_base;         /* fixed size: the template's UDP checksum */
	uint16_t sport_base_be;   /* template's source port, as stored */
	uint32_t th_off;
	uint32_t udp_ck_off;
	uint32_t sport_off;
	uint16_t var_off[WR_FRAME_NB_VAR];
	unsigned int seq_len;
	unsigned int nb_ext;      /* a mix inside a stack: ext_off[] below; 0: none */
	/* Field ranges: the flows' rows (txflow.h), NULL: none. The q->flow
	 * position walks them (--flows is folded into the ranges). */
	const struct wr_txflows *flows;
	/* Frame k of the mix's cycle, its size's fields resolved when built
	 * (not size[seq[k]]: one dependent load less per frame). */
	struct wr_txvar_slot slot[WR_MIX_MAX_SEQ];
	/* A mix inside a header stack: the words of the outer layers that
	 * change with the size (lengths, IPv4 header checksums, UDP over
	 * IPv6 checksums outside the one TX updates per frame), at ext_off,
	 * ext_val[size] of each size, size_of[k] the size of frame k of the
	 * cycle. */
	uint16_t ext_off[WR_TXVAR_MAX_EXT];
	uint16_t ext_val[WR_MIX_MAX_SIZES][WR_TXVAR_MAX_EXT];
	uint8_t size_of[WR_MIX_MAX_SEQ];
};

/*
 * Build q's table for frames of spec (spec->size ignored) with the sizes of
 * mix (nb_sizes 0: spec's fixed size, layout lay). Returns 0 and sets
 * *needed to whether TX must vary anything (false: fixed-size IPv4, the
 * plain path), or -EINVAL when a size cannot hold the headers, -ENOMEM.
 */
int wr_txvar_build(const struct wr_mix *mix, const struct wr_frame_spec *spec,
		const struct wr_frame_layout *lay, struct wr_txvar *v, bool *needed);

/* Fold a 64-bit one's complement sum to 16 bits. This function can't fail. */
static inline uint16_t
wr_txvar_fold(uint64_t s)
{
	s = (s & 0xffffffffu) + (s >> 32);
	s = (s & 0xffffu) + (s >> 16);
	s = (s & 0xffffu) + (s >> 16);
	s = (s & 0xffffu) + (s >> 16);
	return (uint16_t)s;
}

/*
 * Write the size-dependent fields of sequence slot k into the frame at
 * data; returns its data length. This function can't fail.
 */
static inline uint16_t
wr_txvar_size_frame(const struct wr_txvar *v, uint8_t *data, unsigned int k)
{
	const struct wr_txvar_slot *s = &v->slot[k];

	memcpy(data + v->var_off[0], &s->var_val[0], sizeof(uint16_t));
	memcpy(data + v->var_off[1], &s->var_val[1], sizeof(uint16_t));
	memcpy(data + v->var_off[2], &s->var_val[2], sizeof(uint16_t));
	return s->data_len;
}

/*
 * Write the outer words of a stacked mix's frame k of the cycle (nb_ext
 * words) into the frame at data. This function can't fail.
 */
static inline void
wr_txvar_ext_frame(const struct wr_txvar *v, uint8_t *data, unsigned int k)
{
	const uint16_t *val = v->ext_val[v->size_of[k]];
	unsigned int i;

	for (i = 0; i < v->nb_ext; i++)
		memcpy(data + v->ext_off[i], &val[i], sizeof(uint16_t));
}

/*
 * The IPv6 UDP checksum of a frame whose template (checksum base) had seq,
 * timestamp and source port 0 / 0 / the first, now carrying seq and the
 * words in burst_sum (timestamp, and source port less the template's: the
 * same for a whole burst of one flow). RFC 1624 eqn 3; a result of 0 is
 * sent as 0xffff (RFC 8200 section 8.1). This function can't fail.
 */
static inline uint16_t
wr_txvar_csum6_of(uint16_t base, uint64_t burst_sum, uint64_t seq)
{
	uint16_t ck = (uint16_t)~wr_txvar_fold((uint64_t)(uint16_t)~base +
		burst_sum + (uint32_t)seq + (seq >> 32));

	return ck == 0 ? 0xffff : ck;
}

/*
 * The checksums of consecutive frames of one size in a burst, stepped
 * instead of folded per frame. The one's complement sum of a 64-bit seq's
 * four words is seq modulo 0xffff (2^16 = 1 modulo 0xffff, RFC 1071
 * section 2), so seq + 1 adds 1 to the frame's sum (seq never wraps: a
 * queue sends fewer than 2^64 frames). The state is that sum
 * modulo 0xffff, in 0..0xfffe; its checksum is 0xffff less it (0 being
 * sent as 0xffff, RFC 8200 section 8.1). wr_txvar_ck6_start returns the
 * state of the frame wr_txvar_csum6_of(base, burst_sum, seq) describes.
 * These functions can't fail.
 */
static inline uint32_t
wr_txvar_ck6_start(uint16_t base, uint64_t burst_sum, uint64_t seq)
{
	return 0xffffu - wr_txvar_csum6_of(base, burst_sum, seq);
}

/* The checksum of the frame of state *st, then *st of the next seq. */
static inline uint16_t
wr_txvar_ck6_next(uint32_t *st)
{
	uint32_t g = *st;

	*st = g == 0xfffeu ? 0 : g + 1;
	return (uint16_t)(0xffffu - g);
}

/*
 * The words of a burst's IPv6 UDP checksum update other than seq: the
 * timestamp tsc_lo as stored and the source port sport_be as stored,
 * against the template's. This function can't fail.
 */
static inline uint64_t
wr_txvar_csum6_burst(const struct wr_txvar *v, uint32_t tsc_lo, uint16_t sport_be)
{
	return (uint64_t)tsc_lo + sport_be + (uint16_t)~v->sport_base_be;
}

/*
 * Set the UDP checksum of the IPv6 frame at data from base, the checksum
 * of its size's template, the seq and timestamp now in the frame and the
 * source port sport_be (as stored). This function can't fail.
 */
static inline void
wr_txvar_csum6_sport(const struct wr_txvar *v, uint8_t *data, uint16_t base,
		uint16_t sport_be)
{
	const struct wr_test_hdr *th =
		(const struct wr_test_hdr *)(data + v->th_off);
	uint16_t ck;

	ck = wr_txvar_csum6_of(base, wr_txvar_csum6_burst(v, th->tsc_lo, sport_be),
		th->seq);
	memcpy(data + v->udp_ck_off, &ck, sizeof(ck));
}

/*
 * The UDP checksum of the IPv6 frame at data for a new timestamp tsc_lo
 * (RFC 1624 eqn 3: remove the old words, add the new), then the timestamp.
 * This function can't fail.
 */
static inline void
wr_txvar_restamp6(const struct wr_txvar *v, uint8_t *data, uint32_t tsc_lo)
{
	struct wr_test_hdr *th = (struct wr_test_hdr *)(data + v->th_off);
	uint16_t ck;
	uint64_t sum;

	memcpy(&ck, data + v->udp_ck_off, sizeof(ck));
	sum = (uint64_t)(uint16_t)~ck + (uint32_t)~th->tsc_lo + tsc_lo;
	ck = (uint16_t)~wr_txvar_fold(sum);
	if (ck == 0)
		ck = 0xffff;
	memcpy(data + v->udp_ck_off, &ck, sizeof(ck));
	th->tsc_lo = tsc_lo;
}

#endif /* WR_TXVAR_H */
