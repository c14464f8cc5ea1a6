/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for lib/tcp/wire.c: build then parse gives back the segment
 * and the tuple (turned round: the receiver's local end is the sender's
 * remote), both families, pattern and caller payloads, random fields;
 * the checksum checked by this file's own RFC 1071 sum; room and length
 * errors. Scapy checks the same code from outside (test_tcp_wire_scapy.py).
 */
#include <errno.h>

#include "tcp/wire.h"
#include "wr_test.h"
#include "wr_testpkt.h"

/* RFC 1071 sum of a packet's TCP part with its pseudo-header, by hand. */
static uint16_t
ref_tcp_csum(const uint8_t *p, size_t len)
{
	size_t hdr = p[0] >> 4 == 4 ? 20 : 40, alen = hdr == 20 ? 4 : 16, i;
	const uint8_t *addrs = p + (hdr == 20 ? 12 : 8);
	uint64_t sum = 6 + (len - hdr);

	for (i = 0; i < 2 * alen; i += 2)
		sum += (uint64_t)addrs[i] * 256 + addrs[i + 1];
	for (i = hdr; i < len; i++)
		sum += (i - hdr) % 2 == 0 ? (uint64_t)p[i] * 256 : p[i];
	while (sum > 0xffff)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)sum;
}

static void
rand_tuple(struct wr_tcp_tuple *t, uint64_t *s)
{
	uint64_t x = wr_test_prng(s);
	size_t i;

	memset(t, 0, sizeof(*t));
	t->family = x & 1 ? WR_TCP_IPV4 : WR_TCP_IPV6;
	for (i = 0; i < 16; i++) {
		t->laddr[i] = (uint8_t)wr_test_prng(s);
		t->raddr[i] = (uint8_t)wr_test_prng(s);
	}
	if (t->family == WR_TCP_IPV4) {
		memset(t->laddr + 4, 0, 12);
		memset(t->raddr + 4, 0, 12);
	}
	t->lport = (uint16_t)(x >> 8);
	t->rport = (uint16_t)(x >> 24);
}

static void
rand_seg(struct wr_tcp_seg *g, uint64_t *s)
{
	uint64_t x = wr_test_prng(s);
	unsigned int i;

	memset(g, 0, sizeof(*g));
	g->seq = (uint32_t)x;
	g->ack = (uint32_t)(x >> 32);
	x = wr_test_prng(s);
	g->flags = (uint8_t)(x & 0x3f);
	g->wnd_raw = (uint16_t)(x >> 8);
	g->mss_bytes = x & (1 << 24) ? (uint16_t)(x >> 32) | 1 : 0;
	g->wscale = x & (1 << 25) ? (uint8_t)((x >> 48) % 15) :
		WR_TCP_WSCALE_NONE;
	g->len_bytes = (uint32_t)((x >> 26) % 3000);
	g->stream_off = wr_test_prng(s);
	/* SACK-permitted and 0-4 blocks, as many as the 40 bytes hold */
	x = wr_test_prng(s);
	g->sack_ok = x & 1;
	g->nb_sack = (uint8_t)((x >> 1) % (WR_TCP_SACK_MAX + 1));
	while (g->nb_sack > 0 && (g->mss_bytes != 0 ? 4 : 0) +
			(g->wscale != WR_TCP_WSCALE_NONE ? 4 : 0) +
			(g->sack_ok ? 4 : 0) + 4 + 8 * g->nb_sack > 40)
		g->nb_sack--;
	for (i = 0; i < g->nb_sack; i++) {
		x = wr_test_prng(s);
		g->sack[i].left = (uint32_t)x;
		g->sack[i].right = (uint32_t)(x >> 32);
	}
}

