/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_ethdev.h>

#include "portkeep.h"
#include "ringpair.h"

static void
key_of(const struct wr_port *p, struct wr_portkeep_key *key)
{
	memset(key, 0, sizeof(*key));
	key->nb_txq = p->nb_txq;
	key->nb_rxq = p->nb_rxq;
	key->nb_txd = p->nb_txd;
	key->nb_rxd = p->nb_rxd;
	key->mtu = p->mtu;
	key->fast_free = p->fast_free;
	key->tcp_csum_tx = p->tcp_csum_tx;
	key->ip4_csum_tx = p->ip4_csum_tx;
	key->tcp_csum_rx = p->tcp_csum_rx;
	key->promisc = p->rx;
	key->conn_rss = p->rss.hf != 0;
	key->rx_rings_per_q = p->rx_rings_per_q;
	key->rx_pool_mbufs = p->rx_pool_mbufs;
	key->rx_mbuf_room = p->rx_mbuf_room;
}

/*
 * Whether kept port was set up as a run asks now (key); if not, why in
 * why (the first difference, old -> new). Receiving where it did not is
 * no difference: promiscuous mode is only turned on.
 */
static bool
key_fits(const struct wr_portkeep_key *old, const struct wr_portkeep_key *key,
		char *why, size_t len)
{
#define WR_KEY_DIFF(f, what) \
	if (old->f != key->f) { \
		snprintf(why, len, what " %u -> %u", (unsigned int)old->f, \
			(unsigned int)key->f); \
		return false; \
	}
	WR_KEY_DIFF(nb_txq, "TX queues")
	WR_KEY_DIFF(nb_rxq, "RX queues")
	WR_KEY_DIFF(nb_txd, "TX descriptors")
	WR_KEY_DIFF(nb_rxd, "RX descriptors")
	WR_KEY_DIFF(mtu, "MTU (0: default)")
	WR_KEY_DIFF(fast_free, "MBUF_FAST_FREE")
	WR_KEY_DIFF(tcp_csum_tx, "TCP checksum offload on TX")
	WR_KEY_DIFF(ip4_csum_tx, "IPv4 checksum offload on TX")
	WR_KEY_DIFF(tcp_csum_rx, "checksum offload on RX")
	WR_KEY_DIFF(conn_rss, "RSS over TCP ports")
	WR_KEY_DIFF(rx_rings_per_q, "RX rings per queue")
	WR_KEY_DIFF(rx_pool_mbufs, "RX pool mbufs")
	WR_KEY_DIFF(rx_mbuf_room, "RX buffer bytes")
#undef WR_KEY_DIFF
	return true;
}

static void
free_pools(struct rte_mempool **pool)
{
	unsigned int q;

	for (q = 0; q < WR_MAX_QUEUES; q++) {
		rte_mempool_free(pool[q]);
		pool[q] = NULL;
	}
}

/* Take a kept port down; stopped, its pools go stale. why is kept. */
static void
retire(struct wr_portkeep_port *kp, uint16_t port_id, const char *why)
{
	if (kp->up)
		rte_eth_dev_stop(port_id);
	__atomic_store_n(&kp->up, false, __ATOMIC_RELAXED);
	free_pools(kp->stale);
	memcpy(kp->stale, kp->rx_pool, sizeof(kp->stale));
	memset(kp->rx_pool, 0, sizeof(kp->rx_pool));
	snprintf(kp->why, sizeof(kp->why), "%s", why);
}

/* Close a kept port (it is released) and free every pool it had. */
static void
drop(struct wr_portkeep_port *kp, uint16_t port_id, const char *why)
{
	if (kp->configured) {
		retire(kp, port_id, why);
		rte_eth_dev_close(port_id);
		kp->configured = false;
	}
	free_pools(kp->stale);
}

/* The ring pairs' ports, made anew: nothing of them stays. */
static void
drop_ring_pairs(struct wr_portkeep *k)
{
	uint16_t id;

	for (id = 0; id < WR_MAX_PORTS; id++)
		if (wr_port_is_ring_pair(id))
			drop(&k->port[id], id, "ring pairs made again "
				"(--ring-pairs or queues changed)");
}

int
wr_portkeep_ring_pairs(struct wr_portkeep *k, const struct wr_config *cfg,
		struct wr_error *err)
{
	uint16_t nbq = RTE_MAX(cfg->nb_txq, cfg->nb_rxq);
	int rc;

	if (cfg->nb_ring_pairs == 0)
		return 0;
	if (k != NULL && k->nb_ring_pairs == cfg->nb_ring_pairs &&
			k->ring_queues == nbq)
		return 0;
	if (k != NULL)
		drop_ring_pairs(k);
	rc = wr_port_make_ring_pairs(cfg->nb_ring_pairs, nbq, err);
	if (k != NULL) {
		k->nb_ring_pairs = rc == 0 ? cfg->nb_ring_pairs : 0;
		k->ring_queues = nbq;
	}
	return rc;
}

