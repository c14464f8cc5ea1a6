/* SPDX-License-Identifier: BSD-3-Clause */
/* The worker's side of service frames (svcq.h). */
#include <rte_ethdev.h>
#include <rte_ring.h>

#include "base/counter.h"
#include "base/l3svc.h"
#include "svcq.h"

enum wr_svcq_verdict
wr_svcq_rx(struct wr_rxq *q, struct rte_mbuf *m)
{
	const uint8_t *d = rte_pktmbuf_mtod(m, const uint8_t *);
	struct wr_l3svc_verdict v;

	if (!wr_l3svc_is_candidate(d, m->data_len))
		return WR_SVCQ_FOREIGN;
	/* No room for a reply: classification only (-ENOSPC when it asks one). */
	wr_l3svc_handle(q->svc, d, m->data_len, NULL, 0, &v);
	if (v.cls == WR_L3SVC_MALFORMED)
		return WR_SVCQ_MALFORMED;
	if (v.cls != WR_L3SVC_OURS)
		return WR_SVCQ_FOREIGN;
	rte_mbuf_refcnt_update(m, 1);
	if (rte_ring_sp_enqueue(q->svc_ring, m) == 0)
		return WR_SVCQ_HANDED;
	rte_mbuf_refcnt_update(m, -1);
	return WR_SVCQ_DROPPED;
}

void
wr_svcq_send(struct wr_txq *q, struct rte_mbuf **pkts, unsigned int n)
{
	uint16_t sent = rte_eth_tx_burst(q->port, q->queue, pkts, (uint16_t)n);

	wr_counter_add(&q->st.nb_service_pkts, sent);
	if (sent == n)
		return;
	rte_pktmbuf_free_bulk(pkts + sent, n - sent);
	wr_counter_add(&q->st.nb_service_drop_pkts, n - sent);
}

void
wr_svcq_poll_tx(struct wr_worker *w)
{
	struct rte_mbuf *pkts[WR_SVCQ_BURST];
	unsigned int i, n;

	for (i = 0; i < w->nb_tx; i++) {
		if (w->tx[i]->svc_ring == NULL)
			continue;
		n = rte_ring_sc_dequeue_burst(w->tx[i]->svc_ring, (void **)pkts,
			RTE_DIM(pkts), NULL);
		if (n != 0)
			wr_svcq_send(w->tx[i], pkts, n);
	}
}
