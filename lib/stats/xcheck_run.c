/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The cross-checks of a trial (xcheck.h) fed from the run: wirerate's own
 * counts per port and queue, the PMD's basic and xstats counters, the
 * loss of the streams received on each port.
 */
#include <stdlib.h>
#include <string.h>

#include <rte_ethdev.h>

#include "qstats.h"
#include "setup/svc.h"
#include "xcheck_run.h"

/* Sum of the xstats a PMD names as drops or discards (vendor counters
 * the basic stats may not cover); 0 when it has none. */
static uint64_t
read_xstats_drops(uint16_t port_id)
{
	struct rte_eth_xstat_name *names = NULL;
	struct rte_eth_xstat *vals = NULL;
	uint64_t sum = 0;
	int i, n = rte_eth_xstats_get_names(port_id, NULL, 0);

	if (n <= 0)
		return 0;
	names = calloc((size_t)n, sizeof(*names));
	vals = calloc((size_t)n, sizeof(*vals));
	if (names != NULL && vals != NULL &&
			rte_eth_xstats_get_names(port_id, names, (unsigned int)n) == n &&
			rte_eth_xstats_get(port_id, vals, (unsigned int)n) == n)
		for (i = 0; i < n; i++)
			if (strstr(names[vals[i].id].name, "drop") != NULL ||
					strstr(names[vals[i].id].name, "discard") != NULL)
				sum += vals[i].value;
	free(names);
	free(vals);
	return sum;
}

/*
 * The PMD's own counts of port index p for the cross-checks: basic
 * counters, per-queue ones when they add up to them, drops.
 */
static void
xcheck_nic(const struct wr_run *run, unsigned int p, struct wr_xcheck_port *x)
{
	struct rte_eth_stats st;
	struct wr_qstats qs;
	uint64_t sq_o = 0, sq_i = 0;
	unsigned int q;

	memset(&st, 0, sizeof(st));
	if (rte_eth_stats_get(run->setup.ports[p].port_id, &st) != 0)
		return;
	x->nic_opackets = st.opackets;
	x->nic_ipackets = st.ipackets;
	x->nic_oerrors = st.oerrors;
	x->nic_rx_drops = st.imissed + st.ierrors + st.rx_nombuf +
		read_xstats_drops(run->setup.ports[p].port_id);
	x->nic_counts = st.opackets + st.ipackets + st.oerrors + x->nic_rx_drops > 0 ||
		(x->own_tx == 0 && x->own_rx == 0);
	if (wr_qstats_get(run->setup.ports[p].port_id, &st, &qs) != 0)
		return;
	for (q = 0; q < WR_MAX_QUEUES; q++) {
		x->nic_q_opackets[q] = qs.opackets[q];
		x->nic_q_ipackets[q] = qs.ipackets[q];
		sq_o += qs.opackets[q];
		sq_i += qs.ipackets[q];
	}
	x->nic_q_counts = sq_o + sq_i > 0 && sq_o == st.opackets && sq_i == st.ipackets &&
		run->setup.ports[p].nb_txq <= qs.nb_txq &&
		run->setup.ports[p].nb_rxq <= qs.nb_rxq;
}

/* What the main lcore's responder sent and received itself (setup/svc.h),
 * on the queues it used. */
static void
svc_tx(const struct wr_run *run, unsigned int p, struct wr_xcheck_port *x)
{
	const struct wr_svc *s = run->setup.svc;

	if (s == NULL)
		return;
	x->own_txq[s->reply_q[p] != NULL ? s->reply_q[p]->queue : 0] +=
		s->nb_direct_pkts[p];
	x->own_rxq[0] += s->rx[p].rx_pkts;
}

/* wirerate's own counts of port index p for the cross-checks. */
static void
xcheck_own(const struct wr_run *run, unsigned int p, struct wr_xcheck_port *x)
{
	const struct wr_txq *tq;
	const struct wr_rxq *rq;
	unsigned int q, i, k;

	memset(x, 0, sizeof(*x));
	x->port_id = run->setup.ports[p].port_id;
	x->nb_txq = run->setup.ports[p].nb_txq;
	x->nb_rxq = run->setup.ports[p].nb_rxq;
	WR_RUN_FOREACH_TXQ_OF(run, p, i, tq)
		x->own_txq[tq->queue] += tq->st.nb_pkts + tq->st.nb_service_pkts;
	svc_tx(run, p, x);
	WR_RUN_FOREACH_RXQ_OF(run, p, i, rq) {
		x->own_rxq[rq->queue] = rq->st.nb_pkts;
		/* A reflector sends on the TX queue paired with its RX queue. */
		x->own_txq[rq->queue] += rq->st.nb_reflected_pkts;
		if (rq->impair != NULL) {
			x->impair_removed += rq->impair->nb_dropped +
				rq->impair->nb_policed;
			x->impair_added += rq->impair->nb_duplicated;
		}
	}
	for (q = 0; q < WR_MAX_QUEUES; q++) {
		x->own_tx += x->own_txq[q];
		x->own_rx += x->own_rxq[q];
	}
	x->tx = run->setup.ports[p].tx || x->own_tx > 0;
	x->rx = run->setup.ports[p].rx;
	for (i = 0; i < run->res.nb_streams; i++)
		for (k = 0; k < run->res.streams[i].nb_rx_ports; k++)
			if (run->res.streams[i].rx_split[k].port_id == x->port_id)
				x->lost += (uint64_t)run->res.streams[i].lost_pkts;
}

void
wr_xcheck_run(struct wr_run *run)
{
	struct wr_xcheck_port x;
	unsigned int p;

	wr_xcheck_init(&run->res.xcheck);
	for (p = 0; p < run->setup.nb_ports; p++) {
		xcheck_own(run, p, &x);
		xcheck_nic(run, p, &x);
		wr_xcheck_port(&run->res.xcheck, &x);
	}
}
