/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for cpu.c (CPU cost per frame and byte, bursts, shares) and
 * cpuinfo.c (the /proc/cpuinfo reader, on a fixture file).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/cpuinfo.h"
#include "measure/cpu.h"
#include "wr_test.h"

static void
test_burst_bins(void)
{
	static const struct { uint16_t n; unsigned int bin; } cases[] = {
		{ 0, 0 }, { 1, 1 }, { 2, 2 }, { 3, 2 }, { 4, 3 }, { 7, 3 },
		{ 31, 5 }, { 32, 6 }, { 63, 6 }, { 64, 7 }, { 511, 9 }, { 512, 10 },
	};
	unsigned int i, lo, hi;

	for (i = 0; i < RTE_DIM(cases); i++) {
		WR_CHECK_U64(wr_cpu_burst_bin(cases[i].n), cases[i].bin);
		wr_cpu_bin_range(cases[i].bin, &lo, &hi);
		WR_CHECK(lo <= cases[i].n && cases[i].n <= hi);
	}
	wr_cpu_bin_range(0, &lo, &hi);
	WR_CHECK(lo == 0 && hi == 0);
	wr_cpu_bin_range(6, &lo, &hi);
	WR_CHECK(lo == 32 && hi == 63);
	wr_cpu_bin_range(WR_CPU_BURST_BINS - 1, &lo, &hi);
	WR_CHECK(lo == 512 && hi == WR_MAX_BURST);
}

/* A worker that sent 1000 frames of 64 B in 25 full bursts of 32 + ... */
static void
fill(struct wr_cpu_counters *c)
{
	memset(c, 0, sizeof(*c));
	c->busy_tsc = 30000;
	c->idle_tsc = 10000;
	c->nb_busy_polls = 40;
	c->nb_idle_polls = 60;
	c->tx_pkts = 800;
	c->rx_pkts = 200;
	c->tx_bytes = 800 * 64;
	c->rx_bytes = 200 * 64;
	c->tx_bursts[6] = 25;       /* 25 x 32 = 800 */
	c->tx_bursts[0] = 75;
	c->rx_bursts[3] = 40;       /* 40 x 5 = 200 */
	c->rx_bursts[0] = 60;
}

static void
test_cost(void)
{
	struct wr_cpu_counters c;
	struct wr_cpu_cost k;

	fill(&c);
	wr_cpu_cost(&c, &k);
	WR_CHECK_NEAR(k.busy_ratio, 0.75, 1e-12);
	WR_CHECK_NEAR(k.tsc_per_pkt, 30.0, 1e-12);        /* 30000 / 1000 */
	WR_CHECK_NEAR(k.tsc_per_byte, 30000.0 / 64000.0, 1e-12);
	WR_CHECK_NEAR(k.tx_pkts_per_burst, 32.0, 1e-12);  /* empty polls left out */
	WR_CHECK_NEAR(k.rx_pkts_per_burst, 5.0, 1e-12);
	WR_CHECK_U64(wr_cpu_bursts(c.tx_bursts, 0), 100);
	WR_CHECK_U64(wr_cpu_bursts(c.tx_bursts, 1), 25);
}

static void
test_cost_zero(void)
{
	struct wr_cpu_counters c;
	struct wr_cpu_cost k;

	memset(&c, 0, sizeof(c));
	wr_cpu_cost(&c, &k);
	WR_CHECK(k.busy_ratio == 0 && k.tsc_per_pkt == 0 && k.tsc_per_byte == 0);
	WR_CHECK(k.tx_pkts_per_burst == 0 && k.rx_pkts_per_burst == 0);
	/* Idle only: 0 % busy, and no cost per frame rather than a division by 0. */
	c.idle_tsc = 5000;
	c.nb_idle_polls = 10;
	c.rx_bursts[0] = 10;
	wr_cpu_cost(&c, &k);
	WR_CHECK_NEAR(k.busy_ratio, 0.0, 0.0);
	WR_CHECK_NEAR(k.tsc_per_pkt, 0.0, 0.0);
}

/* The question the figure answers: same cycles per frame, bigger frames. */
static void
test_jumbo_per_byte(void)
{
	struct wr_cpu_counters small, jumbo;
	struct wr_cpu_cost ks, kj;

	fill(&small);
	fill(&jumbo);
	jumbo.tx_bytes = 800 * 9018ULL;
	jumbo.rx_bytes = 200 * 9018ULL;
	wr_cpu_cost(&small, &ks);
	wr_cpu_cost(&jumbo, &kj);
	WR_CHECK_NEAR(kj.tsc_per_pkt, ks.tsc_per_pkt, 1e-12);
	WR_CHECK_NEAR(ks.tsc_per_byte / kj.tsc_per_byte, 9018.0 / 64.0, 1e-9);
}

