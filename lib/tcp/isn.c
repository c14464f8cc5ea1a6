/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RFC 6528 initial sequence numbers (isn.h): the key, the clock and
 * SipHash-2-4 (Aumasson and Bernstein, "SipHash: a fast short-input
 * PRF", 2012), written out here: the reference has no Debian package
 * and libcrypto's SipHash is behind the EVP_MAC interface, too heavy for
 * one call per connection.
 */
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include <openssl/evp.h>
#include <rte_byteorder.h>

#include "tcp/isn.h"

/* Prefix of the hashed boot id: the key is used for nothing else. */
#define ISN_DOMAIN "wirerate tcp isn, RFC 6528\n"

static inline uint64_t
rotl(uint64_t x, unsigned int b)
{
	return (x << b) | (x >> (64 - b));
}

static inline void
sipround(uint64_t v[4])
{
	v[0] += v[1]; v[1] = rotl(v[1], 13); v[1] ^= v[0];
	v[0] = rotl(v[0], 32);
	v[2] += v[3]; v[3] = rotl(v[3], 16); v[3] ^= v[2];
	v[0] += v[3]; v[3] = rotl(v[3], 21); v[3] ^= v[0];
	v[2] += v[1]; v[1] = rotl(v[1], 17); v[1] ^= v[2];
	v[2] = rotl(v[2], 32);
}

/* n bytes (8 at most) at p, little-endian as SipHash reads its input. */
static inline uint64_t
le64_at(const uint8_t *p, size_t n)
{
	uint64_t x = 0;
	size_t i;

	if (n == 8) {
		memcpy(&x, p, 8);
		return rte_le_to_cpu_64(x);
	}
	for (i = 0; i < n; i++)
		x |= (uint64_t)p[i] << (8 * i);
	return x;
}

static inline void
sip_block(uint64_t v[4], uint64_t m)
{
	v[3] ^= m;
	sipround(v);
	sipround(v);
	v[0] ^= m;
}

uint64_t
wr_tcp_siphash(uint64_t k0, uint64_t k1, const void *p, size_t len)
{
	const uint8_t *b = p;
	uint64_t v[4] = {
		k0 ^ UINT64_C(0x736f6d6570736575), k1 ^ UINT64_C(0x646f72616e646f6d),
		k0 ^ UINT64_C(0x6c7967656e657261), k1 ^ UINT64_C(0x7465646279746573),
	};
	size_t i, full = len & ~(size_t)7;

	for (i = 0; i < full; i += 8)
		sip_block(v, le64_at(b + i, 8));
	sip_block(v, le64_at(b + full, len - full) | (uint64_t)len << 56);
	v[2] ^= 0xff;
	for (i = 0; i < 4; i++)
		sipround(v);
	return v[0] ^ v[1] ^ v[2] ^ v[3];
}

/* The key from the file at path: 0, or -1 when it cannot be read. */
static int
key_from_file(struct wr_tcp_isn *isn, const char *path)
{
	char buf[sizeof(ISN_DOMAIN) + 64];
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n = 0;
	size_t got, pre = sizeof(ISN_DOMAIN) - 1;
	FILE *f = fopen(path, "r");

	if (f == NULL)
		return -1;
	memcpy(buf, ISN_DOMAIN, pre);
	got = fread(buf + pre, 1, sizeof(buf) - pre, f);
	fclose(f);
	if (got < 16 || EVP_Digest(buf, pre + got, md, &n, EVP_sha256(),
			NULL) != 1 || n < 16)
		return -1;
	isn->k0 = le64_at(md, 8);
	isn->k1 = le64_at(md + 8, 8);
	return 0;
}

int
wr_tcp_isn_key_init(struct wr_tcp_isn *isn, const char *path)
{
	uint64_t k[2] = { 0, 0 };
	struct timespec ts;

	if (path != NULL && key_from_file(isn, path) == 0)
		return 0;
	/* No boot id: a key of this process's own (getrandom does not fail
	 * for 16 bytes once the pool is ready; the clock is the fallback). */
	if (getrandom(k, sizeof(k), 0) != (ssize_t)sizeof(k)) {
		clock_gettime(CLOCK_REALTIME, &ts);
		k[0] = (uint64_t)ts.tv_nsec * UINT64_C(0x9e3779b97f4a7c15);
		k[1] = (uint64_t)ts.tv_sec ^ k[0];
	}
	isn->k0 = k[0];
	isn->k1 = k[1];
	return 1;
}

void
wr_tcp_isn_clock(struct wr_tcp_isn *isn, uint64_t now_us)
{
	struct timespec ts;
	uint64_t abs_us;

	clock_gettime(CLOCK_REALTIME, &ts);
	abs_us = (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
	isn->off_us = (int64_t)(abs_us - now_us);
}

uint32_t
wr_tcp_isn_of(const struct wr_tcp_isn *isn, const struct wr_tcp_tuple *t,
	uint64_t now_us)
{
	/* Addresses then ports: for IPv4 4 + 4 + 4 bytes, for IPv6 36. */
	uint8_t b[36];
	size_t alen = t->family == WR_TCP_IPV4 ? 4 : 16;
	uint64_t m = (now_us + (uint64_t)isn->off_us) >> 2;  /* 4 us ticks */

	memcpy(b, t->laddr, alen);
	memcpy(b + alen, t->raddr, alen);
	memcpy(b + 2 * alen, &t->lport, 2);
	memcpy(b + 2 * alen + 2, &t->rport, 2);
	return (uint32_t)m + (uint32_t)wr_tcp_siphash(isn->k0, isn->k1, b,
		2 * alen + 4);
}
