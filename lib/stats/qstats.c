/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/dpdk_compat.h"
#include "qstats.h"

#if WR_DPDK_QSTATS_IN_XSTATS
/* Queue number of an xstat named <dir>_q<N>_packets, -1 for any other. */
static int
xstat_queue(const char *name, char dir)
{
	unsigned int q;
	int end = 0;
	char d;

	if (sscanf(name, "%cx_q%u_packets%n", &d, &q, &end) != 2 || end == 0 ||
			name[end] != '\0' || d != dir || q >= WR_MAX_QUEUES)
		return -1;
	return (int)q;
}

/* Queues 0..n-1 found, with n the first one missing. */
static unsigned int
nb_contiguous(const uint8_t *seen)
{
	unsigned int n = 0;

	while (n < WR_MAX_QUEUES && seen[n])
		n++;
	return n;
}

int
wr_qstats_get(uint16_t port_id, const struct rte_eth_stats *st,
		struct wr_qstats *qs)
{
	struct rte_eth_xstat_name *names;
	struct rte_eth_xstat *vals;
	uint8_t seen_rx[WR_MAX_QUEUES] = { 0 }, seen_tx[WR_MAX_QUEUES] = { 0 };
	int i, q, n = rte_eth_xstats_get_names(port_id, NULL, 0), rc = 0;

	RTE_SET_USED(st);
	memset(qs, 0, sizeof(*qs));
	if (n <= 0)
		return n;
	names = calloc((size_t)n, sizeof(*names));
	vals = calloc((size_t)n, sizeof(*vals));
	if (names == NULL || vals == NULL)
		rc = -ENOMEM;
	else if (rte_eth_xstats_get_names(port_id, names, (unsigned int)n) != n ||
			rte_eth_xstats_get(port_id, vals, (unsigned int)n) != n)
		rc = -EIO;
	for (i = 0; rc == 0 && i < n; i++) {
		const char *name = names[vals[i].id].name;

		if ((q = xstat_queue(name, 'r')) >= 0) {
			qs->ipackets[q] = vals[i].value;
			seen_rx[q] = 1;
		} else if ((q = xstat_queue(name, 't')) >= 0) {
			qs->opackets[q] = vals[i].value;
			seen_tx[q] = 1;
		}
	}
	qs->nb_rxq = nb_contiguous(seen_rx);
	qs->nb_txq = nb_contiguous(seen_tx);
	free(names);
	free(vals);
	return rc;
}
#else
int
wr_qstats_get(uint16_t port_id, const struct rte_eth_stats *st,
		struct wr_qstats *qs)
{
	unsigned int q, nb = RTE_MIN((unsigned int)WR_MAX_QUEUES,
		(unsigned int)RTE_ETHDEV_QUEUE_STAT_CNTRS);

	RTE_SET_USED(port_id);
	memset(qs, 0, sizeof(*qs));
	for (q = 0; q < nb; q++) {
		qs->ipackets[q] = st->q_ipackets[q];
		qs->opackets[q] = st->q_opackets[q];
	}
	qs->nb_rxq = qs->nb_txq = nb;
	return 0;
}
#endif
