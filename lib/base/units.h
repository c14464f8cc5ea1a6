/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Wire-rate arithmetic and number parsing. Pure: no EAL, no I/O.
 *
 * Frame size follows RFC 2544: destination MAC to FCS inclusive. On the wire
 * every frame also costs 20 bytes of preamble, SFD and inter-frame gap
 * (IEEE 802.3 clause 4), so one frame occupies (size + 20) * 8 bit times.
 */
#ifndef WR_UNITS_H
#define WR_UNITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Bytes of preamble (7), SFD (1) and minimum inter-frame gap (12). */
#define WR_UNITS_L1_OVERHEAD_BYTES 20u
/* Bytes of FCS counted in an RFC 2544 frame size but not held in the mbuf. */
#define WR_UNITS_FCS_BYTES 4u

/* Bits one frame of size_bytes occupies on the wire, overhead included. */
static inline uint64_t
wr_units_wire_bits(uint32_t size_bytes)
{
	return ((uint64_t)size_bytes + WR_UNITS_L1_OVERHEAD_BYTES) * 8;
}

/*
 * Frames per second that fill a link of link_bps with frames of size_bytes
 * (e.g. 10 GbE at 64 B: 14,880,952.38 pps). Returns 0 for size 0.
 */
double wr_units_line_rate_pps(uint64_t link_bps, uint32_t size_bytes);

/* Layer-1 bit rate (overhead included) of pps frames of size_bytes. */
double wr_units_l1_bps(double pps, uint32_t size_bytes);

/* Layer-2 bit rate (frame bytes, FCS included) of pps frames of size_bytes. */
double wr_units_l2_bps(double pps, uint32_t size_bytes);

/*
 * Rate of a counter delta over a TSC interval: delta * hz / delta_tsc.
 * Returns 0 when delta_tsc is 0. Never assumes the interval was 1 s.
 */
double wr_units_rate(uint64_t delta, uint64_t delta_tsc, uint64_t tsc_hz);

/*
 * Parse an unsigned decimal integer with an optional k/M/G (10^3/6/9)
 * suffix into *out, accepting only values in [min, max]. The whole string
 * must be consumed. Returns 0, or -EINVAL (not a number, bad suffix) or
 * -ERANGE (outside [min, max]); on error *out is untouched.
 */
int wr_units_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);

/*
 * Parse a duration: a number with an optional unit, "ms", "s" (default),
 * "m" or "h", e.g. "10", "2.5s", "500ms", "1h". Result in milliseconds,
 * must be exact to the millisecond. Returns 0, -EINVAL or -ERANGE.
 */
int wr_units_parse_duration_ms(const char *s, uint64_t *out_ms);

/* Human form of a count with SI prefix into buf, e.g. "14.88M". */
const char *wr_units_si(double value, char *buf, size_t len);

/*
 * value right-aligned in exactly width characters (width < len), with up
 * to decimals decimals and fewer when it would not fit ("14.881",
 * "12345.68", "123456789"); a value too large for width even without
 * decimals is written with an exponent ("1.2e+12"). Keeps table columns
 * aligned whatever the figure. Returns buf.
 */
const char *wr_units_fit(double value, unsigned int width, unsigned int decimals,
		char *buf, size_t len);

#endif /* WR_UNITS_H */
