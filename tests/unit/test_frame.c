/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests for frame.c: byte-exact templates and the RX classifier. */
#include <string.h>

#include "base/frame.h"
#include "wr_test.h"
#include "wr_testpkt.h"

static void
check_untagged(uint32_t size)
{
	static uint8_t buf[9018];
	static const uint8_t head[] = {
		0x02, 0, 0, 0, 0, 0x02, 0x02, 0, 0, 0, 0, 0x01, 0x08, 0x00,
		0x45, 0x00,
	};
	struct wr_frame_spec s;
	struct wr_frame_layout lay;
	uint32_t ip_len = size - 4 - 14;

	wr_test_spec_default(&s, size);
	memset(buf, 0xee, sizeof(buf));
	WR_CHECK_U64(wr_frame_build(&s, buf, sizeof(buf), &lay), 0);
	WR_CHECK_U64(lay.data_len, size - 4);
	WR_CHECK(memcmp(buf, head, sizeof(head)) == 0);
	WR_CHECK_U64((unsigned)(buf[16] << 8 | buf[17]), ip_len);  /* total length */
	WR_CHECK_U64(buf[22], 64);                                   /* TTL */
	WR_CHECK_U64(buf[23], 17);                                   /* UDP */
	WR_CHECK_U64(wr_test_fold(wr_test_sum(buf + 14, 20, 0)), 0xffff);               /* valid */
	WR_CHECK(memcmp(buf + 26, "\xc6\x12\x00\x01\xc6\x13\x00\x01", 8) == 0);
	WR_CHECK_U64((unsigned)(buf[34] << 8 | buf[35]), 1024);
	WR_CHECK_U64((unsigned)(buf[36] << 8 | buf[37]), 5001);
	WR_CHECK_U64((unsigned)(buf[38] << 8 | buf[39]), ip_len - 20); /* UDP len */
	WR_CHECK_U64((unsigned)(buf[40] << 8 | buf[41]), 0);          /* no cksum */
	WR_CHECK_U64(lay.th_off, 42);
	WR_CHECK_U64(lay.udp_sport_off, 34);
	WR_CHECK(memcmp(buf + 42, "WRH1\x11\x00", 6) == 0);           /* magic, stream */
	if (size > 64)  /* 64 B: the test header fills the frame */
		WR_CHECK_U64(buf[size - 5], (uint8_t)(size - 5)); /* pattern to the end */
	WR_CHECK_U64(buf[size - 4], 0xee);                            /* nothing past it */
}

static void
test_sizes(void)
{
	check_untagged(64);
	check_untagged(128);
	check_untagged(1518);
	check_untagged(9018);
}

static void
test_vlan(void)
{
	static uint8_t buf[128];
	struct wr_frame_spec s;
	struct wr_frame_layout lay;

	wr_test_spec_default(&s, 68);
	s.vlan_id = 100;
	WR_CHECK_U64(wr_frame_min_size(true), 68);
	WR_CHECK_U64(wr_frame_build(&s, buf, sizeof(buf), &lay), 0);
	WR_CHECK(memcmp(buf + 12, "\x81\x00\x00\x64\x08\x00", 6) == 0);
	WR_CHECK_U64(lay.th_off, 46);
	WR_CHECK_U64(wr_test_fold(wr_test_sum(buf + 18, 20, 0)), 0xffff);
	s.size = 64;
	WR_CHECK(wr_frame_build(&s, buf, sizeof(buf), &lay) < 0);
}

static void
test_too_small(void)
{
	static uint8_t buf[64];
	struct wr_frame_spec s;
	struct wr_frame_layout lay;

	wr_test_spec_default(&s, 63);
	WR_CHECK(wr_frame_build(&s, buf, sizeof(buf), &lay) < 0);
	wr_test_spec_default(&s, 128);
	WR_CHECK(wr_frame_build(&s, buf, sizeof(buf), &lay) < 0); /* buffer */
}

