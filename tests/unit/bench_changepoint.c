/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Time of the change point search of `wirerate history check`
 * (wr_cp_find, default options: 499 permutations, alpha 0.01) on
 * synthetic series: 1% noise around 100 with shifts of +5% at 1/4 and -3%
 * at 3/5 of the series. Prints milliseconds a series, best of the runs,
 * for this build and, up to --old-max points, for the O(n^2) search it
 * replaced (cp_reference.h). Figures only, no pass or fail.
 *   bench_changepoint [POINTS ...] [--runs N] [--old-max N]
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/changepoint.h"
#include "cp_reference.h"

typedef int (*find_fn)(const double *x, unsigned int n, const struct wr_cp_opts *o,
		struct wr_cp *out, struct wr_error *err);

static uint64_t rng_state = 1;

static double
uniform(void)
{
	rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
	return ((rng_state >> 11) + 0.5) / 9007199254740992.0;
}

static void
series(double *x, unsigned int n)
{
	unsigned int i;
	double level;

	for (i = 0; i < n; i++) {
		level = i >= n / 4 ? 105 : 100;
		if (i >= 3 * n / 5)
			level *= 0.97;
		x[i] = level * (1 + 0.01 * sqrt(-2 * log(uniform())) *
			cos(2 * M_PI * uniform()));
	}
}

static double
now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* Best time of runs searches, ms; *nb_cp the change points found. */
static double
best_ms(find_fn find, const double *x, unsigned int n, unsigned int runs, int *nb_cp)
{
	struct wr_cp cp[WR_CP_MAX];
	struct wr_cp_opts o;
	struct wr_error err;
	double best = -1, t;
	unsigned int r;

	wr_cp_defaults(&o);
	for (r = 0; r < runs; r++) {
		t = now_ms();
		*nb_cp = find(x, n, &o, cp, &err);
		t = now_ms() - t;
		if (best < 0 || t < best)
			best = t;
	}
	return best;
}

int
main(int argc, char **argv)
{
	unsigned int sizes[16], nb_sizes = 0, runs = 3, old_max = 4000, i, n;
	double *x, ms, old_ms;
	int a, nb_cp, old_cp;

	for (a = 1; a < argc; a++) {
		if (strcmp(argv[a], "--runs") == 0 && a + 1 < argc)
			runs = (unsigned int)strtoul(argv[++a], NULL, 10);
		else if (strcmp(argv[a], "--old-max") == 0 && a + 1 < argc)
			old_max = (unsigned int)strtoul(argv[++a], NULL, 10);
		else if (nb_sizes < 16 && strtoul(argv[a], NULL, 10) > 0)
			sizes[nb_sizes++] = (unsigned int)strtoul(argv[a], NULL, 10);
		else {
			fprintf(stderr, "usage: %s [POINTS ...] [--runs N] [--old-max N]\n",
				argv[0]);
			return 2;
		}
	}
	if (nb_sizes == 0) {
		sizes[nb_sizes++] = 1000;
		sizes[nb_sizes++] = 4000;
		sizes[nb_sizes++] = 10000;
	}
	if (runs == 0)
		runs = 1;
	printf("| points | change points | O(n log n) ms | O(n^2) ms |\n");
	printf("|---:|---:|---:|---:|\n");
	for (i = 0; i < nb_sizes; i++) {
		n = sizes[i];
		if (n > WR_CP_MAX_POINTS || (x = malloc(n * sizeof(*x))) == NULL)
			return 1;
		rng_state = n;
		series(x, n);
		ms = best_ms(wr_cp_find, x, n, runs, &nb_cp);
		if (n <= old_max) {
			old_ms = best_ms(ref_cp_find, x, n, 1, &old_cp);
			printf("| %u | %d | %.1f | %.1f%s |\n", n, nb_cp, ms, old_ms,
				old_cp == nb_cp ? "" : " (other change points)");
		} else {
			printf("| %u | %d | %.1f | - |\n", n, nb_cp, ms);
		}
		free(x);
	}
	return 0;
}
