/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/units.h"
#include "pattern.h"

#define MAX_GAP_TSC (UINT64_C(1) << 48)

/* A whole number of ns, us, ms or s, e.g. 250us; the result in ns. */
static int
parse_ns(const char *s, uint64_t *out)
{
	static const struct { const char *unit; uint64_t ns; } units[] = {
		{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", 1000000000 },
	};
	char *end;
	unsigned long long v;
	unsigned int i;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	v = strtoull(s, &end, 10);
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strcmp(end, units[i].unit) == 0 && v <= UINT64_MAX / units[i].ns) {
			*out = v * units[i].ns;
			return 0;
		}
	return -EINVAL;
}

/* "N/T" of a burst pattern. */
static int
parse_burst(const char *s, struct wr_pattern *out, struct wr_error *err)
{
	char num[32];
	const char *slash = strchr(s, '/');
	uint64_t n, ms;

	if (slash == NULL || (size_t)(slash - s) >= sizeof(num))
		return wr_err_usage(err, -EINVAL, "pattern burst:%s: expected burst:N/T, "
			"e.g. burst:32/1ms", s);
	memcpy(num, s, (size_t)(slash - s));
	num[slash - s] = '\0';
	if (wr_units_parse_u64(num, 1, 1u << 20, &n) != 0)
		return wr_err_usage(err, -EINVAL, "pattern burst:%s: '%s' is not a frame "
			"count 1..1048576", s, num);
	if (parse_ns(slash + 1, &ms) != 0 || ms == 0)
		return wr_err_usage(err, -EINVAL, "pattern burst:%s: '%s' is not a "
			"duration above 0 in ns, us, ms or s (e.g. 1ms, 250us)", s, slash + 1);
	out->kind = WR_PATTERN_BURST;
	out->burst_pkts = (uint32_t)n;
	out->period_ns = ms;
	return 0;
}

int
wr_pattern_parse(const char *s, struct wr_pattern *out, struct wr_error *err)
{
	uint64_t seed;

	memset(out, 0, sizeof(*out));
	if (strcmp(s, "constant") == 0)
		return 0;
	if (strncmp(s, "burst:", 6) == 0)
		return parse_burst(s + 6, out, err);
	if (strcmp(s, "poisson") == 0 || strncmp(s, "poisson:", 8) == 0) {
		seed = 1;
		if (s[7] == ':' && wr_units_parse_u64(s + 8, 1, UINT64_MAX, &seed) != 0)
			return wr_err_usage(err, -EINVAL, "pattern %s: the seed must be a "
				"whole number above 0", s);
		out->kind = WR_PATTERN_POISSON;
		out->seed = seed;
		return 0;
	}
	return wr_err_usage(err, -EINVAL, "pattern %s: expected constant, burst:N/T "
		"(e.g. burst:32/1ms) or poisson[:SEED]", s);
}

int
wr_pattern_format(const struct wr_pattern *p, char *buf, size_t len)
{
	int n;

	if (p->kind == WR_PATTERN_BURST)
		n = snprintf(buf, len, "burst:%" PRIu32 "/%" PRIu64 "ns",
			p->burst_pkts, p->period_ns);
	else if (p->kind == WR_PATTERN_POISSON)
		n = snprintf(buf, len, "poisson:%" PRIu64, p->seed);
	else
		n = snprintf(buf, len, "constant");
	return n < 0 || (size_t)n >= len ? -ENOSPC : n;
}

double
wr_pattern_burst_pps(const struct wr_pattern *p)
{
	if (p->kind != WR_PATTERN_BURST)
		return 0.0;
	return p->burst_pkts * 1e9 / (double)p->period_ns;
}

/* xorshift64*: the seeded source of the gaps. */
static uint64_t
prng(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * UINT64_C(0x2545F4914F6CDD1D);
}

/*
 * Exponential gaps (inverse transform, -ln U), scaled so that their mean
 * is exactly mean_tsc: the average rate is the one asked for.
 */
static int
fill_gaps(struct wr_gate *g, uint64_t seed, double mean_tsc)
{
	static double e[WR_PATTERN_TABLE];
	double sum = 0.0, scale;
	unsigned int i;

	for (i = 0; i < WR_PATTERN_TABLE; i++) {
		/* U in (0, 1]: 53 random bits, never 0. */
		double u = ((prng(&seed) >> 11) + 1) * 0x1.0p-53;

		e[i] = -log(u);
		sum += e[i];
	}
	scale = mean_tsc * WR_PATTERN_TABLE / sum;
	for (i = 0; i < WR_PATTERN_TABLE; i++) {
		double gap = e[i] * scale;

		if (gap >= (double)MAX_GAP_TSC)
			return -EINVAL;
		g->gap_tsc[i] = (uint64_t)llround(gap);
	}
	return 0;
}

int
wr_gate_init(struct wr_gate *g, const struct wr_pattern *p, double pps,
		uint64_t tsc_hz, uint32_t max_burst, uint64_t now_tsc)
{
	double period;

	memset(g, 0, sizeof(*g));
	g->kind = p->kind;
	g->max_burst = max_burst;
	g->next_tsc = now_tsc;
	if (p->kind == WR_PATTERN_BURST) {
		period = (double)p->period_ns * (double)tsc_hz / 1e9;
		if (period < 1.0 || period >= (double)MAX_GAP_TSC)
			return -EINVAL;
		g->period_tsc = (uint64_t)llround(period);
		g->burst_pkts = p->burst_pkts;
		g->pps = wr_pattern_burst_pps(p);
		return 0;
	}
	if (p->kind != WR_PATTERN_POISSON || !(pps > 0.0) || !isfinite(pps) ||
			(double)tsc_hz / pps < 1.0)
		return -EINVAL;
	g->pps = pps;
	g->stall_tsc = (uint64_t)fmax((double)tsc_hz / pps, 20e-6 * (double)tsc_hz);
	return fill_gaps(g, p->seed, (double)tsc_hz / pps);
}
