/* SPDX-License-Identifier: BSD-3-Clause */
/* A connection run's workers (connsetup.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>

#include "config/opts_conn.h"
#include "connrss.h"
#include "connsetup.h"
#include "datapath/connworker.h"
#include "datapath/worker.h"
#include "ringpair.h"
#include "run.h"
#include "tcp/wire.h"
#include "vport.h"

/* The IP packet's room on port p: its MTU. */
static uint32_t
connq_ip_room(const struct wr_port *p)
{
	return p->mtu != 0 ? p->mtu : RTE_ETHER_MTU;
}

/* The data room of a segment's mbuf on port p (its MTU's frame). */
static uint16_t
connq_room(const struct wr_port *p)
{
	uint32_t room = RTE_PKTMBUF_HEADROOM + RTE_ETHER_HDR_LEN +
		connq_ip_room(p);

	return (uint16_t)RTE_MAX(room, (uint32_t)RTE_MBUF_DEFAULT_BUF_SIZE);
}

/* The port of connection worker w (one queue pair: connq_plan_ok). */
static const struct wr_port *
connq_port(const struct wr_run *run, const struct wr_worker *w)
{
	return w == NULL || w->nb_tx == 0 ? NULL :
		&run->setup.ports[w->tx[0]->pidx];
}

/* Workers whose ports are on p's socket with p's segment room. */
static unsigned int
connq_sharers(const struct wr_run *run, const struct wr_port *p)
{
	const struct wr_port *o;
	unsigned int i, n = 0;

	for (i = 0; i < run->setup.plan.nb_workers; i++) {
		o = connq_port(run, run->setup.workers[i]);
		n += o != NULL && o->socket == p->socket &&
			connq_room(o) == connq_room(p);
	}
	return n;
}

/*
 * The segments' pool of the workers on p's socket with p's room: one
 * for them all, WR_CONNSETUP_POOL_MBUFS a worker. An mbuf a worker
 * receives from another (a ring pair) goes back to this worker's cache
 * of the pool, and its next segment reuses it while its lines are still
 * in this CPU's cache; a pool per worker sent it back through the
 * pool's common ring, every mbuf in turn (tens of MB), each reuse a miss.
 */
static struct rte_mempool *
connq_pool(const struct wr_run *run, const struct wr_port *p)
{
	char name[RTE_MEMPOOL_NAMESIZE];
	struct rte_mempool *mp;

	snprintf(name, sizeof(name), "wr_conn_%d_%u", p->socket, connq_room(p));
	mp = rte_mempool_lookup(name);
	if (mp != NULL)
		return mp;
	return rte_pktmbuf_pool_create(name,
		WR_CONNSETUP_POOL_MBUFS * connq_sharers(run, p), 256, 0,
		connq_room(p), p->socket);
}

/* The pool and the engine of q, for port p, on p's socket. */
static int
connq_memory(struct wr_connq *q, const struct wr_run *run,
		const struct wr_port *p, const struct wr_conn_cfg *cc,
		struct wr_error *err)
{
	size_t bytes = wr_conn_engine_mem_bytes(cc);

	if (bytes == 0)
		return wr_err_usage(err, -EINVAL, "port %u: the connection "
			"options make no engine", p->port_id);
	q->pool = connq_pool(run, p);
	if (q->pool == NULL)
		return wr_err_env(err, -ENOMEM, "port %u: no memory for %u mbufs "
			"of connection segments on socket %d: %s", p->port_id,
			WR_CONNSETUP_POOL_MBUFS * connq_sharers(run, p), p->socket,
			rte_strerror(rte_errno));
	q->eng_mem = rte_zmalloc_socket("wr_conn_engine", bytes, 64, p->socket);
	if (q->eng_mem == NULL)
		return wr_err_env(err, -ENOMEM, "port %u: no memory for the "
			"connection engine (%zu bytes on socket %d; "
			"--conn-concurrency sizes it)", p->port_id, bytes, p->socket);
	return 0;
}

/* The MACs of q's frames: the port's, and the next hop's or learnt. */
static void
connq_macs(struct wr_connq *q, const struct wr_run *run, const struct wr_port *p)
{
	const struct wr_config *cfg = run->setup.cfg;

	q->src_mac = cfg->src_mac_set ? cfg->src_mac : p->mac;
	q->learn_dst = q->role == WR_CONN_SERVER;
	if (cfg->dst_mac_set)
		q->dst_mac = cfg->dst_mac;
	else if (p->nh[0].resolved)
		q->dst_mac = p->nh[0].mac;
}

