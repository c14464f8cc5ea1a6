/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The synthetic payload (wire.h): its bytes from a table, and its
 * Internet checksum sum from prefix sums, so that a segment of pattern
 * costs one copy and no pass over its bytes.
 *
 * The pattern byte of x depends on x modulo 2^15 only (x's low byte and
 * 2 * (x >> 8) modulo 256): the table holds two periods, so any run of up
 * to one period is in it, from x modulo the period.
 */
#include <string.h>

#include "tcp/wire.h"

#define PATTERN_PERIOD (1u << 15)

static uint8_t pattern_tab[2 * PATTERN_PERIOD];

/*
 * Prefix sums modulo 0xffff (ones' complement arithmetic) of the table's
 * bytes as the high (x 256) or low byte of a big-endian word: in
 * word_sum[0], the bytes at even indices are high ones; in word_sum[1],
 * those at odd indices. word_sum[p][j] sums the bytes before index j.
 */
static uint16_t word_sum[2][2 * PATTERN_PERIOD + 1];

__attribute__((constructor)) static void
pattern_init(void)
{
	uint32_t j, hi[2] = { 0, 0 };

	for (j = 0; j < 2 * PATTERN_PERIOD; j++) {
		pattern_tab[j] = wr_tcp_pattern_byte(0, j);
		word_sum[0][j] = (uint16_t)hi[0];
		word_sum[1][j] = (uint16_t)hi[1];
		hi[j & 1] = (hi[j & 1] + 256u * pattern_tab[j]) % 0xffff;
		hi[!(j & 1)] = (hi[!(j & 1)] + pattern_tab[j]) % 0xffff;
	}
	word_sum[0][j] = (uint16_t)hi[0];
	word_sum[1][j] = (uint16_t)hi[1];
}

void
wr_tcp_pattern_fill(uint8_t *dst, uint32_t seed, uint64_t off, size_t len)
{
	size_t run;
	uint32_t at;

	while (len > 0) {
		at = ((uint32_t)off + seed) & (PATTERN_PERIOD - 1);
		run = len < PATTERN_PERIOD ? len : PATTERN_PERIOD;
		memcpy(dst, pattern_tab + at, run);
		dst += run;
		off += run;
		len -= run;
	}
}

/*
 * The words of [at, at + run) of the table, the byte at at a high one:
 * the prefix sums of at's parity. Congruent modulo 0xffff, unreduced
 * (below 2^17): the caller folds.
 */
static uint32_t
run_sum(uint32_t at, size_t run)
{
	const uint16_t *w = word_sum[at & 1];

	return (uint32_t)w[at + run] + 0xffff - w[at];
}

uint32_t
wr_tcp_pattern_sum(uint32_t seed, uint64_t off, size_t len)
{
	uint32_t sum = 0, at;
	size_t run;

	while (len > 0) {
		at = ((uint32_t)off + seed) & (PATTERN_PERIOD - 1);
		run = len < PATTERN_PERIOD ? len : PATTERN_PERIOD;
		/* runs before the last are a period long, even: each
		 * starts with a high byte */
		sum += run_sum(at, run);
		off += run;
		len -= run;
	}
	return sum;
}
