/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for pace.[ch]: the TSC pacer against synthetic TSC values.
 * Expected budgets are computed exactly in 128-bit integers, so a pacer
 * that is off by one frame after a simulated day fails.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "datapath/pace.h"
#include "wr_test.h"

/* Exact products for the expectations (tests run on 64-bit hosts). */
__extension__ typedef unsigned __int128 u128;

#define HZ_1G 1000000000ULL
#define HZ_2G4 2400000000ULL
#define HZ_3G 3000000000ULL
#define HZ_ODD 2345678901ULL
#define T0 987654321ULL

/* A rate as a fraction, so expectations need no floating point. */
struct rate_q {
	uint64_t num;
	uint64_t den;
};

static const uint64_t test_hz[] = { HZ_1G, HZ_2G4, HZ_3G, HZ_ODD };
static const struct rate_q test_rates[] = {
	{ 1, 2 }, { 1, 1 }, { 100000, 1 }, { 1000000, 1 },
	{ 14880000, 1 }, { 100000000, 1 },
};

static uint64_t rng_state = 88172645463325252ULL;

/* xorshift64: reproducible steps. */
static uint64_t
rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* floor(num / den * dt_tsc / hz): frames earned after dt_tsc. */
static uint64_t
frames_at(struct rate_q q, uint64_t dt_tsc, uint64_t hz)
{
	return (uint64_t)((u128)q.num * dt_tsc / ((u128)q.den * hz));
}

/* Cycles that n frames take at rate q. */
static uint64_t
cycles_for(struct rate_q q, uint64_t n, uint64_t hz)
{
	return (uint64_t)((u128)n * q.den * hz / q.num);
}

static int
pace_make(struct wr_pace *p, double pps, uint64_t hz, uint32_t burst,
		uint32_t backlog, uint64_t now)
{
	struct wr_pace_conf c = {
		.pps = pps, .tsc_hz = hz, .max_burst = burst,
		.max_backlog_pkts = backlog,
	};

	return wr_pace_init(p, &c, now);
}

/* Send everything granted at now, checking every grant's bounds. */
static uint64_t
drain(struct wr_pace *p, uint64_t now, uint32_t want)
{
	uint64_t total = 0;
	uint32_t n;

	while ((n = wr_pace_grant(p, now, want)) > 0) {
		if (n > want || n > p->max_burst) {
			WR_CHECK(n <= want && n <= p->max_burst);
			break;
		}
		wr_pace_commit(p, n);
		total += n;
	}
	return total;
}

/* Every unit earned since T0 is sent, clamped or still in the credit. */
static void
check_conservation(const struct wr_pace *p, uint64_t sent, uint64_t now)
{
	u128 have = (u128)sent * p->cost + (u128)p->nb_clamped_pkts * p->cost +
		p->clamp_units + p->credit;

	WR_CHECK(have == (u128)(now - T0) * p->earn);
	WR_CHECK(p->credit <= p->cap_units);
	WR_CHECK(p->clamp_units < p->cost);
}

static void
test_init_errors(void)
{
	struct wr_pace p, before;
	struct wr_pace_conf c = { 1e6, HZ_3G, 32, 0 };

	memset(&p, 0xa5, sizeof(p));
	memcpy(&before, &p, sizeof(p));
	WR_CHECK(wr_pace_init(NULL, &c, T0) == -EINVAL);
	WR_CHECK(wr_pace_init(&p, NULL, T0) == -EINVAL);
	WR_CHECK(pace_make(&p, 1e6, HZ_3G, 0, 0, T0) == -EINVAL);
	WR_CHECK(pace_make(&p, 1e6, HZ_3G, 4097, 0, T0) == -EINVAL);
	WR_CHECK(pace_make(&p, 1e6, HZ_3G, 32, 65537, T0) == -EINVAL);
	WR_CHECK(pace_make(&p, 1e6, 999999, 32, 0, T0) == -EINVAL);
	WR_CHECK(pace_make(&p, 1e6, (1ULL << 40) + 1, 32, 0, T0) == -EINVAL);
	WR_CHECK(pace_make(&p, NAN, HZ_3G, 32, 0, T0) == -EINVAL);
	WR_CHECK(pace_make(&p, 0.0, HZ_3G, 32, 0, T0) == -EINVAL);
	WR_CHECK(pace_make(&p, -1.0, HZ_3G, 32, 0, T0) == -EINVAL);
	WR_CHECK(pace_make(&p, -INFINITY, HZ_3G, 32, 0, T0) == -EINVAL);
	/* One frame per cycle or more, or below 2^-F pps: not pacable. */
	WR_CHECK(pace_make(&p, 3e9, HZ_3G, 32, 0, T0) == -ERANGE);
	WR_CHECK(pace_make(&p, 1e12, HZ_3G, 32, 0, T0) == -ERANGE);
	WR_CHECK(pace_make(&p, 1e-12, HZ_3G, 32, 0, T0) == -ERANGE);
	/* backlog * hz above 2^46 leaves fewer than 16 fractional bits. */
	WR_CHECK(pace_make(&p, 1e6, HZ_3G, 32, 65536, T0) == -ERANGE);
	WR_CHECK(pace_make(&p, 1e6, 1ULL << 40, 4096, 0, T0) == -ERANGE);
	WR_CHECK(memcmp(&p, &before, sizeof(p)) == 0);
	/* The largest backlog that fits at 3 GHz. */
	WR_CHECK_U64(pace_make(&p, 1e6, HZ_3G, 32, 23456, T0), 0);
	WR_CHECK_U64(p.frac_bits, 16);
	WR_CHECK(pace_make(&p, 1e6, HZ_3G, 32, 23457, T0) == -ERANGE);
}

