/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RFC 2889 address modes, pure parts: the search on N against simulated
 * switches whose table holds a known number of addresses (the answer is
 * that number, found in the trials a binary search needs), address plans
 * (distinct, unicast, the same for a seed; bad plans named), the trial's
 * judgement and the ageing bound; the trial frames, byte for byte, and
 * what their parser takes and refuses.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "methods/rfc2889.h"
#include "methods/rfc2889_addr.h"
#include "methods/rfc2889_frame.h"
#include "wr_test.h"

static struct wr_error err;

/* Search [min, max] against a table of cap addresses; returns trials. */
static uint32_t
search_cap(uint32_t min, uint32_t max, uint32_t res, uint32_t cap,
		struct wr_count_result *r)
{
	struct wr_count_search_conf c = {
		.min_nb = min, .max_nb = max, .res_nb = res, .max_trials = 64,
	};
	static struct wr_count_search s;
	uint32_t nb;

	WR_CHECK_U64(wr_count_search_init(&s, &c, &err), 0);
	while (wr_count_search_next(&s, &nb) == WR_SEARCH_TRIAL) {
		WR_CHECK(nb >= min && nb <= max);
		WR_CHECK_U64(wr_count_search_report(&s, nb <= cap), 0);
	}
	wr_count_search_result(&s, r);
	return s.nb_trials;
}

static void
test_search(void)
{
	struct wr_count_result r;
	uint32_t n;

	/* Exact capacities (OVS mac-table-size, a bridge's fdb_max_learned). */
	n = search_cap(1, 4096, 1, 512, &r);
	WR_CHECK(r.found && r.converged && !r.at_max);
	WR_CHECK_U64(r.capacity_nb, 512);
	WR_CHECK_U64(r.fail_nb, 513);
	WR_CHECK(n <= 14);	/* 1 + ceil(log2(4096)) */
	search_cap(1, 4096, 1, 1000, &r);
	WR_CHECK_U64(r.capacity_nb, 1000);
	search_cap(1, 4096, 1, 1, &r);
	WR_CHECK_U64(r.capacity_nb, 1);
	/* Everything passes: one trial, at the maximum. */
	n = search_cap(1, 4096, 1, 100000, &r);
	WR_CHECK(r.found && r.at_max && r.converged);
	WR_CHECK_U64(r.capacity_nb, 4096);
	WR_CHECK_U64(n, 1);
	/* Nothing passes: not found, ending at the minimum. */
	search_cap(16, 4096, 1, 0, &r);
	WR_CHECK(!r.found && r.converged);
	WR_CHECK_U64(r.fail_nb, 16);
	/* A coarser resolution: within it, never above the capacity. */
	search_cap(1, 4096, 64, 700, &r);
	WR_CHECK(r.found && r.capacity_nb <= 700 && r.capacity_nb > 700 - 64);
}

static void
test_search_bad(void)
{
	struct wr_count_search_conf c = {
		.min_nb = 10, .max_nb = 5, .res_nb = 1, .max_trials = 8,
	};
	static struct wr_count_search s;
	uint32_t nb;

	WR_CHECK_U64(wr_count_search_init(&s, &c, &err), (uint64_t)-EINVAL);
	WR_CHECK_STR(err.msg, "address search: the largest count (5) is below "
		"the smallest (10)");
	c.max_nb = 20;
	c.res_nb = 0;
	WR_CHECK_U64(wr_count_search_init(&s, &c, &err), (uint64_t)-EINVAL);
	c.res_nb = 1;
	c.min_nb = 0;
	WR_CHECK_U64(wr_count_search_init(&s, &c, &err), (uint64_t)-EINVAL);
	/* The trial cap stops the search, unconverged. */
	c.min_nb = 1;
	c.max_nb = 1 << 20;
	c.max_trials = 3;
	WR_CHECK_U64(wr_count_search_init(&s, &c, &err), 0);
	while (wr_count_search_next(&s, &nb) == WR_SEARCH_TRIAL)
		WR_CHECK_U64(wr_count_search_report(&s, nb < 1000), 0);
	WR_CHECK_U64(s.nb_trials, 3);
	WR_CHECK_U64(wr_count_search_report(&s, true), (uint64_t)-ENOSPC);
}

