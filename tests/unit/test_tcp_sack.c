/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for the receiver's side of SACK (RFC 2018) in lib/tcp:
 * SACK-permitted offered in our SYN, answered in a SYN,ACK only to a SYN
 * that offered it; once both did, every ACK without payload sent while
 * out-of-order ranges exist carries them as SACK blocks, the range of the
 * latest segment first; across 2^32; nothing for data past the window;
 * and the option bytes through wire.c's builder and parser. Expected
 * blocks are worked out here from the segments sent, and compared with
 * the connection's own ranges too.
 */
#include <string.h>

#include "tcp/tcp.h"
#include "tcp/wire.h"
#include "tcp_util.h"
#include "wr_test.h"

/* A SYN,ACK of irs that acknowledges iss, MSS 1000, sack_ok as given. */
static struct wr_tcp_seg
synack(uint32_t irs, uint32_t iss, uint8_t sack_ok)
{
	struct wr_tcp_seg s = tseg(irs, iss + 1, WR_TCP_SYN | WR_TCP_ACK, 0,
		65535);

	s.mss_bytes = 1000;
	s.sack_ok = sack_ok;
	return s;
}

/* Active open: our SYN offers SACK unless the configuration says not;
 * SACK is agreed only when the SYN,ACK answers it. */
static void
test_active(void)
{
	struct wr_tcp_cfg cfg = tcfg(1000, 0);
	struct wr_tcp_conn c;
	struct wr_tcp_out out;
	struct wr_tcp_seg s;
	int peer;

	for (peer = 0; peer < 2; peer++) {
		wr_tcp_connect(&c, &cfg, 0, &out);
		WR_CHECK_U64(out.nb_segs, 1);
		WR_CHECK_U64(out.segs[0].sack_ok, 1);
		WR_CHECK_U64(out.segs[0].nb_sack, 0);
		s = synack(5000, 1000, (uint8_t)peer);
		wr_tcp_input(&c, &s, 1000, &out);
		WR_CHECK_U64(c.state, WR_TCP_ESTABLISHED);
		WR_CHECK_U64(c.sack_ok, peer);
		/* the ACK of the handshake carries no SACK-permitted */
		WR_CHECK_U64(out.nb_segs, 1);
		WR_CHECK_U64(out.segs[0].sack_ok, 0);
	}
	cfg.no_sack = 1;
	wr_tcp_connect(&c, &cfg, 0, &out);
	WR_CHECK_U64(out.segs[0].sack_ok, 0);
	s = synack(5000, 1000, 1);
	wr_tcp_input(&c, &s, 1000, &out);
	WR_CHECK_U64(c.sack_ok, 0);
	/* an RTO's SYN again offers what the first did */
	cfg.no_sack = 0;
	wr_tcp_connect(&c, &cfg, 0, &out);
	wr_tcp_timeout(&c, c.rto_us, &out);
	WR_CHECK_U64(out.nb_segs, 1);
	WR_CHECK_U64(out.segs[0].flags, WR_TCP_SYN);
	WR_CHECK_U64(out.segs[0].sack_ok, 1);
}

/* Passive open: the SYN,ACK answers SACK-permitted only to a SYN that
 * carried it, and only when we offer it at all. */
static void
test_passive(void)
{
	struct wr_tcp_cfg cfg = tcfg(1000, 0);
	struct wr_tcp_conn c;
	struct wr_tcp_out out;
	struct wr_tcp_seg s;
	int peer, ours;

	for (ours = 0; ours < 2; ours++) {
		for (peer = 0; peer < 2; peer++) {
			cfg.no_sack = (uint8_t)!ours;
			s = tseg(5000, 0, WR_TCP_SYN, 0, 65535);
			s.mss_bytes = 1460;
			s.sack_ok = (uint8_t)peer;
			wr_tcp_accept(&c, &cfg, &s, 0, &out);
			WR_CHECK_U64(out.nb_segs, 1);
			WR_CHECK_U64(out.segs[0].flags,
				WR_TCP_SYN | WR_TCP_ACK);
			WR_CHECK_U64(out.segs[0].sack_ok, ours && peer);
			WR_CHECK_U64(c.sack_ok, ours && peer);
			/* the SYN,ACK sent again says the same */
			wr_tcp_timeout(&c, c.rto_us, &out);
			WR_CHECK_U64(out.nb_segs, 1);
			WR_CHECK_U64(out.segs[0].sack_ok, ours && peer);
		}
	}
}

