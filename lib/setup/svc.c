/* SPDX-License-Identifier: BSD-3-Clause */
/* The --port-ip responder on the main lcore (svc.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include "config/opts_conn.h"
#include "config/portip.h"
#include "datapath/svcq.h"
#include "run.h"
#include "svc.h"

struct rte_mbuf *
wr_svc_mbuf(struct rte_mempool *pool, const uint8_t *frame, uint32_t len)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(pool);
	char *d;

	if (m == NULL)
		return NULL;
	d = rte_pktmbuf_append(m, (uint16_t)len);
	if (d == NULL) {
		rte_pktmbuf_free(m);
		return NULL;
	}
	memcpy(d, frame, len);
	return m;
}

static struct rte_ring *
ring_make(const char *kind, uint16_t port, uint16_t queue)
{
	char name[RTE_RING_NAMESIZE];

	snprintf(name, sizeof(name), "wr_svc%s_%u_%u", kind, port, queue);
	return rte_ring_create(name, WR_SVCQ_RING_SLOTS, SOCKET_ID_ANY,
		RING_F_SP_ENQ | RING_F_SC_DEQ);
}

/* The worker that owns TX queue q. */
static struct wr_worker *
owner(struct wr_run *run, const struct wr_txq *q)
{
	unsigned int i, j;

	for (i = 0; i < run->setup.plan.nb_workers; i++)
		for (j = 0; j < run->setup.workers[i]->nb_tx; j++)
			if (run->setup.workers[i]->tx[j] == q)
				return run->setup.workers[i];
	return NULL;
}

/* Rings of run port index p. */
static int
setup_port(struct wr_run *run, struct wr_svc *s, unsigned int p)
{
	struct wr_rxq *rq;
	struct wr_txq *tq;
	unsigned int i;

	WR_RUN_FOREACH_RXQ_OF(run, p, i, rq) {
		rq->svc_ring = ring_make("r", rq->port, rq->queue);
		if (rq->svc_ring == NULL)
			return -ENOMEM;
		rq->svc = &s->port[p];
	}
	WR_RUN_FOREACH_TXQ_OF(run, p, i, tq) {
		tq->svc_ring = ring_make("t", tq->port, tq->queue);
		if (tq->svc_ring == NULL)
			return -ENOMEM;
		s->reply_q[p] = tq;
		owner(run, tq)->svc_tx = true;
		break;
	}
	return 0;
}

int
wr_svc_setup(struct wr_run *run, struct wr_error *err)
{
	const struct wr_config *cfg = run->setup.cfg;
	struct wr_svc *s;
	unsigned int p;
	int rc;

	if (cfg->reflect || cfg->replay.path[0] != '\0')
		return 0;
	for (p = 0; p < run->setup.nb_ports; p++)
		if (wr_portip_any(&cfg->port_ip[run->setup.ports[p].port_id]))
			break;
	if (p == run->setup.nb_ports)
		return 0;
	s = rte_zmalloc("wr_svc", sizeof(*s), RTE_CACHE_LINE_SIZE);
	if (s == NULL)
		return wr_err_env(err, -ENOMEM, "no memory for the responder");
	run->setup.svc = s;
	s->announce_tsc = cfg->announce_ms * (run->setup.tsc_hz / 1000);
	s->next_announce_tsc = rte_rdtsc() + s->announce_tsc;
	for (p = 0; p < run->setup.nb_ports; p++) {
		const struct wr_port *port = &run->setup.ports[p];

		s->on[p] = wr_portip_any(&cfg->port_ip[port->port_id]);
		if (!s->on[p])
			continue;
		wr_portip_svc(&cfg->port_ip[port->port_id],
			cfg->src_mac_set ? &cfg->src_mac : &port->mac, &s->port[p]);
		wr_opts_conn_svc(cfg, &s->port[p]);
		s->rx_self[p] = !port->rx;
		rc = setup_port(run, s, p);
		if (rc != 0)
			return wr_err_env(err, rc, "port %u: no memory for the "
				"responder's rings: %s", port->port_id,
				rte_strerror(rte_errno));
	}
	return 0;
}

/* Send reply m of run port index p, by the reply ring unless direct. */
static void
send_reply(struct wr_run *run, unsigned int p, struct rte_mbuf *m, bool direct)
{
	struct wr_svc *s = run->setup.svc;
	const struct wr_txq *q = s->reply_q[p];

	if (q != NULL && !direct) {
		if (rte_ring_sp_enqueue(q->svc_ring, m) != 0) {
			rte_pktmbuf_free(m);
			s->nb_drop_pkts[p]++;
		}
		return;
	}
	if (rte_eth_tx_burst(run->setup.ports[p].port_id, q != NULL ? q->queue : 0,
			&m, 1) != 1) {
		rte_pktmbuf_free(m);
		s->nb_drop_pkts[p]++;
		return;
	}
	s->nb_direct_pkts[p]++;
}

