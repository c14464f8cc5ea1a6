/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for base/lease.c, the lease table's state machine on a
 * clock of its own: acquire, refuse naming the holder, renew, expire at
 * the TTL, release, force (the old holder told once), the queue served
 * first come, first served per port, a waiter that gives up or leaves,
 * and a run's check against the holders.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/lease.h"
#include "wr_test.h"

/* The events reported, in order, a letter each (letters[]). */
static char evlog[256];

static void
on_event(void *arg, enum wr_lease_ev ev, const struct wr_lease *l,
		uint64_t now_ms)
{
	static const char letters[] = "AQGULTFNRE!";
	size_t n = strlen(evlog);

	(void)arg;
	(void)l;
	(void)now_ms;
	if (n + 1 < sizeof(evlog)) {
		evlog[n] = letters[ev];
		evlog[n + 1] = '\0';
	}
}

static struct wr_lease_table tab;

static void
setup(void)
{
	struct wr_lease_cb cb = { .fn = on_event };

	wr_lease_init(&tab, &cb);
	evlog[0] = '\0';
}

static struct wr_lease_req
req(const char *owner, const char *secret, uint64_t ports, uint64_t ttl_ms)
{
	struct wr_lease_req r = {
		.owner = owner, .reason = "test", .secret = secret,
		.ports = ports, .ttl_ms = ttl_ms, .caller = 1,
	};

	return r;
}

static void
test_acquire_refuse_release(void)
{
	struct wr_lease_req a = req("alice", "s-a", 0x3, 10000);
	struct wr_lease_req b = req("bob", "s-b", 0x2, 10000);
	const struct wr_lease *l;
	struct wr_error err;
	uint64_t id;

	setup();
	WR_CHECK(wr_lease_acquire(&tab, &a, 1000, 0, &l, &err) == 0);
	WR_CHECK_U64(l->id, 1);
	WR_CHECK_U64(l->until_ms, 11000);
	WR_CHECK(wr_lease_acquire(&tab, &b, 1001, 0, &l, &err) == -EBUSY);
	WR_CHECK_STR(err.msg, "port 1 is held by alice (lease 1");
	/* Other ports are free to others. */
	b.ports = 0x4;
	WR_CHECK(wr_lease_acquire(&tab, &b, 1002, 0, &l, &err) == 0);
	WR_CHECK(wr_lease_release(&tab, "s-a", 1003, &id, &err) == 0);
	WR_CHECK_U64(id, 1);
	WR_CHECK(wr_lease_release(&tab, "s-a", 1004, &id, &err) == -ENOENT);
	WR_CHECK_STR(err.msg, "lease 1 was released");
	WR_CHECK(wr_lease_renew(&tab, "nope", 0, 1004, &l, &err) == -ENOENT);
	WR_CHECK_STR(err.msg, "unknown lease");
	WR_CHECK_STR(evlog, "AAR");
}

static void
test_renew_expire(void)
{
	struct wr_lease_req a = req("alice", "s-a", 0x1, 1000);
	const struct wr_lease *l;
	struct wr_error err;

	setup();
	WR_CHECK(wr_lease_acquire(&tab, &a, 0, 0, &l, &err) == 0);
	WR_CHECK_U64(wr_lease_tick(&tab, 400, 0), 600);
	WR_CHECK(wr_lease_renew(&tab, "s-a", 0, 500, &l, &err) == 0);
	WR_CHECK_U64(l->until_ms, 1500);
	WR_CHECK(wr_lease_renew(&tab, "s-a", 3000, 600, &l, &err) == 0);
	WR_CHECK_U64(l->until_ms, 3600);
	WR_CHECK_U64(wr_lease_tick(&tab, 3599, 0), 1);
	WR_CHECK_U64(tab.nb_held, 1);
	WR_CHECK_U64(wr_lease_tick(&tab, 3600, 0), UINT64_MAX);
	WR_CHECK_U64(tab.nb_held, 0);
	WR_CHECK(wr_lease_find(&tab, "s-a", 3700, &l, &err) == -ENOENT);
	WR_CHECK_STR(err.msg, "lease 1 expired");
	WR_CHECK_STR(evlog, "ANNE");
}

static void
test_force(void)
{
	struct wr_lease_req a = req("alice", "s-a", 0x3, 10000);
	struct wr_lease_req c = req("carol", "s-c", 0x1, 5000);
	const struct wr_lease *l;
	struct wr_error err;

	setup();
	WR_CHECK(wr_lease_acquire(&tab, &a, 0, 0, &l, &err) == 0);
	c.force = true;
	WR_CHECK(wr_lease_acquire(&tab, &c, 100, 0, &l, &err) == 0);
	WR_CHECK_U64(l->id, 2);
	/* The whole of alice's lease ended, port 1 included. */
	WR_CHECK_U64(tab.nb_held, 1);
	WR_CHECK(wr_lease_check(&tab, 0x2, NULL, &err) == 0);
	WR_CHECK(wr_lease_renew(&tab, "s-a", 0, 200, &l, &err) == -ENOENT);
	WR_CHECK_STR(err.msg, "lease 1 was taken by force by carol (lease 2)");
	WR_CHECK(wr_lease_release(&tab, "s-a", 300, NULL, &err) == -ENOENT);
	WR_CHECK_STR(err.msg, "taken by force by carol");
	/* Told once: the second answer says it again, reports nothing. */
	WR_CHECK_STR(evlog, "ATF!");
	WR_CHECK(strlen(evlog) == 4);
}

