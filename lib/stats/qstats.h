/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The PMD's per-queue packet counters, read the way the DPDK release in
 * use keeps them (base/dpdk_compat.h): the q_ipackets and q_opackets of
 * struct rte_eth_stats up to 24.11, the xstats rx_q<N>_packets and
 * tx_q<N>_packets from 25.11. The same figures on every release.
 */
#ifndef WR_QSTATS_H
#define WR_QSTATS_H

#include <stdint.h>

#include <rte_ethdev.h>

#include "config/config.h"

/* Per-queue packets of one port. */
struct wr_qstats {
	unsigned int nb_rxq;            /* queues 0..nb_rxq-1 are counted */
	unsigned int nb_txq;
	uint64_t ipackets[WR_MAX_QUEUES];
	uint64_t opackets[WR_MAX_QUEUES];
};

/*
 * Fill qs with the per-queue counts of port_id; st is the port's basic
 * stats, read just before (the source up to 24.11). A direction whose
 * queues the PMD does not count has nb_rxq or nb_txq 0. Returns 0, or a
 * negative errno when the counters cannot be read.
 */
int wr_qstats_get(uint16_t port_id, const struct rte_eth_stats *st,
	struct wr_qstats *qs);

#endif