/*
 * Data of n bytes at rcv + off; the ACK it draws (the last segment of
 * out) must carry the blocks want[0..nb) in that order, and they must be
 * the connection's ranges (each block one of c->ooo).
 */
static void
feed(struct wr_tcp_conn *c, uint32_t rcv, uint32_t off, uint32_t n,
	const uint32_t *want, uint32_t nb)
{
	struct wr_tcp_seg s = tseg(rcv + off, 1001, WR_TCP_ACK, n, 65535);
	const struct wr_tcp_seg *a;
	struct wr_tcp_out out;
	uint32_t i, k, found;

	wr_tcp_input(c, &s, 2000, &out);
	WR_CHECK_U64(out.nb_segs, 1);
	if (out.nb_segs != 1)
		return;
	a = &out.segs[0];
	WR_CHECK_U64(a->len_bytes, 0);
	WR_CHECK_U64(a->nb_sack, nb);
	for (i = 0; i < nb && i < a->nb_sack; i++) {
		WR_CHECK_U64(a->sack[i].left, rcv + want[2 * i]);
		WR_CHECK_U64(a->sack[i].right, rcv + want[2 * i + 1]);
		found = 0;
		for (k = 0; k < WR_TCP_OOO_RANGES; k++)
			found += c->ooo[k].start == a->sack[i].left &&
				c->ooo[k].end == a->sack[i].right;
		WR_CHECK_U64(found, 1);
	}
}

/*
 * Blocks follow the ranges, the latest first (RFC 2018 4), with the
 * peer's sequence numbers crossing 2^32 in the middle of them; a fourth
 * range does not fit (the receiver forgets it) and is not reported; data
 * wholly past the window draws an ACK without a block for it; the ranges
 * taken by rcv_nxt leave the blocks.
 */
static void
test_blocks(void)
{
	const uint32_t irs = 0xfffff000u, rcv = irs + 1;   /* wraps at +4095 */
	const uint32_t b1[] = { 2000, 3000 };
	const uint32_t b2[] = { 5000, 6000, 2000, 3000 };
	const uint32_t b3[] = { 4000, 4500, 2000, 3000, 5000, 6000 };
	const uint32_t b4[] = { 2000, 3500, 4000, 4500, 5000, 6000 };
	const uint32_t b5[] = { 2000, 3500, 4000, 4500, 5000, 6000 };
	const uint32_t b6[] = { 4000, 4500, 5000, 6000 };
	const uint32_t b7[] = { 6500, 7000, 4000, 4500, 5000, 6000 };
	const uint32_t b8[] = { 6500, 7000, 5000, 6000 };
	const uint32_t b9[] = { 6500, 7000 };
	struct wr_tcp_cfg cfg = tcfg(1000, 0);
	struct wr_tcp_conn c;
	struct wr_tcp_out out;
	struct wr_tcp_seg s;

	wr_tcp_connect(&c, &cfg, 0, &out);
	s = synack(irs, 1000, 1);
	wr_tcp_input(&c, &s, 1000, &out);
	WR_CHECK_U64(c.sack_ok, 1);
	feed(&c, rcv, 2000, 1000, b1, 1);
	feed(&c, rcv, 5000, 1000, b2, 2);     /* the range of 2^32 + 904 */
	feed(&c, rcv, 4000, 500, b3, 3);
	feed(&c, rcv, 3000, 500, b4, 3);      /* merged into the lowest */
	feed(&c, rcv, 7000, 500, b5, 3);      /* a fourth: not kept */
	feed(&c, rcv, 70000, 500, b5, 3);     /* past the 64 KB window */
	feed(&c, rcv, 0, 1000, b5, 3);        /* in order: the holes remain */
	WR_CHECK_U64(c.rcv_nxt, rcv + 1000);
	feed(&c, rcv, 1000, 1000, b6, 2);     /* reaches 2000..3500 */
	WR_CHECK_U64(c.rcv_nxt, rcv + 3500);
	feed(&c, rcv, 6500, 500, b7, 3);      /* the latest is the highest */
	feed(&c, rcv, 3500, 500, b8, 2);      /* it moved down one */
	WR_CHECK_U64(c.rcv_nxt, rcv + 4500);
	feed(&c, rcv, 4500, 500, b9, 1);
	WR_CHECK_U64(c.rcv_nxt, rcv + 6000);
	feed(&c, rcv, 6000, 500, NULL, 0);    /* all in: no block */
	WR_CHECK_U64(c.rcv_nxt, rcv + 7000);
	WR_CHECK_U64(c.nb_rx_delivered_bytes, 7000);
}

