/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The per-lcore 4-tuple lookup table of the TCP core: tuple -> connection
 * index. Chained buckets whose links are 32-bit indices: entry i belongs
 * to connection i (the pool's index, conn.h), so an insert never
 * allocates, and the table holds at most nb_entries tuples. O(1) expected
 * lookup, insert and delete: the bucket count is a power of two at least
 * the number of entries, so a chain holds one entry on average.
 *
 * One table serves one address family, chosen at set-up, so an entry is
 * compact: 16 bytes for IPv4 (two addresses, two ports, the link), 40
 * for IPv6; plus 4 bytes of bucket head per entry or more. A million IPv4
 * entries with a million buckets take 20 MB, IPv6 44 MB.
 *
 * The caller passes the memory (wr_tcp_table_mem_bytes), so the DPDK side
 * takes it from the port's NUMA socket. Pure: no EAL, no allocation.
 * Written only by the owning lcore.
 */
#ifndef WR_TCP_TABLE_H
#define WR_TCP_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "tcp/tuple.h"
#include "tcp/wheel.h"

/* One IPv4 entry: 16 bytes (tests/unit/test_tcp_table.c checks it). */
struct wr_tcp_entry4 {
	uint32_t laddr;         /* network order */
	uint32_t raddr;
	uint16_t lport;         /* host order */
	uint16_t rport;
	uint32_t next;          /* next index in the bucket, or WR_TCP_NIL */
};

/* One IPv6 entry: 40 bytes. */
struct wr_tcp_entry6 {
	uint8_t laddr[16];
	uint8_t raddr[16];
	uint16_t lport;
	uint16_t rport;
	uint32_t next;
};

/* Marks an entry's next link while its index holds no tuple. */
#define WR_TCP_TABLE_FREE (UINT32_MAX - 1)

struct wr_tcp_table {
	uint32_t *heads;        /* nb_buckets heads */
	void *entries;          /* nb_entries entry4 or entry6, by index */
	uint32_t nb_buckets;    /* a power of two */
	uint32_t nb_entries;
	uint32_t nb_used;
	uint8_t family;         /* enum wr_tcp_family */
	uint8_t pad[3];
	uint32_t hash_seed;
};

/*
 * Bytes of memory wr_tcp_table_init needs for nb_entries tuples of
 * family (WR_TCP_IPV4 or WR_TCP_IPV6). 0 for a bad family. Can't fail.
 */
size_t wr_tcp_table_mem_bytes(uint8_t family, uint32_t nb_entries);

/*
 * Set the table up, empty, in mem (wr_tcp_table_mem_bytes bytes, 8-byte
 * aligned). hash_seed varies the bucket hash between lcores. Returns 0,
 * or -EINVAL with err filled for a bad family, or nb_entries 0, above
 * 2^31 or reaching WR_TCP_TABLE_FREE.
 */
int wr_tcp_table_init(struct wr_tcp_table *t, void *mem, uint8_t family,
	uint32_t nb_entries, uint32_t hash_seed, struct wr_error *err);

/*
 * The index of the connection keyed by tuple, or WR_TCP_NIL when there is
 * none (a tuple of the other family is never found). Can't fail.
 */
uint32_t wr_tcp_table_lookup(const struct wr_tcp_table *t,
	const struct wr_tcp_tuple *tuple);

/*
 * Key connection idx (< nb_entries, holding no tuple yet) by tuple.
 * Returns 0; -EEXIST when the tuple is already in the table; -EBUSY when
 * idx already holds one; -EINVAL for an index out of range or a tuple of
 * the other family.
 */
int wr_tcp_table_insert(struct wr_tcp_table *t, uint32_t idx,
	const struct wr_tcp_tuple *tuple);

/*
 * Remove connection idx's tuple. Returns 0, or -ENOENT when idx holds
 * none (or is out of range).
 */
int wr_tcp_table_delete(struct wr_tcp_table *t, uint32_t idx);

/*
 * Copy connection idx's tuple to out. Returns 0, or -ENOENT when idx
 * holds none. Can't fail otherwise.
 */
int wr_tcp_table_tuple(const struct wr_tcp_table *t, uint32_t idx,
	struct wr_tcp_tuple *out);

#endif /* WR_TCP_TABLE_H */
