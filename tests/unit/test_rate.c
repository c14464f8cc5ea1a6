/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests for rate.c: parsing, conversion to pps and formatting. */
#include <errno.h>
#include <math.h>

#include "config/rate.h"
#include "wr_test.h"

#define LINK_10G 10000000000ULL

/* Parse s, expecting success with unit and value exactly. */
static void
ok(const char *s, enum wr_rate_unit unit, double value)
{
	struct wr_rate r = { WR_RATE_PCT, -1.0 };
	struct wr_error err;
	int rc = wr_rate_parse(s, &r, &err);

	if (rc != 0)
		fprintf(stderr, "'%s': %s\n", s, err.msg);
	WR_CHECK_U64(rc, 0);
	WR_CHECK_U64(r.unit, unit);
	WR_CHECK_NEAR(r.value, value, 0.0);
}

/* Parse s, expecting -EINVAL, msg in the message and *out untouched. */
static void
bad(const char *s, const char *msg)
{
	struct wr_rate r = { WR_RATE_PPS, 42.0 };
	struct wr_error err;

	WR_CHECK(wr_rate_parse(s, &r, &err) == -EINVAL);
	WR_CHECK_STR(err.msg, msg);
	/* Every message says what is accepted. */
	WR_CHECK_STR(err.msg, "expected e.g. 250kpps, 1.5Mpps, 9.5Gbps (layer 1)");
	WR_CHECK_U64(r.unit, WR_RATE_PPS);
	WR_CHECK_NEAR(r.value, 42.0, 0.0);
}

static void
test_parse_pps(void)
{
	ok("100000pps", WR_RATE_PPS, 100000.0);
	ok("250kpps", WR_RATE_PPS, 250000.0);
	ok("250Kpps", WR_RATE_PPS, 250000.0);
	ok("1.5Mpps", WR_RATE_PPS, 1500000.0);
	ok("1.5mpps", WR_RATE_PPS, 1500000.0);
	ok("14.88Mpps", WR_RATE_PPS, 14880000.0);
	ok("2Gpps", WR_RATE_PPS, 2e9);
	ok("0.5pps", WR_RATE_PPS, 0.5);
	ok(".5pps", WR_RATE_PPS, 0.5);
	ok("5.pps", WR_RATE_PPS, 5.0);
	ok("1PPS", WR_RATE_PPS, 1.0);
	ok("007pps", WR_RATE_PPS, 7.0);
	ok("0.0001pps", WR_RATE_PPS, 0.0001);
	ok("10Gpps", WR_RATE_PPS, 1e10);
	/* 15 significant digits: one rounding, as the compiler does. */
	ok("1.23456789012345Gpps", WR_RATE_PPS, 1234567890.12345);
	ok("0.000123456789012345Mpps", WR_RATE_PPS, 123.456789012345);
}

static void
test_parse_bps(void)
{
	ok("800Mbps", WR_RATE_BPS_L1, 800e6);
	ok("9.5Gbps", WR_RATE_BPS_L1, 9.5e9);
	ok("9.5gbps", WR_RATE_BPS_L1, 9.5e9);
	ok("1000bps", WR_RATE_BPS_L1, 1000.0);
	ok("64kbps", WR_RATE_BPS_L1, 64000.0);
	ok("10Tbps", WR_RATE_BPS_L1, 1e13);
	ok("l1:9.5Gbps", WR_RATE_BPS_L1, 9.5e9);
	ok("l2:9.5Gbps", WR_RATE_BPS_L2, 9.5e9);
	ok("L2:100Mbps", WR_RATE_BPS_L2, 100e6);
	ok("l2:1.25Gbps", WR_RATE_BPS_L2, 1.25e9);
}

static void
test_parse_pct_max(void)
{
	ok("50%", WR_RATE_PCT, 50.0);
	ok("100%", WR_RATE_PCT, 100.0);
	ok("0.1%", WR_RATE_PCT, 0.1);
	ok("99.999%", WR_RATE_PCT, 99.999);
	ok("max", WR_RATE_NONE, 0.0);
	ok("MAX", WR_RATE_NONE, 0.0);
	ok("unlimited", WR_RATE_NONE, 0.0);
}

