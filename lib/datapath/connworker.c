/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The connection worker's hot path (connworker.h): per loop turn one RX
 * burst handed to the engine frame by frame, the engine's poll, one TX
 * burst of what it emitted; counters published once per burst
 * (counter.h), the books on request. No lock, no atomic read-modify-
 * write, no print, no division per packet.
 */
#include <string.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_prefetch.h>

#include "base/counter.h"
#include "connworker.h"
#include "svcq.h"
#include "worker.h"

/*
 * Rare path: refill the empty cache with one bulk allocation. As
 * rte_pktmbuf_alloc_bulk, with the headers' two cache lines fetched
 * before their reset. On a ring pair each was last written on the
 * other lcore (its TX built the frame this lcore received and freed):
 * misses taken one after another were most of the reset's cost.
 */
static __rte_noinline int
connq_refill(struct wr_connq *q)
{
	unsigned int i;

	if (rte_mempool_get_bulk(q->pool, (void **)q->cache, WR_CONNQ_CACHE) != 0) {
		wr_counter_add(&q->st.nb_alloc_fail, 1);
		return -ENOBUFS;
	}
	for (i = 0; i < WR_CONNQ_CACHE; i++) {
		rte_prefetch0(q->cache[i]);
		rte_prefetch0(RTE_PTR_ADD(q->cache[i], RTE_CACHE_LINE_SIZE));
	}
	for (i = 0; i < WR_CONNQ_CACHE; i++)
		rte_pktmbuf_reset(q->cache[i]);
	q->nb_cache = WR_CONNQ_CACHE;
	return 0;
}

/*
 * Rare path: what the PMD did not take waits at the front of out[] for
 * the next burst; past WR_CONNQ_KEEP the newest are freed and counted.
 */
static __rte_noinline void
connq_refused(struct wr_connq *q, uint16_t sent)
{
	uint16_t left = q->nb_out - sent, keep = RTE_MIN(left, WR_CONNQ_KEEP);

	if (left > keep) {
		rte_pktmbuf_free_bulk(q->out + sent + keep, left - keep);
		wr_counter_add(&q->st.nb_tx_refused_pkts, left - keep);
	}
	if (sent != 0)
		memmove(q->out, q->out + sent, keep * sizeof(q->out[0]));
	wr_counter_add(&q->st.nb_tx_kept_pkts, keep);
	q->nb_out = keep;
}

/* Send what waits in out[]; the refused frames wait for the next one. */
static inline void
connq_flush(struct wr_connq *q)
{
	uint64_t bytes = 0;
	uint16_t i, sent;

	if (q->nb_out == 0)
		return;
	sent = rte_eth_tx_burst(q->txq->port, q->txq->queue, q->out, q->nb_out);
	q->turn_sent += sent;
	for (i = 0; i < sent; i++)
		bytes += q->out[i]->pkt_len;
	wr_counter_add(&q->st.nb_tx_pkts, sent);
	bytes += (uint64_t)sent * RTE_ETHER_CRC_LEN;
	wr_counter_add(&q->st.nb_tx_bytes, bytes);
	/* The port's figures: bytes before frames, so that a reader of the
	 * two never sees frames without their bytes. */
	wr_counter_add(&q->txq->st.nb_seg_bytes, bytes);
	wr_counter_add(&q->txq->st.nb_pkts, sent);
	if (unlikely(sent < q->nb_out))
		connq_refused(q, sent);
	else
		q->nb_out = 0;
}

/* emit.buf: the top of the cache, past room for the L2 header. */
static uint8_t *
connq_buf(void *ctx, size_t *room)
{
	struct wr_connq *q = ctx;

	if (unlikely(q->nb_cache == 0) && connq_refill(q) != 0)
		return NULL;
	q->cur = q->cache[q->nb_cache - 1];
	/* Where the next segment's IP and TCP headers go (a miss when the
	 * other lcore wrote that buffer last): fetched while this one is
	 * built. */
	if (q->nb_cache > 1)
		rte_prefetch0(rte_pktmbuf_mtod_offset(q->cache[q->nb_cache - 2],
			void *, RTE_ETHER_HDR_LEN));
	*room = q->ip_room;
	return rte_pktmbuf_mtod_offset(q->cur, uint8_t *, RTE_ETHER_HDR_LEN);
}