static void
test_fixed_point(void)
{
	struct wr_pace p;

	/* F is the largest with max(backlog, burst) * hz * 2^F < 2^62. */
	WR_CHECK_U64(pace_make(&p, 14880000.0, HZ_3G, 32, 0, T0), 0);
	WR_CHECK_U64(p.frac_bits, 25);
	WR_CHECK_U64(p.max_backlog_pkts, 32);
	WR_CHECK_U64(p.cost, HZ_3G << 25);
	WR_CHECK_U64(p.earn, 14880000ULL << 25);
	WR_CHECK_U64(p.cap_units, 32 * (HZ_3G << 25));
	WR_CHECK_NEAR(wr_pace_rate_pps(&p), 14880000.0, 0.0);
	WR_CHECK_U64(pace_make(&p, 0.5, HZ_1G, 32, 0, T0), 0);
	WR_CHECK_U64(p.frac_bits, 27);
	WR_CHECK_NEAR(wr_pace_rate_pps(&p), 0.5, 0.0);
	WR_CHECK_U64(pace_make(&p, 1.0, 1000000, 1, 0, T0), 0);
	WR_CHECK_U64(p.frac_bits, 32);
	/* A rate off the grid is rounded to 2^-(F+1) pps. */
	WR_CHECK_U64(pace_make(&p, 1.0 / 3.0, HZ_3G, 32, 0, T0), 0);
	WR_CHECK_NEAR(wr_pace_rate_pps(&p), 1.0 / 3.0, ldexp(1.0, -26));
	WR_CHECK(wr_pace_rate_pps(&p) != 1.0 / 3.0);
	/* A backlog larger than the burst sets F; so does a larger burst. */
	WR_CHECK_U64(pace_make(&p, 1e6, HZ_3G, 32, 1024, T0), 0);
	WR_CHECK_U64(p.frac_bits, 20);
	WR_CHECK_U64(pace_make(&p, 1e6, HZ_3G, 1024, 1, T0), 0);
	WR_CHECK_U64(p.frac_bits, 20);
	WR_CHECK_U64(p.cap_units, p.cost);
}

/* Random steps of up to 48 frames: exact budget at every step. */
static void
run_exact(struct rate_q q, uint64_t hz, uint64_t nb_steps)
{
	struct wr_pace p;
	uint64_t now = T0, sent = 0, nb_bad = 0, max_step, i;

	WR_CHECK_U64(pace_make(&p, (double)q.num / (double)q.den, hz, 32, 64,
		T0), 0);
	max_step = cycles_for(q, 48, hz);
	for (i = 0; i < nb_steps; i++) {
		now += 1 + rng() % max_step;
		sent += drain(&p, now, 32);
		if (sent != frames_at(q, now - T0, hz))
			nb_bad++;
	}
	if (nb_bad != 0)
		fprintf(stderr, "  rate %" PRIu64 "/%" PRIu64 " hz %" PRIu64
			": %" PRIu64 " steps off\n", q.num, q.den, hz, nb_bad);
	WR_CHECK_U64(nb_bad, 0);
	WR_CHECK_U64(p.nb_clamped_pkts, 0);
	check_conservation(&p, sent, now);
}

static void
test_exact_budgets(void)
{
	unsigned int i, j;

	for (i = 0; i < sizeof(test_rates) / sizeof(test_rates[0]); i++)
		for (j = 0; j < sizeof(test_hz) / sizeof(test_hz[0]); j++)
			run_exact(test_rates[i], test_hz[j], 20000);
	/* Up to half a frame per cycle. */
	run_exact((struct rate_q){ 500000000, 1 }, HZ_1G, 20000);
	run_exact((struct rate_q){ 999999999, 1 }, HZ_1G, 20000);
	run_exact((struct rate_q){ 250000, 1 }, 1000000, 20000);
}