/*
 * Whether p delivers what its queue n sends to the peer's queue n, and
 * the peer's queue n to its own: a ring pair, memif. A connection then
 * stays on the queue pair of the worker that opened or took it, as long
 * as the far end answers on the queue it received on (wirerate's server
 * does; docs/tcp.md "On the wire").
 */
static bool
connq_paired(const struct wr_port *p)
{
	return wr_port_is_ring_pair(p->port_id) || wr_vport_memif(p);
}

/* The search modes run one queue pair a port. */
static bool
connq_mode_one_pair(enum wr_mode m)
{
	return m == WR_MODE_CONN_RATE || m == WR_MODE_CONN_CAPACITY ||
		m == WR_MODE_CONN_LOAD || m == WR_MODE_CONN_TEARDOWN;
}

/*
 * A port whose NIC hashes TCP over addresses and ports (connrss.h): a
 * server's segments of one connection all reach the worker that took its
 * SYN; a client needs the key and the table, to take only source ports
 * whose replies reach its queue, and a hash over the family's TCP.
 */
static int
connq_rss_ok(struct wr_port *p, unsigned int nq, const struct wr_conn_cfg *cc,
		struct wr_error *err)
{
	if (cc->role != WR_CONN_CLIENT)
		return 0;
	if (!wr_connrss_covers(p, cc->family == 6))
		return wr_err_usage(err, -EINVAL, "port %u (%s): a client on %u "
			"queue pairs needs the NIC's RSS over TCP ports of IPv%u, "
			"which %s does not offer; use --txq 1 --rxq 1 on it",
			p->port_id, p->driver, nq, cc->family, p->driver);
	if (wr_connrss_read(p) != 0)
		return wr_err_usage(err, -EINVAL, "port %u (%s): a client on %u "
			"queue pairs takes only source ports whose replies the NIC's "
			"RSS sends to its worker's queue, and %s; use --txq 1 --rxq 1 "
			"on it (a server may take more)", p->port_id, p->driver, nq,
			p->rss.why);
	return 0;
}

/*
 * Whether both directions of each connection of port p reach the worker
 * that owns it on p's nq queue pairs (docs/tcp.md "On the wire"): one
 * pair always; a port whose queues are paired with the peer's (a ring
 * pair, memif), both roles; a NIC with RSS over TCP ports (connq_rss_ok);
 * a server on net_tap, whose kernel end (tun) sends a flow's frames to
 * the queue its symmetric hash picks, the queue its SYN came in on; no
 * client there, no other PMD.
 */
static int
connq_steered(const struct wr_run *run, struct wr_port *p,
		unsigned int nq, const struct wr_conn_cfg *cc, struct wr_error *err)
{
	enum wr_mode m = run->setup.cfg->mode;

	if (nq == 1)
		return 0;
	if (connq_mode_one_pair(m))
		return wr_err_usage(err, -EINVAL, "port %u: --mode %s runs on one "
			"queue pair a port (--txq 1 --rxq 1); several are for a "
			"connection run of --mode run", p->port_id,
			m == WR_MODE_CONN_RATE ? "conn-rate" : m == WR_MODE_CONN_LOAD ?
			"conn-load" : m == WR_MODE_CONN_TEARDOWN ? "conn-teardown" :
			"conn-capacity");
	if (connq_paired(p))
		return 0;
	if (p->rss.hf != 0)
		return connq_rss_ok(p, nq, cc, err);
	if (strcmp(p->driver, "net_tap") != 0)
		return wr_err_usage(err, -EINVAL, "port %u (%s): a connection run "
			"on %u queue pairs needs each connection's frames both ways "
			"on the queue of the worker that owns it; %s gives no such "
			"steering (ring pairs and memif pair their queues, a NIC "
			"hashes TCP ports with RSS; a server on net_tap has it: the "
			"kernel's tun hashes both directions alike); use --txq 1 "
			"--rxq 1 on it", p->port_id, p->driver, nq, p->driver);
	if (cc->role == WR_CONN_CLIENT)
		return wr_err_usage(err, -EINVAL, "port %u (net_tap): a client on "
			"%u queue pairs: the kernel's tun picks the queue of a "
			"SYN,ACK by its own hash (a random key), not by the queue "
			"that wrote the SYN, so about %u in %u would reach a worker "
			"that does not own it; a client takes --txq 1 --rxq 1 here "
			"(a server may take more)", p->port_id, nq, nq - 1, nq);
	return 0;
}

