/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for lib/tcp/seq.h (sequence arithmetic modulo 2^32, RFC 9293
 * 3.4 and 3.10.7.4) and the size budget of struct wr_tcp_conn.
 */
#include <stdint.h>

#include "tcp/conn.h"
#include "tcp/seq.h"
#include "wr_test.h"

static void
test_order_plain(void)
{
	WR_CHECK(wr_tcp_seq_lt(1, 2));
	WR_CHECK(wr_tcp_seq_le(2, 2));
	WR_CHECK(!wr_tcp_seq_lt(2, 2));
	WR_CHECK(wr_tcp_seq_gt(3, 2));
	WR_CHECK(wr_tcp_seq_ge(3, 3));
	WR_CHECK_U64(wr_tcp_seq_max(5, 9), 9);
}

/* Across the wrap: 0xfffffff0 comes before 0x10 (a plain "<" says not). */
static void
test_order_wrap(void)
{
	uint32_t before = UINT32_C(0xfffffff0), after = UINT32_C(0x10);

	WR_CHECK(wr_tcp_seq_lt(before, after));
	WR_CHECK(wr_tcp_seq_le(before, after));
	WR_CHECK(wr_tcp_seq_gt(after, before));
	WR_CHECK(wr_tcp_seq_ge(after, before));
	WR_CHECK(!wr_tcp_seq_gt(before, after));
	WR_CHECK_U64(wr_tcp_seq_max(before, after), after);
	WR_CHECK_U64(wr_tcp_seq_max(after, before), after);
	/* 2^31 - 1 ahead is still "after"; the limit of the arithmetic */
	WR_CHECK(wr_tcp_seq_lt(before, before + INT32_MAX));
	WR_CHECK(wr_tcp_seq_lt(UINT32_MAX, 0));
}

static void
test_in_window(void)
{
	/* a window straddling 2^32: [0xfffffff0, 0x10) */
	uint32_t lo = UINT32_C(0xfffffff0), hi = UINT32_C(0x10);

	WR_CHECK(wr_tcp_seq_in(lo, lo, hi));
	WR_CHECK(wr_tcp_seq_in(UINT32_MAX, lo, hi));
	WR_CHECK(wr_tcp_seq_in(0, lo, hi));
	WR_CHECK(wr_tcp_seq_in(0xf, lo, hi));
	WR_CHECK(!wr_tcp_seq_in(hi, lo, hi));
	WR_CHECK(!wr_tcp_seq_in(lo - 1, lo, hi));
	WR_CHECK(!wr_tcp_seq_in(lo, lo, lo));     /* empty window */
}

/* RFC 9293 3.10.7.4, the four cases of segment acceptability. */
static void
test_acceptable(void)
{
	uint32_t nxt = UINT32_C(0xfffffffe);

	/* length 0, window 0: only seq == rcv_nxt */
	WR_CHECK(wr_tcp_seq_acceptable(nxt, 0, nxt, 0));
	WR_CHECK(!wr_tcp_seq_acceptable(nxt + 1, 0, nxt, 0));
	/* length 0, window > 0: seq inside the window */
	WR_CHECK(wr_tcp_seq_acceptable(nxt + 3, 0, nxt, 4));
	WR_CHECK(!wr_tcp_seq_acceptable(nxt + 4, 0, nxt, 4));
	WR_CHECK(!wr_tcp_seq_acceptable(nxt - 1, 0, nxt, 4));
	/* data, window 0: never */
	WR_CHECK(!wr_tcp_seq_acceptable(nxt, 1, nxt, 0));
	/* data, window > 0: first or last byte inside */
	WR_CHECK(wr_tcp_seq_acceptable(nxt, 100, nxt, 4));
	WR_CHECK(wr_tcp_seq_acceptable(nxt - 10, 11, nxt, 4)); /* old + new */
	WR_CHECK(!wr_tcp_seq_acceptable(nxt - 10, 10, nxt, 4)); /* all old */
	WR_CHECK(!wr_tcp_seq_acceptable(nxt + 4, 10, nxt, 4)); /* beyond */
}

/* The per-connection budget docs/tcp.md states. */
static void
test_conn_size(void)
{
	WR_CHECK(sizeof(struct wr_tcp_conn) <= WR_TCP_CONN_MAX_BYTES);
	WR_CHECK_U64(sizeof(struct wr_tcp_conn), 128);
}

int
main(void)
{
	WR_TEST_RUN(test_order_plain);
	WR_TEST_RUN(test_order_wrap);
	WR_TEST_RUN(test_in_window);
	WR_TEST_RUN(test_acceptable);
	WR_TEST_RUN(test_conn_size);
	return wr_test_summary();
}