/*
 * A neighbour of run port index p told its MAC (v->learned): a next hop
 * of the port's TX queues that changed its MAC is followed (frames
 * rewritten, wr_port_set_dst_mac) and the change counted for the result.
 */
static void
follow(struct wr_run *run, unsigned int p, const struct wr_l3svc_neigh *nb)
{
	struct wr_port *port = &run->setup.ports[p];
	uint32_t be = rte_cpu_to_be_32(nb->ip4);
	const uint8_t *ip = nb->ipv6 ? nb->ip6 : (const uint8_t *)&be;
	uint16_t q;

	for (q = 0; q < port->nb_txq && q < WR_MAX_QUEUES; q++) {
		struct wr_port_nh *nh = &port->nh[q];

		if (!nh->resolved || nh->ipv6 != nb->ipv6 ||
				memcmp(nh->ip, ip, nb->ipv6 ? 16 : 4) != 0 ||
				rte_is_same_ether_addr(&nh->mac, &nb->mac))
			continue;
		if (nh->nb_mac_changes++ == 0)
			nh->first_mac = nh->mac;
		nh->mac = nb->mac;
		wr_port_set_dst_mac(port, q, &nb->mac);
	}
}

/* Answer m of run port index p; returns what m was to p. */
static enum wr_l3svc_class
answer(struct wr_run *run, unsigned int p, const struct rte_mbuf *m, bool direct)
{
	static uint8_t out[WR_FRAME_MAX_SIZE + 4];  /* main lcore only */
	struct wr_svc *s = run->setup.svc;
	struct wr_l3svc_verdict v;
	struct rte_mbuf *r;

	if (wr_l3svc_handle(&s->port[p], rte_pktmbuf_mtod(m, const uint8_t *),
			m->data_len, out, sizeof(out), &v) != 0 || v.cls != WR_L3SVC_OURS)
		return v.cls;
	if (v.learned)
		follow(run, p, &v.nb);
	if (v.reply_len == 0)
		return v.cls;
	r = wr_svc_mbuf(run->setup.ports[p].rx_pool[0], out, v.reply_len);
	if (r == NULL)
		s->nb_drop_pkts[p]++;
	else
		send_reply(run, p, r, direct);
	return v.cls;
}

/*
 * Poll RX queue q of run port index p, which no worker reads: answer,
 * and count every frame as the worker would (own frames are not
 * expected on a port that does not receive: foreign). At most
 * WR_SVC_POLL_BURSTS bursts a call: a source that never runs dry (net_null,
 * a busy link) must not keep the main lcore from its clock and signals;
 * what stays behind waits in the queue (the NIC counts what overflows it).
 */
static void
poll_self_q(struct wr_run *run, unsigned int p, uint16_t q, bool direct)
{
	struct wr_port_counters *c = &run->setup.svc->rx[p];
	struct rte_mbuf *pkts[WR_SVCQ_BURST];
	enum wr_l3svc_class k;
	unsigned int b;
	uint16_t i, n;

	for (b = 0; b < WR_SVC_POLL_BURSTS; b++) {
		n = rte_eth_rx_burst(run->setup.ports[p].port_id, q, pkts,
			RTE_DIM(pkts));
		if (n == 0)
			break;
		for (i = 0; i < n; i++) {
			k = answer(run, p, pkts[i], direct);
			c->rx_pkts++;
			c->rx_bytes += pkts[i]->pkt_len + RTE_ETHER_CRC_LEN;
			c->rx_service_pkts += k == WR_L3SVC_OURS;
			c->rx_malformed_pkts += k == WR_L3SVC_MALFORMED;
			c->rx_foreign_pkts += k != WR_L3SVC_OURS &&
				k != WR_L3SVC_MALFORMED;
		}
		rte_pktmbuf_free_bulk(pkts, n);
	}
}

/*
 * Poll every RX queue of run port index p: a send-only af_packet port
 * with several qpairs gets a reply on whichever socket the kernel's
 * fanout picked.
 */
static void
poll_self(struct wr_run *run, unsigned int p, bool direct)
{
	uint16_t q;

	for (q = 0; q < run->setup.ports[p].nb_rxq; q++)
		poll_self_q(run, p, q, direct);
}

/*
 * Answer what the workers handed over on rq's service ring: at most one
 * ring's worth a call, as poll_self (the workers refill it meanwhile).
 */