/* Worker q's part of n shared by nq: the first n % nq one more. */
static uint64_t
connq_share(uint64_t n, unsigned int q, unsigned int nq)
{
	return n / nq + (q < n % nq ? 1 : 0);
}

/*
 * A client on queue pair q of nq: its slice of the source ports (with
 * RSS, all of them: the hash gives each worker the tuples whose replies
 * reach it) and its part of the connections open at once, the rate and
 * the count, so that the workers' tuples never meet and their sums are
 * what was asked.
 */
static int
connq_client_part(struct wr_conn_cfg *cc, unsigned int q, unsigned int nq,
		bool rss, struct wr_error *err)
{
	uint32_t ports = (uint32_t)cc->lport_last - cc->lport_first + 1u;
	uint32_t first = cc->lport_first;
	int rc = wr_opts_conn_share_check(cc, nq, err);

	if (rc != 0)
		return rc;
	if (!rss) {
		cc->lport_first = (uint16_t)(first + (uint64_t)ports * q / nq);
		cc->lport_last = (uint16_t)(first + (uint64_t)ports * (q + 1) / nq - 1);
	}
	cc->max_open = (uint32_t)connq_share(cc->max_open, q, nq);
	cc->cps = connq_share(cc->cps, q, nq);
	cc->nb_conns = connq_share(cc->nb_conns, q, nq);
	return 0;
}

/* Whether worker w owns TX and RX queue n of one port, and nothing else. */
static int
connq_plan_ok(const struct wr_run *run, const struct wr_worker *w,
		struct wr_error *err)
{
	const struct wr_port *p;

	if (w->nb_tx == 1 && w->nb_rx == 1 && w->tx[0]->port == w->rx[0]->port &&
			w->tx[0]->queue == w->rx[0]->queue)
		return 0;
	p = w->nb_tx > 0 ? &run->setup.ports[w->tx[0]->pidx] : NULL;
	return wr_err_usage(err, -EINVAL, "lcore %u: a connection run takes "
		"one worker lcore per queue pair of a port, sending and "
		"receiving on queue n (as many --txq as --rxq; -l with one "
		"lcore a queue pair besides the main lcore)%s%s", w->lcore,
		p != NULL && p->nb_txq != p->nb_rxq ? ": the port has a different "
		"number of TX and RX queues" : "", p != NULL && w->nb_tx > 1 ?
		": this lcore got several" : "");
}

/* The checksums port p's PMD computes: the engine's mode, the mbufs'
 * offload flags. */
static void
connq_csum(struct wr_connq *q, struct wr_conn_cfg *cc, const struct wr_port *p)
{
	q->tx_csum = p->tcp_csum_tx;
	cc->csum_offload = !p->tcp_csum_tx ? WR_TCP_CSUM_SW : p->ip4_csum_tx ?
		WR_TCP_CSUM_OFFLOAD : WR_TCP_CSUM_OFFLOAD_TCP;
	q->ol_ipv4 = RTE_MBUF_F_TX_TCP_CKSUM | RTE_MBUF_F_TX_IPV4 |
		(p->ip4_csum_tx ? RTE_MBUF_F_TX_IP_CKSUM : 0);
	q->ol_ipv6 = RTE_MBUF_F_TX_TCP_CKSUM | RTE_MBUF_F_TX_IPV6;
}

/* A client on a NIC's RSS (connq_rss_ok): its engine's source tuples. */
static int
connq_rss_engine(struct wr_connq *q, const struct wr_port *p,
		const struct wr_conn_cfg *cc, uint16_t queue, struct wr_error *err)
{
	struct wr_conn_rss rss;

	if (cc->role != WR_CONN_CLIENT || p->nb_txq < 2 || !p->rss.read)
		return 0;
	rss.key = p->rss.key;
	rss.key_bytes = p->rss.key_len;
	rss.reta = p->rss.reta;
	rss.reta_size = p->rss.reta_size;
	rss.queue = queue;
	return wr_conn_engine_set_rss(q->eng, &rss, err);
}