/* p takes the kept port as it is. */
static void
adopt(struct wr_portkeep_port *kp, struct wr_port *p)
{
	memcpy(p->rx_pool, kp->rx_pool, sizeof(p->rx_pool));
	p->configured = true;
	p->started = true;
	p->kept = true;
	p->reused = true;
	if (p->rx)
		rte_eth_promiscuous_enable(p->port_id); /* -ENOTSUP is harmless */
	__atomic_store_n(&kp->nb_reuses, kp->nb_reuses + 1, __ATOMIC_RELAXED);
	p->nb_setups = kp->nb_setups;
}

int
wr_portkeep_setup(struct wr_portkeep *k, struct wr_port *p,
		const struct wr_config *cfg, struct wr_error *err)
{
	struct wr_portkeep_port *kp;
	struct wr_portkeep_key key;
	char why[WR_PORT_NOTE_LEN];
	int rc;

	p->nb_setups = 1;
	if (k == NULL)
		return wr_port_setup(p, cfg, err);
	kp = &k->port[p->port_id];
	key_of(p, &key);
	if (kp->up && key_fits(&kp->key, &key, why, sizeof(why))) {
		adopt(kp, p);
		return 0;
	}
	if (kp->up)
		retire(kp, p->port_id, why);
	if (kp->why[0] != '\0')
		wr_port_note(p, "set up again: %s", kp->why);
	p->nb_setups = kp->nb_setups + 1;
	/* Not ours while it is set up: a failure closes it (teardown). */
	kp->configured = false;
	rc = wr_port_setup(p, cfg, err);
	if (rc != 0)
		return rc;
	__atomic_store_n(&kp->nb_setups, p->nb_setups, __ATOMIC_RELAXED);
	/* The new queues released the old ones and their mbufs. */
	free_pools(kp->stale);
	memcpy(kp->rx_pool, p->rx_pool, sizeof(kp->rx_pool));
	kp->key = key;
	kp->why[0] = '\0';
	kp->configured = true;
	__atomic_store_n(&kp->up, true, __ATOMIC_RELAXED);
	p->kept = true;
	return 0;
}

/* Mbufs of p's TX pools not back in them. */
static unsigned int
tx_in_use(const struct wr_port *p)
{
	unsigned int i, q, n = 0;

	for (i = 0; i < p->nb_txsets; i++)
		for (q = 0; q < WR_MAX_QUEUES; q++)
			if (p->txset[i].pool[q] != NULL)
				n += rte_mempool_in_use_count(p->txset[i].pool[q]);
	return n;
}

void
wr_portkeep_park(struct wr_portkeep *k, struct wr_port *p)
{
	char why[WR_PORT_NOTE_LEN];
	unsigned int n;
	uint16_t q;

	if (k == NULL || !p->kept)
		return;
	/* -ENOTSUP (ring, null): nothing of ours stays in their TX queues.
	 * Other PMDs without it (vmxnet3) free what the NIC has sent at the
	 * start of each burst: an empty one gives those mbufs back, and the
	 * port stays up (vmxnet3 crashed in its first burst after the stop
	 * and set-up below). The run's workers have ended: the queues are
	 * ours. */
	for (q = 0; q < p->nb_txq; q++)
		if (rte_eth_tx_done_cleanup(p->port_id, q, 0) < 0) {
			struct rte_mbuf *none[1];

			rte_eth_tx_burst(p->port_id, q, none, 0);
		}
	n = tx_in_use(p);
	/* The PMD holds mbufs of the run's pools (em, after a connection
	 * server: mbufs its queues took and did not give back): stopping the
	 * port gives them back before the pools go; the next run sets it up
	 * again. */
	if (n > 0)
		snprintf(why, sizeof(why), "its TX queues held %u mbufs after the run", n);
	else if (wr_port_mbufs_missing(p) > 0)
		snprintf(why, sizeof(why), "its queues held %" PRIu64 " mbufs after the run",
			wr_port_mbufs_missing(p));
	else
		return;
	retire(&k->port[p->port_id], p->port_id, why);
	p->started = false;
}

void
wr_portkeep_release(struct wr_portkeep *k)
{
	uint16_t id;

	if (k == NULL)
		return;
	for (id = 0; id < WR_MAX_PORTS; id++)
		drop(&k->port[id], id, "released");
}

void
wr_portkeep_count(const struct wr_portkeep *k, uint16_t port_id,
		uint64_t *nb_setups, uint64_t *nb_reuses)
{
	*nb_setups = 0;
	*nb_reuses = 0;
	if (k == NULL || port_id >= WR_MAX_PORTS)
		return;
	*nb_setups = __atomic_load_n(&k->port[port_id].nb_setups, __ATOMIC_RELAXED);
	*nb_reuses = __atomic_load_n(&k->port[port_id].nb_reuses, __ATOMIC_RELAXED);
}