static void
test_parse_errors(void)
{
	bad("", "empty");
	bad("-5pps", "cannot be negative");
	bad("l2:-1Gbps", "cannot be negative");
	bad("-inf", "cannot be negative");
	bad("abc", "no number");
	bad("nan", "no number");
	bad("NaNpps", "no number");
	bad("inf", "no number");
	bad("infinity", "no number");
	bad("+5pps", "no number");
	bad(" 5pps", "no number");
	bad(".pps", "no number");
	bad("pps", "no number");
	bad("l3:1Gbps", "no number");
	bad("1e6pps", "exponents are not accepted");
	bad("1E+6pps", "exponents are not accepted");
	bad("100", "no unit (pps, bps or %)");
	bad("l2:100", "no unit");
	bad("100xyz", "unknown unit 'xyz'");
	bad("5pps ", "unknown unit 'pps '");
	bad("5 pps", "unknown unit ' pps'");
	bad("1.2.3pps", "unknown unit '.3pps'");
	bad("10k", "unknown unit 'k'");
	bad("10Mbit", "unknown unit 'Mbit'");
	bad("10ppsx", "unknown unit 'ppsx'");
	bad("10%%", "unknown unit '%%'");
	bad("10GBps", "'GBps' counts bytes");
	bad("10Bps", "counts bytes");
	bad("0pps", "must be above zero");
	bad("0.000Gbps", "must be above zero");
	bad("0%", "must be above zero");
	bad("150%", "above 100% of line rate");
	bad("100.001%", "above 100% of line rate");
	bad("0.00001pps", "below the minimum of 0.0001");
	bad("0.00001%", "below the minimum");
	bad("20Gpps", "above the maximum of 1e+10 pps");
	bad("10000000001pps", "above the maximum of 1e+10 pps");
	bad("20Tbps", "above the maximum of 1e+13 bps");
	bad("1234567890123456pps", "more than 15 significant digits");
	bad("l2:50%", "the layer prefix 'l2:' applies to bit rates");
	bad("l1:100pps", "the layer prefix 'l1:' applies to bit rates");
}

static void
test_parse_args(void)
{
	struct wr_rate r = { WR_RATE_PPS, 3.0 };
	struct wr_error err;

	WR_CHECK(wr_rate_parse(NULL, &r, &err) == -EINVAL);
	WR_CHECK_STR(err.msg, "bad rate '(none)': empty");
	WR_CHECK(wr_rate_parse("1pps", NULL, &err) == -EINVAL);
	/* No error to fill: same answer. */
	WR_CHECK(wr_rate_parse("xyz", &r, NULL) == -EINVAL);
	WR_CHECK(wr_rate_parse("1pps", &r, NULL) == 0);
	/* A bad rate is the request's fault: class usage. */
	WR_CHECK(wr_rate_parse("xyz", &r, &err) == -EINVAL);
	WR_CHECK_U64(err.cls, WR_ERR_USAGE);
	WR_CHECK_U64(err.errnum, EINVAL);
	WR_CHECK_NEAR(r.value, 1.0, 0.0);
	/* The whole input is quoted. */
	WR_CHECK(wr_rate_parse("12qq", &r, &err) == -EINVAL);
	WR_CHECK_STR(err.msg, "bad rate '12qq': unknown unit 'qq'");
}