/* Without SACK agreed, the same holes draw ACKs without blocks. */
static void
test_not_agreed(void)
{
	struct wr_tcp_cfg cfg = tcfg(1000, 0);
	struct wr_tcp_conn c;
	struct wr_tcp_out out;
	struct wr_tcp_seg s;

	wr_tcp_connect(&c, &cfg, 0, &out);
	s = synack(5000, 1000, 0);
	wr_tcp_input(&c, &s, 1000, &out);
	feed(&c, 5001, 2000, 1000, NULL, 0);
	feed(&c, 5001, 4000, 1000, NULL, 0);
	WR_CHECK(c.ooo[1].start != c.ooo[1].end);
}

/* The ACK's blocks through wire.c: built, parsed back, equal; and the
 * SYN's SACK-permitted with MSS and window scale. */
static void
test_wire(void)
{
	struct wr_tcp_tuple t;
	struct wr_tcp_seg s;
	struct wr_tcp_tx tx;
	struct wr_tcp_rx rx;
	uint8_t buf[256];
	int n, i;

	memset(&t, 0, sizeof(t));
	t.family = WR_TCP_IPV4;
	t.lport = 1;
	t.rport = 2;
	memset(&tx, 0, sizeof(tx));
	tx.tuple = &t;
	tx.seg = &s;
	for (i = 0; i <= WR_TCP_SACK_MAX; i++) {
		s = tseg(7, 8, WR_TCP_ACK, 0, 100);
		s.nb_sack = (uint8_t)i;
		for (n = 0; n < i; n++) {
			s.sack[n].left = 0xfffffff0u + 1000u * (uint32_t)n;
			s.sack[n].right = s.sack[n].left + 500;
		}
		n = wr_tcp_wire_build(&tx, buf, sizeof(buf));
		WR_CHECK_U64(n, 40 + (i > 0 ? 4 + 8 * i : 0));
		WR_CHECK_U64(wr_tcp_wire_parse(buf, (size_t)n, &rx), 0);
		WR_CHECK(wr_tcp_wire_csum_ok(buf, (size_t)n));
		WR_CHECK_U64(rx.seg.nb_sack, i);
		WR_CHECK(memcmp(rx.seg.sack, s.sack,
			sizeof(s.sack[0]) * (size_t)i) == 0);
		WR_CHECK_U64(rx.seg.sack_ok, 0);
	}
	s = tseg(7, 0, WR_TCP_SYN, 0, 100);
	s.mss_bytes = 1460;
	s.wscale = 7;
	s.sack_ok = 1;
	n = wr_tcp_wire_build(&tx, buf, sizeof(buf));
	WR_CHECK_U64(n, 40 + 12);
	WR_CHECK_U64(wr_tcp_wire_parse(buf, (size_t)n, &rx), 0);
	WR_CHECK_U64(rx.seg.sack_ok, 1);
	WR_CHECK_U64(rx.seg.mss_bytes, 1460);
	WR_CHECK_U64(rx.seg.wscale, 7);
	/* options past the header's 40 bytes are refused */
	s.nb_sack = WR_TCP_SACK_MAX;
	WR_CHECK(wr_tcp_wire_build(&tx, buf, sizeof(buf)) < 0);
}

int
main(void)
{
	WR_TEST_RUN(test_active);
	WR_TEST_RUN(test_passive);
	WR_TEST_RUN(test_blocks);
	WR_TEST_RUN(test_not_agreed);
	WR_TEST_RUN(test_wire);
	return wr_test_summary();
}
