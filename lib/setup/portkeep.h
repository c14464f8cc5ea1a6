/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The port keep: ports that stay configured and started between the runs
 * of one process (wirerate serve), with their RX pools and the ring pairs
 * of --ring-pairs. A run whose port configuration (queues, descriptors,
 * MTU, RX buffers, offloads) matches what a port was set up with takes it
 * as it is; any difference sets the port up again, and the run's port
 * notes say which. A run's own TX pools (their mbufs carry the run's
 * frame templates) are made and freed by the run, as before.
 *
 * Only the main lcore changes a keep; the counters the control thread
 * reads (wr_portkeep_count) are written and read atomically.
 */
#ifndef WR_PORTKEEP_H
#define WR_PORTKEEP_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_mempool.h>

#include "base/error.h"
#include "config/config.h"
#include "port.h"

/* What a port was configured with: equal keys, the same ethdev set-up. */
struct wr_portkeep_key {
	uint16_t nb_txq;
	uint16_t nb_rxq;
	uint16_t nb_txd;
	uint16_t nb_rxd;
	uint16_t mtu;                 /* 0: the PMD default */
	bool fast_free;
	bool tcp_csum_tx, ip4_csum_tx, tcp_csum_rx; /* checksum offloads */
	bool promisc;                 /* enabled: the port received */
	bool conn_rss;                /* RSS over TCP (connrss.h) */
	unsigned int rx_rings_per_q;
	uint32_t rx_pool_mbufs;
	uint32_t rx_mbuf_room;
};

/*
 * One port id in the keep. Set up again, a port is stopped and
 * configured anew in place (closing would release an EAL port for good);
 * the pools its old queues held are stale until the new set-up released
 * those queues, then freed.
 */
struct wr_portkeep_port {
	bool up;                      /* configured and started, as key says */
	bool configured;              /* ours: configured (maybe stopped) */
	struct wr_portkeep_key key;
	struct rte_mempool *rx_pool[WR_MAX_QUEUES];
	struct rte_mempool *stale[WR_MAX_QUEUES];
	uint64_t nb_setups;           /* configure + start, this process */
	uint64_t nb_reuses;           /* runs that took it as it was */
	char why[WR_PORT_NOTE_LEN];   /* why it was last taken down, or "" */
};

struct wr_portkeep {
	struct wr_portkeep_port port[WR_MAX_PORTS];   /* by port id */
	unsigned int nb_ring_pairs;   /* the --ring-pairs made, 0: none */
	uint16_t ring_queues;         /* queues of each of their ports */
};

/*
 * Make the ring pairs cfg asks for (ringpair.h), unless the keep holds
 * the same ones already; different ones take every kept port down first.
 * Returns 0 or a negative errno with err set.
 */
int wr_portkeep_ring_pairs(struct wr_portkeep *k, const struct wr_config *cfg,
		struct wr_error *err);

/*
 * Set port p (probed for cfg) up for a run: take the kept port when its
 * key matches, else stop it, set it up again in place (wr_port_setup;
 * never closed: DPDK releases a closed port) and keep it. With k NULL,
 * a plain wr_port_setup. p->kept says the keep owns its ethdev state and
 * RX pools; p->nb_setups and p->reused say what happened. Returns 0 or a
 * negative errno with err set (the port is then not kept).
 */
int wr_portkeep_setup(struct wr_portkeep *k, struct wr_port *p,
		const struct wr_config *cfg, struct wr_error *err);

/*
 * After a run's workers returned and its ring pairs were drained: keep
 * port p up when every mbuf of its TX pools is back (each TX queue's done
 * mbufs cleaned up first), so the run may free them; otherwise stop it
 * (a stopped port gives its TX mbufs back), and the next run sets it up
 * again and says why. Nothing with k NULL. This function can't fail.
 */
void wr_portkeep_park(struct wr_portkeep *k, struct wr_port *p);

/* Stop and close every kept port and free its pools. Can't fail. */
void wr_portkeep_release(struct wr_portkeep *k);

/* Times port_id was set up, and runs that took it as it was. */
void wr_portkeep_count(const struct wr_portkeep *k, uint16_t port_id,
		uint64_t *nb_setups, uint64_t *nb_reuses);

#endif /* WR_PORTKEEP_H */