/* The PMD's checksum offload for segment m: TCP's, and the IPv4
 * header's where the PMD has it (the engine wrote the pseudo-header's
 * sum; no IP options or extension headers). */
static inline void
connq_csum_flags(const struct wr_connq *q, struct rte_mbuf *m, bool ipv6)
{
	m->ol_flags = ipv6 ? q->ol_ipv6 : q->ol_ipv4;
	m->l2_len = RTE_ETHER_HDR_LEN;
	m->l3_len = ipv6 ? sizeof(struct rte_ipv6_hdr) : sizeof(struct rte_ipv4_hdr);
}

/* emit.sent: the L2 header in front of the packet, the frame queued. */
static void
connq_sent(void *ctx, size_t len)
{
	struct wr_connq *q = ctx;
	struct rte_mbuf *m = q->cur;
	struct rte_ether_hdr *eth = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);
	const uint8_t *ip = (const uint8_t *)(eth + 1);

	q->nb_cache--;
	eth->dst_addr = q->dst_mac;
	eth->src_addr = q->src_mac;
	eth->ether_type = (ip[0] >> 4) == 6 ? RTE_BE16(RTE_ETHER_TYPE_IPV6) :
		RTE_BE16(RTE_ETHER_TYPE_IPV4);
	m->data_len = (uint16_t)(len + RTE_ETHER_HDR_LEN);
	m->pkt_len = m->data_len;
	if (q->tx_csum)
		connq_csum_flags(q, m, (ip[0] >> 4) == 6);
	q->out[q->nb_out++] = m;
	if (unlikely(q->nb_out == WR_CONNQ_OUT))
		connq_flush(q);
}

void
wr_connq_emit(struct wr_connq *q, struct wr_conn_emit *emit)
{
	emit->buf = connq_buf;
	emit->sent = connq_sent;
	emit->ctx = q;
}

/*
 * One received frame: its IP packet to the engine (true when taken), a
 * server learning the MAC to answer first.
 */
static inline bool
connq_rx_ip(struct wr_connq *q, const struct rte_mbuf *m, uint64_t now_us)
{
	const struct rte_ether_hdr *eth = rte_pktmbuf_mtod(m, const struct rte_ether_hdr *);

	if (unlikely(m->data_len < RTE_ETHER_HDR_LEN || m->nb_segs != 1) ||
			(eth->ether_type != RTE_BE16(RTE_ETHER_TYPE_IPV4) &&
			eth->ether_type != RTE_BE16(RTE_ETHER_TYPE_IPV6)))
		return false;
	if (q->learn_dst)
		q->dst_mac = eth->src_addr;
	/* The PMD vouched for the TCP checksum (and IPv4's, when IPv4):
	 * the engine skips its own sums; else it checks in software. */
	return wr_conn_engine_rx_csum(q->eng, (const uint8_t *)(eth + 1),
		m->data_len - RTE_ETHER_HDR_LEN, now_us,
		(m->ol_flags & RTE_MBUF_F_RX_L4_CKSUM_MASK) == RTE_MBUF_F_RX_L4_CKSUM_GOOD &&
		(eth->ether_type == RTE_BE16(RTE_ETHER_TYPE_IPV6) ||
		(m->ol_flags & RTE_MBUF_F_RX_IP_CKSUM_MASK) == RTE_MBUF_F_RX_IP_CKSUM_GOOD));
}

/* Frames ahead whose data connq_rx prefetches, and whose mbuf headers
 * (the default burst's all at once). */
#define CONNQ_RX_PREFETCH 2u
#define CONNQ_RX_HDRS 32u

/* The lines of m's frame that the engine reads first: headers and a
 * short segment's payload whole (its checksum, the request or status
 * line), at most CONNQ_RX_LINES (m's header is in the cache). */