/* One round trip: what parse reads is what build was given. */
static void
round_trip(const struct wr_tcp_tuple *t, const struct wr_tcp_seg *g,
	const uint8_t *payload)
{
	static uint8_t buf[4096], want[3000];
	struct wr_tcp_tx tx = { t, g, payload, 1234, 64, WR_TCP_CSUM_SW, {0} };
	struct wr_tcp_rx rx;
	int n = wr_tcp_wire_build(&tx, buf, sizeof(buf));

	WR_CHECK(n > 0 && (size_t)n == wr_tcp_wire_len(&tx));
	WR_CHECK(wr_tcp_wire_parse(buf, (size_t)n, &rx) == 0);
	WR_CHECK(memcmp(rx.tuple.laddr, t->raddr, 16) == 0 &&
		memcmp(rx.tuple.raddr, t->laddr, 16) == 0);
	WR_CHECK(rx.tuple.lport == t->rport && rx.tuple.rport == t->lport);
	WR_CHECK(rx.seg.seq == g->seq && rx.seg.ack == g->ack);
	WR_CHECK(rx.seg.flags == g->flags && rx.seg.wnd_raw == g->wnd_raw);
	WR_CHECK(rx.seg.mss_bytes == g->mss_bytes && rx.seg.wscale == g->wscale);
	WR_CHECK(rx.seg.sack_ok == g->sack_ok);
	WR_CHECK_U64(rx.seg.nb_sack, g->nb_sack);
	WR_CHECK(memcmp(rx.seg.sack, g->sack,
		g->nb_sack * sizeof(g->sack[0])) == 0);
	WR_CHECK_U64(rx.seg.len_bytes, g->len_bytes);
	if (payload == NULL) {
		wr_tcp_pattern_fill(want, 1234, g->stream_off, g->len_bytes);
		payload = want;
	}
	WR_CHECK(memcmp(buf + rx.payload_off, payload, g->len_bytes) == 0);
	WR_CHECK(wr_tcp_wire_csum_ok(buf, (size_t)n));
	WR_CHECK(wr_tcp_wire_csum_ok_rx(buf, &rx));
	WR_CHECK_U64(ref_tcp_csum(buf, (size_t)n), 0xffff);
	/* one bit off in the last byte: both checks see it */
	buf[n - 1] ^= 0x10;
	WR_CHECK(!wr_tcp_wire_csum_ok(buf, (size_t)n));
	WR_CHECK(!wr_tcp_wire_csum_ok_rx(buf, &rx));
}

static void
test_round_trips(void)
{
	static uint8_t span[3000];
	struct wr_tcp_tuple t;
	struct wr_tcp_seg g;
	uint64_t s = 42;
	int i;

	for (i = 0; i < 3000; i++)
		span[i] = (uint8_t)(i * 7);
	for (i = 0; i < 2000; i++) {
		rand_tuple(&t, &s);
		rand_seg(&g, &s);
		round_trip(&t, &g, i % 4 == 0 ? span : NULL);
	}
}

/* The fill (from a table) agrees with the byte formula, across the wraps
 * of the offset and of the table. */
static void
test_pattern_fill(void)
{
	static uint8_t buf[70000];
	uint64_t s = 5, off, nb_bad = 0;
	uint32_t seed;
	size_t len, i;
	int n;

	for (n = 0; n < 2000; n++) {
		seed = (uint32_t)wr_test_prng(&s);
		off = n % 2 ? wr_test_prng(&s) : UINT32_MAX - (n % 600);
		/* now and then longer than the pattern's table */
		len = (size_t)(wr_test_prng(&s) % (n % 50 ? 3000 : sizeof(buf)));
		wr_tcp_pattern_fill(buf, seed, off, len);
		for (i = 0; i < len; i++) {
			uint32_t x = (uint32_t)(off + i) + seed;

			nb_bad += buf[i] != (uint8_t)(x + 2 * (x >> 8));
		}
	}
	WR_CHECK_U64(nb_bad, 0);
}

/* The wide sum agrees with the byte-wise one: every alignment, odd and
 * even lengths, a carried-in sum, all-ones and all-zero bytes. */
static void
test_sum16(void)
{
	static uint8_t buf[3100];
	uint64_t s = 11, nb_bad = 0;
	size_t len, at, i;
	uint32_t in;
	int n;

	for (n = 0; n < 20000; n++) {
		at = (size_t)(wr_test_prng(&s) % 64);
		len = (size_t)(wr_test_prng(&s) % (n % 10 ? 40 : 3000));
		in = (uint32_t)(wr_test_prng(&s) % 0x3ffff);
		for (i = 0; i < len; i++)
			buf[at + i] = n % 97 == 1 ? 0xff : n % 97 == 2 ? 0 :
				(uint8_t)wr_test_prng(&s);
		nb_bad += wr_test_fold(wr_tcp_sum16(buf + at, len, in)) !=
			wr_test_fold(wr_test_sum(buf + at, (uint32_t)len, in));
	}
	WR_CHECK_U64(nb_bad, 0);
	WR_CHECK_U64(wr_test_fold(wr_tcp_sum16((const uint8_t *)"\x12\x34\x56", 3, 0)),
		0x1234 + 0x5600);
}

