/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The per-lcore connection pool of the TCP core: an array of
 * struct wr_tcp_conn and a free list of their indices (a stack, so a
 * freed connection's memory is reused while it is still in cache). The
 * index is the connection's name everywhere: the lookup table's entry
 * (table.h) and the timer wheel's links (wheel.h) of the same index.
 *
 * The caller passes the memory (wr_tcp_pool_mem_bytes): 132 bytes a
 * connection (the struct and its free-list slot). Pure: no EAL, no
 * allocation. Written only by the owning lcore.
 */
#ifndef WR_TCP_POOL_H
#define WR_TCP_POOL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/error.h"
#include "tcp/conn.h"
#include "tcp/wheel.h"

struct wr_tcp_pool {
	struct wr_tcp_conn *conns;  /* nb_conns, by index */
	uint32_t *free_idx;         /* a stack of free indices */
	uint32_t nb_conns;
	uint32_t nb_free;           /* free_idx[0 .. nb_free) are free */
	uint64_t nb_exhausted;      /* allocations refused: none free */
};

/* Bytes of memory wr_tcp_pool_init needs for nb_conns. Can't fail. */
size_t wr_tcp_pool_mem_bytes(uint32_t nb_conns);

/*
 * Set the pool up in mem (wr_tcp_pool_mem_bytes bytes, 64-byte aligned
 * for the connections to sit on cache lines), every connection free and
 * zeroed. Returns 0, or -EINVAL with err filled when nb_conns is 0 or
 * reaches WR_TCP_NIL.
 */
int wr_tcp_pool_init(struct wr_tcp_pool *p, void *mem, uint32_t nb_conns,
	struct wr_error *err);

/*
 * Take a free connection: its index, its struct zeroed (state CLOSED).
 * WR_TCP_NIL when none is free, counted in nb_exhausted. Can't fail.
 */
static inline uint32_t
wr_tcp_pool_alloc(struct wr_tcp_pool *p)
{
	uint32_t idx;

	if (p->nb_free == 0) {
		p->nb_exhausted++;
		return WR_TCP_NIL;
	}
	idx = p->free_idx[--p->nb_free];
	memset(&p->conns[idx], 0, sizeof(p->conns[idx]));
	return idx;
}

/*
 * Give connection idx back. The caller frees each index it allocated
 * once (the pool does not check: a bitmap would cost a cache miss a
 * call); its table entry and timer are the caller's to remove first.
 */
static inline void
wr_tcp_pool_free(struct wr_tcp_pool *p, uint32_t idx)
{
	p->free_idx[p->nb_free++] = idx;
}

/* The connection of index idx (< nb_conns). */
static inline struct wr_tcp_conn *
wr_tcp_pool_conn(const struct wr_tcp_pool *p, uint32_t idx)
{
	return &p->conns[idx];
}

#endif /* WR_TCP_POOL_H */