static void
test_low_rates(void)
{
	struct wr_pace p;

	/* 0.5 pps: nothing before 2 s, one frame at 2 s exactly. */
	WR_CHECK_U64(pace_make(&p, 0.5, HZ_ODD, 32, 0, T0), 0);
	WR_CHECK_U64(wr_pace_grant(&p, T0 + 2 * HZ_ODD - 1, 32), 0);
	WR_CHECK_U64(wr_pace_grant(&p, T0 + 2 * HZ_ODD, 32), 1);
	wr_pace_commit(&p, 1);
	WR_CHECK_U64(wr_pace_grant(&p, T0 + 4 * HZ_ODD - 1, 32), 0);
	WR_CHECK_U64(wr_pace_grant(&p, T0 + 4 * HZ_ODD, 32), 1);
	/* Unsent, it stays: two at 6 s. */
	WR_CHECK_U64(wr_pace_grant(&p, T0 + 6 * HZ_ODD, 32), 2);
	/* 1 pps at 3 GHz. */
	WR_CHECK_U64(pace_make(&p, 1.0, HZ_3G, 32, 0, T0), 0);
	WR_CHECK_U64(wr_pace_grant(&p, T0 + HZ_3G - 1, 32), 0);
	WR_CHECK_U64(wr_pace_grant(&p, T0 + HZ_3G, 32), 1);
	WR_CHECK_U64(wr_pace_grant(&p, T0 + 3 * HZ_3G - 1, 32), 2);
	WR_CHECK_U64(wr_pace_grant(&p, T0 + 3 * HZ_3G, 32), 3);
	/* One frame every 1000 s. */
	WR_CHECK_U64(pace_make(&p, 0.001, HZ_3G, 32, 0, T0), 0);
	WR_CHECK_U64(wr_pace_grant(&p, T0 + 999 * HZ_3G, 32), 0);
	WR_CHECK_U64(wr_pace_grant(&p, T0 + 1001 * HZ_3G, 32), 1);
}

/*
 * Calls every step_min..2*step_min seconds for a day or more, never more
 * than the backlog apart: exact against the pacer's own rate, and within
 * one frame of the rate asked for.
 */
static void
run_long(double pps, uint64_t hz, uint64_t seconds, double step_min_s,
		uint32_t burst, uint32_t backlog)
{
	struct wr_pace p;
	uint64_t now = T0, end = T0 + seconds * hz, sent = 0, step;
	struct rate_q eff;
	long double want;

	WR_CHECK_U64(pace_make(&p, pps, hz, burst, backlog, T0), 0);
	step = (uint64_t)(step_min_s * (double)hz);
	while (now < end) {
		now += step + rng() % step;
		if (now > end)
			now = end;
		sent += drain(&p, now, burst);
	}
	eff = (struct rate_q){ p.earn, 1ULL << p.frac_bits };
	WR_CHECK_U64(sent, frames_at(eff, now - T0, hz));
	WR_CHECK_U64(p.nb_clamped_pkts, 0);
	want = floorl((long double)pps * (long double)seconds);
	WR_CHECK_NEAR((double)((long double)sent - want), 0.0, 1.0);
}

static void
test_no_drift_day(void)
{
	static const double rates[] = {
		0.5, 1.0, 1000.0, 16000.0, 1.0 / 3.0, 2.0 / 7.0,
		14880.952380952381, 12345.678901,
	};
	unsigned int i;

	for (i = 0; i < sizeof(rates) / sizeof(rates[0]); i++) {
		run_long(rates[i], HZ_3G, 86400, 0.05, 1024, 2048);
		run_long(rates[i], HZ_ODD, 86400, 0.05, 1024, 2048);
	}
	/* A month at low rates, calls every 10 to 20 frames. */
	run_long(0.5, HZ_ODD, 30 * 86400, 20.0, 32, 0);
	run_long(1.0 / 3.0, HZ_3G, 30 * 86400, 30.0, 32, 0);
	run_long(2.0 / 7.0, HZ_2G4, 30 * 86400, 35.0, 32, 0);
	run_long(1.0, HZ_2G4, 30 * 86400, 10.0, 32, 0);
}

/* High rates over long stretches, calls every 100-200 us. */
static void
test_no_drift_high(void)
{
	run_long(14880000.0, HZ_ODD, 600, 0.0001, 4096, 0);
	run_long(14880952.380952381, HZ_3G, 600, 0.0001, 4096, 0);
	run_long(100e6, HZ_1G, 60, 0.00002, 4096, 0);
}

/* A day in hourly jumps: every unit accounted for, each one clamps. */
static void
run_day_jumps(struct rate_q q, uint64_t hz)
{
	struct wr_pace p;
	uint64_t now = T0, sent = 0, total, want;
	unsigned int h;

	WR_CHECK_U64(pace_make(&p, (double)q.num / (double)q.den, hz, 32, 0,
		T0), 0);
	for (h = 1; h <= 24; h++) {
		now = T0 + h * 3600 * hz + rng() % hz;
		sent += drain(&p, now, 32);
		check_conservation(&p, sent, now);
	}
	total = sent + p.nb_clamped_pkts + wr_pace_backlog_pkts(&p);
	want = frames_at(q, now - T0, hz);
	WR_CHECK(total == want || total + 1 == want);
}

