/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdio.h>

#include <rte_eth_ring.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include "base/errmsg.h"
#include "config/config.h"
#include "ringpair.h"

static int
make_rings(struct rte_ring **r, unsigned int pair, const char *dir,
		uint16_t nb_queues, char *err, size_t el)
{
	char name[RTE_RING_NAMESIZE];
	uint16_t q;

	for (q = 0; q < nb_queues; q++) {
		snprintf(name, sizeof(name), "wr_pr%u_%s%u", pair, dir, q);
		r[q] = rte_ring_create(name, WR_RING_PAIR_SIZE, (int)rte_socket_id(),
			RING_F_SP_ENQ | RING_F_SC_DEQ);
		if (r[q] == NULL)
			return wr_err(-EINVAL, err, el, "ring pair %u: cannot create ring %s: %s",
				pair, name, rte_strerror(rte_errno));
	}
	return 0;
}

int
wr_port_make_ring_pairs(unsigned int nb_pairs, uint16_t nb_queues,
		char *err, size_t errlen)
{
	struct rte_ring *ab[WR_MAX_QUEUES], *ba[WR_MAX_QUEUES];
	char name[32];
	unsigned int i;
	int rc;

	for (i = 0; i < nb_pairs; i++) {
		rc = make_rings(ab, i, "ab", nb_queues, err, errlen);
		if (rc == 0)
			rc = make_rings(ba, i, "ba", nb_queues, err, errlen);
		if (rc != 0)
			return rc;
		snprintf(name, sizeof(name), "wr_pair%u_a", i);
		if (rte_eth_from_rings(name, ba, nb_queues, ab, nb_queues,
				rte_socket_id()) < 0)
			return wr_err(-EINVAL, err, errlen, "ring pair %u: %s", i, rte_strerror(rte_errno));
		snprintf(name, sizeof(name), "wr_pair%u_b", i);
		if (rte_eth_from_rings(name, ab, nb_queues, ba, nb_queues,
				rte_socket_id()) < 0)
			return wr_err(-EINVAL, err, errlen, "ring pair %u: %s", i, rte_strerror(rte_errno));
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