static void
test_classify(void)
{
	static uint8_t buf[1514];
	struct wr_frame_spec s;
	struct wr_frame_layout lay;
	struct wr_frame_rx rx;
	struct wr_test_hdr th;

	wr_test_spec_default(&s, 1518);
	wr_frame_build(&s, buf, sizeof(buf), &lay);
	th.magic = WR_FRAME_MAGIC;
	th.stream_id = 17;
	th.seq = 0x0102030405060708ULL;
	th.tsc_lo = 99;
	memcpy(buf + lay.th_off, &th, sizeof(th));
	WR_CHECK_U64(wr_frame_classify(buf, 1514, &rx), WR_FRAME_OWN);
	WR_CHECK_U64(rx.seq, 0x0102030405060708ULL);
	WR_CHECK_U64(rx.stream_id, 17);
	WR_CHECK_U64(rx.tsc_lo, 99);
	/* Truncated: the IP length no longer matches. */
	WR_CHECK_U64(wr_frame_classify(buf, 1000, &rx), WR_FRAME_MALFORMED);
	WR_CHECK_U64(wr_frame_classify(buf, lay.th_off + 10, &rx), WR_FRAME_MALFORMED);
	/* Too short to hold the signature, or no signature: foreign. */
	WR_CHECK_U64(wr_frame_classify(buf, lay.th_off + 2, &rx), WR_FRAME_FOREIGN);
	WR_CHECK_U64(wr_frame_classify(buf, 10, &rx), WR_FRAME_FOREIGN);
	buf[lay.th_off] ^= 1;
	WR_CHECK_U64(wr_frame_classify(buf, 1514, &rx), WR_FRAME_FOREIGN);
	buf[lay.th_off] ^= 1;
	buf[12] = 0x86;  /* IPv6 ethertype */
	WR_CHECK_U64(wr_frame_classify(buf, 1514, &rx), WR_FRAME_FOREIGN);
}

/*
 * wr_frame_own4 (RX's fast path) and wr_frame_classify agree on frame at
 * buf of len bytes: the fast path takes exactly the own untagged IPv4
 * frames, with the same fields. Returns 1 when they disagree.
 */
static int
own4_disagrees(const uint8_t *frame, uint32_t len)
{
	struct wr_frame_rx a = { 0 }, b = { 0 };
	bool fast = wr_frame_own4(frame, len, &a);
	bool full = wr_frame_classify(frame, len, &b) == WR_FRAME_OWN &&
		frame[12] == 0x08 && frame[13] == 0x00;

	return fast != full || (fast && (a.stream_id != b.stream_id ||
		a.seq != b.seq || a.tsc_lo != b.tsc_lo));
}

/*
 * The fast path against the whole classification on an IPv4, a tagged and
 * an IPv6 frame, every length, and every byte of the headers changed.
 */
static void
test_own4(void)
{
	static const uint8_t flips[] = { 0x01, 0x80, 0xff };
	static uint8_t frame[1514];
	struct wr_frame_spec s;
	struct wr_frame_layout lay;
	unsigned int v, len, pos, f, bad = 0, nb_own = 0;

	for (v = 0; v < 3; v++) {
		wr_test_spec_default(&s, v == 2 ? 84 : v == 1 ? 68 : 64);
		s.vlan_id = v == 1 ? 7 : 0;
		s.ipv6 = v == 2;
		WR_CHECK(wr_frame_build(&s, frame, sizeof(frame), &lay) == 0);
		for (len = 0; len <= lay.data_len; len++)
			bad += own4_disagrees(frame, len);
		nb_own += wr_frame_classify(frame, lay.data_len,
			&(struct wr_frame_rx){ 0 }) == WR_FRAME_OWN;
		for (pos = 0; pos < lay.th_off + WR_FRAME_TH_LEN; pos++)
			for (f = 0; f < RTE_DIM(flips); f++) {
				frame[pos] ^= flips[f];
				bad += own4_disagrees(frame, lay.data_len);
				frame[pos] ^= flips[f];
			}
	}
	WR_CHECK_U64(nb_own, 3);
	WR_CHECK_U64(bad, 0);
}

int
main(void)
{
	WR_TEST_RUN(test_sizes);
	WR_TEST_RUN(test_vlan);
	WR_TEST_RUN(test_too_small);
	WR_TEST_RUN(test_classify);
	WR_TEST_RUN(test_own4);
	return wr_test_summary();
}