static void
test_to_pps(void)
{
	struct wr_rate r;
	double pps = -1.0;

	r = (struct wr_rate){ WR_RATE_PPS, 250000.0 };
	WR_CHECK_U64(wr_rate_to_pps(&r, 0, 0, &pps), 0);
	WR_CHECK_NEAR(pps, 250000.0, 0.0);
	/* 10 Gbps L1 at 64 B is line rate: 14.88 Mpps (RFC 2544). */
	r = (struct wr_rate){ WR_RATE_BPS_L1, 1e10 };
	WR_CHECK_U64(wr_rate_to_pps(&r, 64, 0, &pps), 0);
	WR_CHECK_NEAR(pps, 14880952.38, 0.01);
	/* The same bits at L2 carry more frames: 1e10 / 512. */
	r = (struct wr_rate){ WR_RATE_BPS_L2, 1e10 };
	WR_CHECK_U64(wr_rate_to_pps(&r, 64, 0, &pps), 0);
	WR_CHECK_NEAR(pps, 19531250.0, 1e-6);
	r = (struct wr_rate){ WR_RATE_BPS_L2, 9.5e9 };
	WR_CHECK_U64(wr_rate_to_pps(&r, 1518, 0, &pps), 0);
	WR_CHECK_NEAR(pps, 9.5e9 / (1518 * 8), 1e-6);
	r = (struct wr_rate){ WR_RATE_PCT, 100.0 };
	WR_CHECK_U64(wr_rate_to_pps(&r, 64, LINK_10G, &pps), 0);
	WR_CHECK_NEAR(pps, 14880952.38, 0.01);
	r = (struct wr_rate){ WR_RATE_PCT, 50.0 };
	WR_CHECK_U64(wr_rate_to_pps(&r, 1518, LINK_10G, &pps), 0);
	WR_CHECK_NEAR(pps, 812743.82 / 2, 0.01);
	/* 1 GbE as a virtual NIC label, 9018 B jumbo frames. */
	r = (struct wr_rate){ WR_RATE_PCT, 10.0 };
	WR_CHECK_U64(wr_rate_to_pps(&r, 9018, 1000000000ULL, &pps), 0);
	WR_CHECK_NEAR(pps, 1383.049, 0.001);
	r = (struct wr_rate){ WR_RATE_NONE, 0.0 };
	WR_CHECK_U64(wr_rate_to_pps(&r, 64, 0, &pps), 0);
	WR_CHECK(isinf(pps) && pps > 0);
}

static void
test_to_pps_errors(void)
{
	struct wr_rate r = { WR_RATE_PCT, 50.0 };
	double pps = 7.0;

	/* A percentage needs a link speed. */
	WR_CHECK(wr_rate_to_pps(&r, 64, 0, &pps) == -EINVAL);
	WR_CHECK(wr_rate_to_pps(&r, 0, LINK_10G, &pps) == -EINVAL);
	r = (struct wr_rate){ WR_RATE_BPS_L1, 1e9 };
	WR_CHECK(wr_rate_to_pps(&r, 0, LINK_10G, &pps) == -EINVAL);
	r = (struct wr_rate){ WR_RATE_BPS_L2, 1e9 };
	WR_CHECK(wr_rate_to_pps(&r, 0, LINK_10G, &pps) == -EINVAL);
	r = (struct wr_rate){ WR_RATE_PPS, NAN };
	WR_CHECK(wr_rate_to_pps(&r, 64, LINK_10G, &pps) == -EINVAL);
	r = (struct wr_rate){ WR_RATE_PPS, INFINITY };
	WR_CHECK(wr_rate_to_pps(&r, 64, LINK_10G, &pps) == -EINVAL);
	r = (struct wr_rate){ WR_RATE_PPS, 0.0 };
	WR_CHECK(wr_rate_to_pps(&r, 64, LINK_10G, &pps) == -EINVAL);
	r = (struct wr_rate){ WR_RATE_PPS, -5.0 };
	WR_CHECK(wr_rate_to_pps(&r, 64, LINK_10G, &pps) == -EINVAL);
	r = (struct wr_rate){ (enum wr_rate_unit)99, 5.0 };
	WR_CHECK(wr_rate_to_pps(&r, 64, LINK_10G, &pps) == -EINVAL);
	WR_CHECK(wr_rate_to_pps(NULL, 64, LINK_10G, &pps) == -EINVAL);
	WR_CHECK(wr_rate_to_pps(&r, 64, LINK_10G, NULL) == -EINVAL);
	WR_CHECK_NEAR(pps, 7.0, 0.0);
}

/* Format r, expecting want. */
static void
fmt_is(enum wr_rate_unit unit, double value, const char *want)
{
	struct wr_rate r = { unit, value };
	char buf[64];
	int n = wr_rate_format(&r, buf, sizeof(buf));

	WR_CHECK_U64(n, strlen(want));
	WR_CHECK(strcmp(buf, want) == 0);
	if (strcmp(buf, want) != 0)
		fprintf(stderr, "  formatted '%s', want '%s'\n", buf, want);
}

