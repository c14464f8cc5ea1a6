/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests for plan.c: automatic and explicit lcore plans. */
#include <errno.h>
#include <string.h>

#include "config/opts.h"
#include "setup/plan.h"
#include "wr_test.h"

static struct wr_plan plan;
static struct wr_error err;

static void
test_one_lcore_loopback(void)
{
	const struct wr_plan_port ports[] = { { 0, 0, 1, 1 } };
	const struct wr_plan_lcore lc[] = { { 1, 0 } };

	WR_CHECK_U64(wr_plan_auto(ports, 1, lc, 1, &plan, &err), 0);
	WR_CHECK_U64(plan.nb_workers, 1);
	WR_CHECK_U64(plan.w[0].nb_tx, 1);
	WR_CHECK_U64(plan.w[0].nb_rx, 1);
	WR_CHECK(plan.automatic);
}

static void
test_tx_rx_split(void)
{
	/* Two lcores, one port both ways: TX and RX on different lcores. */
	const struct wr_plan_port ports[] = { { 0, 0, 1, 1 } };
	const struct wr_plan_lcore lc[] = { { 1, 0 }, { 2, 0 } };

	WR_CHECK_U64(wr_plan_auto(ports, 1, lc, 2, &plan, &err), 0);
	WR_CHECK_U64(plan.nb_workers, 2);
	WR_CHECK(plan.w[0].nb_tx == 1 && plan.w[0].nb_rx == 0);
	WR_CHECK(plan.w[1].nb_tx == 0 && plan.w[1].nb_rx == 1);
}

/* A connection run: each RX queue joins the lcore sending on its number. */
static void
test_pair(void)
{
	const struct wr_plan_port ports[] = { { 0, 0, 1, 1 }, { 1, 0, 1, 1 } };
	const struct wr_plan_lcore lc[] = { { 1, 0 }, { 2, 0 }, { 3, 0 }, { 4, 0 } };
	const struct wr_plan_port rx_only[] = { { 0, 0, 0, 1 } };
	unsigned int i;

	WR_CHECK_U64(wr_plan_auto(ports, 2, lc, 4, &plan, &err), 0);
	WR_CHECK_U64(plan.nb_workers, 4);
	WR_CHECK_U64(wr_plan_pair(&plan, &err), 0);
	WR_CHECK_U64(plan.nb_workers, 2);
	for (i = 0; i < 2; i++) {
		WR_CHECK(plan.w[i].nb_tx == 1 && plan.w[i].nb_rx == 1);
		WR_CHECK_U64(plan.w[i].tx[0].port, plan.w[i].rx[0].port);
		WR_CHECK_U64(plan.w[i].tx[0].queue, plan.w[i].rx[0].queue);
	}
	/* Already paired: nothing moves. */
	WR_CHECK_U64(wr_plan_auto(ports, 1, lc, 1, &plan, &err), 0);
	WR_CHECK_U64(wr_plan_pair(&plan, &err), 0);
	WR_CHECK(plan.nb_workers == 1 && plan.w[0].nb_rx == 1);
	/* An RX queue with no TX queue of its number is refused, named. */
	WR_CHECK_U64(wr_plan_auto(rx_only, 1, lc, 2, &plan, &err), 0);
	WR_CHECK(wr_plan_pair(&plan, &err) == -EINVAL);
	WR_CHECK(strstr(err.msg, "port 0 rx queue 0") != NULL);
}

static void
test_spread_and_numa(void)
{
	/* Port 0 on socket 0, port 1 on socket 1, 4 TX queues each. */
	const struct wr_plan_port ports[] = { { 0, 0, 4, 0 }, { 1, 1, 4, 0 } };
	const struct wr_plan_lcore lc[] = { { 1, 0 }, { 2, 0 }, { 3, 1 }, { 4, 1 } };
	unsigned int i, j;

	WR_CHECK_U64(wr_plan_auto(ports, 2, lc, 4, &plan, &err), 0);
	WR_CHECK_U64(plan.nb_workers, 4);
	WR_CHECK_U64(plan.nb_remote, 0);
	for (i = 0; i < 4; i++) {
		WR_CHECK_U64(plan.w[i].nb_tx, 2);
		for (j = 0; j < plan.w[i].nb_tx; j++)
			WR_CHECK_U64(plan.w[i].tx[j].port, plan.w[i].socket);
	}
}

