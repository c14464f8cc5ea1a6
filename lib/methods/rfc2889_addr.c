/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <string.h>

#include "rfc2889_addr.h"

/* Rounds of the Feistel network: 4 make a good mix of 32 bits. */
#define FEISTEL_ROUNDS 4

/* splitmix64: one step of a seeded sequence (the round keys). */
static uint64_t
splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* The 48-bit value of a MAC address, first octet highest. */
static uint64_t
mac_value(const uint8_t mac[WR_ADDR_MAC_LEN])
{
	uint64_t v = 0;
	unsigned int b;

	for (b = 0; b < WR_ADDR_MAC_LEN; b++)
		v = v << 8 | mac[b];
	return v;
}

static void
mac_of(uint64_t v, uint8_t mac[WR_ADDR_MAC_LEN])
{
	int b;

	for (b = WR_ADDR_MAC_LEN - 1; b >= 0; b--) {
		mac[b] = (uint8_t)v;
		v >>= 8;
	}
}

/*
 * A keyed permutation of the 32-bit integers: a balanced Feistel network
 * over two 16-bit halves is a bijection whatever its round function, so
 * distinct i map to distinct values.
 */
static uint32_t
feistel32(uint32_t i, uint64_t seed)
{
	uint64_t s = seed;
	uint32_t l = i >> 16, r = i & 0xffff, t;
	unsigned int k;

	for (k = 0; k < FEISTEL_ROUNDS; k++) {
		uint64_t key = splitmix64(&s);

		t = l ^ (uint32_t)((((uint64_t)r * 0x9e3779b1u) ^ key) >> 16 & 0xffff);
		l = r;
		r = t;
	}
	return l << 16 | r;
}

int
wr_addr_plan_check(const struct wr_addr_plan *p, const char *what,
		struct wr_error *err)
{
	uint64_t first, last;

	if (p->nb == 0)
		return wr_err_usage(err, -EINVAL, "%s: the plan has no address "
			"(need at least 1)", what);
	if (p->kind != WR_ADDR_PLAN_RANGE)
		return 0;
	if (p->base[0] & 0x01)
		return wr_err_usage(err, -EINVAL, "%s: the base address is "
			"multicast (first octet %02x is odd)", what, p->base[0]);
	first = mac_value(p->base);
	last = first + p->nb - 1;
	if (last >> 40 != first >> 40)
		return wr_err_usage(err, -EINVAL, "%s: %u addresses from the base "
			"run past its first octet (%02x)", what, p->nb, p->base[0]);
	return 0;
}

void
wr_addr_plan_mac(const struct wr_addr_plan *p, uint32_t i,
		uint8_t mac[WR_ADDR_MAC_LEN])
{
	uint64_t s = p->seed;

	if (p->kind == WR_ADDR_PLAN_RANGE) {
		mac_of(mac_value(p->base) + i, mac);
		return;
	}
	/* 02: locally administered, unicast; one octet of the seed's own so
	 * that two seeds rarely share addresses; then i permuted. */
	mac_of((uint64_t)0x02 << 40 | (splitmix64(&s) & 0xff) << 32 |
		feistel32(i, p->seed), mac);
}