static void
test_sub_add(void)
{
	struct wr_cpu_counters a, b, d, s;

	fill(&a);
	fill(&b);
	b.busy_tsc += 700;
	b.idle_tsc += 300;
	b.tx_pkts += 64;
	b.tx_bytes += 64 * 64;
	b.tx_bursts[6] += 2;
	b.rx_bursts[0] += 9;
	wr_cpu_sub(&b, &a, &d);
	WR_CHECK_U64(d.busy_tsc, 700);
	WR_CHECK_U64(d.idle_tsc, 300);
	WR_CHECK_U64(d.tx_pkts, 64);
	WR_CHECK_U64(d.rx_pkts, 0);
	WR_CHECK_U64(d.tx_bursts[6], 2);
	WR_CHECK_U64(d.rx_bursts[0], 9);
	WR_CHECK_U64(d.rx_bursts[3], 0);
	s = a;
	wr_cpu_add(&s, &d);
	WR_CHECK(memcmp(&s, &b, sizeof(s)) == 0);
}

static void
test_share(void)
{
	struct wr_cpu_port p = { .busy_tsc = 0, .pkts = 0, .bytes = 0 };
	double per_pkt, per_byte;

	WR_CHECK_NEAR(wr_cpu_share(1000, 1, 4), 250.0, 1e-12);
	WR_CHECK_NEAR(wr_cpu_share(1000, 3, 4), 750.0, 1e-12);
	WR_CHECK_NEAR(wr_cpu_share(1000, 0, 0), 0.0, 0.0);
	/* The whole of a large count is exact, not rounded through a ratio. */
	WR_CHECK_NEAR(wr_cpu_share(UINT64_C(123456789012345), 7, 7),
		123456789012345.0, 0.0);
	wr_cpu_port_cost(&p, &per_pkt, &per_byte);
	WR_CHECK(per_pkt == 0 && per_byte == 0);
	p.busy_tsc = 6400;
	p.pkts = 100;
	p.bytes = 6400;
	wr_cpu_port_cost(&p, &per_pkt, &per_byte);
	WR_CHECK_NEAR(per_pkt, 64.0, 1e-12);
	WR_CHECK_NEAR(per_byte, 1.0, 1e-12);
}

/* A two-CPU cpuinfo: the first value of a key wins; flags match words. */
static void
test_cpuinfo(void)
{
	char path[] = "/tmp/wr_cpuinfo_XXXXXX", buf[64];
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");

	fputs("processor\t: 0\nmodel name\t: Test CPU @ 2.00GHz\n"
		"flags\t\t: fpu tsc constant_tsc nonstop_tsc_x rdtscp\n\n"
		"processor\t: 1\nmodel name\t: Other\nflags\t: nonstop_tsc\n", f);
	fclose(f);
	WR_CHECK_U64(wr_cpuinfo_get(path, "model name", buf, sizeof(buf)), 0);
	WR_CHECK_STR(buf, "Test CPU @ 2.00GHz");
	WR_CHECK_U64(wr_cpuinfo_get(path, "model name", buf, 5), 0);
	WR_CHECK_STR(buf, "Test");
	WR_CHECK(wr_cpuinfo_get(path, "model", buf, sizeof(buf)) == -ENOENT);
	WR_CHECK(wr_cpuinfo_get(path, "bogomips", buf, sizeof(buf)) == -ENOENT);
	WR_CHECK(wr_cpuinfo_has_flags(path, "tsc constant_tsc"));
	WR_CHECK(wr_cpuinfo_has_flags(path, "rdtscp fpu"));
	/* Whole words only, and the first CPU's line. */
	WR_CHECK(!wr_cpuinfo_has_flags(path, "constant_tsc nonstop_tsc"));
	WR_CHECK(!wr_cpuinfo_has_flags(path, "nonstop"));
	unlink(path);
	WR_CHECK(!wr_cpuinfo_has_flags(path, "tsc"));
	WR_CHECK(wr_cpuinfo_get(path, "flags", buf, sizeof(buf)) == -ENOENT);
}

int
main(void)
{
	WR_TEST_RUN(test_cpuinfo);
	WR_TEST_RUN(test_burst_bins);
	WR_TEST_RUN(test_cost);
	WR_TEST_RUN(test_cost_zero);
	WR_TEST_RUN(test_jumbo_per_byte);
	WR_TEST_RUN(test_sub_add);
	WR_TEST_RUN(test_share);
	return wr_test_summary();
}
