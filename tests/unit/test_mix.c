/* SPDX-License-Identifier: BSD-3-Clause */
/* Frame size mixes: forms, sequence, exact bytes and rate maths. */
#include <errno.h>
#include <math.h>

#include "config/mix.h"
#include "wr_test.h"

static struct wr_error err;

static int
parse(const char *s, struct wr_mix *m)
{
	err.msg[0] = '\0';
	return wr_mix_parse(s, 64, 9018, m, &err);
}

/* Frames of each size in the first n of the sequence, counted by walking it. */
static uint64_t
count_size(const struct wr_mix *m, uint32_t size, uint64_t n)
{
	uint64_t k, c = 0;

	for (k = 0; k < n; k++)
		c += m->size[m->seq[k % m->seq_len]] == size;
	return c;
}

static void
test_preset(void)
{
	struct wr_mix m;

	WR_CHECK(parse("imix", &m) == 0);
	WR_CHECK_U64(m.nb_sizes, 3);
	WR_CHECK_U64(m.seq_len, 12);
	WR_CHECK_U64(count_size(&m, 64, 12), 7);
	WR_CHECK_U64(count_size(&m, 594, 12), 4);
	WR_CHECK_U64(count_size(&m, 1518, 12), 1);
	WR_CHECK_U64(wr_mix_cycle_bytes(&m), 7 * 64 + 4 * 594 + 1518);
	WR_CHECK_NEAR(wr_mix_mean_size(&m), (7 * 64 + 4 * 594 + 1518) / 12.0, 1e-9);
	WR_CHECK_U64(wr_mix_max_size(&m), 1518);
	WR_CHECK_U64(wr_mix_min_size(&m), 64);
}

/* Smooth round-robin: 64 never comes more than twice in a row in 7:4:1. */
static void
test_spread(void)
{
	struct wr_mix m;
	unsigned int k, run = 0, longest = 0;

	WR_CHECK(parse("64:7,594:4,1518:1", &m) == 0);
	for (k = 0; k < 2 * m.seq_len; k++) {
		run = m.size[m.seq[k % m.seq_len]] == 64 ? run + 1 : 0;
		if (run > longest)
			longest = run;
	}
	WR_CHECK(longest <= 2);
	WR_CHECK(parse("100,200", &m) == 0);
	WR_CHECK_U64(m.seq_len, 2);
	WR_CHECK_U64(m.size[m.seq[0]], 100);
	WR_CHECK_U64(m.size[m.seq[1]], 200);
}

/* RFC 6985: the genome is the sequence, letter by letter. */
static void
test_genome(void)
{
	static const uint32_t want[] = { 64, 64, 128, 256, 512, 1024, 1280, 1518,
		9018, 594, 64 };
	struct wr_mix m;
	unsigned int k;

	WR_CHECK(parse("aabcdefghza,z=594", &m) == 0);
	WR_CHECK_U64(m.seq_len, 11);
	for (k = 0; k < m.seq_len; k++)
		WR_CHECK_U64(m.size[m.seq[k]], want[k]);
	WR_CHECK(parse("ahh,h=9000", &m) == 0);
	WR_CHECK_U64(m.size[m.seq[2]], 9000);
	WR_CHECK_U64(wr_mix_cycle_bytes(&m), 64 + 2 * 9000);
}

static void
test_bytes(void)
{
	struct wr_mix m;
	uint64_t n, walked = 0;

	WR_CHECK(parse("imix", &m) == 0);
	for (n = 0; n < 100; n++) {
		WR_CHECK_U64(wr_mix_bytes(&m, n), walked);
		walked += m.size[m.seq[n % m.seq_len]];
	}
	WR_CHECK_U64(wr_mix_bytes(&m, 12000000), 1000000 * wr_mix_cycle_bytes(&m));
}

/* pps = bps / (8 * (mean + 20)), from the exact cycle totals. */
static void
test_rate(void)
{
	struct wr_mix m;
	struct wr_rate r;
	double pps, mean;

	WR_CHECK(parse("imix", &m) == 0);
	mean = (7 * 64 + 4 * 594 + 1518) / 12.0;
	r.unit = WR_RATE_BPS_L1;
	r.value = 10e9;
	WR_CHECK(wr_mix_to_pps(&r, &m, 0, &pps) == 0);
	WR_CHECK_NEAR(pps, 10e9 / (8 * (mean + 20)), 1e-3);
	r.unit = WR_RATE_BPS_L2;
	WR_CHECK(wr_mix_to_pps(&r, &m, 0, &pps) == 0);
	WR_CHECK_NEAR(pps, 10e9 / (8 * mean), 1e-3);
	r.unit = WR_RATE_PCT;
	r.value = 50;
	WR_CHECK(wr_mix_to_pps(&r, &m, 0, &pps) == -EINVAL);
	WR_CHECK(wr_mix_to_pps(&r, &m, 10000000000ULL, &pps) == 0);
	WR_CHECK_NEAR(pps, 5e9 / (8 * (mean + 20)), 1e-3);
	r.unit = WR_RATE_PPS;
	r.value = 1000;
	WR_CHECK(wr_mix_to_pps(&r, &m, 0, &pps) == 0);
	WR_CHECK_NEAR(pps, 1000, 0);
	r.unit = WR_RATE_NONE;
	WR_CHECK(wr_mix_to_pps(&r, &m, 0, &pps) == 0);
	WR_CHECK(isinf(pps));
}

static void
test_errors(void)
{
	struct wr_mix m;

	WR_CHECK(parse("", &m) == -EINVAL);
	WR_CHECK(parse("x", &m) == -EINVAL);
	WR_CHECK_STR(err.msg, "genome");
	WR_CHECK(parse("64:7,32", &m) == -EINVAL);
	WR_CHECK_STR(err.msg, "frame size 32 outside 64..9018");
	WR_CHECK(parse("64:7,9019", &m) == -EINVAL);
	WR_CHECK_STR(err.msg, "9019");
	WR_CHECK(parse("64,64", &m) == -EINVAL);
	WR_CHECK_STR(err.msg, "listed twice");
	WR_CHECK(parse("64:0", &m) == -EINVAL);
	WR_CHECK_STR(err.msg, "weight");
	WR_CHECK(parse("64:1000,128:25", &m) == -EINVAL);
	WR_CHECK_STR(err.msg, "more than 1024");
	WR_CHECK(parse("64;128", &m) == -EINVAL);
	WR_CHECK_STR(err.msg, "at ';128'");
	WR_CHECK(parse("aaz", &m) == -EINVAL);
	WR_CHECK_STR(err.msg, "letter z needs its size");
	WR_CHECK(parse("aaq", &m) == -EINVAL);
	WR_CHECK_STR(err.msg, "not 'q'");
	WR_CHECK(parse("aa,", &m) == -EINVAL);
	WR_CHECK(parse("aa,z", &m) == -EINVAL);
	WR_CHECK(parse("aa,z=", &m) == -EINVAL);
	WR_CHECK_STR(err.msg, "expected a size");
	WR_CHECK(parse("64,65,66,67,68,69,70,71,72,73,74,75,76,77,78,79,80", &m) == -EINVAL);
	WR_CHECK_STR(err.msg, "more than 16 sizes");
	WR_CHECK_U64(m.nb_sizes, 0);
}

int
main(void)
{
	WR_TEST_RUN(test_preset);
	WR_TEST_RUN(test_spread);
	WR_TEST_RUN(test_genome);
	WR_TEST_RUN(test_bytes);
	WR_TEST_RUN(test_rate);
	WR_TEST_RUN(test_errors);
	return wr_test_summary();
}