#define CONNQ_RX_LINES 4u
static inline void
connq_rx_prefetch(const struct rte_mbuf *m)
{
	const uint8_t *d = rte_pktmbuf_mtod(m, const uint8_t *);
	uint32_t off, len = RTE_MIN((uint32_t)m->data_len,
		CONNQ_RX_LINES * RTE_CACHE_LINE_SIZE);

	rte_prefetch0(d);
	for (off = RTE_CACHE_LINE_SIZE; off < len; off += RTE_CACHE_LINE_SIZE)
		rte_prefetch0(d + off);
}

/* What the RX burst counts besides frames and bytes. */
struct connq_tally {
	uint64_t tcp, other, svc, svc_drop;
};

/* Rare path: not the engine's; a service frame of the port, or other. */
static __rte_noinline void
connq_rx_rare(struct wr_connq *q, struct rte_mbuf *m, struct connq_tally *t)
{
	enum wr_svcq_verdict v = WR_SVCQ_FOREIGN;

	if (q->rxq->svc != NULL)
		v = wr_svcq_rx(q->rxq, m);
	if (v == WR_SVCQ_HANDED)
		t->svc++;
	else if (v == WR_SVCQ_DROPPED)
		t->svc_drop++;
	else
		t->other++;
}

/* Rare path: publish the counts of frames that were not the engine's. */
static __rte_noinline void
connq_rx_rare_count(struct wr_connq *q, const struct connq_tally *t)
{
	wr_counter_add(&q->st.nb_rx_other_pkts, t->other);
	wr_counter_add(&q->rxq->st.nb_service_pkts, t->svc);
	wr_counter_add(&q->rxq->st.nb_service_drop_pkts, t->svc_drop);
}

/* One RX burst through the engine; returns frames received. */
static inline uint16_t
connq_rx(struct wr_connq *q, uint64_t now_us, uint64_t tsc)
{
	struct rte_mbuf *pkts[WR_MAX_BURST];
	struct wr_rxq *rq = q->rxq;
	struct connq_tally t = { 0, 0, 0, 0 };
	uint64_t bytes = 0;
	uint16_t i, nb = rte_eth_rx_burst(rq->port, rq->queue, pkts, rq->burst_pkts);

	if (nb == 0)
		return 0;
	/* The burst's mbufs were written elsewhere (the peer lcore's TX on
	 * a ring pair, a NIC's DMA): their misses overlap, not one per
	 * frame in turn (a larger --burst: CONNQ_RX_HDRS ahead). */
	for (i = 0; i < RTE_MIN(nb, CONNQ_RX_HDRS); i++)
		rte_prefetch0(pkts[i]);
	for (i = 0; i < nb; i++) {
		if (unlikely(i + CONNQ_RX_HDRS < nb))
			rte_prefetch0(pkts[i + CONNQ_RX_HDRS]);
		if (i + CONNQ_RX_PREFETCH < nb)
			connq_rx_prefetch(pkts[i + CONNQ_RX_PREFETCH]);
		bytes += pkts[i]->pkt_len;
		if (likely(connq_rx_ip(q, pkts[i], now_us)))
			t.tcp++;
		else
			connq_rx_rare(q, pkts[i], &t);
	}
	/* A service frame holds a reference of its own (svcq.h). */
	rte_pktmbuf_free_bulk(pkts, nb);
	wr_rxq_stamp(&rq->st, tsc);
	wr_counter_add(&rq->st.nb_pkts, nb);
	wr_counter_add(&rq->st.nb_bytes, bytes + (uint64_t)nb * RTE_ETHER_CRC_LEN);
	wr_counter_add(&q->st.nb_rx_tcp_pkts, t.tcp);
	if (unlikely(t.tcp != nb))
		connq_rx_rare_count(q, &t);
	return nb;
}

/* Rare path: serve a publication request (the books, about 40 KB). */
static __rte_noinline void
connq_publish(struct wr_worker *w, struct wr_connq *q, uint64_t req)
{
	q->pub[req & 1] = *wr_conn_engine_books(q->eng);
	__atomic_store_n(&q->pub_done, req, __ATOMIC_RELEASE);
	w->pub_seen = req;
}

