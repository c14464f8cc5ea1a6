/* SPDX-License-Identifier: BSD-3-Clause */
/* Stream definitions, their cross-checks, and the pattern gates. */
#include <errno.h>
#include <math.h>

#include "config/pattern.h"
#include "config/stream.h"
#include "wr_test.h"
#include "wr_test_opts.h"

static void
test_streams(void)
{
	struct wr_config c;
	double pps;

	WR_CHECK_U64(PARSE(&c, "--rate", "1Mpps", "--stream", "name=load;mix=imix",
		"--stream", "name=probe size=128 share=10 dport=2000 dscp=46 vlan=5 prio=6",
		"--stream", "l3=ipv6;size=200;dport=3000;pattern=poisson:9"), 0);
	WR_CHECK_U64(c.nb_txq, 3);
	WR_CHECK_U64(c.frame_size, 1518);
	WR_CHECK_STR(c.streams[0].name, "load");
	WR_CHECK_STR(c.streams[2].name, "stream2");
	WR_CHECK_U64(c.streams[1].dscp, 46);
	WR_CHECK_U64(c.streams[1].vlan_prio, 6);
	WR_CHECK(c.streams[2].ipv6);
	WR_CHECK_U64(c.streams[2].pattern.seed, 9);
	/* The streams without a share split what share=10 leaves. */
	WR_CHECK_NEAR(c.streams[0].share_pct, 45.0, 1e-9);
	WR_CHECK(wr_stream_pps(&c.streams[1], &c.rate, 0, &pps) == 0);
	WR_CHECK_NEAR(pps, 100000.0, 1e-6);
	WR_CHECK(wr_stream_pps(&c.streams[0], &c.rate, 0, &pps) == 0);
	WR_CHECK_NEAR(pps, 450000.0, 1e-6);
	/* Own rates in bits use the stream's own mean size. */
	WR_CHECK_U64(PARSE(&c, "--stream", "mix=imix;rate=1Gbps"), 0);
	WR_CHECK(wr_stream_pps(&c.streams[0], &c.rate, 0, &pps) == 0);
	WR_CHECK_NEAR(pps, 1e9 * 12 / (8.0 * (4342 + 240)), 1e-6);
	WR_CHECK_U64(PARSE(&c, "--stream", "size=64"), 0);
	WR_CHECK(wr_stream_pps(&c.streams[0], &c.rate, 0, &pps) == 0);
	WR_CHECK(isinf(pps));
}

static void
test_stream_errors(void)
{
	struct wr_config c;

	WR_CHECK(PARSE(&c, "--stream", "size=64", "--stream", "size=128") == -EINVAL);
	WR_CHECK_STR(err.msg, "--stream 2 (stream1) overlaps --stream 1 (stream0)");
	WR_CHECK(PARSE(&c, "--stream", "size=64", "--stream", "sport=1030",
		"--flows", "8") == -EINVAL);
	WR_CHECK_STR(err.msg, "overlaps");
	WR_CHECK_U64(PARSE(&c, "--stream", "size=64", "--stream", "sport=1032",
		"--flows", "8"), 0);
	WR_CHECK(PARSE(&c, "--stream", "l3=ipv6;size=83") == -EINVAL);
	WR_CHECK_STR(err.msg, "--stream 1 (stream0): size 83 is below the 84 bytes its IPv6");
	WR_CHECK(PARSE(&c, "--stream", "name=p;vlan=9;mix=64:3,128") == -EINVAL);
	WR_CHECK_STR(err.msg, "--stream 1 (p): mix size 64 is below the 68 bytes its tagged IPv4");
	WR_CHECK(PARSE(&c, "--stream", "size=64;mix=imix") == -EINVAL);
	WR_CHECK_STR(err.msg, "size and mix: give one");
	WR_CHECK(PARSE(&c, "--stream", "rate=1Mpps;share=5") == -EINVAL);
	WR_CHECK_STR(err.msg, "rate and share");
	WR_CHECK(PARSE(&c, "--stream", "l3=ipv4;dst-ip=2001:db8::1") == -EINVAL);
	WR_CHECK_STR(err.msg, "l3=ipv4 with an IPv6 address");
	WR_CHECK(PARSE(&c, "--stream", "pattern=burst:8/1ms;rate=1Mpps") == -EINVAL);
	WR_CHECK_STR(err.msg, "burst:N/T sets the rate");
	WR_CHECK(PARSE(&c, "--stream", "pattern=poisson") == -EINVAL);
	WR_CHECK_STR(err.msg, "pattern poisson needs a mean rate");
	WR_CHECK(PARSE(&c, "--stream", "colour=red") == -EINVAL);
	WR_CHECK_STR(err.msg, "--stream 1: unknown key 'colour'");
	WR_CHECK(PARSE(&c, "--stream", "size") == -EINVAL);
	WR_CHECK_STR(err.msg, "'size' is not KEY=VALUE");
	WR_CHECK(PARSE(&c, "--stream", "name=x;dscp=64") == -EINVAL);
	WR_CHECK_STR(err.msg, "--stream 1: dscp=64: expected N or N-M with each in 0..63");
	WR_CHECK(PARSE(&c, "--stream", "rate=fast") == -EINVAL);
	WR_CHECK_STR(err.msg, "--stream 1: rate=fast:");
	WR_CHECK(PARSE(&c, "--txq", "2", "--stream", "size=64") == -EINVAL);
	WR_CHECK_STR(err.msg, "--txq 2 with 1 --stream");
	WR_CHECK(PARSE(&c, "--mode", "sweep", "--sizes", "64,128", "--stream", "size=64") == -EINVAL);
	WR_CHECK_STR(err.msg, "--stream with --mode");
	WR_CHECK(PARSE(&c, "--rate", "1Mpps", "--stream", "share=60", "--stream",
		"share=50;dport=9") == -EINVAL);
	WR_CHECK_STR(err.msg, "shares add up to 110%");
	/* A trusted link speed: 6 + 5 Gb/s do not fit 10 Gb/s. */
	WR_CHECK(PARSE(&c, "--link-speed", "10G", "--stream", "name=a;rate=6Gbps",
		"--stream", "name=b;rate=l2:5Gbps;dport=9;size=1518") == -EINVAL);
	WR_CHECK_STR(err.msg, "--stream 2 (b): rate: the streams up to this one need");
	WR_CHECK_U64(PARSE(&c, "--link-speed", "10G", "--stream", "name=a;rate=6Gbps",
		"--stream", "name=b;rate=l2:3.9Gbps;dport=9;size=1518"), 0);
}

