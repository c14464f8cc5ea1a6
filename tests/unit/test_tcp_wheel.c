/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for lib/tcp/wheel.c: the TCP core's timer wheel. The due
 * times are the test's own arithmetic, compared with what the wheel fires.
 */
#include <errno.h>
#include <stdlib.h>

#include "tcp/wheel.h"
#include "wr_test.h"

#define NB_SLOTS 64
#define NB_TIMERS 1000
#define SHIFT 10   /* ticks of 1024 us */

static struct wr_tcp_wheel wheel;
static uint64_t mem[(NB_SLOTS * 4 + NB_TIMERS * 16) / 8 + 1];

static void
setup(uint64_t now_us)
{
	WR_CHECK(wr_tcp_wheel_mem_bytes(NB_SLOTS, NB_TIMERS) <= sizeof(mem));
	WR_CHECK_U64(wr_tcp_wheel_init(&wheel, mem, NB_SLOTS, NB_TIMERS, SHIFT,
		now_us, NULL), 0);
}

static void
test_bad_sizes(void)
{
	struct wr_error err;

	WR_CHECK(wr_tcp_wheel_init(&wheel, mem, 48, 10, SHIFT, 0, &err) ==
		-EINVAL);
	WR_CHECK_STR(err.msg, "power of two");
	WR_CHECK(wr_tcp_wheel_init(&wheel, mem, 64, 0, SHIFT, 0, &err) ==
		-EINVAL);
	WR_CHECK(wr_tcp_wheel_init(&wheel, mem, 64, 10, 21, 0, &err) ==
		-EINVAL);
}

/* A timer never fires early and fires at the tick that holds its expiry. */
static void
test_fire_on_time(void)
{
	uint32_t fired[4];

	setup(0);
	wr_tcp_wheel_arm(&wheel, 7, 5000);
	WR_CHECK(wr_tcp_wheel_armed(&wheel, 7));
	WR_CHECK_U64(wr_tcp_wheel_advance(&wheel, 4999, fired, 4), 0);
	/* 5000 us rounds up to tick 5 (5120 us) */
	WR_CHECK_U64(wr_tcp_wheel_advance(&wheel, 5119, fired, 4), 0);
	WR_CHECK_U64(wr_tcp_wheel_advance(&wheel, 5120, fired, 4), 1);
	WR_CHECK_U64(fired[0], 7);
	WR_CHECK(!wr_tcp_wheel_armed(&wheel, 7));
	WR_CHECK_U64(wheel.nb_armed, 0);
}

static void
test_cancel_rearm(void)
{
	uint32_t fired[4];

	setup(0);
	wr_tcp_wheel_arm(&wheel, 1, 2000);
	wr_tcp_wheel_arm(&wheel, 2, 2000);
	wr_tcp_wheel_arm(&wheel, 3, 2000);
	wr_tcp_wheel_cancel(&wheel, 2);         /* middle of the bucket */
	wr_tcp_wheel_cancel(&wheel, 2);         /* twice: nothing */
	wr_tcp_wheel_arm(&wheel, 3, 50000);     /* re-armed later */
	WR_CHECK_U64(wheel.nb_armed, 2);
	WR_CHECK_U64(wr_tcp_wheel_advance(&wheel, 3000, fired, 4), 1);
	WR_CHECK_U64(fired[0], 1);
	WR_CHECK_U64(wr_tcp_wheel_advance(&wheel, 49000, fired, 4), 0);
	WR_CHECK_U64(wr_tcp_wheel_advance(&wheel, 51200, fired, 4), 1);
	WR_CHECK_U64(fired[0], 3);
}