/* The end ctl->conn_drain asks of q's engine (worker.h), once each. */
static __rte_noinline void
connq_drain_as_asked(struct wr_connq *q, int drain)
{
	if (!q->drained) {
		wr_conn_engine_drain(q->eng);
		q->drained = true;
	}
	if (drain == 2 && !q->released) {
		wr_conn_engine_release(q->eng);
		q->released = true;
	}
	if (drain == 3 && !q->torn) {
		wr_conn_engine_teardown(q->eng, q->trial_close_cps);
		q->torn = true;
	}
}

/*
 * End of a turn: drain when asked, say when idle, publish when asked.
 * A server in a run with clients of its own takes no drain, release or
 * tear-down (each would answer a new SYN by RST): a client worker may
 * see the end a little later and send a burst of SYNs first, and its
 * own server must not refuse them. It is idle once its clients'
 * connections have all ended (no more can come from them), and the run
 * ends then.
 */
static inline void
connq_turn_end(struct wr_worker *w, struct wr_connq *q)
{
	uint64_t req = __atomic_load_n(&w->ctl->pub_req, __ATOMIC_ACQUIRE);
	uint64_t idle;
	int drain = __atomic_load_n(&w->ctl->conn_drain, __ATOMIC_RELAXED);

	if (unlikely(drain != 0)) {
		if (!q->drain_late)
			connq_drain_as_asked(q, drain);
		idle = wr_conn_engine_idle(q->eng);
		if (q->st.idle != idle)
			wr_counter_set(&q->st.idle, idle);
	}
	if (unlikely(req != w->pub_seen))
		connq_publish(w, q, req);
}

/* Rare path: a search's trial starts (connworker.h, trial_cps). */
static __rte_noinline void
connq_reopen(struct wr_connq *q, uint64_t now_us)
{
	wr_conn_engine_reopen(q->eng, q->trial_cps, now_us);
	if (q->trial_conc != 0)
		wr_conn_engine_set_open_cap(q->eng, q->trial_conc);
	q->trial_cps = 0;
	q->trial_conc = 0;
	q->drained = false;
	q->torn = false;
	wr_counter_set(&q->st.idle, 0);
}

int
wr_connq_main(struct wr_worker *w)
{
	struct wr_connq *q = w->conn;
	uint64_t tsc = rte_rdtsc(), prev, now_us;
	unsigned int work;

	/* Validated at set-up (the TSC runs at more than 1 MHz). */
	if (q->clock.mult == 0)
		wr_connclock_init(&q->clock, tsc, rte_get_tsc_hz());
	if (q->trial_cps != 0 || q->trial_conc != 0)
		connq_reopen(q, wr_connclock_us(&q->clock, tsc));
	while (__atomic_load_n(&w->ctl->rx_stop, __ATOMIC_RELAXED) == 0) {
		now_us = wr_connclock_us(&q->clock, tsc);
		if (unlikely(w->svc_tx))
			wr_svcq_poll_tx(w);
		work = connq_rx(q, now_us, tsc);
		/* Frames still waiting: no new connection this turn. */
		wr_conn_engine_tx_busy(q->eng, q->nb_out != 0);
		wr_conn_engine_poll(q->eng, now_us);
		connq_flush(q);
		/* Busy: a frame received or taken by the PMD; a turn that only
		 * found its frames refused again (the peer behind) is idle. */
		work += q->turn_sent;
		q->turn_sent = 0;
		connq_turn_end(w, q);
		prev = tsc;
		tsc = rte_rdtsc();
		wr_worker_account(&w->st, work, tsc - prev);
	}
	if (q->nb_cache != 0)
		rte_pktmbuf_free_bulk(q->cache, q->nb_cache);
	q->nb_cache = 0;
	/* Still refused at the end: freed, counted as refused. */
	if (q->nb_out != 0) {
		rte_pktmbuf_free_bulk(q->out, q->nb_out);
		wr_counter_add(&q->st.nb_tx_refused_pkts, q->nb_out);
		q->nb_out = 0;
	}
	return 0;
}

const struct wr_conn_books *
wr_connq_pub_read(const struct wr_connq *q, uint64_t req)
{
	if (__atomic_load_n(&q->pub_done, __ATOMIC_ACQUIRE) != req)
		return NULL;
	return &q->pub[req & 1];
}