static void
drain_handed(struct wr_run *run, struct wr_rxq *rq, bool direct)
{
	struct rte_mbuf *pkts[WR_SVCQ_BURST];
	unsigned int j, n, left = WR_SVCQ_RING_SLOTS;

	while (left != 0) {
		n = rte_ring_sc_dequeue_burst(rq->svc_ring, (void **)pkts,
			RTE_MIN(left, RTE_DIM(pkts)), NULL);
		if (n == 0)
			break;
		for (j = 0; j < n; j++)
			answer(run, rq->pidx, pkts[j], direct);
		rte_pktmbuf_free_bulk(pkts, n);
		left -= n;
	}
}

/* Gratuitous ARP and unsolicited NA (l3svc) of every port with an address. */
static void
announce(struct wr_run *run, bool direct)
{
	static int (*const build[])(const struct wr_l3svc_port *, uint8_t *,
		uint32_t) = { wr_l3svc_arp_announce, wr_l3svc_na_announce };
	struct wr_svc *s = run->setup.svc;
	uint8_t f[WR_L3SVC_BUILD_MAX];
	struct rte_mbuf *m;
	unsigned int p, k;
	int n;

	for (p = 0; p < run->setup.nb_ports; p++)
		for (k = 0; s->on[p] && k < RTE_DIM(build); k++) {
			n = build[k](&s->port[p], f, sizeof(f));
			if (n <= 0)
				continue;   /* no address of that family */
			m = wr_svc_mbuf(run->setup.ports[p].rx_pool[0], f, (uint32_t)n);
			if (m == NULL)
				s->nb_drop_pkts[p]++;
			else
				send_reply(run, p, m, direct);
		}
}

void
wr_svc_poll(struct wr_run *run, bool direct)
{
	struct wr_rxq *rq;
	unsigned int i;

	if (run->setup.svc == NULL)
		return;
	if (run->setup.svc->announce_tsc != 0 &&
			rte_rdtsc() >= run->setup.svc->next_announce_tsc) {
		run->setup.svc->next_announce_tsc = rte_rdtsc() +
			run->setup.svc->announce_tsc;
		announce(run, direct);
	}
	for (i = 0; i < run->setup.nb_ports; i++)
		if (run->setup.svc->rx_self[i])
			poll_self(run, i, direct);
	WR_RUN_FOREACH_RXQ(run, i, rq)
		if (rq->svc_ring != NULL)
			drain_handed(run, rq, direct);
}

void
wr_svc_stopped(struct wr_run *run)
{
	struct rte_mbuf *pkts[WR_SVCQ_BURST];
	struct wr_txq *tq;
	unsigned int i, n;

	wr_svc_poll(run, true);
	WR_RUN_FOREACH_TXQ(run, i, tq) {
		if (tq->svc_ring == NULL)
			continue;
		while ((n = rte_ring_sc_dequeue_burst(tq->svc_ring, (void **)pkts,
				RTE_DIM(pkts), NULL)) != 0)
			wr_svcq_send(tq, pkts, n);
	}
}

bool
wr_svc_take(struct wr_run *run, unsigned int p, const struct rte_mbuf *m)
{
	if (run->setup.svc == NULL || !run->setup.svc->on[p] ||
			!wr_l3svc_is_candidate(rte_pktmbuf_mtod(m, const uint8_t *),
			m->data_len))
		return false;
	return answer(run, p, m, true) == WR_L3SVC_OURS;
}

void
wr_svc_reset(struct wr_run *run)
{
	struct wr_svc *s = run->setup.svc;

	if (s == NULL)
		return;
	memset(s->rx, 0, sizeof(s->rx));
	memset(s->nb_direct_pkts, 0, sizeof(s->nb_direct_pkts));
	memset(s->nb_drop_pkts, 0, sizeof(s->nb_drop_pkts));
}

/* Free ring r and the mbufs it holds. */
static void
ring_free(struct rte_ring *r)
{
	struct rte_mbuf *m;

	if (r == NULL)
		return;
	while (rte_ring_sc_dequeue(r, (void **)&m) == 0)
		rte_pktmbuf_free(m);
	rte_ring_free(r);
}

void
wr_svc_teardown(struct wr_run *run)
{
	struct wr_txq *tq;
	struct wr_rxq *rq;
	unsigned int i;

	WR_RUN_FOREACH_TXQ(run, i, tq) {
		ring_free(tq->svc_ring);
		tq->svc_ring = NULL;
	}
	WR_RUN_FOREACH_RXQ(run, i, rq) {
		ring_free(rq->svc_ring);
		rq->svc_ring = NULL;
		rq->svc = NULL;
	}
	rte_free(run->setup.svc);
	run->setup.svc = NULL;
}
