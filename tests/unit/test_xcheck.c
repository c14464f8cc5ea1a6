/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests for xcheck.c: each cross-check fires on a provoked mismatch
 * and stays quiet when the counts agree or the PMD keeps none. */
#include <string.h>

#include "measure/xcheck.h"
#include "wr_test.h"

/* A port that sent 1000 frames on 2 queues and received them, agreeing. */
static void
agreeing(struct wr_xcheck_port *p)
{
	memset(p, 0, sizeof(*p));
	p->port_id = 3;
	p->tx = p->rx = true;
	p->nic_counts = p->nic_q_counts = true;
	p->nb_txq = p->nb_rxq = 2;
	p->own_tx = p->own_rx = p->nic_opackets = p->nic_ipackets = 1000;
	p->own_txq[0] = p->own_txq[1] = p->own_rxq[0] = p->own_rxq[1] = 500;
	p->nic_q_opackets[0] = p->nic_q_opackets[1] = 500;
	p->nic_q_ipackets[0] = p->nic_q_ipackets[1] = 500;
}

static void
test_agree(void)
{
	struct wr_xcheck x;
	struct wr_xcheck_port p;

	agreeing(&p);
	wr_xcheck_init(&x);
	wr_xcheck_port(&x, &p);
	wr_xcheck_mbufs(&x, 0);
	WR_CHECK_U64(x.nb, 0);
	WR_CHECK_U64(x.nb_ports_checked, 1);
	WR_CHECK_U64(x.nb_queues_checked, 4);
	/* A PMD without per-queue counters: only the port is compared. */
	p.nic_q_counts = false;
	wr_xcheck_init(&x);
	wr_xcheck_port(&x, &p);
	WR_CHECK_U64(x.nb_queues_checked, 0);
}

static void
test_tx(void)
{
	struct wr_xcheck x;
	struct wr_xcheck_port p;

	agreeing(&p);
	p.nic_opackets = 990;          /* the PMD lost 10 wirerate counted */
	p.nic_q_opackets[1] = 490;
	p.nic_oerrors = 4;
	wr_xcheck_init(&x);
	wr_xcheck_port(&x, &p);
	WR_CHECK_U64(x.nb, 3);
	WR_CHECK_STR(x.w[0].check, "tx_opackets");
	WR_CHECK(x.w[0].queue == -1 && x.w[0].port_id == 3);
	WR_CHECK_U64(x.w[0].wirerate, 1000);
	WR_CHECK_U64(x.w[0].pmd, 990);
	WR_CHECK_STR(x.w[1].check, "tx_oerrors");
	WR_CHECK_U64(x.w[1].pmd, 4);
	WR_CHECK_STR(x.w[2].check, "tx_opackets");
	WR_CHECK(x.w[2].queue == 1);
	WR_CHECK(strstr(x.w[0].what, "1000") != NULL && strstr(x.w[0].what, "990") != NULL);
}

static void
test_rx(void)
{
	struct wr_xcheck x;
	struct wr_xcheck_port p;

	agreeing(&p);
	p.own_rx = 998;
	p.own_rxq[0] = 498;
	p.nic_rx_drops = 7;            /* more than the 5 the streams lost */
	p.lost = 5;
	wr_xcheck_init(&x);
	wr_xcheck_port(&x, &p);
	WR_CHECK_U64(x.nb, 3);
	WR_CHECK_STR(x.w[0].check, "rx_ipackets");
	WR_CHECK_STR(x.w[1].check, "rx_drops");
	WR_CHECK_U64(x.w[1].pmd, 7);
	WR_CHECK_U64(x.w[1].wirerate, 5);
	WR_CHECK(x.w[2].queue == 0);
	/* What the --impair fixture removed and added is part of the path. */
	agreeing(&p);
	p.own_rx = 1000 - 30 + 4;
	p.impair_removed = 30;
	p.impair_added = 4;
	p.own_rxq[0] = 500 - 26;       /* per queue: not compared with a fixture */
	wr_xcheck_init(&x);
	wr_xcheck_port(&x, &p);
	WR_CHECK_U64(x.nb, 0);
	p.own_rx++;
	wr_xcheck_port(&x, &p);
	WR_CHECK_U64(x.nb, 1);
	agreeing(&p);
	p.own_rx = 998;
	p.own_rxq[0] = 498;
	p.nic_rx_drops = 7;
	/* Drops the loss explains are no disagreement. */
	p.lost = 7;
	wr_xcheck_init(&x);
	wr_xcheck_port(&x, &p);
	WR_CHECK_U64(x.nb, 2);
}

static void
test_not_checked(void)
{
	struct wr_xcheck x;
	struct wr_xcheck_port p;

	agreeing(&p);
	p.nic_counts = false;          /* a PMD without counters */
	p.nic_opackets = 0;
	wr_xcheck_init(&x);
	wr_xcheck_port(&x, &p);
	WR_CHECK_U64(x.nb + x.nb_ports_checked, 0);
	/* Per-queue counts that do not add up are not compared. */
	agreeing(&p);
	p.nic_q_counts = false;
	p.nic_q_opackets[0] = 0;
	wr_xcheck_init(&x);
	wr_xcheck_port(&x, &p);
	WR_CHECK_U64(x.nb, 0);
}

/* Streams an RX queue left out of its live copies: named, zero is silent. */
static void
test_unpublished(void)
{
	struct wr_xcheck x;

	wr_xcheck_init(&x);
	wr_xcheck_unpublished(&x, 3, 1, 0, 64);
	WR_CHECK_U64(x.nb, 0);
	wr_xcheck_unpublished(&x, 3, 1, 7, 64);
	WR_CHECK_U64(x.nb, 1);
	WR_CHECK_STR(x.w[0].check, "live_unpublished");
	WR_CHECK_U64(x.w[0].port_id, 3);
	WR_CHECK_U64(x.w[0].queue, 1);
	WR_CHECK_U64(x.w[0].wirerate, 7);
	WR_CHECK_U64(x.w[0].pmd, 64);
	WR_CHECK_STR(x.w[0].what, "port 3 queue 1: 7 streams beyond the 64");
}

static void
test_mbufs_and_overflow(void)
{
	struct wr_xcheck x;
	struct wr_xcheck_port p;
	unsigned int i;

	wr_xcheck_init(&x);
	wr_xcheck_mbufs(&x, 12);
	WR_CHECK_U64(x.nb, 1);
	WR_CHECK_STR(x.w[0].check, "mbufs");
	WR_CHECK_U64(x.w[0].wirerate, 12);
	agreeing(&p);
	p.nic_opackets = 1;
	for (i = 0; i < WR_XCHECK_MAX_WARNINGS + 5; i++)
		wr_xcheck_port(&x, &p);
	WR_CHECK_U64(x.nb, WR_XCHECK_MAX_WARNINGS);
	WR_CHECK_U64(x.nb_dropped, 6);
}

int
main(void)
{
	WR_TEST_RUN(test_agree);
	WR_TEST_RUN(test_tx);
	WR_TEST_RUN(test_rx);
	WR_TEST_RUN(test_not_checked);
	WR_TEST_RUN(test_unpublished);
	WR_TEST_RUN(test_mbufs_and_overflow);
	return wr_test_summary();
}
