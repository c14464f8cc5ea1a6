/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The Internet checksum's sum (RFC 1071) over a buffer, as fast as the CPU
 * allows: under 128 bytes inline; longer, 64 bytes a loop with AVX2 where
 * the CPU has it (chosen once, at load), eight bytes a step otherwise.
 * The words are the buffer's 16-bit words in memory order, as DPDK's
 * __rte_raw_cksum sums them: a caller that wants big-endian words swaps
 * the folded result's bytes (RFC 1071 2(B)).
 */
#ifndef WR_BASE_CKSUM_H
#define WR_BASE_CKSUM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/*
 * Shorter than this, the sum is inline, 16 bits a step (a loop the
 * compiler vectorizes): headers and addresses cost no call
 * (tests/unit/bench_cksum.c).
 */
#define WR_CKSUM_SHORT 128

/*
 * The sum (as wr_cksum_add) of any length, for 128 bytes or more: 64
 * bytes a loop with AVX2, or the scalar sum where this build or the CPU
 * has no AVX2 (wr_cksum_have_avx2).
 */
uint32_t wr_cksum_add_long(const void *p, size_t len, uint32_t sum);

/* A ones' complement sum folded to 16 bits (RFC 1071 4.1's fold). */
static inline uint16_t
wr_cksum_fold(uint64_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)sum;
}

/* The unfolded sum of the 16-bit words of b[0, len), len under 2^17. */
static inline uint32_t
wr_cksum_words(const uint8_t *b, size_t len)
{
	uint32_t acc = 0;
	uint16_t w;
	size_t i;

	for (i = 0; i + 2 <= len; i += 2) {
		memcpy(&w, b + i, sizeof(w));
		acc += w;
	}
	if (len & 1) {
		uint8_t last[2] = { b[len - 1], 0 };

		memcpy(&w, last, sizeof(w));
		acc += w;
	}
	return acc;
}

/*
 * sum plus the ones' complement sum of the len bytes at p read as 16-bit
 * words in memory order (an odd last byte padded with a zero byte after
 * it), that sum folded to 16 bits first: at most sum + 0xffff, the caller
 * folds the total. Any alignment, any length. Can't fail.
 */
static inline uint32_t
wr_cksum_add(const void *p, size_t len, uint32_t sum)
{
	uint32_t acc;

	if (len >= WR_CKSUM_SHORT)
		return wr_cksum_add_long(p, len, sum);
	acc = wr_cksum_words(p, len);
	/* under 64 words: two folds */
	acc = (acc & 0xffff) + (acc >> 16);
	acc = (acc & 0xffff) + (acc >> 16);
	return sum + acc;
}

/* The same, eight bytes a step: any CPU. */
uint32_t wr_cksum_add_scalar(const void *p, size_t len, uint32_t sum);

/* Whether wr_cksum_add takes the AVX2 path on this CPU. */
bool wr_cksum_have_avx2(void);

#endif /* WR_BASE_CKSUM_H */