static void
test_no_drift_day_jumps(void)
{
	unsigned int i, j;

	for (i = 0; i < sizeof(test_rates) / sizeof(test_rates[0]); i++)
		for (j = 0; j < sizeof(test_hz) / sizeof(test_hz[0]); j++)
			run_day_jumps(test_rates[i], test_hz[j]);
}

/* 1 Mpps at 3 GHz for n steps of 10 us from *now; frames sent. */
static uint64_t
run_10us_steps(struct wr_pace *p, uint64_t *now, int n)
{
	uint64_t sent = 0;
	int i;

	for (i = 0; i < n; i++) {
		*now += 30000;
		sent += drain(p, *now, 32);
	}
	return sent;
}

static void
test_max_burst(void)
{
	struct wr_pace p;
	uint64_t now = T0 + 1000 * 3000;	/* 1000 frames at 1 Mpps */

	WR_CHECK_U64(pace_make(&p, 1e6, HZ_3G, 32, 1000, T0), 0);
	WR_CHECK_U64(wr_pace_grant(&p, now, 1000), 32);
	WR_CHECK_U64(wr_pace_grant(&p, now, 5), 5);
	WR_CHECK_U64(wr_pace_grant(&p, now, 0), 0);
	WR_CHECK_U64(wr_pace_backlog_pkts(&p), 1000);
	WR_CHECK_U64(drain(&p, now, 1000), 1000);
	WR_CHECK_U64(wr_pace_grant(&p, now, 32), 0);
	WR_CHECK_U64(p.nb_clamped_pkts, 0);
}

static void
test_clamp_after_stall(void)
{
	struct rate_q q = { 1000000, 1 };
	struct wr_pace p;
	uint64_t now = T0, sent, before;

	WR_CHECK_U64(pace_make(&p, 1e6, HZ_3G, 32, 0, T0), 0);
	sent = run_10us_steps(&p, &now, 100000);
	WR_CHECK_U64(sent, 1000000);
	/* 10 s stall: one burst of backlog kept, the rest counted. */
	now += 10 * HZ_3G;
	WR_CHECK_U64(wr_pace_grant(&p, now, 1000), 32);
	WR_CHECK_U64(wr_pace_backlog_pkts(&p), 32);
	WR_CHECK_U64(p.nb_clamped_pkts, 10000000 - 32);
	wr_pace_commit(&p, 32);
	sent += 32;
	WR_CHECK_U64(wr_pace_grant(&p, now, 1000), 0);
	check_conservation(&p, sent, now);
	/* Then the rate resumes, on the same phase. */
	before = sent;
	sent += run_10us_steps(&p, &now, 100000);
	WR_CHECK_U64(sent - before, 1000000);
	WR_CHECK_U64(sent + p.nb_clamped_pkts, frames_at(q, now - T0, HZ_3G));
	check_conservation(&p, sent, now);
}

/*
 * A live rate change (wr_pace_rerate, worker.c repace) keeps the clamp and
 * stall counts of the rate before (init erased them), earns
 * at the new rate from then on, and refuses what init refuses, leaving
 * the pacer as it was.
 */
static void
test_rerate_keeps_counts(void)
{
	struct rate_q q2 = { 2000000, 1 };
	struct wr_pace_conf c = { 2e6, HZ_3G, 32, 0 };
	struct wr_pace p, before;
	uint64_t now = T0, sent, clamped, stalls, gap;

	WR_CHECK_U64(pace_make(&p, 1e6, HZ_3G, 32, 0, T0), 0);
	run_10us_steps(&p, &now, 1000);
	now += 10 * HZ_3G;   /* a stall: clamps, counted as a stall's */
	wr_pace_commit(&p, wr_pace_grant(&p, now, 32));
	clamped = p.nb_clamped_pkts;
	stalls = p.nb_stalls;
	gap = p.stall_gap_tsc;
	WR_CHECK(clamped > 0 && stalls == 1 && p.stall_clamped_pkts == clamped);
	WR_CHECK_U64(wr_pace_rerate(&p, &c, now), 0);
	WR_CHECK_U64(p.nb_clamped_pkts, clamped);
	WR_CHECK_U64(p.stall_clamped_pkts, clamped);
	WR_CHECK_U64(p.nb_stalls, stalls);
	WR_CHECK_U64(p.stall_gap_tsc, gap);
	WR_CHECK_U64(p.max_stall_tsc, gap);
	WR_CHECK_U64(wr_pace_backlog_pkts(&p), 0);
	/* The new rate, from the change on. */
	sent = run_10us_steps(&p, &now, 100000);
	WR_CHECK_U64(sent, frames_at(q2, HZ_3G, HZ_3G));
	WR_CHECK_U64(p.nb_clamped_pkts, clamped);
	/* Refused like init: the pacer untouched. */
	memcpy(&before, &p, sizeof(p));
	c.pps = 0.0;
	WR_CHECK(wr_pace_rerate(&p, &c, now) == -EINVAL);
	WR_CHECK(memcmp(&before, &p, sizeof(p)) == 0);
	WR_CHECK(wr_pace_rerate(NULL, &c, now) == -EINVAL);
}

