/* SPDX-License-Identifier: BSD-3-Clause */
/* A connection run's workers (connsetup.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>

#include "config/opts_conn.h"
#include "connsetup.h"
#include "datapath/connworker.h"
#include "datapath/worker.h"
#include "run.h"

/* The pool and the engine of q, for port p, on p's socket. */
static int
connq_memory(struct wr_connq *q, const struct wr_port *p,
		const struct wr_conn_cfg *cc, struct wr_error *err)
{
	size_t bytes = wr_conn_engine_mem_bytes(cc);
	char name[RTE_MEMPOOL_NAMESIZE];
	uint32_t room = RTE_PKTMBUF_HEADROOM + RTE_ETHER_HDR_LEN + q->ip_room;

	if (bytes == 0)
		return wr_err_usage(err, -EINVAL, "port %u: the connection "
			"options make no engine", p->port_id);
	snprintf(name, sizeof(name), "wr_conn_%u_%u", p->port_id, q->txq->queue);
	q->pool = rte_pktmbuf_pool_create(name, WR_CONNSETUP_POOL_MBUFS, 256, 0,
		(uint16_t)RTE_MAX(room, (uint32_t)RTE_MBUF_DEFAULT_BUF_SIZE),
		p->socket);
	if (q->pool == NULL)
		return wr_err_env(err, -ENOMEM, "port %u: no memory for %u mbufs "
			"of connection segments: %s", p->port_id,
			WR_CONNSETUP_POOL_MBUFS, rte_strerror(rte_errno));
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
 * Whether both directions of each connection of port p reach the worker
 * that owns it on p's nq queue pairs (docs/tcp.md "On the wire"): one
 * pair always; a server on net_tap, whose kernel end (tun) sends a
 * flow's frames to the queue its symmetric hash picks, the queue its
 * SYN came in on; no client, no other PMD yet.
 */
static int
connq_steered(const struct wr_run *run, const struct wr_port *p,
		unsigned int nq, uint8_t role, struct wr_error *err)
{
	enum wr_mode m = run->setup.cfg->mode;

	if (nq == 1)
		return 0;
	if (strcmp(p->driver, "net_tap") != 0)
		return wr_err_usage(err, -EINVAL, "port %u (%s): a connection run "
			"on %u queue pairs needs each connection's frames both ways "
			"on the queue of the worker that owns it; %s gives no such "
			"steering (a server on net_tap has it: the kernel's tun "
			"hashes both directions alike); use --txq 1 --rxq 1 on it",
			p->port_id, p->driver, nq, p->driver);
	if (role == WR_CONN_CLIENT)
		return wr_err_usage(err, -EINVAL, "port %u (net_tap): a client on "
			"%u queue pairs: the kernel's tun picks the queue of a "
			"SYN,ACK by its own hash (a random key), not by the queue "
			"that wrote the SYN, so about %u in %u would reach a worker "
			"that does not own it; a client takes --txq 1 --rxq 1 here "
			"(a server may take more)", p->port_id, nq, nq - 1, nq);
	if (m == WR_MODE_CONN_RATE || m == WR_MODE_CONN_CAPACITY ||
			m == WR_MODE_CONN_LOAD || m == WR_MODE_CONN_TEARDOWN)
		return wr_err_usage(err, -EINVAL, "port %u: --mode %s runs on one "
			"queue pair a port (--txq 1 --rxq 1); several are for a "
			"connection run of --mode run", p->port_id,
			m == WR_MODE_CONN_RATE ? "conn-rate" : m == WR_MODE_CONN_LOAD ?
			"conn-load" : m == WR_MODE_CONN_TEARDOWN ? "conn-teardown" :
			"conn-capacity");
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

/* Worker w as the connection worker of its port's queue pair. */
static int
connq_make(struct wr_run *run, struct wr_worker *w, struct wr_error *err)
{
	const struct wr_port *p;
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
		rc = connq_steered(run, p, p->nb_txq, cc.role, err);
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
	q->ip_room = p->mtu != 0 ? p->mtu : RTE_ETHER_MTU;
	q->role = cc.role;
	connq_macs(q, run, p);
	rc = connq_memory(q, p, &cc, err);
	if (rc != 0)
		return rc;
	wr_connq_emit(q, &emit);
	q->eng = wr_conn_engine_init(q->eng_mem, &cc, &emit, err);
	return q->eng == NULL ? -EINVAL : 0;
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
	return 0;
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
		rte_mempool_free(q->pool);
		rte_free(q);
		run->setup.workers[i]->conn = NULL;
	}
}