static int
cmp_mac(const void *a, const void *b)
{
	return memcmp(a, b, WR_ADDR_MAC_LEN);
}

/* Every address of p unicast and distinct. */
static void
check_distinct(const struct wr_addr_plan *p)
{
	uint8_t (*m)[WR_ADDR_MAC_LEN] = calloc(p->nb, WR_ADDR_MAC_LEN);
	uint32_t i;

	WR_CHECK(m != NULL);
	for (i = 0; i < p->nb; i++) {
		wr_addr_plan_mac(p, i, m[i]);
		WR_CHECK((m[i][0] & 1) == 0);
	}
	qsort(m, p->nb, WR_ADDR_MAC_LEN, cmp_mac);
	for (i = 1; i < p->nb; i++)
		WR_CHECK(memcmp(m[i - 1], m[i], WR_ADDR_MAC_LEN) != 0);
	free(m);
}

static void
test_plan(void)
{
	struct wr_addr_plan p = {
		.kind = WR_ADDR_PLAN_RANGE,
		.base = { 0x02, 0x00, 0x00, 0x00, 0xff, 0xfe }, .nb = 70000,
	};
	uint8_t a[WR_ADDR_MAC_LEN], b[WR_ADDR_MAC_LEN];
	const uint8_t want[WR_ADDR_MAC_LEN] = { 0x02, 0x00, 0x00, 0x01, 0x00, 0x01 };

	WR_CHECK_U64(wr_addr_plan_check(&p, "--learn-mac", &err), 0);
	wr_addr_plan_mac(&p, 3, a);	/* carries across octets */
	WR_CHECK(memcmp(a, want, sizeof(a)) == 0);
	check_distinct(&p);
	p.kind = WR_ADDR_PLAN_RANDOM;
	p.seed = 7;
	WR_CHECK_U64(wr_addr_plan_check(&p, "--learn-mac", &err), 0);
	check_distinct(&p);
	/* The same seed, the same addresses; another seed, others. */
	wr_addr_plan_mac(&p, 12345, a);
	wr_addr_plan_mac(&p, 12345, b);
	WR_CHECK(memcmp(a, b, sizeof(a)) == 0);
	WR_CHECK_U64(a[0], 0x02);
	p.seed = 8;
	wr_addr_plan_mac(&p, 12345, b);
	WR_CHECK(memcmp(a, b, sizeof(a)) != 0);
}

static void
test_plan_bad(void)
{
	struct wr_addr_plan p = {
		.kind = WR_ADDR_PLAN_RANGE,
		.base = { 0x03, 0x00, 0x00, 0x00, 0x00, 0x01 }, .nb = 10,
	};

	WR_CHECK_U64(wr_addr_plan_check(&p, "--learn-mac", &err), (uint64_t)-EINVAL);
	WR_CHECK_STR(err.msg, "--learn-mac: the base address is multicast "
		"(first octet 03 is odd)");
	p.base[0] = 0x02;
	memset(p.base + 1, 0xff, 5);
	WR_CHECK_U64(wr_addr_plan_check(&p, "--learn-mac", &err), (uint64_t)-EINVAL);
	WR_CHECK_STR(err.msg, "--learn-mac: 10 addresses from the base run past "
		"its first octet (02)");
	p.nb = 1;
	WR_CHECK_U64(wr_addr_plan_check(&p, "--learn-mac", &err), 0);
	p.nb = 0;
	WR_CHECK_U64(wr_addr_plan_check(&p, "--learn-mac", &err), (uint64_t)-EINVAL);
}