static void
test_clamp_backlog_and_long_stalls(void)
{
	struct wr_pace p;
	uint64_t now;

	/* A backlog of two bursts: two bursts after a stall, then nothing. */
	WR_CHECK_U64(pace_make(&p, 1e6, HZ_3G, 32, 64, T0), 0);
	now = T0 + 10 * HZ_3G;
	WR_CHECK_U64(wr_pace_grant(&p, now, 32), 32);
	wr_pace_commit(&p, 32);
	WR_CHECK_U64(wr_pace_grant(&p, now, 32), 32);
	wr_pace_commit(&p, 32);
	WR_CHECK_U64(wr_pace_grant(&p, now, 32), 0);
	WR_CHECK_U64(p.nb_clamped_pkts, 10000000 - 64);
	check_conservation(&p, 64, now);
	/* An hour, then 30 days, at 100 Mpps: products beyond 2^64. */
	WR_CHECK_U64(pace_make(&p, 100e6, HZ_3G, 32, 0, T0), 0);
	now = T0 + 3600 * HZ_3G;
	WR_CHECK_U64(wr_pace_grant(&p, now, 64), 32);
	WR_CHECK_U64(p.nb_clamped_pkts, 360000000000ULL - 32);
	check_conservation(&p, 0, now);
	now += 30 * 86400 * HZ_3G;
	WR_CHECK_U64(wr_pace_grant(&p, now, 64), 32);
	WR_CHECK_U64(p.nb_clamped_pkts, 259560000000000ULL - 32);
	check_conservation(&p, 0, now);
	/* Just past max_step_tsc takes the slow path; at it, the fast one. */
	WR_CHECK_U64(pace_make(&p, 1e6, HZ_ODD, 32, 0, T0), 0);
	now = T0 + p.max_step_tsc;
	WR_CHECK_U64(wr_pace_grant(&p, now, 32), 31);
	check_conservation(&p, 0, now);
	now += p.max_step_tsc + 1;
	WR_CHECK_U64(wr_pace_grant(&p, now, 32), 32);
	check_conservation(&p, 0, now);
}

/*
 * Stalls: a clamp after a gap of a sixteenth of the backlog window or
 * more, and any clamp up to one window after it, count as stall clamps; a
 * worker too slow for the rate clamps in short gaps and counts none.
 * 1 Mpps at 3 GHz with a 1000-frame backlog: the window is 1 ms (3e6
 * cycles), a stall 62.5 us (187500 cycles) or more.
 */
static void
test_stalls(void)
{
	struct wr_pace p;
	uint64_t now = T0, sent, clamped;
	int i;

	WR_CHECK_U64(pace_make(&p, 1e6, HZ_3G, 32, 1000, T0), 0);
	WR_CHECK_U64(p.max_step_tsc, 3000000);
	sent = run_10us_steps(&p, &now, 100);
	WR_CHECK_U64(p.nb_clamped_pkts + p.nb_stalls + p.max_stall_tsc, 0);
	/* 5 ms off the CPU: 4000 frames clamped in one grant. */
	now += 15000000;
	WR_CHECK_U64(wr_pace_grant(&p, now, 32), 32);
	WR_CHECK_U64(p.nb_clamped_pkts, 4000);
	WR_CHECK_U64(p.nb_stalls, 1);
	WR_CHECK_U64(p.max_stall_tsc, 15000000);
	WR_CHECK_U64(p.stall_clamped_pkts, 4000);
	/* Back for 50 us without sending, then a 100 us stall while catching
	 * up (an inline clamp): both part of the stall. */
	now += 150000;
	WR_CHECK_U64(wr_pace_grant(&p, now, 32), 32);
	now += 300000;
	WR_CHECK_U64(wr_pace_grant(&p, now, 32), 32);
	WR_CHECK_U64(p.nb_clamped_pkts, 4150);
	WR_CHECK_U64(p.stall_clamped_pkts, 4150);
	WR_CHECK_U64(p.nb_stalls, 2);
	WR_CHECK_U64(p.max_stall_tsc, 15000000);
	check_conservation(&p, sent, now);
	/* 50 us steps without sending: stall clamps until 1 ms after the
	 * last stall, then clamps the stall count does not take. */
	for (i = 0; i < 40; i++) {
		now += 150000;
		WR_CHECK_U64(wr_pace_grant(&p, now, 32), 32);
	}
	WR_CHECK_U64(p.nb_clamped_pkts, 4150 + 40 * 50);
	WR_CHECK_U64(p.stall_clamped_pkts, 4150 + 20 * 50);
	WR_CHECK_U64(p.nb_stalls, 2);
	check_conservation(&p, sent, now);
	/* A worker too slow: 40 frames earned a step, 32 sent. No stall. */
	WR_CHECK_U64(pace_make(&p, 1e6, HZ_3G, 32, 1000, T0), 0);
	for (now = T0, sent = 0, i = 0; i < 1000; i++) {
		now += 120000;
		WR_CHECK_U64(wr_pace_grant(&p, now, 32), 32);
		wr_pace_commit(&p, 32);
		sent += 32;
	}
	clamped = 1000 * 8 - (1000 - 32);	/* earned - sent - credit left */
	WR_CHECK_U64(p.nb_clamped_pkts, clamped);
	WR_CHECK_U64(p.nb_stalls + p.stall_clamped_pkts + p.max_stall_tsc, 0);
	check_conservation(&p, sent, now);
}