static void
test_remote_socket(void)
{
	/* The port's socket has no lcore: placed anyway, counted remote. */
	const struct wr_plan_port ports[] = { { 0, 1, 2, 0 } };
	const struct wr_plan_lcore lc[] = { { 1, 0 }, { 2, 0 } };

	WR_CHECK_U64(wr_plan_auto(ports, 1, lc, 2, &plan, &err), 0);
	WR_CHECK_U64(plan.nb_remote, 2);
	WR_CHECK_U64(plan.nb_workers, 2);
}

static void
test_more_lcores_than_queues(void)
{
	const struct wr_plan_port ports[] = { { 0, -1, 1, 0 } };
	const struct wr_plan_lcore lc[] = { { 1, 0 }, { 2, 0 }, { 3, 0 } };

	WR_CHECK_U64(wr_plan_auto(ports, 1, lc, 3, &plan, &err), 0);
	WR_CHECK_U64(plan.nb_workers, 1);
	WR_CHECK_U64(plan.w[0].lcore, 1);
}

static void
test_no_lcore(void)
{
	const struct wr_plan_port ports[] = { { 0, 0, 1, 1 } };

	WR_CHECK(wr_plan_auto(ports, 1, NULL, 0, &plan, &err) == -EINVAL);
	WR_CHECK_STR(err.msg, "no worker lcore");
}

static void
test_maps(void)
{
	const struct wr_plan_port ports[] = { { 0, 0, 1, 1 }, { 1, 0, 1, 1 } };
	const struct wr_plan_lcore lc[] = { { 1, 0 }, { 2, 0 } };
	struct wr_map m[2];

	wr_opts_parse_map("1:tx0.0,rx1.0", &m[0], &err);
	wr_opts_parse_map("2:tx1.0,rx0.0", &m[1], &err);
	WR_CHECK_U64(wr_plan_from_maps(m, 2, ports, 2, lc, 2, &plan, &err), 0);
	WR_CHECK(!plan.automatic);
	WR_CHECK(plan.w[0].lcore == 1 && plan.w[0].tx[0].port == 0 && plan.w[0].rx[0].port == 1);
	/* A queue left out. */
	WR_CHECK(wr_plan_from_maps(m, 1, ports, 2, lc, 2, &plan, &err) == -EINVAL);
	WR_CHECK_STR(err.msg, "rx0.0 is not mapped");
	/* Mapped twice. */
	wr_opts_parse_map("2:tx1.0,rx0.0,tx0.0", &m[1], &err);
	WR_CHECK(wr_plan_from_maps(m, 2, ports, 2, lc, 2, &plan, &err) == -EINVAL);
	WR_CHECK_STR(err.msg, "tx0.0 is mapped twice");
	/* Not a worker lcore, not a queue of the run. */
	wr_opts_parse_map("5:tx0.0", &m[1], &err);
	WR_CHECK(wr_plan_from_maps(&m[1], 1, ports, 2, lc, 2, &plan, &err) == -EINVAL);
	WR_CHECK_STR(err.msg, "lcore 5 is not a worker lcore");
	wr_opts_parse_map("1:tx0.3", &m[1], &err);
	WR_CHECK(wr_plan_from_maps(&m[1], 1, ports, 2, lc, 2, &plan, &err) == -EINVAL);
	WR_CHECK_STR(err.msg, "tx0.3 is not a queue of this run");
}

int
main(void)
{
	WR_TEST_RUN(test_one_lcore_loopback);
	WR_TEST_RUN(test_tx_rx_split);
	WR_TEST_RUN(test_pair);
	WR_TEST_RUN(test_spread_and_numa);
	WR_TEST_RUN(test_remote_socket);
	WR_TEST_RUN(test_more_lcores_than_queues);
	WR_TEST_RUN(test_no_lcore);
	WR_TEST_RUN(test_maps);
	return wr_test_summary();
}
