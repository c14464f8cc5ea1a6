/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_bus_vdev.h>
#include <rte_eth_ring.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include "base/error.h"
#include "config/config.h"
#include "ringpair.h"

static int
make_rings(struct rte_ring **r, unsigned int pair, const char *dir,
		uint16_t nb_queues, struct wr_error *err)
{
	char name[RTE_RING_NAMESIZE];
	uint16_t q;

	for (q = 0; q < nb_queues; q++) {
		snprintf(name, sizeof(name), "wr_pr%u_%s%u", pair, dir, q);
		/* A ring of a run before in this process (wirerate serve):
		 * the ring PMD leaves its rings at close, emptied then. */
		r[q] = rte_ring_lookup(name);
		if (r[q] == NULL)
			r[q] = rte_ring_create(name, WR_RING_PAIR_SIZE,
				(int)rte_socket_id(), RING_F_SP_ENQ | RING_F_SC_DEQ);
		if (r[q] == NULL)
			return wr_err_env(err, -rte_errno, "ring pair %u: cannot create ring %s: %s",
				pair, name, rte_strerror(rte_errno));
	}
	return 0;
}

bool
wr_port_is_ring_pair(uint16_t port_id)
{
	char name[RTE_ETH_NAME_MAX_LEN];

	return rte_eth_dev_is_valid_port(port_id) &&
		rte_eth_dev_get_name_by_port(port_id, name) == 0 &&
		strncmp(name, "net_ring_wr_pair", 16) == 0;
}

/* Ports EAL made (--vdev, NICs): all but the ring ports made before. */
static unsigned int
eal_ports(unsigned int i, char end)
{
	return rte_eth_dev_count_total() - 2 * i - (end == 'b');
}

/*
 * One end of ring pair i: a port receiving from rx and sending into tx.
 * No free port id: the pairs asked do not fit this DPDK (usage).
 */
static int
pair_end(unsigned int i, char end, struct rte_ring **rx, struct rte_ring **tx,
		uint16_t nb_queues, unsigned int nb_pairs, struct wr_error *err)
{
	char name[32], dev[48];

	snprintf(name, sizeof(name), "wr_pair%u_%c", i, end);
	/* Closing a port releases it, not its virtual device (named so by
	 * the ring PMD): the one of a run before in this process (wirerate
	 * serve) goes first. */
	snprintf(dev, sizeof(dev), "net_ring_%s", name);
	rte_vdev_uninit(dev);
	if (rte_eth_from_rings(name, rx, nb_queues, tx, nb_queues,
			rte_socket_id()) >= 0)
		return 0;
	if (rte_eth_dev_count_total() >= RTE_MAX_ETHPORTS)
		return wr_err_usage(err, -ENOSPC, "--ring-pairs %u: %u ports with "
			"the %u EAL made, more than this DPDK's %u (RTE_MAX_ETHPORTS)",
			nb_pairs, 2 * nb_pairs + eal_ports(i, end), eal_ports(i, end),
			RTE_MAX_ETHPORTS);
	return wr_err_env(err, -rte_errno, "ring pair %u: %s", i,
		rte_strerror(rte_errno));
}

int
wr_port_make_ring_pairs(unsigned int nb_pairs, uint16_t nb_queues,
		struct wr_error *err)
{
	struct rte_ring *ab[WR_MAX_QUEUES], *ba[WR_MAX_QUEUES];
	unsigned int i;
	int rc;

	for (i = 0; i < nb_pairs; i++) {
		rc = make_rings(ab, i, "ab", nb_queues, err);
		if (rc == 0)
			rc = make_rings(ba, i, "ba", nb_queues, err);
		if (rc != 0)
			return rc;
		rc = pair_end(i, 'a', ba, ab, nb_queues, nb_pairs, err);
		if (rc == 0)
			rc = pair_end(i, 'b', ab, ba, nb_queues, nb_pairs, err);
		if (rc != 0)
			return rc;
	}
	return 0;
}

uint64_t
wr_port_drain_ring_pairs(unsigned int nb_pairs, uint16_t nb_queues)
{
	static const char *const dirs[] = { "ab", "ba" };
	struct rte_mbuf *m[64];
	char name[RTE_RING_NAMESIZE];
	struct rte_ring *r;
	uint64_t nb = 0;
	unsigned int i, d, n;
	uint16_t q;

	for (i = 0; i < nb_pairs; i++) {
		for (d = 0; d < RTE_DIM(dirs); d++) {
			for (q = 0; q < nb_queues; q++) {
				snprintf(name, sizeof(name), "wr_pr%u_%s%u", i, dirs[d], q);
				r = rte_ring_lookup(name);
				if (r == NULL)
					continue;
				while ((n = rte_ring_dequeue_burst(r, (void **)m,
						RTE_DIM(m), NULL)) > 0) {
					rte_pktmbuf_free_bulk(m, n);
					nb += n;
				}
			}
		}
	}
	return nb;
}