/*
 * The end of a run (wr_pace_settle): a worker off its CPU for the last
 * 5 ms never grants again, yet the 4968 frames it owed beyond its backlog
 * are counted as a stall's clamps; a settle at or before the last grant
 * (the worker saw the stop late) earns nothing; an unpaced pacer settles
 * to nothing.
 */
static void
test_settle(void)
{
	struct wr_pace p;
	uint64_t now = T0, sent;

	WR_CHECK_U64(pace_make(&p, 1e6, HZ_3G, 32, 0, T0), 0);
	sent = run_10us_steps(&p, &now, 100);
	WR_CHECK_U64(sent, 1000);
	wr_pace_settle(&p, now + 15000000);
	WR_CHECK_U64(p.nb_clamped_pkts, 5000 - 32);
	WR_CHECK_U64(p.stall_clamped_pkts, 5000 - 32);
	WR_CHECK_U64(p.nb_stalls, 1);
	WR_CHECK_U64(wr_pace_backlog_pkts(&p), 32);
	check_conservation(&p, sent, now + 15000000);
	/* Settling again, or before the last call: nothing more. */
	wr_pace_settle(&p, now + 15000000);
	wr_pace_settle(&p, now);
	WR_CHECK_U64(p.nb_clamped_pkts, 5000 - 32);
	WR_CHECK_U64(p.last_tsc, now + 15000000);
	/* A settle a few cycles after the last grant: no clamp. */
	WR_CHECK_U64(pace_make(&p, 1e6, HZ_3G, 32, 0, T0), 0);
	now = T0;
	sent = run_10us_steps(&p, &now, 100);
	wr_pace_settle(&p, now + 3000);
	WR_CHECK_U64(p.nb_clamped_pkts, 0);
	check_conservation(&p, sent, now + 3000);
	WR_CHECK_U64(pace_make(&p, WR_PACE_UNLIMITED, HZ_3G, 32, 0, T0), 0);
	wr_pace_settle(&p, T0 + HZ_3G);
	WR_CHECK_U64(p.nb_clamped_pkts, 0);
}

/* A full TX ring: grants not committed pile up to the cap, then clamp. */
static void
test_ring_full(void)
{
	struct wr_pace p;
	uint64_t now = T0;
	int i;

	WR_CHECK_U64(pace_make(&p, 1e6, HZ_3G, 32, 0, T0), 0);
	for (i = 0; i < 1000; i++) {
		now += 3000;	/* 1 us: one frame */
		WR_CHECK(wr_pace_grant(&p, now, 32) <= 32);
		wr_pace_commit(&p, 0);
	}
	WR_CHECK_U64(wr_pace_backlog_pkts(&p), 32);
	WR_CHECK_U64(p.nb_clamped_pkts, 1000 - 32);
	check_conservation(&p, 0, now);
	/* Steps of a fraction of a frame: partial frames add up too. */
	WR_CHECK_U64(pace_make(&p, 1e6, HZ_ODD, 32, 0, T0), 0);
	for (now = T0, i = 0; i < 100000; i++) {
		now += 1 + rng() % 3000;
		wr_pace_grant(&p, now, 32);
		check_conservation(&p, 0, now);
	}
	WR_CHECK_U64(p.nb_clamped_pkts + 32,
		frames_at((struct rate_q){ 1000000, 1 }, now - T0, HZ_ODD));
}

