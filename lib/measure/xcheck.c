/* SPDX-License-Identifier: BSD-3-Clause */
/* Cross-checks against counts wirerate did not make (xcheck.h). */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "xcheck.h"

void
wr_xcheck_init(struct wr_xcheck *x)
{
	memset(x, 0, sizeof(*x));
}

static void __attribute__((format(printf, 6, 7)))
warn(struct wr_xcheck *x, const char *check, uint16_t port_id, int queue,
		const uint64_t v[2], const char *fmt, ...)
{
	struct wr_xcheck_warning *w;
	va_list ap;

	if (x->nb == WR_XCHECK_MAX_WARNINGS) {
		x->nb_dropped++;
		return;
	}
	w = &x->w[x->nb++];
	snprintf(w->check, sizeof(w->check), "%s", check);
	w->port_id = port_id;
	w->queue = queue;
	w->wirerate = v[0];
	w->pmd = v[1];
	va_start(ap, fmt);
	vsnprintf(w->what, sizeof(w->what), fmt, ap);
	va_end(ap);
}

/* Per-queue counts of one direction, when the PMD keeps them. */
static void
check_queues(struct wr_xcheck *x, const struct wr_xcheck_port *p, bool tx)
{
	unsigned int q, nb = tx ? p->nb_txq : p->nb_rxq;

	for (q = 0; q < nb && q < WR_MAX_QUEUES; q++) {
		uint64_t v[2] = { tx ? p->own_txq[q] : p->own_rxq[q],
			tx ? p->nic_q_opackets[q] : p->nic_q_ipackets[q] };

		x->nb_queues_checked++;
		if (v[0] != v[1])
			warn(x, tx ? "tx_opackets" : "rx_ipackets", p->port_id, (int)q, v,
				"port %u queue %u: wirerate %s %" PRIu64 " frames, the PMD "
				"%" PRIu64, p->port_id, q, tx ? "sent" : "received", v[0],
				v[1]);
	}
}

static void
check_tx(struct wr_xcheck *x, const struct wr_xcheck_port *p)
{
	uint64_t v[2] = { p->own_tx, p->nic_opackets };
	uint64_t e[2] = { p->own_tx, p->nic_oerrors };

	if (v[0] != v[1])
		warn(x, "tx_opackets", p->port_id, -1, v, "port %u: wirerate sent %"
			PRIu64 " frames, the PMD counts %" PRIu64 " (opackets)",
			p->port_id, v[0], v[1]);
	if (p->nic_oerrors != 0)
		warn(x, "tx_oerrors", p->port_id, -1, e, "port %u: the PMD failed %"
			PRIu64 " frames (oerrors) of the %" PRIu64 " wirerate counts as "
			"sent", p->port_id, e[1], e[0]);
	if (p->nic_q_counts)
		check_queues(x, p, true);
}

/*
 * The --impair fixture sits between the PMD and wirerate's count, as a DUT
 * would: what it removed or added is part of the path, so wirerate must
 * have counted ipackets - removed + added, and per queue the same (its
 * figures are per port here: queues are compared without a fixture).
 */
static void
check_rx(struct wr_xcheck *x, const struct wr_xcheck_port *p)
{
	uint64_t v[2] = { p->own_rx, p->nic_ipackets };
	uint64_t want = p->nic_ipackets - p->impair_removed + p->impair_added;
	uint64_t d[2] = { p->lost, p->nic_rx_drops };

	if (v[0] != want)
		warn(x, "rx_ipackets", p->port_id, -1, v, "port %u: wirerate received %"
			PRIu64 " frames, the PMD counts %" PRIu64 " (ipackets)%s",
			p->port_id, v[0], v[1], p->impair_removed || p->impair_added ?
			" less what the --impair fixture removed plus what it added" : "");
	if (p->nic_rx_drops > p->lost)
		warn(x, "rx_drops", p->port_id, -1, d, "port %u: the PMD dropped %"
			PRIu64 " frames on receive (imissed, ierrors, rx_nombuf, xstats), "
			"the streams received here lost %" PRIu64, p->port_id, d[1], d[0]);
	if (p->nic_q_counts && p->impair_removed + p->impair_added == 0)
		check_queues(x, p, false);
}

void
wr_xcheck_port(struct wr_xcheck *x, const struct wr_xcheck_port *p)
{
	if (!p->nic_counts)
		return;
	x->nb_ports_checked++;
	if (p->tx)
		check_tx(x, p);
	if (p->rx)
		check_rx(x, p);
}

void
wr_xcheck_unpublished(struct wr_xcheck *x, uint16_t port_id, unsigned int queue,
		uint64_t nb_streams, uint64_t limit)
{
	uint64_t v[2] = { nb_streams, limit };

	if (nb_streams != 0)
		warn(x, "live_unpublished", port_id, (int)queue, v, "port %u queue %u: "
			"%" PRIu64 " streams beyond the %" PRIu64 " published live were "
			"left out of interval, telemetry and checkpoint figures (the "
			"final result counts them)", port_id, queue, nb_streams, limit);
}

void
wr_xcheck_mbufs(struct wr_xcheck *x, uint64_t mbufs_missing)
{
	uint64_t v[2] = { mbufs_missing, 0 };

	if (mbufs_missing != 0)
		warn(x, "mbufs", UINT16_MAX, -1, v, "%" PRIu64 " mbufs taken from the "
			"run's pools were not back when the ports closed", mbufs_missing);
}
