/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The worker's side of --port-ip service frames (docs/l3.md): ARP
 * requests, neighbour solicitations and echo requests for a port's
 * address leave the RX rare path by a per-RX-queue ring to the main
 * lcore, which answers them (setup/svc.h); the replies come back by a
 * per-port ring on one TX queue, which its worker drains before its own
 * burst. Own frames never come here: only what rx_classify (worker_rx.c)
 * could not take as own does.
 */
#ifndef WR_SVCQ_H
#define WR_SVCQ_H

#include <stdint.h>

#include <rte_mbuf.h>

#include "worker.h"

/* Slots of each service ring (one is never used: rte_ring). */
#define WR_SVCQ_RING_SLOTS 128u

/* Replies taken off a reply ring per burst. */
#define WR_SVCQ_BURST 16u

/* What the RX rare path makes of a frame that is not own. */
enum wr_svcq_verdict {
	WR_SVCQ_FOREIGN = 0,    /* not a service frame for the port */
	WR_SVCQ_MALFORMED = 1,  /* ARP / ND / echo, truncated or inconsistent */
	WR_SVCQ_HANDED = 2,     /* a service frame, on q->svc_ring with a
	                         * reference of its own */
	WR_SVCQ_DROPPED = 3,    /* a service frame, but the ring was full */
};

/*
 * Classify m, received by q (q->svc not NULL), as a service frame of q's
 * port or not (base/l3svc.h, without building a reply); hand a service
 * frame to the main lcore with one more reference (the burst's free then
 * leaves it alive: the caller must free that burst with
 * rte_pktmbuf_free_bulk). Only q's lcore.
 */
enum wr_svcq_verdict wr_svcq_rx(struct wr_rxq *q, struct rte_mbuf *m);

/*
 * Send the n replies of pkts, dequeued from q->svc_ring, on q's port and
 * queue; count what the PMD took and free (and count) the rest. Only the
 * lcore that owns q (the main lcore once q's worker returned). This
 * function can't fail.
 */
void wr_svcq_send(struct wr_txq *q, struct rte_mbuf **pkts, unsigned int n);

/*
 * Send the replies waiting on the service rings of w's TX queues, before
 * their own bursts (w->svc_tx: one has a ring). An empty ring costs one
 * dequeue that returns 0. Only w's lcore. This function can't fail.
 */
void wr_svcq_poll_tx(struct wr_worker *w);

#endif /* WR_SVCQ_H */
