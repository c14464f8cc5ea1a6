/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * splitmix64 (Steele, Lea, Flood 2014): a small seeded generator, the
 * same sequence on every machine, any seed (0 included). For orders and
 * permutations that must be reproducible (field ranges, change points'
 * permutation tests), never for anything secret. This function can't fail.
 */
#ifndef WR_SPLITMIX_H
#define WR_SPLITMIX_H

#include <stdint.h>

static inline uint64_t
wr_splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

#endif /* WR_SPLITMIX_H */
