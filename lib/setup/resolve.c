/* SPDX-License-Identifier: BSD-3-Clause */
/* Announcing --port-ip addresses and resolving next hops (resolve.h). */
#include <arpa/inet.h>
#include <errno.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "base/l3svc.h"
#include "config/opts_conn.h"
#include "config/portip.h"
#include "resolve.h"
#include "run.h"
#include "svc.h"

#define RESOLVE_BURST 32u

/* One port's resolution in progress. */
struct resolver {
	struct wr_run *run;
	struct wr_l3svc_port svc[WR_MAX_PORTS]; /* by run port index */
	struct wr_port *p;           /* the port resolving */
	struct wr_l3svc_port me;     /* what it answers for */
	const struct wr_portip *pi;
	bool ipv6;
	uint8_t nh[16];              /* the address being resolved */
	bool done;
	struct rte_ether_addr mac;   /* its answer */
};

/* Send len bytes on TX queue 0 of p; 0, or -ENOBUFS / -EIO. */
static int
send_frame(struct wr_port *p, const uint8_t *frame, uint32_t len)
{
	struct rte_mbuf *m = wr_svc_mbuf(p->rx_pool[0], frame, len);

	if (m == NULL)
		return -ENOBUFS;
	if (rte_eth_tx_burst(p->port_id, 0, &m, 1) != 1) {
		rte_pktmbuf_free(m);
		return -EIO;
	}
	return 0;
}

/*
 * A frame received by port p (run index i): answer what asks it, and
 * catch the answer when p is the port resolving.
 */
static void
take_frame(struct resolver *r, unsigned int i, const struct rte_mbuf *m)
{
	static uint8_t out[WR_FRAME_MAX_SIZE + 4];  /* main lcore only */
	const uint8_t *d = rte_pktmbuf_mtod(m, const uint8_t *);
	struct wr_port *p = &r->run->setup.ports[i];
	struct wr_l3svc_verdict v;
	uint32_t be;

	if (!wr_l3svc_is_candidate(d, m->data_len) ||
			wr_l3svc_handle(&r->svc[i], d, m->data_len, out, sizeof(out), &v) != 0)
		return;
	if (v.reply_len != 0)
		send_frame(p, out, v.reply_len);
	if (p != r->p || !v.learned || v.nb.ipv6 != r->ipv6)
		return;
	be = rte_cpu_to_be_32(v.nb.ip4);
	if (memcmp(r->ipv6 ? v.nb.ip6 : (const uint8_t *)&be, r->nh,
			r->ipv6 ? 16 : 4) == 0) {
		r->mac = v.nb.mac;
		r->done = true;
	}
}

/* Poll the RX queues of port i once; frames not for it are dropped. */
static void
poll_port(struct resolver *r, unsigned int i)
{
	const struct wr_port *p = &r->run->setup.ports[i];
	struct rte_mbuf *pkts[RESOLVE_BURST];
	uint16_t q, j, n;

	for (q = 0; q < p->nb_rxq; q++) {
		n = rte_eth_rx_burst(p->port_id, q, pkts, RESOLVE_BURST);
		for (j = 0; j < n; j++)
			take_frame(r, i, pkts[j]);
		rte_pktmbuf_free_bulk(pkts, n);
	}
}

/*
 * Poll every port with an address for ms or until the answer came: two
 * wirerate ports on one link resolve each other.
 */
static void
poll_for(struct resolver *r, uint64_t ms)
{
	const uint64_t end = rte_get_tsc_cycles() + ms * rte_get_tsc_hz() / 1000;
	unsigned int i;

	while (!r->done && rte_get_tsc_cycles() < end) {
		for (i = 0; i < r->run->setup.nb_ports; i++)
			if (r->svc[i].has_ip4 || r->svc[i].has_ip6)
				poll_port(r, i);
		rte_pause();
	}
}

/* The address a as text, IPv4 or IPv6, into buf. */
static const char *
addr_text(bool ipv6, const uint8_t *a, char *buf, size_t len)
{
	return inet_ntop(ipv6 ? AF_INET6 : AF_INET, a, buf, (socklen_t)len);
}