static void
test_queue_order(void)
{
	struct wr_lease_req a = req("alice", "s-a", 0x1, 1000);
	struct wr_lease_req b = req("bob", "s-b", 0x3, 1000);
	struct wr_lease_req c = req("carol", "s-c", 0x2, 1000);
	struct wr_lease_req d = req("dave", "s-d", 0x4, 1000);
	const struct wr_lease *l;
	struct wr_error err;
	uint64_t id;

	setup();
	WR_CHECK(wr_lease_acquire(&tab, &a, 0, 0, &l, &err) == 0);
	b.wait_ms = c.wait_ms = 5000;
	WR_CHECK(wr_lease_acquire(&tab, &b, 10, 0, &l, &err) == 1);
	/* Port 1 is free, but bob asked for it first. */
	WR_CHECK(wr_lease_acquire(&tab, &c, 20, 0, &l, &err) == 1);
	/* Port 2: nobody wants it, no waiting. */
	WR_CHECK(wr_lease_acquire(&tab, &d, 30, 0, &l, &err) == 0);
	c.wait_ms = 0;
	c.secret = "s-c2";
	WR_CHECK(wr_lease_acquire(&tab, &c, 40, 0, &l, &err) == -EBUSY);
	WR_CHECK_STR(err.msg, "port 1 is wanted first by bob");
	WR_CHECK_U64(tab.nb_queue, 2);
	WR_CHECK(wr_lease_release(&tab, "s-a", 50, &id, &err) == 0);
	wr_lease_tick(&tab, 50, 0);
	WR_CHECK_U64(tab.nb_queue, 1);
	WR_CHECK(wr_lease_find(&tab, "s-b", 50, &l, &err) == 0);
	WR_CHECK_U64(l->until_ms, 1050);
	WR_CHECK(wr_lease_release(&tab, "s-b", 60, &id, &err) == 0);
	wr_lease_tick(&tab, 60, 0);
	WR_CHECK(wr_lease_find(&tab, "s-c", 60, &l, &err) == 0);
	WR_CHECK_STR(evlog, "AQQARGRG");
}

static void
test_give_up_leave_busy(void)
{
	struct wr_lease_req a = req("alice", "s-a", 0x1, 100000);
	struct wr_lease_req b = req("bob", "s-b", 0x1, 1000);
	struct wr_lease_req c = req("carol", "s-c", 0x2, 1000);
	const struct wr_lease *l;
	struct wr_error err;

	setup();
	WR_CHECK(wr_lease_acquire(&tab, &a, 0, 0, &l, &err) == 0);
	b.wait_ms = 500;
	WR_CHECK(wr_lease_acquire(&tab, &b, 0, 0, &l, &err) == 1);
	WR_CHECK_U64(wr_lease_tick(&tab, 100, 0), 400);
	WR_CHECK_U64(wr_lease_tick(&tab, 500, 0), 100000 - 500);
	WR_CHECK_U64(tab.nb_queue, 0);
	/* A run without a lease on port 1: busy until it ends. */
	c.wait_ms = 5000;
	c.caller = 7;
	WR_CHECK(wr_lease_acquire(&tab, &c, 600, 0x2, &l, &err) == 1);
	wr_lease_tick(&tab, 700, 0x2);
	WR_CHECK_U64(tab.nb_queue, 1);
	wr_lease_leave(&tab, 7, 800);
	WR_CHECK_U64(tab.nb_queue, 0);
	c.wait_ms = 0;
	WR_CHECK(wr_lease_acquire(&tab, &c, 900, 0x2, &l, &err) == -EBUSY);
	WR_CHECK_STR(err.msg, "port 1 is used by a run started without a lease");
	WR_CHECK(wr_lease_acquire(&tab, &c, 900, 0, &l, &err) == 0);
	WR_CHECK_STR(evlog, "AQUQLA");
}

static void
test_check_run(void)
{
	struct wr_lease_req a = req("alice", "s-a", 0x3, 1000);
	struct wr_lease_req e = req("eve", "s-e", WR_LEASE_ALL, 1000);
	const struct wr_lease *l, *mine;
	struct wr_error err;
	char buf[64];

	setup();
	WR_CHECK(wr_lease_acquire(&tab, &a, 0, 0, &mine, &err) == 0);
	WR_CHECK(wr_lease_check(&tab, 0x1, NULL, &err) == -EBUSY);
	WR_CHECK_STR(err.msg, "port 0 is held by alice");
	WR_CHECK(wr_lease_check(&tab, 0x3, mine, &err) == 0);
	WR_CHECK(wr_lease_check(&tab, 0x7, mine, &err) == -EBUSY);
	WR_CHECK_STR(err.msg, "lease 1 holds ports 0,1; the run uses 0,1,2");
	WR_CHECK(wr_lease_check(&tab, 0x4, NULL, &err) == 0);
	/* "all" waits for every lease; it covers every port. */
	WR_CHECK(wr_lease_acquire(&tab, &e, 0, 0, &l, &err) == -EBUSY);
	WR_CHECK_STR(wr_lease_ports_str(WR_LEASE_ALL, buf, sizeof(buf)), "all");
	tab.wall_offset_ms = 1764838800000LL; /* 2025-12-04T09:00:00Z */
	WR_CHECK_STR(wr_lease_time(&tab, 120, buf, sizeof(buf)),
		"2025-12-04T09:00:00.120Z");
}

int
main(void)
{
	WR_TEST_RUN(test_acquire_refuse_release);
	WR_TEST_RUN(test_renew_expire);
	WR_TEST_RUN(test_force);
	WR_TEST_RUN(test_queue_order);
	WR_TEST_RUN(test_give_up_leave_busy);
	WR_TEST_RUN(test_check_run);
	return wr_test_summary();
}