/* The pattern's sum from prefix sums agrees with a byte-wise sum of its
 * bytes: odd and even starts and lengths, runs longer than the table. */
static void
test_pattern_sum(void)
{
	static uint8_t buf[70000];
	uint64_t s = 17, off, nb_bad = 0;
	uint32_t seed;
	size_t len;
	int n;

	for (n = 0; n < 3000; n++) {
		seed = (uint32_t)wr_test_prng(&s);
		off = n % 2 ? wr_test_prng(&s) : UINT32_MAX - (n % 700);
		len = (size_t)(wr_test_prng(&s) % (n % 40 ? 9001 : sizeof(buf)));
		wr_tcp_pattern_fill(buf, seed, off, len);
		/* ones' complement: 0 and 0xffff are the same number */
		nb_bad += wr_test_fold(wr_tcp_pattern_sum(seed, off, len)) % 0xffff !=
			wr_test_fold(wr_test_sum(buf, (uint32_t)len, 0)) % 0xffff;
	}
	WR_CHECK_U64(nb_bad, 0);
}

/* The pattern as wire.h defines it, and its promise. */
static void
test_pattern(void)
{
	uint8_t b[4];
	uint64_t k;

	wr_tcp_pattern_fill(b, 0x01000000, 0xff, 4);
	/* x = 0x010000ff: 0xff + 2 * 0x010000 -> 0xff; then 0x01000100:
	 * 0x00 + 2 * 0x010001 -> 0x02; 0x01000101 -> 0x03 */
	WR_CHECK_U64(b[0], 0xff);
	WR_CHECK_U64(b[1], 0x02);
	WR_CHECK_U64(b[2], 0x03);
	WR_CHECK(wr_tcp_pattern_byte(0, UINT32_MAX) !=
		wr_tcp_pattern_byte(0, (uint64_t)UINT32_MAX + 1));
	for (k = 0; k < 1000000; k++)
		if (wr_tcp_pattern_byte(9, k) == wr_tcp_pattern_byte(9, k + 1))
			break;
	WR_CHECK_U64(k, 1000000);
	test_pattern_fill();
	test_sum16();
	test_pattern_sum();
}

/* Errors: no room, too long, a packet that is not TCP. */
static void
test_errors(void)
{
	struct wr_tcp_tuple t;
	struct wr_tcp_seg g;
	struct wr_tcp_tx tx = { &t, &g, NULL, 0, 64, WR_TCP_CSUM_SW, {0} };
	struct wr_tcp_rx rx;
	uint8_t buf[64];

	wr_tcp_tuple_set4(&t, 0x0100000a, 1, 0x0200000a, 2);
	memset(&g, 0, sizeof(g));
	g.wscale = WR_TCP_WSCALE_NONE;
	g.len_bytes = 25;
	WR_CHECK(wr_tcp_wire_build(&tx, buf, sizeof(buf)) == -ENOSPC);
	g.len_bytes = 70000;
	WR_CHECK(wr_tcp_wire_build(&tx, buf, sizeof(buf)) == -EINVAL);
	g.len_bytes = 0;
	WR_CHECK(wr_tcp_wire_build(&tx, buf, sizeof(buf)) == 40);
	buf[9] = 17;                              /* UDP */
	WR_CHECK(wr_tcp_wire_parse(buf, 40, &rx) == -EPROTONOSUPPORT);
	buf[9] = 6;
	buf[6] = 0x20;                            /* more fragments */
	WR_CHECK(wr_tcp_wire_parse(buf, 40, &rx) == -EPROTONOSUPPORT);
	buf[6] = 0x40;
	WR_CHECK(wr_tcp_wire_parse(buf, 39, &rx) == -EBADMSG);
	buf[0] = 0x55;
	WR_CHECK(wr_tcp_wire_parse(buf, 40, &rx) == -EPROTONOSUPPORT);
}

int
main(void)
{
	WR_TEST_RUN(test_round_trips);
	WR_TEST_RUN(test_pattern);
	WR_TEST_RUN(test_errors);
	return wr_test_summary();
}
