/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Frame size mixes (IMIX). Pure: no EAL, no I/O.
 *
 * A mix is a repeating sequence of frame sizes (RFC 2544 sizes, FCS
 * included): frame k of a TX queue has size size[seq[k % seq_len]], so two
 * runs send the same frames and the bytes of the first n frames are known
 * exactly without counting them. Accepted forms (no spaces):
 *   preset          imix             the simple IMIX 64:7,594:4,1518:1
 *   weighted list   64:7,594:4,1518:1   SIZE[:WEIGHT], weight 1 when left out
 *   IMIX genome     aaaaaaagggz,z=594   RFC 6985 section 4: one letter per
 *                   frame, in order: a=64 b=128 c=256 d=512 e=1024 f=1280
 *                   g=1518 h=jumbo (9018 unless ",h=SIZE") z=custom
 *                   (",z=SIZE", required when z is used)
 * A weighted list is spread by smooth weighted round-robin (the largest
 * running credit goes next), so the sizes interleave instead of coming in
 * runs; a genome is sent exactly as written.
 */
#ifndef WR_MIX_H
#define WR_MIX_H

#include <stddef.h>
#include <stdint.h>

#include "rate.h"
#include "base/error.h"

#define WR_MIX_MAX_SIZES 16u   /* distinct sizes in one mix */
#define WR_MIX_MAX_SEQ 1024u   /* frames in one cycle (sum of weights) */
#define WR_MIX_TEXT_LEN 128u   /* the mix as given, with the NUL */

/* A parsed mix; written once by wr_mix_parse(), then read-only. */
struct wr_mix {
	unsigned int nb_sizes;           /* 0: no mix (fixed-size frames) */
	uint32_t size[WR_MIX_MAX_SIZES]; /* bytes, FCS included */
	uint32_t nb_per_cycle[WR_MIX_MAX_SIZES]; /* frames of size[i] per cycle */
	unsigned int seq_len;            /* frames in one cycle */
	uint8_t seq[WR_MIX_MAX_SEQ];     /* index into size[] of frame k */
	uint32_t prefix_bytes[WR_MIX_MAX_SEQ + 1]; /* bytes of frames 0..k-1 */
	char text[WR_MIX_TEXT_LEN];      /* as given, for results */
};

/*
 * Parse s (forms above) into *out. Every size must lie in [min_size,
 * max_size]. On error *out is undefined and err names the part of s that
 * was wrong and what was expected.
 * Returns 0, or -EINVAL.
 */
int wr_mix_parse(const char *s, uint32_t min_size, uint32_t max_size,
		struct wr_mix *out, struct wr_error *err);

/* Bytes of one whole cycle. This function can't fail. */
static inline uint64_t
wr_mix_cycle_bytes(const struct wr_mix *m)
{
	return m->prefix_bytes[m->seq_len];
}

/* Mean frame size in bytes, FCS included (0 without a mix). */
double wr_mix_mean_size(const struct wr_mix *m);

/* Largest and smallest size of the mix (0 without a mix). */
uint32_t wr_mix_max_size(const struct wr_mix *m);
uint32_t wr_mix_min_size(const struct wr_mix *m);

/*
 * Bytes (FCS included) of the first nb_pkts frames of the sequence: exact,
 * as frames leave in sequence order. Not for the hot path (one division).
 */
uint64_t wr_mix_bytes(const struct wr_mix *m, uint64_t nb_pkts);

/*
 * Frames per second that rate r means for this mix on a link of link_bps
 * (read only for a percentage). Bit rates use the exact mean size of one
 * cycle: L1 counts each frame's size plus 20 B (preamble, SFD, gap), so
 * pps = bps * seq_len / (8 * (cycle_bytes + 20 * seq_len)).
 * Returns 0, or -EINVAL as wr_rate_to_pps() (m must hold a mix).
 */
int wr_mix_to_pps(const struct wr_rate *r, const struct wr_mix *m,
		uint64_t link_bps, double *pps);

#endif /* WR_MIX_H */