/* Worker w as the connection worker of its port's queue pair. */
static int
connq_make(struct wr_run *run, struct wr_worker *w, struct wr_error *err)
{
	struct wr_port *p;
	struct wr_conn_cfg cc;
	struct wr_conn_emit emit;
	struct wr_connq *q;
	int rc;

	rc = connq_plan_ok(run, w, err);
	if (rc != 0)
		return rc;
	p = &run->setup.ports[w->tx[0]->pidx];
	rc = wr_opts_conn_port_cfg(run->setup.cfg, p->port_id, &cc, err);
	if (rc == 0)
		rc = connq_steered(run, p, p->nb_txq, &cc, err);
	if (rc == 0 && cc.role == WR_CONN_CLIENT && p->nb_txq > 1)
		rc = connq_client_part(&cc, w->tx[0]->queue, p->nb_txq,
			p->rss.hf != 0, err);
	if (rc != 0)
		return rc;
	q = rte_zmalloc_socket("wr_connq", sizeof(*q), RTE_CACHE_LINE_SIZE, p->socket);
	if (q == NULL)
		return wr_err_env(err, -ENOMEM, "port %u: no memory for its "
			"connection worker", p->port_id);
	w->conn = q;
	w->mode = WR_WORKER_CONN;
	q->txq = w->tx[0];
	q->txq->seg_bytes = true;   /* segments of every size: counted */
	q->rxq = w->rx[0];
	q->ip_room = connq_ip_room(p);
	connq_csum(q, &cc, p);
	q->role = cc.role;
	q->nb_conns = cc.nb_conns;
	connq_macs(q, run, p);
	rc = connq_memory(q, run, p, &cc, err);
	if (rc != 0)
		return rc;
	wr_connq_emit(q, &emit);
	q->eng = wr_conn_engine_init(q->eng_mem, &cc, &emit, err);
	if (q->eng == NULL)
		return -EINVAL;
	return connq_rss_engine(q, p, &cc, w->tx[0]->queue, err);
}

/* The servers of a run with clients of its own drain late (connworker.h). */
static void
connq_drain_late(struct wr_run *run)
{
	bool clients = false;
	unsigned int i;

	for (i = 0; i < run->setup.plan.nb_workers; i++)
		clients = clients || run->setup.workers[i]->conn->role == WR_CONN_CLIENT;
	for (i = 0; i < run->setup.plan.nb_workers; i++)
		run->setup.workers[i]->conn->drain_late = clients &&
			run->setup.workers[i]->conn->role == WR_CONN_SERVER;
}

int
wr_connsetup(struct wr_run *run, struct wr_error *err)
{
	unsigned int i;
	int rc;

	if (run->setup.cfg->conn.cfg.role == 0)
		return 0;
	if (rte_get_tsc_hz() < 1000000u)
		return wr_err_env(err, -ENOTSUP, "the TSC runs at %" PRIu64 " Hz: "
			"a connection run needs 1 MHz at least", rte_get_tsc_hz());
	for (i = 0; i < run->setup.plan.nb_workers; i++) {
		rc = connq_make(run, run->setup.workers[i], err);
		if (rc != 0)
			return rc;
	}
	connq_drain_late(run);
	return 0;
}

/* Whether a worker after worker i still holds pool mp. */
static bool
connq_pool_held_after(const struct wr_run *run, unsigned int i,
	const struct rte_mempool *mp)
{
	const struct wr_worker *w;

	while (++i < run->setup.plan.nb_workers) {
		w = run->setup.workers[i];
		if (mp != NULL && w != NULL && w->conn != NULL && w->conn->pool == mp)
			return true;
	}
	return false;
}

void
wr_connsetup_teardown(struct wr_run *run)
{
	struct wr_connq *q;
	unsigned int i;

	for (i = 0; i < run->setup.plan.nb_workers; i++) {
		if (run->setup.workers[i] == NULL || run->setup.workers[i]->conn == NULL)
			continue;
		q = run->setup.workers[i]->conn;
		rte_free(q->eng_mem);
		/* A shared pool goes with the last worker holding it */
		if (!connq_pool_held_after(run, i, q->pool))
			rte_mempool_free(q->pool);
		rte_free(q);
		run->setup.workers[i]->conn = NULL;
	}
}
