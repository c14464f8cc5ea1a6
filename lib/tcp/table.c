/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The TCP core's 4-tuple lookup table (table.h): chained buckets linked
 * by connection index, one address family per table.
 */
#include <errno.h>
#include <string.h>

#if defined(__SSE4_2__)
#include <nmmintrin.h>
#endif

#include "tcp/table.h"

/* Round the heads array up to keep the entries 8-byte aligned. */
static size_t
heads_bytes(uint32_t nb_buckets)
{
	return ((size_t)nb_buckets * sizeof(uint32_t) + 7) & ~(size_t)7;
}

/* The smallest power of two >= n (n <= 2^31). */
static uint32_t
pow2_at_least(uint32_t n)
{
	uint32_t p = 1;

	while (p < n)
		p <<= 1;
	return p;
}

static size_t
entry_bytes(uint8_t family)
{
	return family == WR_TCP_IPV4 ? sizeof(struct wr_tcp_entry4) :
		sizeof(struct wr_tcp_entry6);
}

size_t
wr_tcp_table_mem_bytes(uint8_t family, uint32_t nb_entries)
{
	if (family != WR_TCP_IPV4 && family != WR_TCP_IPV6)
		return 0;
	if (nb_entries == 0 || nb_entries > (UINT32_C(1) << 31))
		return 0;
	return heads_bytes(pow2_at_least(nb_entries)) +
		(size_t)nb_entries * entry_bytes(family);
}

int
wr_tcp_table_init(struct wr_tcp_table *t, void *mem, uint8_t family,
	uint32_t nb_entries, uint32_t hash_seed, struct wr_error *err)
{
	uint32_t i;

	if (family != WR_TCP_IPV4 && family != WR_TCP_IPV6)
		return wr_err_usage(err, -EINVAL,
			"tcp table: address family %u, want 4 or 6", family);
	if (nb_entries == 0 || nb_entries > (UINT32_C(1) << 31))
		return wr_err_usage(err, -EINVAL,
			"tcp table: %u entries, want 1 to 2^31", nb_entries);
	t->nb_buckets = pow2_at_least(nb_entries);
	t->nb_entries = nb_entries;
	t->nb_used = 0;
	t->family = family;
	t->hash_seed = hash_seed;
	t->heads = mem;
	t->entries = (char *)mem + heads_bytes(t->nb_buckets);
	for (i = 0; i < t->nb_buckets; i++)
		t->heads[i] = WR_TCP_NIL;
	if (family == WR_TCP_IPV4) {
		struct wr_tcp_entry4 *e = t->entries;

		for (i = 0; i < nb_entries; i++)
			e[i].next = WR_TCP_TABLE_FREE;
	} else {
		struct wr_tcp_entry6 *e = t->entries;

		for (i = 0; i < nb_entries; i++)
			e[i].next = WR_TCP_TABLE_FREE;
	}
	return 0;
}

#if defined(__SSE4_2__)
/*
 * The CPU's CRC-32C step (one instruction, as DPDK's rte_hash): linear,
 * so tuples that differ in a port or an address word spread evenly over
 * the low bits, a bucket each where the bits allow.
 */
static inline uint32_t
hash_word(uint32_t h, uint32_t k)
{
	return _mm_crc32_u32(h, k);
}

static inline uint32_t
hash_final(uint32_t h)
{
	return h;
}
#else
/* Mix one 32-bit word into h (the multiply-rotate step of murmur3). */
static inline uint32_t
hash_word(uint32_t h, uint32_t k)
{
	k *= UINT32_C(0xcc9e2d51);
	k = (k << 15) | (k >> 17);
	k *= UINT32_C(0x1b873593);
	h ^= k;
	h = (h << 13) | (h >> 19);
	return h * 5 + UINT32_C(0xe6546b64);
}

/* murmur3's finaliser: every input bit reaches every output bit. */
static inline uint32_t
hash_final(uint32_t h)
{
	h ^= h >> 16;
	h *= UINT32_C(0x85ebca6b);
	h ^= h >> 13;
	h *= UINT32_C(0xc2b2ae35);
	return h ^ (h >> 16);
}
#endif

/* The bucket of a tuple: words of the addresses, then the ports. */
static uint32_t
tuple_bucket(const struct wr_tcp_table *t, const struct wr_tcp_tuple *k)
{
	unsigned int nb_words = t->family == WR_TCP_IPV4 ? 1 : 4;
	uint32_t h = t->hash_seed, w;
	unsigned int i;

	for (i = 0; i < nb_words; i++) {
		memcpy(&w, k->laddr + 4 * i, 4);
		h = hash_word(h, w);
		memcpy(&w, k->raddr + 4 * i, 4);
		h = hash_word(h, w);
	}
	h = hash_word(h, (uint32_t)k->lport << 16 | k->rport);
	return hash_final(h) & (t->nb_buckets - 1);
}

