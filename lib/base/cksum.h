/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The Internet checksum's sum (RFC 1071) over a buffer, as fast as the CPU
 * allows: 32 bytes a step with AVX2 where the CPU has it (chosen once, at
 * load), eight bytes a step otherwise. The words are the buffer's 16-bit
 * words in memory order, as DPDK's __rte_raw_cksum sums them: a caller
 * that wants big-endian words swaps the folded result's bytes (RFC 1071
 * 2(B)).
 */
#ifndef WR_BASE_CKSUM_H
#define WR_BASE_CKSUM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * sum plus the ones' complement sum of the len bytes at p read as 16-bit
 * words in memory order (an odd last byte padded with a zero byte after
 * it), that sum folded to 16 bits first: at most sum + 0xffff, the caller
 * folds the total. Any alignment, any length. Can't fail.
 */
uint32_t wr_cksum_add(const void *p, size_t len, uint32_t sum);

/* The same, eight bytes a step: any CPU. */
uint32_t wr_cksum_add_scalar(const void *p, size_t len, uint32_t sum);

/*
 * The same, 64 bytes a loop with AVX2, or the scalar sum where this
 * build or the CPU has no AVX2 (wr_cksum_have_avx2).
 */
uint32_t wr_cksum_add_avx2(const void *p, size_t len, uint32_t sum);

/* Whether wr_cksum_add takes the AVX2 path on this CPU. */
bool wr_cksum_have_avx2(void);

#endif /* WR_BASE_CKSUM_H */