static void
test_format(void)
{
	fmt_is(WR_RATE_PPS, 250000.0, "250kpps");
	fmt_is(WR_RATE_PPS, 1.5e6, "1.5Mpps");
	fmt_is(WR_RATE_PPS, 0.5, "0.5pps");
	fmt_is(WR_RATE_PPS, 999.0, "999pps");
	fmt_is(WR_RATE_PPS, 1000.0, "1kpps");
	fmt_is(WR_RATE_PPS, 14880952.380952381, "14.8809523809524Mpps");
	fmt_is(WR_RATE_PPS, 2e9, "2Gpps");
	fmt_is(WR_RATE_BPS_L1, 9.5e9, "9.5Gbps");
	fmt_is(WR_RATE_BPS_L1, 1e13, "10Tbps");
	fmt_is(WR_RATE_BPS_L2, 9.5e9, "l2:9.5Gbps");
	fmt_is(WR_RATE_BPS_L2, 64000.0, "l2:64kbps");
	fmt_is(WR_RATE_PCT, 50.0, "50%");
	fmt_is(WR_RATE_PCT, 0.1, "0.1%");
	fmt_is(WR_RATE_NONE, 0.0, "max");
}

static void
test_format_errors(void)
{
	struct wr_rate r = { WR_RATE_PPS, 250000.0 };
	char buf[8];

	WR_CHECK(wr_rate_format(&r, buf, 4) == -ENOSPC);
	WR_CHECK(strcmp(buf, "250") == 0);
	WR_CHECK(wr_rate_format(&r, buf, 7) == -ENOSPC);
	WR_CHECK(wr_rate_format(&r, buf, 8) == 7);
	WR_CHECK(wr_rate_format(&r, buf, 0) == -ENOSPC);
	r.unit = WR_RATE_NONE;
	WR_CHECK(wr_rate_format(&r, buf, 3) == -ENOSPC);
	r.unit = WR_RATE_PCT;
	WR_CHECK(wr_rate_format(&r, buf, 2) == -ENOSPC);
	r.unit = (enum wr_rate_unit)99;
	WR_CHECK(wr_rate_format(&r, buf, sizeof(buf)) == -EINVAL);
	WR_CHECK(wr_rate_format(NULL, buf, sizeof(buf)) == -EINVAL);
	r.unit = WR_RATE_PPS;
	WR_CHECK(wr_rate_format(&r, NULL, 8) == -EINVAL);
}

static void
test_round_trip(void)
{
	static const struct wr_rate rates[] = {
		{ WR_RATE_PPS, 0.0001 }, { WR_RATE_PPS, 1.0 },
		{ WR_RATE_PPS, 14880952.380952381 }, { WR_RATE_PPS, 1e10 },
		{ WR_RATE_PPS, 812743.8237 }, { WR_RATE_BPS_L1, 1.0 },
		{ WR_RATE_BPS_L1, 123456789.125 }, { WR_RATE_BPS_L2, 9.5e9 },
		{ WR_RATE_BPS_L2, 2.0 / 3.0 * 1e9 }, { WR_RATE_PCT, 100.0 },
		{ WR_RATE_PCT, 33.333333333333 }, { WR_RATE_NONE, 0.0 },
	};
	struct wr_rate back;
	char buf[64];
	struct wr_error err;
	unsigned int i;

	for (i = 0; i < sizeof(rates) / sizeof(rates[0]); i++) {
		WR_CHECK(wr_rate_format(&rates[i], buf, sizeof(buf)) > 0);
		WR_CHECK_U64(wr_rate_parse(buf, &back, &err), 0);
		WR_CHECK_U64(back.unit, rates[i].unit);
		WR_CHECK_NEAR(back.value, rates[i].value,
			fabs(rates[i].value) * 1e-14);
	}
}

int
main(void)
{
	WR_TEST_RUN(test_parse_pps);
	WR_TEST_RUN(test_parse_bps);
	WR_TEST_RUN(test_parse_pct_max);
	WR_TEST_RUN(test_parse_errors);
	WR_TEST_RUN(test_parse_args);
	WR_TEST_RUN(test_to_pps);
	WR_TEST_RUN(test_to_pps_errors);
	WR_TEST_RUN(test_format);
	WR_TEST_RUN(test_format_errors);
	WR_TEST_RUN(test_round_trip);
	return wr_test_summary();
}