static void
test_pattern_parse(void)
{
	struct wr_pattern p;
	struct wr_error e;
	char buf[64];

	WR_CHECK(wr_pattern_parse("burst:32/1ms", &p, &e) == 0);
	WR_CHECK_U64(p.burst_pkts, 32);
	WR_CHECK_U64(p.period_ns, 1000000);
	WR_CHECK_NEAR(wr_pattern_burst_pps(&p), 32000.0, 1e-9);
	WR_CHECK(wr_pattern_format(&p, buf, sizeof(buf)) > 0);
	WR_CHECK_STR(buf, "burst:32/1000000ns");
	WR_CHECK(wr_pattern_parse("poisson", &p, &e) == 0);
	WR_CHECK_U64(p.seed, 1);
	WR_CHECK(wr_pattern_parse("constant", &p, &e) == 0);
	WR_CHECK(p.kind == WR_PATTERN_CONSTANT);
	WR_CHECK(wr_pattern_parse("burst:0/1ms", &p, &e) == -EINVAL);
	WR_CHECK_STR(e.msg, "not a frame count");
	WR_CHECK(wr_pattern_parse("burst:8/1", &p, &e) == -EINVAL);
	WR_CHECK_STR(e.msg, "not a duration");
	WR_CHECK(wr_pattern_parse("burst:8", &p, &e) == -EINVAL);
	WR_CHECK(wr_pattern_parse("poisson:0", &p, &e) == -EINVAL);
	WR_CHECK(wr_pattern_parse("wave", &p, &e) == -EINVAL);
	WR_CHECK_STR(e.msg, "expected constant, burst:N/T");
}

/* A burst gate on a synthetic clock: N back to back, then nothing until T. */
static void
test_burst_gate(void)
{
	struct wr_pattern p = { .kind = WR_PATTERN_BURST, .burst_pkts = 40,
		.period_ns = 1000 };
	static struct wr_gate g;
	uint64_t t;
	uint32_t n, total = 0;

	/* 1 GHz TSC: T = 1000 cycles. */
	WR_CHECK(wr_gate_init(&g, &p, 0, 1000000000, 32, 5000) == 0);
	n = wr_gate_grant(&g, 5000);
	WR_CHECK_U64(n, 32);
	wr_gate_commit(&g, n);
	n = wr_gate_grant(&g, 5001);
	WR_CHECK_U64(n, 8);
	wr_gate_commit(&g, n);
	WR_CHECK_U64(wr_gate_grant(&g, 5999), 0);
	WR_CHECK_U64(wr_gate_grant(&g, 6000), 32);
	/* Over 1000 periods, exactly 40 per period. */
	WR_CHECK(wr_gate_init(&g, &p, 0, 1000000000, 32, 0) == 0);
	for (t = 0; t < 1000000; t += 100) {
		n = wr_gate_grant(&g, t);
		wr_gate_commit(&g, n);
		total += n;
	}
	WR_CHECK_U64(total, 40000);
}

/* A poisson gate: the seeded gaps have the asked mean and CV 1. */
static void
test_poisson_gate(void)
{
	struct wr_pattern p = { .kind = WR_PATTERN_POISSON, .seed = 3 };
	static struct wr_gate g, h;
	double sum = 0, sumsq = 0, mean, cv;
	uint64_t t, total = 0;
	unsigned int i;

	WR_CHECK(wr_gate_init(&g, &p, 1e6, 1000000000, 32, 0) == 0);
	for (i = 0; i < WR_PATTERN_TABLE; i++) {
		sum += (double)g.gap_tsc[i];
		sumsq += (double)g.gap_tsc[i] * (double)g.gap_tsc[i];
	}
	mean = sum / WR_PATTERN_TABLE;
	cv = sqrt(sumsq / WR_PATTERN_TABLE - mean * mean) / mean;
	WR_CHECK_NEAR(mean, 1000.0, 0.5);
	WR_CHECK_NEAR(cv, 1.0, 0.1);
	/* Same seed, same gaps; granted at the mean rate on a fine clock. */
	WR_CHECK(wr_gate_init(&h, &p, 1e6, 1000000000, 32, 0) == 0);
	WR_CHECK(memcmp(g.gap_tsc, h.gap_tsc, sizeof(g.gap_tsc)) == 0);
	for (t = 0; t < 10000000; t += 50) {
		uint32_t n = wr_gate_grant(&g, t);

		wr_gate_commit(&g, n);
		total += n;
	}
	WR_CHECK_NEAR((double)total, 10000.0, 40.0);
	WR_CHECK(wr_gate_init(&g, &p, 0.0, 1000000000, 32, 0) == -EINVAL);
}

int
main(void)
{
	WR_TEST_RUN(test_streams);
	WR_TEST_RUN(test_stream_errors);
	WR_TEST_RUN(test_pattern_parse);
	WR_TEST_RUN(test_burst_gate);
	WR_TEST_RUN(test_poisson_gate);
	return wr_test_summary();
}