static void
test_partial_commit(void)
{
	struct rate_q q = { 1000000, 1 };
	struct wr_pace p;
	uint64_t now = T0 + cycles_for(q, 20, HZ_ODD) + 1, sent = 0, i;
	uint32_t n, acc;

	WR_CHECK_U64(pace_make(&p, 1e6, HZ_ODD, 32, 256, T0), 0);
	WR_CHECK_U64(wr_pace_grant(&p, now, 32), 20);
	wr_pace_commit(&p, 5);	/* the ring took 5 of 20 */
	WR_CHECK_U64(wr_pace_grant(&p, now, 32), 15);
	wr_pace_commit(&p, 0);
	WR_CHECK_U64(wr_pace_grant(&p, now, 32), 15);
	wr_pace_commit(&p, 15);
	WR_CHECK_U64(wr_pace_grant(&p, now, 32), 0);
	sent = 20;
	/* A ring that takes a random part of each grant: nothing lost. */
	for (i = 0; i < 200000; i++) {
		now += 1 + rng() % 4000;	/* about 0.85 frame a step */
		n = wr_pace_grant(&p, now, 32);
		acc = (uint32_t)(rng() % (n + 1));
		wr_pace_commit(&p, acc);
		sent += acc;
		if (sent + wr_pace_backlog_pkts(&p) !=
				frames_at(q, now - T0, HZ_ODD)) {
			WR_CHECK(0);
			break;
		}
	}
	WR_CHECK_U64(p.nb_clamped_pkts, 0);
	check_conservation(&p, sent, now);
	/* Committing more than granted stops the credit at 0. */
	wr_pace_commit(&p, 1000);
	WR_CHECK_U64(p.credit, 0);
}

static void
test_unlimited(void)
{
	struct wr_pace p;

	WR_CHECK_U64(pace_make(&p, WR_PACE_UNLIMITED, HZ_3G, 32, 0, T0), 0);
	WR_CHECK_U64(wr_pace_grant(&p, T0, 64), 32);
	WR_CHECK_U64(wr_pace_grant(&p, T0, 7), 7);
	WR_CHECK_U64(wr_pace_grant(&p, T0, 0), 0);
	WR_CHECK_U64(wr_pace_grant(&p, T0 - 5, 32), 32);
	WR_CHECK_U64(wr_pace_grant(&p, T0 + 1000 * HZ_3G, 32), 32);
	wr_pace_commit(&p, 32);
	WR_CHECK_U64(wr_pace_grant(&p, T0, 32), 32);
	WR_CHECK_U64(wr_pace_backlog_pkts(&p), 0);
	WR_CHECK_U64(p.nb_clamped_pkts, 0);
	WR_CHECK(isinf(wr_pace_rate_pps(&p)));
	/* A TSC frequency is still checked. */
	WR_CHECK(pace_make(&p, WR_PACE_UNLIMITED, 0, 32, 0, T0) == -EINVAL);
}

static void
test_tsc_backwards(void)
{
	struct wr_pace p;
	uint64_t now = T0, sent, last;

	WR_CHECK_U64(pace_make(&p, 1e6, HZ_3G, 32, 0, T0), 0);
	sent = run_10us_steps(&p, &now, 100);
	WR_CHECK_U64(sent, 1000);
	/* Backwards, a little or a lot: nothing earned, nothing moved. */
	last = p.last_tsc;
	WR_CHECK_U64(wr_pace_grant(&p, now - 3000, 32), 0);
	WR_CHECK_U64(wr_pace_grant(&p, now - 300000, 32), 0);
	WR_CHECK_U64(wr_pace_grant(&p, 5, 32), 0);
	WR_CHECK_U64(p.last_tsc, last);
	WR_CHECK_U64(p.nb_clamped_pkts, 0);
	/* Forward again: no interval counted twice. */
	sent += run_10us_steps(&p, &now, 100);
	WR_CHECK_U64(sent, 2000);
	WR_CHECK_U64(p.nb_clamped_pkts, 0);
	check_conservation(&p, sent, now);
}

/* backlog_pkts(credit) == credit / cost for credits around multiples. */
static void
check_division(uint64_t hz, uint32_t burst, uint32_t backlog)
{
	struct wr_pace p;
	uint64_t k, c, nb_bad = 0, i;
	uint64_t d[5];
	unsigned int j;

	WR_CHECK_U64(pace_make(&p, 1.0, hz, burst, backlog, T0), 0);
	d[0] = 0;
	d[1] = 1;
	d[2] = p.cost / 2;
	d[3] = p.cost - 1;
	d[4] = p.cost - 2;
	for (k = 0; k <= p.max_backlog_pkts; k++) {
		for (j = 0; j < 5; j++) {
			c = k * p.cost + d[j];
			if (c > p.cap_units)
				continue;
			p.credit = c;
			nb_bad += wr_pace_backlog_pkts(&p) != c / p.cost;
		}
	}
	for (i = 0; i < 20000; i++) {
		p.credit = rng() % (p.cap_units + 1);
		nb_bad += wr_pace_backlog_pkts(&p) != p.credit / p.cost;
	}
	WR_CHECK_U64(nb_bad, 0);
}

static void
test_backlog_division(void)
{
	check_division(HZ_3G, 32, 0);
	check_division(HZ_ODD, 32, 0);
	check_division(HZ_3G, 32, 23456);
	check_division(1000000, 1, 0);
	check_division(1000001, 4096, 65536);
	check_division(1ULL << 40, 1, 32);
	check_division((1ULL << 40) - 1, 32, 0);
	check_division(1ULL << 31, 32, 0);
}