/* ARP requests or NS until the next hop answers; fills nh. */
static int
resolve_one(struct resolver *r, struct wr_port_nh *nh, struct wr_error *err)
{
	const uint64_t t0 = rte_get_tsc_cycles();
	uint8_t req[WR_L3SVC_BUILD_MAX];
	uint32_t nh4;
	char text[INET6_ADDRSTRLEN];
	int n, rc;

	memcpy(&nh4, r->nh, 4);
	for (nh->nb_requests = 0; nh->nb_requests < WR_RESOLVE_TRIES && !r->done;
			nh->nb_requests++) {
		n = r->ipv6 ? wr_l3svc_ns(&r->me, r->nh, req, sizeof(req)) :
			wr_l3svc_arp_request(&r->me, ntohl(nh4), req, sizeof(req));
		rc = n < 0 ? n : send_frame(r->p, req, (uint32_t)n);
		if (rc != 0)
			return wr_err_env(err, rc, "port %u: cannot send %s for %s: %s",
				r->p->port_id, r->ipv6 ? "a neighbour solicitation" :
				"an ARP request", addr_text(r->ipv6, r->nh, text,
				sizeof(text)), strerror(-rc));
		poll_for(r, WR_RESOLVE_TRY_MS);
	}
	nh->wait_ms = (rte_get_tsc_cycles() - t0) * 1000 / rte_get_tsc_hz();
	if (!r->done)
		return wr_err_env(err, -EHOSTUNREACH, "port %u: next hop %s did not "
			"answer %u %s in %.1f s (is the DUT's address on the port's "
			"link and up? --dst-mac skips resolution)", r->p->port_id,
			addr_text(r->ipv6, r->nh, text, sizeof(text)), nh->nb_requests,
			r->ipv6 ? "neighbour solicitations" : "ARP requests",
			(double)nh->wait_ms / 1000.0);
	nh->resolved = true;
	nh->ipv6 = r->ipv6;
	memcpy(nh->ip, r->nh, 16);
	nh->mac = r->mac;
	return 0;
}

/* The next hop of TX queue q's destination into r->nh. */
static int
next_hop(struct wr_run *run, struct resolver *r, uint16_t q, struct wr_error *err)
{
	const struct wr_config *cfg = run->setup.cfg;
	const struct wr_port *peer = &run->setup.ports[wr_run_port_index(run, r->p->peer)];
	const struct wr_portip_fam *f;
	struct wr_frame_spec s;
	uint8_t dst[16] = { 0 };
	uint32_t be;
	char text[INET6_ADDRSTRLEN];

	if (cfg->conn.cfg.role != 0) {
		/* A connection client's frames go to its server; a server
		 * answers the MAC it heard (datapath/connworker.h). */
		if (wr_opts_conn_port_role(cfg, r->p->port_id) != WR_CONN_CLIENT ||
				q != 0)
			return 1;
		s.ipv6 = cfg->conn.cfg.family == 6;
		memcpy(dst, cfg->conn.cfg.server_addr, s.ipv6 ? 16 : 4);
	} else {
		wr_port_frame_spec(r->p, cfg, peer, q, cfg->frame_size, &s);
		be = rte_cpu_to_be_32(s.dst_ip);
		memcpy(dst, s.ipv6 ? s.dst_ip6 : (const uint8_t *)&be, s.ipv6 ? 16 : 4);
	}
	r->ipv6 = s.ipv6;
	f = s.ipv6 ? &r->pi->v6 : &r->pi->v4;
	if (!f->set)
		return 1;   /* no address of the frames' family: the peer's MAC */
	if (wr_portip_next_hop(f, s.ipv6, dst, r->nh) != 0)
		return wr_err_usage(err, -EINVAL, "port %u: destination %s is not on "
			"its link %s/%u and --port-ip gave it no gateway (,gw=ADDR)",
			r->p->port_id, addr_text(s.ipv6, dst, text, sizeof(text)),
			addr_text(s.ipv6, f->addr, (char[INET6_ADDRSTRLEN]){ 0 },
			INET6_ADDRSTRLEN), f->prefix_len);
	return 0;
}

