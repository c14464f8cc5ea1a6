/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests for units.c: wire-rate maths and number parsing. */
#include <errno.h>

#include "base/units.h"
#include "wr_test.h"

static void
test_line_rate(void)
{
	/* 10 GbE: 14.88 Mpps at 64 B, 812.74 kpps at 1518 B (DESIGN.md). */
	WR_CHECK_NEAR(wr_units_line_rate_pps(10000000000ULL, 64), 14880952.38, 0.01);
	WR_CHECK_NEAR(wr_units_line_rate_pps(10000000000ULL, 1518), 812743.82, 0.01);
	WR_CHECK_NEAR(wr_units_line_rate_pps(1000000000ULL, 9018), 13830.49, 0.01);
	WR_CHECK_NEAR(wr_units_line_rate_pps(1000000000ULL, 0), 0.0, 0.0);
	WR_CHECK_U64(wr_units_wire_bits(64), 672);
}

static void
test_gbps(void)
{
	/* Line rate back to bits: L1 gives the link speed, L2 64/84 of it. */
	double pps = wr_units_line_rate_pps(10000000000ULL, 64);

	WR_CHECK_NEAR(wr_units_l1_bps(pps, 64), 1e10, 1.0);
	WR_CHECK_NEAR(wr_units_l2_bps(pps, 64), 1e10 * 64.0 / 84.0, 1.0);
	WR_CHECK_NEAR(wr_units_l2_bps(1e6, 1518), 1518e6 * 8.0, 1e-3);
}

static void
test_rate(void)
{
	/* 1.5 s measured on a 2 GHz TSC: rate uses the real interval. */
	WR_CHECK_NEAR(wr_units_rate(3000000, 3000000000ULL, 2000000000ULL), 2e6, 1e-6);
	WR_CHECK_NEAR(wr_units_rate(5, 0, 2000000000ULL), 0.0, 0.0);
}

static void
test_parse_u64(void)
{
	uint64_t v = 7;

	WR_CHECK_U64(wr_units_parse_u64("64", 64, 9018, &v), 0);
	WR_CHECK_U64(v, 64);
	WR_CHECK_U64(wr_units_parse_u64("10k", 0, UINT64_MAX, &v), 0);
	WR_CHECK_U64(v, 10000);
	WR_CHECK_U64(wr_units_parse_u64("2M", 0, UINT64_MAX, &v), 0);
	WR_CHECK_U64(v, 2000000);
	v = 7;
	WR_CHECK(wr_units_parse_u64("63", 64, 9018, &v) == -ERANGE);
	WR_CHECK(wr_units_parse_u64("9019", 64, 9018, &v) == -ERANGE);
	WR_CHECK(wr_units_parse_u64("-1", 0, 10, &v) == -EINVAL);
	WR_CHECK(wr_units_parse_u64("12x", 0, 100, &v) == -EINVAL);
	WR_CHECK(wr_units_parse_u64("", 0, 100, &v) == -EINVAL);
	WR_CHECK(wr_units_parse_u64("99999999999999999999", 0, UINT64_MAX, &v) == -ERANGE);
	WR_CHECK(wr_units_parse_u64("20000000000G", 0, UINT64_MAX, &v) == -ERANGE);
	WR_CHECK_U64(v, 7);
}

static void
test_parse_duration(void)
{
	uint64_t ms = 0;

	WR_CHECK_U64(wr_units_parse_duration_ms("10", &ms), 0);
	WR_CHECK_U64(ms, 10000);
	WR_CHECK_U64(wr_units_parse_duration_ms("2.5s", &ms), 0);
	WR_CHECK_U64(ms, 2500);
	WR_CHECK_U64(wr_units_parse_duration_ms("500ms", &ms), 0);
	WR_CHECK_U64(ms, 500);
	WR_CHECK_U64(wr_units_parse_duration_ms("1h", &ms), 0);
	WR_CHECK_U64(ms, 3600000);
	WR_CHECK(wr_units_parse_duration_ms("0.0001s", &ms) == -EINVAL);
	WR_CHECK(wr_units_parse_duration_ms("5parsecs", &ms) == -EINVAL);
	WR_CHECK(wr_units_parse_duration_ms("-3", &ms) == -EINVAL);
}

/* Columns keep their width whatever the figure (Gb/s above 10000). */
static void
test_fit(void)
{
	char b[32];

	WR_CHECK_STR(wr_units_fit(14.8809, 8, 3, b, sizeof(b)), "  14.881");
	WR_CHECK_STR(wr_units_fit(9999.5, 8, 3, b, sizeof(b)), "9999.500");
	WR_CHECK_STR(wr_units_fit(12345.678, 8, 3, b, sizeof(b)), "12345.68");
	WR_CHECK_STR(wr_units_fit(123456.7, 8, 3, b, sizeof(b)), "123456.7");
	WR_CHECK_STR(wr_units_fit(99999999.0, 8, 3, b, sizeof(b)), "99999999");
	WR_CHECK(strlen(wr_units_fit(1.5e12, 8, 3, b, sizeof(b))) == 8);
	WR_CHECK_STR(b, "1.50e+12");
	WR_CHECK_STR(wr_units_fit(0, 9, 3, b, sizeof(b)), "    0.000");
}

int
main(void)
{
	WR_TEST_RUN(test_line_rate);
	WR_TEST_RUN(test_gbps);
	WR_TEST_RUN(test_rate);
	WR_TEST_RUN(test_parse_u64);
	WR_TEST_RUN(test_parse_duration);
	WR_TEST_RUN(test_fit);
	return wr_test_summary();
}