/* Beyond one turn of the wheel (64 ticks = 65.5 ms): waits its round. */
static void
test_far_expiry(void)
{
	uint32_t fired[4];
	uint64_t t;

	setup(1000000);
	wr_tcp_wheel_arm(&wheel, 9, 1000000 + 1000000);  /* 1 s: ~15 turns */
	for (t = 1000000; t < 2000000 - 1024; t += 700)
		WR_CHECK_U64(wr_tcp_wheel_advance(&wheel, t, fired, 4), 0);
	WR_CHECK_U64(wr_tcp_wheel_advance(&wheel, 2001000, fired, 4), 1);
	WR_CHECK_U64(fired[0], 9);
}

/* A past expiry fires at the next advance; a long gap loses nothing. */
static void
test_past_and_gap(void)
{
	uint32_t fired[NB_TIMERS];
	uint32_t i;

	setup(100000);
	wr_tcp_wheel_arm(&wheel, 0, 10);
	WR_CHECK_U64(wr_tcp_wheel_advance(&wheel, 100000, fired, 4), 1);
	for (i = 0; i < 100; i++)
		wr_tcp_wheel_arm(&wheel, i, 100000 + (uint64_t)i * 3000);
	/* ten turns later in one step */
	WR_CHECK_U64(wr_tcp_wheel_advance(&wheel, 100000 + 10 * 65536, fired,
		NB_TIMERS), 100);
	WR_CHECK_U64(wheel.nb_armed, 0);
}

/* max_fired bounds one call; the rest come out at the next one. */
static void
test_bounded_batch(void)
{
	uint32_t fired[8], i, n = 0, seen = 0;

	setup(0);
	for (i = 0; i < 20; i++)
		wr_tcp_wheel_arm(&wheel, i, 3000);
	for (i = 0; i < 5; i++) {
		n = wr_tcp_wheel_advance(&wheel, 4000, fired, 8);
		seen += n;
	}
	WR_CHECK_U64(seen, 20);
	WR_CHECK_U64(wheel.nb_armed, 0);
}

/*
 * Random arms, cancels and re-arms against a plain array of expiries: each
 * timer fires once, in the tick its expiry rounds up to, never before.
 */
static void
test_random_model(void)
{
	static uint64_t due[NB_TIMERS];
	uint32_t fired[NB_TIMERS];
	uint64_t rng = 44, now = 0, tick_us = 1u << SHIFT;
	uint32_t i, step;

	setup(0);
	for (i = 0; i < NB_TIMERS; i++)
		due[i] = UINT64_MAX;
	for (step = 0; step < 20000; step++) {
		uint32_t idx = (uint32_t)(wr_test_prng(&rng) % NB_TIMERS);
		uint32_t op = (uint32_t)(wr_test_prng(&rng) % 4);
		uint32_t n;

		if (op < 2) {
			due[idx] = now + wr_test_prng(&rng) % 300000;
			wr_tcp_wheel_arm(&wheel, idx, due[idx]);
		} else if (op == 2) {
			due[idx] = UINT64_MAX;
			wr_tcp_wheel_cancel(&wheel, idx);
		}
		now += wr_test_prng(&rng) % 200;
		n = wr_tcp_wheel_advance(&wheel, now, fired, NB_TIMERS);
		for (i = 0; i < n; i++) {
			WR_CHECK(due[fired[i]] <= now);
			WR_CHECK(due[fired[i]] + tick_us > now - 200);
			due[fired[i]] = UINT64_MAX;
		}
	}
	for (i = 0; i < NB_TIMERS; i++)
		if (due[i] != UINT64_MAX && due[i] + tick_us <= now)
			WR_CHECK(due[i] > now);  /* overdue and not fired */
}

int
main(void)
{
	WR_TEST_RUN(test_bad_sizes);
	WR_TEST_RUN(test_fire_on_time);
	WR_TEST_RUN(test_cancel_rearm);
	WR_TEST_RUN(test_far_expiry);
	WR_TEST_RUN(test_past_and_gap);
	WR_TEST_RUN(test_bounded_batch);
	WR_TEST_RUN(test_random_model);
	return wr_test_summary();
}
