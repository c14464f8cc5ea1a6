/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for lib/base/cksum.c: the Internet checksum's sum, scalar and
 * AVX2, against DPDK's own (__rte_raw_cksum, an implementation that is not
 * ours) on every length to 600 bytes at every alignment to 8, on long
 * buffers of random bytes and of 0xff bytes (the largest lanes) against a
 * word-by-word sum, and against RFC 1071's worked example.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_ip.h>

#include "base/cksum.h"
#include "tcp/wire.h"
#include "wr_test.h"

#define BIG ((size_t)3 << 20)

typedef uint32_t (*sum_fn)(const void *, size_t, uint32_t);

static const struct {
	const char *name;
	sum_fn fn;
} fns[] = {
	{ "wr_cksum_add", wr_cksum_add },
	{ "wr_cksum_add_long", wr_cksum_add_long },
	{ "wr_cksum_add_scalar", wr_cksum_add_scalar },
};

/*
 * The sum of the same words modulo 0xffff (0 and 0xffff alike): DPDK's to
 * 64 KiB; past that a plain word-by-word 64-bit sum (DPDK's is 32 bits
 * wide: it wraps past 128 KiB, which IP packets never reach).
 */
static uint32_t
ref_sum(const uint8_t *p, size_t len)
{
	uint64_t acc = 0;
	uint16_t w;
	size_t i;

	if (len <= 65536)
		return __rte_raw_cksum_reduce(__rte_raw_cksum(p, len, 0)) % 0xffff;
	for (i = 0; i + 2 <= len; i += 2) {
		memcpy(&w, p + i, sizeof(w));
		acc += w;
	}
	if (len & 1) {
		uint8_t last[2] = { p[len - 1], 0 };

		memcpy(&w, last, sizeof(w));
		acc += w;
	}
	return (uint32_t)(acc % 0xffff);
}

static uint8_t *
random_buf(size_t len, uint64_t seed)
{
	uint8_t *b = malloc(len);
	size_t i;

	for (i = 0; b != NULL && i < len; i++)
		b[i] = (uint8_t)(wr_test_prng(&seed) >> 56);
	return b;
}

/* Every function on p[0, len): folded, equal to ref_sum's modulo 0xffff. */
static void
check_all(const uint8_t *p, size_t len)
{
	uint32_t want = ref_sum(p, len), got;
	size_t f;

	for (f = 0; f < sizeof(fns) / sizeof(fns[0]); f++) {
		got = fns[f].fn(p, len, 0);
		if (got > 0xffff || got % 0xffff != want) {
			fprintf(stderr, "%s(len %zu) = %#x, the reference's %#x\n",
				fns[f].name, len, got, want);
			wr_test_failed_checks++;
		}
	}
}

static void
test_lengths_and_alignments(void)
{
	uint8_t *b = random_buf(600 + 8, 1);
	size_t len, off;

	WR_CHECK(b != NULL);
	for (off = 0; b != NULL && off < 8; off++)
		for (len = 0; len <= 600; len++)
			check_all(b + off, len);
	free(b);
}

static void
test_long(void)
{
	static const size_t lens[] = { 65536, 65535 + 64, 262144, 262144 + 63,
		(1u << 20) + 1, BIG };
	uint8_t *r = random_buf(BIG + 1, 2), *ones = malloc(BIG + 1);
	size_t i;

	WR_CHECK(r != NULL && ones != NULL);
	if (r == NULL || ones == NULL)
		goto out;
	memset(ones, 0xff, BIG + 1);
	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		check_all(r, lens[i]);
		check_all(r + 1, lens[i]);
		check_all(ones, lens[i]);
	}
out:
	free(r);
	free(ones);
}

/* The sum passed in is added to the folded sum of the bytes. */
static void
test_carry_in(void)
{
	uint8_t *b = random_buf(1500, 3);
	size_t f;

	WR_CHECK(b != NULL);
	for (f = 0; b != NULL && f < sizeof(fns) / sizeof(fns[0]); f++)
		WR_CHECK_U64(fns[f].fn(b, 1500, 0x12345),
			0x12345 + fns[f].fn(b, 1500, 0));
	free(b);
}

/* RFC 1071 section 3: 00 01 f2 03 f4 f5 f6 f7 sum to ddf2 (big endian),
 * here through the TCP layer's big-endian sum, at a length and place the
 * vector path takes too. */
static void
test_rfc1071(void)
{
	static const uint8_t v[8] = { 0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7 };
	uint8_t b[8 * 40];
	size_t i;

	WR_CHECK_U64(wr_tcp_sum16(v, sizeof(v), 0), 0xddf2);
	/* 40 copies: 40 * 0xddf2 modulo 0xffff */
	for (i = 0; i < 40; i++)
		memcpy(b + 8 * i, v, sizeof(v));
	WR_CHECK_U64(wr_tcp_sum16(b, sizeof(b), 0), (40u * 0xddf2) % 0xffff);
}

int
main(void)
{
	printf("AVX2 path: %s\n", wr_cksum_have_avx2() ? "taken" :
		"not on this CPU or build (the scalar sum is tested twice)");
	WR_TEST_RUN(test_lengths_and_alignments);
	WR_TEST_RUN(test_long);
	WR_TEST_RUN(test_carry_in);
	WR_TEST_RUN(test_rfc1071);
	return wr_test_summary();
}