/* The link of entry idx. */
static inline uint32_t *
entry_next(const struct wr_tcp_table *t, uint32_t idx)
{
	if (t->family == WR_TCP_IPV4)
		return &((struct wr_tcp_entry4 *)t->entries)[idx].next;
	return &((struct wr_tcp_entry6 *)t->entries)[idx].next;
}

/* Whether entry idx (holding a tuple) is keyed by k. */
static inline bool
entry_match(const struct wr_tcp_table *t, uint32_t idx,
	const struct wr_tcp_tuple *k)
{
	if (t->family == WR_TCP_IPV4) {
		const struct wr_tcp_entry4 *e =
			&((const struct wr_tcp_entry4 *)t->entries)[idx];

		return e->lport == k->lport && e->rport == k->rport &&
			memcmp(&e->laddr, k->laddr, 4) == 0 &&
			memcmp(&e->raddr, k->raddr, 4) == 0;
	} else {
		const struct wr_tcp_entry6 *e =
			&((const struct wr_tcp_entry6 *)t->entries)[idx];

		return e->lport == k->lport && e->rport == k->rport &&
			memcmp(e->laddr, k->laddr, 16) == 0 &&
			memcmp(e->raddr, k->raddr, 16) == 0;
	}
}

/* The index keyed by tuple in bucket b (tuple's), or WR_TCP_NIL. */
static inline uint32_t
bucket_find(const struct wr_tcp_table *t, uint32_t b,
	const struct wr_tcp_tuple *tuple)
{
	uint32_t idx = t->heads[b];

	while (idx != WR_TCP_NIL && !entry_match(t, idx, tuple))
		idx = *entry_next(t, idx);
	return idx;
}

uint32_t
wr_tcp_table_lookup(const struct wr_tcp_table *t,
	const struct wr_tcp_tuple *tuple)
{
	if (tuple->family != t->family)
		return WR_TCP_NIL;
	return bucket_find(t, tuple_bucket(t, tuple), tuple);
}

/* Write tuple k into entry idx, its link set to next. */
static void
entry_store(struct wr_tcp_table *t, uint32_t idx,
	const struct wr_tcp_tuple *k, uint32_t next)
{
	if (t->family == WR_TCP_IPV4) {
		struct wr_tcp_entry4 *e =
			&((struct wr_tcp_entry4 *)t->entries)[idx];

		memcpy(&e->laddr, k->laddr, 4);
		memcpy(&e->raddr, k->raddr, 4);
		e->lport = k->lport;
		e->rport = k->rport;
		e->next = next;
	} else {
		struct wr_tcp_entry6 *e =
			&((struct wr_tcp_entry6 *)t->entries)[idx];

		memcpy(e->laddr, k->laddr, 16);
		memcpy(e->raddr, k->raddr, 16);
		e->lport = k->lport;
		e->rport = k->rport;
		e->next = next;
	}
}

int
wr_tcp_table_insert(struct wr_tcp_table *t, uint32_t idx,
	const struct wr_tcp_tuple *tuple)
{
	uint32_t b;

	if (idx >= t->nb_entries || tuple->family != t->family)
		return -EINVAL;
	if (*entry_next(t, idx) != WR_TCP_TABLE_FREE)
		return -EBUSY;
	/* one hash for the check and the insert */
	b = tuple_bucket(t, tuple);
	if (bucket_find(t, b, tuple) != WR_TCP_NIL)
		return -EEXIST;
	entry_store(t, idx, tuple, t->heads[b]);
	t->heads[b] = idx;
	t->nb_used++;
	return 0;
}

int
wr_tcp_table_tuple(const struct wr_tcp_table *t, uint32_t idx,
	struct wr_tcp_tuple *out)
{
	if (idx >= t->nb_entries || *entry_next(t, idx) == WR_TCP_TABLE_FREE)
		return -ENOENT;
	memset(out, 0, sizeof(*out));
	out->family = t->family;
	if (t->family == WR_TCP_IPV4) {
		const struct wr_tcp_entry4 *e =
			&((const struct wr_tcp_entry4 *)t->entries)[idx];

		memcpy(out->laddr, &e->laddr, 4);
		memcpy(out->raddr, &e->raddr, 4);
		out->lport = e->lport;
		out->rport = e->rport;
	} else {
		const struct wr_tcp_entry6 *e =
			&((const struct wr_tcp_entry6 *)t->entries)[idx];

		memcpy(out->laddr, e->laddr, 16);
		memcpy(out->raddr, e->raddr, 16);
		out->lport = e->lport;
		out->rport = e->rport;
	}
	return 0;
}

int
wr_tcp_table_delete(struct wr_tcp_table *t, uint32_t idx)
{
	struct wr_tcp_tuple k;
	uint32_t *link;

	if (wr_tcp_table_tuple(t, idx, &k) != 0)
		return -ENOENT;
	link = &t->heads[tuple_bucket(t, &k)];
	while (*link != idx)
		link = entry_next(t, *link);
	*link = *entry_next(t, idx);
	*entry_next(t, idx) = WR_TCP_TABLE_FREE;
	t->nb_used--;
	return 0;
}
