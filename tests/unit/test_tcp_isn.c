/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for lib/tcp/isn.c: RFC 6528 initial sequence numbers.
 * SipHash-2-4 against the reference's own vectors (the paper's appendix
 * and vectors.h of github.com/veorq/SipHash); the ISN's order over time
 * for one tuple, its spread over tuples, and the key per boot.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tcp/isn.h"
#include "tcp/seq.h"
#include "wr_test.h"

/* Key 00 01 .. 0f, as the reference's vectors use. */
#define K0 UINT64_C(0x0706050403020100)
#define K1 UINT64_C(0x0f0e0d0c0b0a0908)

static void
test_siphash_vectors(void)
{
	uint8_t in[64];
	size_t i;

	for (i = 0; i < sizeof(in); i++)
		in[i] = (uint8_t)i;
	/* The paper's appendix A: 15 bytes 00..0e. */
	WR_CHECK_U64(wr_tcp_siphash(K0, K1, in, 15),
		UINT64_C(0xa129ca6149be45e5));
	/* vectors.h: the empty input, 8 bytes, and 63 bytes (read
	 * little-endian from the listed bytes). */
	WR_CHECK_U64(wr_tcp_siphash(K0, K1, in, 0),
		UINT64_C(0x726fdb47dd0e0e31));
	WR_CHECK_U64(wr_tcp_siphash(K0, K1, in, 8),
		UINT64_C(0x93f5f5799a932462));
	WR_CHECK_U64(wr_tcp_siphash(K0, K1, in, 63),
		UINT64_C(0x958a324ceb064572));
}

static struct wr_tcp_tuple
tuple(uint32_t laddr, uint16_t lport, uint16_t rport)
{
	struct wr_tcp_tuple t;

	wr_tcp_tuple_set4(&t, laddr, lport, 0xfe0012c6u, rport);
	return t;
}

/* For one tuple, the ISN grows with time at one per 4 us, from run to
 * run too (the key is per boot): a later connection's ISN is after an
 * earlier one's plus the bytes it used, once 4 us per byte have passed. */
static void
test_monotonic(void)
{
	struct wr_tcp_isn a, b;
	struct wr_tcp_tuple t = tuple(0x010012c6u, 40000, 80);
	uint32_t i0, i1;
	uint64_t now;

	WR_CHECK_U64(wr_tcp_isn_key_init(&a, WR_TCP_ISN_BOOT_ID), 0);
	wr_tcp_isn_clock(&a, 1000);
	i0 = wr_tcp_isn_of(&a, &t, 1000);
	WR_CHECK_U64(wr_tcp_isn_of(&a, &t, 1000 + 4000) - i0, 1000);
	for (now = 1000; now < 1000 + 20 * 1000000u; now += 12345) {
		i1 = wr_tcp_isn_of(&a, &t, now + 4);
		WR_CHECK(wr_tcp_seq_gt(i1, wr_tcp_isn_of(&a, &t, now)));
	}
	/* A second "run": same key, its own clock origin, 2 ms later. */
	usleep(2000);
	WR_CHECK_U64(wr_tcp_isn_key_init(&b, WR_TCP_ISN_BOOT_ID), 0);
	WR_CHECK_U64(a.k0, b.k0);
	WR_CHECK_U64(a.k1, b.k1);
	wr_tcp_isn_clock(&b, 77);
	i1 = wr_tcp_isn_of(&b, &t, 77);
	/* 2 ms = 500 ticks: above the earlier ISN plus a small request and
	 * its FIN, and not by more than the time allows (30 s, for a loaded
	 * machine's sleep). */
	WR_CHECK(wr_tcp_seq_gt(i1, i0 + 400));
	WR_CHECK(i1 - i0 < 30u * 250000u);
}

/* Other tuples draw other offsets: of 4096 tuples at one instant, about
 * half of the ISNs have each bit set, and no two are equal. */
static void
test_spread(void)
{
	static uint32_t isn[4096];
	struct wr_tcp_isn k;
	struct wr_tcp_tuple t, t6;
	unsigned int i, j, bit, ones;

	wr_tcp_isn_key_init(&k, WR_TCP_ISN_BOOT_ID);
	wr_tcp_isn_clock(&k, 0);
	for (i = 0; i < 4096; i++) {
		t = tuple(0x010012c6u + ((i >> 10) << 24),
			(uint16_t)(1024 + (i & 1023)), 80);
		isn[i] = wr_tcp_isn_of(&k, &t, 0);
	}
	for (bit = 0; bit < 32; bit++) {
		for (ones = 0, i = 0; i < 4096; i++)
			ones += (isn[i] >> bit) & 1;
		WR_CHECK(ones > 1800 && ones < 2300);
	}
	for (i = 0; i < 4096; i++)
		for (j = i + 1; j < 4096; j++)
			WR_CHECK(isn[i] != isn[j]);
	/* The remote port and IPv6 addresses count too. */
	t = tuple(0x010012c6u, 40000, 80);
	t6 = tuple(0x010012c6u, 40000, 8080);
	WR_CHECK(wr_tcp_isn_of(&k, &t, 0) != wr_tcp_isn_of(&k, &t6, 0));
	t6 = t;
	t6.family = WR_TCP_IPV6;
	t6.raddr[15] = 1;
	WR_CHECK(wr_tcp_isn_of(&k, &t, 0) != wr_tcp_isn_of(&k, &t6, 0));
}

/* The key is secret-derived and differs with the boot id; a missing
 * file gives a random key of the process's own. */
static void
test_key(void)
{
	char path[] = "/tmp/wr_isn_XXXXXX";
	struct wr_tcp_isn a, b, c;
	int fd = mkstemp(path);
	FILE *f;

	WR_CHECK(fd >= 0);
	f = fdopen(fd, "w");
	fputs("0d9c6a1e-4a63-4a6e-9a83-6f0a3c1e2b11\n", f);
	fclose(f);
	WR_CHECK_U64(wr_tcp_isn_key_init(&a, path), 0);
	WR_CHECK_U64(wr_tcp_isn_key_init(&b, WR_TCP_ISN_BOOT_ID), 0);
	WR_CHECK(a.k0 != b.k0 || a.k1 != b.k1);
	unlink(path);
	WR_CHECK_U64(wr_tcp_isn_key_init(&c, path), 1);
	WR_CHECK(c.k0 != a.k0 && c.k0 != b.k0);
}

int
main(void)
{
	WR_TEST_RUN(test_siphash_vectors);
	WR_TEST_RUN(test_monotonic);
	WR_TEST_RUN(test_spread);
	WR_TEST_RUN(test_key);
	return wr_test_summary();
}