static void
test_judge_aging(void)
{
	struct wr_rfc2889_counts c = {
		.learn_sent_pkts = 512, .test_sent_pkts = 512, .test_rx_pkts = 512,
	};
	struct wr_rfc2889_timing t = {
		.nb = 1000, .learn_pps = 1000, .test_pps = 2000, .settle_s = 0.5,
	};

	WR_CHECK(wr_rfc2889_pass(&c));
	c.flooded_pkts = 1;
	WR_CHECK(!wr_rfc2889_pass(&c));
	c.flooded_pkts = 0;
	c.test_rx_pkts = 511;
	WR_CHECK(!wr_rfc2889_pass(&c));
	c.test_sent_pkts = 0;
	c.test_rx_pkts = 0;
	WR_CHECK(!wr_rfc2889_pass(&c));	/* no test frame proves nothing */
	WR_CHECK_NEAR(wr_rfc2889_trial_s(&t), 2.0, 1e-9);
	WR_CHECK_U64(wr_rfc2889_check_aging(&t, 300, &err), 0);
	WR_CHECK_U64(wr_rfc2889_check_aging(&t, 0, &err), 0);
	WR_CHECK_U64(wr_rfc2889_check_aging(&t, 2.0, &err), (uint64_t)-EINVAL);
	WR_CHECK_STR(err.msg, "--aging 2.000 s: a trial of 1000 addresses takes "
		"2.000 s, not inside the ageing time (raise the rates or lower the "
		"count)");
	t.learn_pps = 0;
	WR_CHECK_U64(wr_rfc2889_check_aging(&t, 300, &err), (uint64_t)-EINVAL);
}

static void
test_frame(void)
{
	static const uint8_t dst[6] = { 2, 0, 0, 0, 0x0a, 2 };
	static const uint8_t src[6] = { 2, 0x28, 0x89, 0, 1, 0x2c };
	struct wr_r2889_tag t = { .kind = WR_R2889_TEST, .trial = 0x1234,
		.idx = 300 }, u;
	uint8_t f[WR_R2889_FRAME_LEN], g[WR_R2889_FRAME_LEN];
	/* Destination, source, EtherType 88b5, "WR89", kind 2, trial, index. */
	static const uint8_t want[26] = { 2, 0, 0, 0, 0x0a, 2, 2, 0x28, 0x89, 0,
		1, 0x2c, 0x88, 0xb5, 'W', 'R', '8', '9', 0, 2, 0x12, 0x34, 0, 0,
		1, 0x2c };
	unsigned int i;

	wr_r2889_frame(f, dst, src, &t);
	WR_CHECK(memcmp(f, want, sizeof(want)) == 0);
	for (i = sizeof(want); i < sizeof(f); i++)
		WR_CHECK(f[i] == 0);
	WR_CHECK(wr_r2889_parse(f, sizeof(f), &u));
	WR_CHECK(u.kind == WR_R2889_TEST && u.trial == 0x1234 && u.idx == 300);
	/* Short, another EtherType, another magic, an unknown kind: not ours. */
	WR_CHECK(!wr_r2889_parse(f, 25, &u));
	memcpy(g, f, sizeof(g));
	g[13] = 0xb6;
	WR_CHECK(!wr_r2889_parse(g, sizeof(g), &u));
	memcpy(g, f, sizeof(g));
	g[17] = '0';
	WR_CHECK(!wr_r2889_parse(g, sizeof(g), &u));
	memcpy(g, f, sizeof(g));
	g[19] = 4;
	WR_CHECK(!wr_r2889_parse(g, sizeof(g), &u));
}

int
main(void)
{
	WR_TEST_RUN(test_search);
	WR_TEST_RUN(test_search_bad);
	WR_TEST_RUN(test_plan);
	WR_TEST_RUN(test_plan_bad);
	WR_TEST_RUN(test_judge_aging);
	WR_TEST_RUN(test_frame);
	return wr_test_summary();
}
