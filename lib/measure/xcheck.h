/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Cross-checks of a run's accounting against counts wirerate did not make:
 * the PMD's opackets and ipackets (per port, and per queue where the PMD
 * keeps them), its drop counters (imissed, ierrors, rx_nombuf and xstats
 * named *drop* or *discard*) against the loss wirerate found, and mbufs
 * out of their pools against mbufs back. accounting.balanced holds by
 * construction (lost is sent - received); these can disagree. Each
 * disagreement is a named warning. Pure: no EAL, no I/O.
 */
#ifndef WR_XCHECK_H
#define WR_XCHECK_H

#include <stdbool.h>
#include <stdint.h>

#include "config/config.h"

#define WR_XCHECK_MAX_WARNINGS 64u

/* What wirerate and the PMD counted on one port over one trial. */
struct wr_xcheck_port {
	uint16_t port_id;
	bool tx;                       /* the port transmits in this run */
	bool rx;
	bool nic_counts;               /* the PMD keeps basic counters at all */
	bool nic_q_counts;             /* ... and per-queue ones (they add up) */
	unsigned int nb_txq;
	unsigned int nb_rxq;
	uint64_t own_tx;               /* handed to rte_eth_tx_burst and taken */
	uint64_t own_rx;               /* returned by rte_eth_rx_burst, counted */
	uint64_t own_txq[WR_MAX_QUEUES];
	uint64_t own_rxq[WR_MAX_QUEUES];
	uint64_t nic_opackets;
	uint64_t nic_ipackets;
	uint64_t nic_q_opackets[WR_MAX_QUEUES];
	uint64_t nic_q_ipackets[WR_MAX_QUEUES];
	uint64_t nic_rx_drops;         /* imissed + ierrors + rx_nombuf + xstats */
	uint64_t nic_oerrors;
	uint64_t lost;                 /* loss of the streams received here */
	uint64_t impair_removed;       /* --impair: dropped + policed before */
	uint64_t impair_added;         /* --impair: duplicated */
};

/* One disagreement. */
struct wr_xcheck_warning {
	char check[20];                /* tx_opackets, rx_ipackets, ... */
	uint16_t port_id;
	int queue;                     /* -1: the whole port */
	uint64_t wirerate;             /* wirerate's figure */
	uint64_t pmd;                  /* the other count */
	char what[224];                /* the disagreement in words */
};

/* Warnings of a run or trial. */
struct wr_xcheck {
	unsigned int nb;
	unsigned int nb_dropped;       /* beyond WR_XCHECK_MAX_WARNINGS */
	unsigned int nb_ports_checked; /* ports whose PMD keeps counters */
	unsigned int nb_queues_checked; /* (port, direction, queue) compared */
	struct wr_xcheck_warning w[WR_XCHECK_MAX_WARNINGS];
};

/* Empty x. This function can't fail. */
void wr_xcheck_init(struct wr_xcheck *x);

/*
 * Check one port's counts: tx_opackets (wirerate's TX = PMD opackets, per
 * port and per queue), rx_ipackets (wirerate's RX = PMD ipackets, less
 * what the --impair fixture removed, plus what it added),
 * tx_oerrors (the PMD failed frames wirerate counts as sent), rx_drops
 * (the PMD dropped more than the streams received here lost). A PMD
 * without counters is not checked. Appends to x. This function can't fail.
 */
void wr_xcheck_port(struct wr_xcheck *x, const struct wr_xcheck_port *p);

/*
 * RX queue queue of port_id saw nb_streams more streams than the limit
 * its live copies hold (WR_PUB_STREAMS): interval, telemetry and
 * checkpoint figures left them out (the final result counts them).
 * Appends a live_unpublished warning when nb_streams != 0. Can't fail.
 */
void wr_xcheck_unpublished(struct wr_xcheck *x, uint16_t port_id,
		unsigned int queue, uint64_t nb_streams, uint64_t limit);

/* mbufs taken from the run's pools and never returned. Can't fail. */
void wr_xcheck_mbufs(struct wr_xcheck *x, uint64_t mbufs_missing);

#endif /* WR_XCHECK_H */
