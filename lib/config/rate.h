/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Rate specification: what the user asked for, parsed from a string and
 * turned into frames per second for a given frame size. Pure: no EAL, no I/O.
 *
 * Accepted forms (no spaces, nothing after the unit):
 *   packets per second  100000pps  250kpps  1.5Mpps  0.5pps
 *   bits per second     800Mbps  9.5Gbps  64kbps  1000bps   (layer 1)
 *   with a layer        l1:9.5Gbps  l2:9.5Gbps  (l2: frame bytes only)
 *   share of line rate  50%  100%  0.1%       (needs a link speed)
 *   no limit            max  unlimited
 * Number: decimal digits with an optional '.', at most 15 significant digits,
 * no sign, no exponent. Prefix: k, M, G, T (powers of 1000, any case: a rate
 * in milli-units means nothing here, so 'm' is mega). Unit: "pps" or "bps"
 * (any case except a capital 'B', which means bytes and is refused).
 *
 * A bit rate without a layer is layer 1, as RFC 2544 counts line rate: each
 * frame costs its size plus 20 bytes of preamble, SFD and inter-frame gap.
 * "l2:" counts the frame bytes only (destination MAC to FCS inclusive).
 */
#ifndef WR_RATE_H
#define WR_RATE_H

#include <stddef.h>
#include <stdint.h>
#include "base/error.h"

/* Lowest rate accepted, in pps or bps: %.15g prints it without exponent. */
#define WR_RATE_MIN 0.0001
/* Highest packet rate accepted (10 Gpps: 400 GbE line rate is 595 Mpps). */
#define WR_RATE_MAX_PPS 1e10
/* Highest bit rate accepted (10 Tbps). */
#define WR_RATE_MAX_BPS 1e13

/* What wr_rate.value counts. */
enum wr_rate_unit {
	WR_RATE_NONE,	/* no limit: unpaced ("max"); also a zeroed struct */
	WR_RATE_PPS,	/* frames per second */
	WR_RATE_BPS_L1,	/* bits per second, 20 B of overhead per frame */
	WR_RATE_BPS_L2,	/* bits per second, frame bytes only */
	WR_RATE_PCT,	/* percent of the layer-1 line rate, (0, 100] */
};

/* A parsed rate; value is in the unit named by unit (unused for NONE). */
struct wr_rate {
	enum wr_rate_unit unit;
	double value;
};

/*
 * Parse s (forms above) into *out. On error *out is untouched and, when
 * err is not NULL, err holds a one-line message that quotes s, says what
 * was wrong and lists the accepted forms.
 * Returns 0, or -EINVAL for anything malformed, zero, negative, above 100%
 * or outside [WR_RATE_MIN, WR_RATE_MAX_PPS / WR_RATE_MAX_BPS].
 */
int wr_rate_parse(const char *s, struct wr_rate *out, struct wr_error *err);

/*
 * Frames per second that rate r means for frames of frame_size bytes
 * (RFC 2544 size, FCS included) on a link of link_bps. link_bps is only read
 * for a percentage: pass the speed the caller trusts (the reported one, or a
 * user-given nominal speed on virtual NICs whose speed is only a label).
 * WR_RATE_NONE gives INFINITY, which wr_pace_init() takes as "unpaced".
 * The result is not checked against the link speed.
 * Returns 0, or -EINVAL when r or pps is NULL, the unit is unknown,
 * frame_size is 0 for a bit rate or a percentage, or link_bps is 0 for a
 * percentage; *pps is untouched on error.
 */
int wr_rate_to_pps(const struct wr_rate *r, uint32_t frame_size,
		uint64_t link_bps, double *pps);

/*
 * Write r into buf in a form wr_rate_parse() reads back, with the largest
 * k/M/G prefix that keeps the number >= 1: "250kpps", "l2:9.5Gbps", "50%",
 * "max". A layer-1 bit rate is written without "l1:".
 * Returns the length written (without the NUL), -EINVAL for a NULL or
 * unknown rate, or -ENOSPC when buf is too small (buf then holds a
 * truncated, NUL-terminated string when len > 0).
 */
int wr_rate_format(const struct wr_rate *r, char *buf, size_t len);

#endif /* WR_RATE_H */