/* A resolved next hop of an earlier queue of the port, for the same address. */
static const struct wr_port_nh *
known(const struct wr_port *p, uint16_t q, const struct resolver *r)
{
	uint16_t i;

	for (i = 0; i < q; i++)
		if (p->nh[i].resolved && p->nh[i].ipv6 == r->ipv6 &&
				memcmp(p->nh[i].ip, r->nh, 16) == 0)
			return &p->nh[i];
	return NULL;
}

/* Gratuitous ARP and unsolicited NA for what the port has. */
static void
announce(struct resolver *r)
{
	uint8_t f[WR_L3SVC_BUILD_MAX];
	int n;

	n = wr_l3svc_arp_announce(&r->me, f, sizeof(f));
	if (n > 0)
		send_frame(r->p, f, (uint32_t)n);
	n = wr_l3svc_na_announce(&r->me, f, sizeof(f));
	if (n > 0)
		send_frame(r->p, f, (uint32_t)n);
}

/* Resolve the next hop of each TX queue of port p. */
static int
resolve_port(struct resolver *r0, struct wr_port *p, struct wr_error *err)
{
	const struct wr_config *cfg = r0->run->setup.cfg;
	struct resolver r = *r0;
	const struct wr_port_nh *same;
	uint16_t q;
	int rc;

	r.p = p;
	r.pi = &cfg->port_ip[p->port_id];
	r.me = r.svc[wr_run_port_index(r.run, p->port_id)];
	for (q = 0; p->tx && !cfg->dst_mac_set && q < p->nb_txq; q++) {
		rc = next_hop(r.run, &r, q, err);
		if (rc > 0)
			continue;
		if (rc < 0)
			return rc;
		same = known(p, q, &r);
		if (same != NULL) {
			p->nh[q] = *same;
			continue;
		}
		r.done = false;
		rc = resolve_one(&r, &p->nh[q], err);
		if (rc != 0)
			return rc;
	}
	return 0;
}

void
wr_resolve_text(const struct wr_port_nh *nh, struct wr_resolve_text *t)
{
	RTE_BUILD_BUG_ON(sizeof(t->ip) < INET6_ADDRSTRLEN);
	RTE_BUILD_BUG_ON(sizeof(t->mac) < RTE_ETHER_ADDR_FMT_SIZE);
	rte_ether_format_addr(t->mac, sizeof(t->mac), &nh->mac);
	addr_text(nh->ipv6, nh->ip, t->ip, sizeof(t->ip));
}

const struct wr_port_nh *
wr_resolve_next(const struct wr_port *p, uint16_t *q, struct wr_resolve_text *t)
{
	for (; *q < p->nb_txq && *q < WR_MAX_QUEUES; (*q)++) {
		if (p->nh[*q].resolved) {
			wr_resolve_text(&p->nh[*q], t);
			return &p->nh[*q];
		}
	}
	return NULL;
}

int
wr_resolve_run(struct wr_run *run, struct wr_error *err)
{
	static struct resolver r;    /* main lcore only; large */
	const struct wr_config *cfg = run->setup.cfg;
	unsigned int i;
	int rc;

	memset(&r, 0, sizeof(r));
	r.run = run;
	for (i = 0; i < run->setup.nb_ports; i++) {
		struct wr_port *p = &run->setup.ports[i];

		wr_portip_svc(&cfg->port_ip[p->port_id],
			cfg->src_mac_set ? &cfg->src_mac : &p->mac, &r.svc[i]);
		wr_opts_conn_svc(cfg, &r.svc[i]);
		r.p = p;
		r.me = r.svc[i];
		announce(&r);
	}
	for (i = 0; i < run->setup.nb_ports; i++) {
		if (!wr_portip_any(&cfg->port_ip[run->setup.ports[i].port_id]))
			continue;
		rc = resolve_port(&r, &run->setup.ports[i], err);
		if (rc != 0)
			return rc;
	}
	return 0;
}