static void
test_split(void)
{
	static const double totals[] = {
		1.0, 7.0, 0.5, 14880952.380952381, 100e6, 123456.789,
		3.0 / 65536.0, 1e9 + 0.25,
	};
	static const unsigned int workers[] = { 1, 2, 3, 7, 8, 64, 1000 };
	unsigned int i, j, k;
	double share, units, lo, hi;
	uint64_t sum, want;

	for (i = 0; i < sizeof(totals) / sizeof(totals[0]); i++) {
		for (j = 0; j < sizeof(workers) / sizeof(workers[0]); j++) {
			sum = 0;
			lo = INFINITY;
			hi = 0.0;
			for (k = 0; k < workers[j]; k++) {
				share = wr_pace_split(totals[i], workers[j], k);
				units = ldexp(share, 16);
				WR_CHECK(units == floor(units));
				sum += (uint64_t)units;
				lo = fmin(lo, share);
				hi = fmax(hi, share);
			}
			want = (uint64_t)llround(ldexp(totals[i], 16));
			WR_CHECK_U64(sum, want);
			WR_CHECK(hi - lo <= ldexp(1.0, -16));
		}
	}
	/* Lower indexes carry the remainder. */
	WR_CHECK_NEAR(wr_pace_split(3.0 / 65536.0, 4, 0), ldexp(1.0, -16), 0.0);
	WR_CHECK_NEAR(wr_pace_split(3.0 / 65536.0, 4, 2), ldexp(1.0, -16), 0.0);
	WR_CHECK_NEAR(wr_pace_split(3.0 / 65536.0, 4, 3), 0.0, 0.0);
	WR_CHECK_NEAR(wr_pace_split(10.0, 4, 0), 2.5, 0.0);
	WR_CHECK(isinf(wr_pace_split(WR_PACE_UNLIMITED, 4, 3)));
	WR_CHECK_NEAR(wr_pace_split(10.0, 0, 0), 0.0, 0.0);
	WR_CHECK_NEAR(wr_pace_split(10.0, 4, 4), 0.0, 0.0);
	WR_CHECK_NEAR(wr_pace_split(NAN, 4, 0), 0.0, 0.0);
	WR_CHECK_NEAR(wr_pace_split(-1.0, 4, 0), 0.0, 0.0);
	WR_CHECK_NEAR(wr_pace_split(0.0, 4, 0), 0.0, 0.0);
	WR_CHECK_NEAR(wr_pace_split(ldexp(1.0, 47), 4, 0), 0.0, 0.0);
}

/* Workers paced with split shares send the total between them. */
static void
test_split_pacers(void)
{
	double total = 14880952.380952381, share;
	struct rate_q q = { (uint64_t)llround(ldexp(total, 16)), 1ULL << 16 };
	struct wr_pace p[3];
	uint64_t now = T0, sent = 0, want;
	unsigned int k;
	int i;

	for (k = 0; k < 3; k++) {
		share = wr_pace_split(total, 3, k);
		WR_CHECK_U64(pace_make(&p[k], share, HZ_ODD, 32, 256, T0), 0);
		WR_CHECK_NEAR(wr_pace_rate_pps(&p[k]), share, 0.0);
	}
	for (i = 0; i < 200000; i++) {
		now += 1 + rng() % 20000;
		for (k = 0; k < 3; k++)
			sent += drain(&p[k], now, 32);
	}
	want = frames_at(q, now - T0, HZ_ODD);
	WR_CHECK(sent <= want && sent + 2 >= want);
	for (k = 0; k < 3; k++)
		WR_CHECK_U64(p[k].nb_clamped_pkts, 0);
}

int
main(void)
{
	WR_TEST_RUN(test_init_errors);
	WR_TEST_RUN(test_fixed_point);
	WR_TEST_RUN(test_exact_budgets);
	WR_TEST_RUN(test_low_rates);
	WR_TEST_RUN(test_no_drift_day);
	WR_TEST_RUN(test_no_drift_high);
	WR_TEST_RUN(test_no_drift_day_jumps);
	WR_TEST_RUN(test_max_burst);
	WR_TEST_RUN(test_clamp_after_stall);
	WR_TEST_RUN(test_rerate_keeps_counts);
	WR_TEST_RUN(test_clamp_backlog_and_long_stalls);
	WR_TEST_RUN(test_stalls);
	WR_TEST_RUN(test_settle);
	WR_TEST_RUN(test_ring_full);
	WR_TEST_RUN(test_partial_commit);
	WR_TEST_RUN(test_unlimited);
	WR_TEST_RUN(test_tsc_backwards);
	WR_TEST_RUN(test_backlog_division);
	WR_TEST_RUN(test_split);
	WR_TEST_RUN(test_split_pacers);
	return wr_test_summary();
}
