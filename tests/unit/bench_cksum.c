/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Cycles (TSC) of one Internet checksum sum of a buffer in cache: the sum
 * a receiver checks on every segment with no checksum offload, for this
 * build's choice (wr_cksum_add), the scalar sum and DPDK's
 * __rte_raw_cksum, by length. Best of the rounds, the functions in turn
 * within each round. Figures only, no pass or fail.
 *   bench_cksum [LENGTH ...] [--rounds N]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>

#include <rte_ip.h>

#include "base/cksum.h"

#define CALLS 100000
#define MAX_LEN 65536

typedef uint32_t (*sum_fn)(const void *, size_t, uint32_t);

static uint32_t
dpdk_sum(const void *p, size_t len, uint32_t sum)
{
	return __rte_raw_cksum(p, len, sum);
}

static const struct {
	const char *name;
	sum_fn fn;
} fns[] = {
	{ "wirerate", wr_cksum_add },
	{ "scalar", wr_cksum_add_scalar },
	{ "dpdk", dpdk_sum },
};
#define NB_FNS (sizeof(fns) / sizeof(fns[0]))

static uint8_t buf[MAX_LEN + 64];

/* Cycles a call of fn over len bytes at eight offsets in turn. */
static double
time_one(sum_fn fn, size_t len)
{
	volatile uint32_t sink = 0;
	uint64_t t0 = __rdtsc();
	unsigned int i;

	for (i = 0; i < CALLS; i++)
		sink += fn(buf + 2 * (i & 7), len, 0);
	(void)sink;
	return (double)(__rdtsc() - t0) / CALLS;
}

int
main(int argc, char **argv)
{
	size_t lens[16], nb_lens = 0, l, f;
	unsigned int rounds = 5, r;
	double best[16][NB_FNS], t;
	int i;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc)
			rounds = (unsigned int)strtoul(argv[++i], NULL, 0);
		else if (nb_lens < 16 && strtoul(argv[i], NULL, 0) > 0 &&
				strtoul(argv[i], NULL, 0) <= MAX_LEN)
			lens[nb_lens++] = strtoul(argv[i], NULL, 0);
		else {
			fprintf(stderr, "usage: bench_cksum [LENGTH (1 to %d) ...] "
				"[--rounds N]\n", MAX_LEN);
			return 2;
		}
	}
	if (nb_lens == 0) {
		static const size_t def[] = { 20, 40, 64, 127, 128, 256, 1480, 8960, 65000 };

		nb_lens = sizeof(def) / sizeof(def[0]);
		memcpy(lens, def, sizeof(def));
	}
	for (l = 0; l < sizeof(buf); l++)
		buf[l] = (uint8_t)(l * 131 + 7);
	for (l = 0; l < nb_lens; l++)
		for (f = 0; f < NB_FNS; f++)
			best[l][f] = 1e30;
	for (r = 0; r < rounds; r++)
		for (l = 0; l < nb_lens; l++)
			for (f = 0; f < NB_FNS; f++) {
				t = time_one(fns[f].fn, lens[l]);
				if (t < best[l][f])
					best[l][f] = t;
			}
	printf("AVX2: %s; cycles a sum, best of %u rounds of %d calls\n",
		wr_cksum_have_avx2() ? "yes" : "no", rounds, CALLS);
	printf("%8s %10s %10s %10s %12s\n", "bytes", fns[0].name, fns[1].name,
		fns[2].name, "dpdk/wirerate");
	for (l = 0; l < nb_lens; l++)
		printf("%8zu %10.1f %10.1f %10.1f %12.2f\n", lens[l], best[l][0],
			best[l][1], best[l][2], best[l][2] / best[l][0]);
	return 0;
}
