/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The reflector's hot path: one RX burst, an address swap per frame, one
 * TX burst of the same mbufs on the paired queue, counters published once
 * per burst (counter.h). No classification: a reflector only counts what
 * it received, sent back, and could not send back.
 */
#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_prefetch.h>

#include "base/counter.h"
#include "reflect.h"
#include "worker.h"

#define REFLECT_PREFETCH 4u

/* Swap every frame of a burst; returns their bytes, FCS included. */
static inline uint64_t
reflect_swap_burst(struct rte_mbuf **pkts, uint16_t nb)
{
	uint64_t bytes = 0;
	uint16_t i;

	for (i = 0; i < nb && i < REFLECT_PREFETCH; i++)
		rte_prefetch0(rte_pktmbuf_mtod(pkts[i], void *));
	for (i = 0; i < nb; i++) {
		struct rte_mbuf *m = pkts[i];

		if (i + REFLECT_PREFETCH < nb)
			rte_prefetch0(rte_pktmbuf_mtod(pkts[i + REFLECT_PREFETCH],
				void *));
		bytes += m->pkt_len;
		wr_reflect_swap(rte_pktmbuf_mtod(m, uint8_t *), m->data_len);
	}
	return bytes + (uint64_t)nb * RTE_ETHER_CRC_LEN;
}

/* Rare path: the TX queue took only part of a burst; free the rest. */
static __rte_noinline uint64_t
reflect_drop(struct wr_rxq *q, struct rte_mbuf **pkts, uint16_t n)
{
	uint64_t bytes = (uint64_t)n * RTE_ETHER_CRC_LEN;
	uint16_t i;

	for (i = 0; i < n; i++)
		bytes += pkts[i]->pkt_len;
	rte_pktmbuf_free_bulk(pkts, n);
	wr_counter_add(&q->st.nb_unreflected_pkts, n);
	return bytes;
}

/* One burst: receive, swap, send back. Returns frames received. */
static inline uint16_t
reflect_burst(struct wr_rxq *q)
{
	struct rte_mbuf *pkts[WR_MAX_BURST];
	uint16_t nb = rte_eth_rx_burst(q->port, q->queue, pkts, q->burst_pkts);
	uint16_t sent;
	uint64_t bytes, sent_bytes;

	if (nb == 0)
		return 0;
	/* Every burst is the clock's: a reflector tells no own frame from a
	 * foreign one (--rx-clock any, which --reflect implies). */
	wr_rxq_stamp(&q->st, rte_rdtsc());
	bytes = reflect_swap_burst(pkts, nb);
	sent = rte_eth_tx_burst(q->port, q->queue, pkts, nb);
	sent_bytes = bytes;
	/* pkts[0 .. sent - 1] belong to the PMD now; only the rest is read. */
	if (unlikely(sent < nb))
		sent_bytes -= reflect_drop(q, pkts + sent, (uint16_t)(nb - sent));
	wr_counter_add(&q->st.nb_pkts, nb);
	wr_counter_add(&q->st.nb_bytes, bytes);
	wr_counter_add(&q->st.nb_reflected_pkts, sent);
	wr_counter_add(&q->st.nb_reflected_bytes, sent_bytes);
	return nb;
}

int
wr_reflect_main(struct wr_worker *w)
{
	uint64_t now = rte_rdtsc(), prev;
	unsigned int i, work;

	while (__atomic_load_n(&w->ctl->rx_stop, __ATOMIC_RELAXED) == 0) {
		work = 0;
		for (i = 0; i < w->nb_rx; i++)
			work += reflect_burst(w->rx[i]);
		prev = now;
		now = rte_rdtsc();
		wr_worker_account(&w->st, work, now - prev);
	}
	return 0;
}
