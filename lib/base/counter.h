/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The publish/read pair for counters with one writer (the owning lcore) and
 * readers on the stats core. The writer adds with a plain read and a relaxed
 * atomic store (no read-modify-write, no lock); readers load relaxed. On
 * 64-bit targets neither tears.
 */
#ifndef WR_COUNTER_H
#define WR_COUNTER_H

#include <stdint.h>

/* Add n to *c. Only the counter's owning lcore may call this. */
static inline void
wr_counter_add(uint64_t *c, uint64_t n)
{
	__atomic_store_n(c, *c + n, __ATOMIC_RELAXED);
}

/* Set *c to v. Only the counter's owning lcore may call this. */
static inline void
wr_counter_set(uint64_t *c, uint64_t v)
{
	__atomic_store_n(c, v, __ATOMIC_RELAXED);
}

/* Read a counter another lcore writes. */
static inline uint64_t
wr_counter_read(const uint64_t *c)
{
	return __atomic_load_n(c, __ATOMIC_RELAXED);
}

#endif /* WR_COUNTER_H */
