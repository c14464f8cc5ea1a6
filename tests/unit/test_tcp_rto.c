/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for lib/tcp/rto.c: RFC 6298's formulas, worked by hand here
 * (the expected values are this file's arithmetic, not the module's).
 */
#include <string.h>

#include "tcp/rto.h"
#include "wr_test.h"

/* RFC 6298 2.1: 1 s before any sample. */
static void
test_initial(void)
{
	struct wr_tcp_conn c;

	memset(&c, 0xff, sizeof(c));
	wr_tcp_rto_init(&c);
	WR_CHECK_U64(c.rto_us, 1000000);
	WR_CHECK_U64(c.srtt_us, 0);
	WR_CHECK_U64(c.nb_retries, 0);
}

/* RFC 6298 2.2 then 2.3, with numbers large enough to pass the minimum. */
static void
test_samples(void)
{
	struct wr_tcp_conn c;

	wr_tcp_rto_init(&c);
	wr_tcp_rto_sample(&c, 100000);
	/* SRTT 100000, RTTVAR 50000, RTO 100000 + 200000 */
	WR_CHECK_U64(c.srtt_us, 100000);
	WR_CHECK_U64(c.rttvar_us, 50000);
	WR_CHECK_U64(c.rto_us, 300000);
	wr_tcp_rto_sample(&c, 180000);
	/* RTTVAR = 3/4 * 50000 + 1/4 * 80000 = 57500;
	 * SRTT = 7/8 * 100000 + 1/8 * 180000 = 110000; RTO = 110000 + 230000 */
	WR_CHECK_U64(c.rttvar_us, 57500);
	WR_CHECK_U64(c.srtt_us, 110000);
	WR_CHECK_U64(c.rto_us, 340000);
}

/* A test bed's microsecond RTT: the RTO stays at its lower bound. */
static void
test_min_bound(void)
{
	struct wr_tcp_conn c;
	int i;

	wr_tcp_rto_init(&c);
	for (i = 0; i < 50; i++)
		wr_tcp_rto_sample(&c, 20);
	WR_CHECK_U64(c.rto_us, WR_TCP_RTO_MIN_US);
	WR_CHECK(c.srtt_us >= 19 && c.srtt_us <= 21);
	wr_tcp_rto_sample(&c, 0);        /* a zero sample keeps "sampled" */
	WR_CHECK(c.srtt_us > 0);
}

/*
 * RFC 6298 5.5: each expiry doubles the RTO, up to 60 s; after the retry
 * bound the connection fails; a new sample (5.7) resets the count.
 */
static void
test_backoff_to_bound(void)
{
	struct wr_tcp_conn c;
	uint32_t want = 1000000;
	unsigned int i;

	wr_tcp_rto_init(&c);
	for (i = 1; i <= WR_TCP_RTO_MAX_RETRIES; i++) {
		WR_CHECK(wr_tcp_rto_backoff(&c));
		want = want * 2 > 60000000 ? 60000000 : want * 2;
		WR_CHECK_U64(c.rto_us, want);
		WR_CHECK_U64(c.nb_retries, i);
	}
	WR_CHECK_U64(c.rto_us, 60000000);     /* 1 s * 2^8 capped */
	WR_CHECK(!wr_tcp_rto_backoff(&c));    /* one more: the connection fails */
	wr_tcp_rto_sample(&c, 100000);
	WR_CHECK_U64(c.nb_retries, 0);
	WR_CHECK(wr_tcp_rto_backoff(&c));
}

int
main(void)
{
	WR_TEST_RUN(test_initial);
	WR_TEST_RUN(test_samples);
	WR_TEST_RUN(test_min_bound);
	WR_TEST_RUN(test_backoff_to_bound);
	return wr_test_summary();
}
