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
	snprintf(name, sizeof(name), "wr_conn_%u", p->port_id);
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

/* Worker w as the connection worker of its one port. */
static int
connq_make(struct wr_run *run, struct wr_worker *w, struct wr_error *err)
{
	const struct wr_port *p;
	struct wr_conn_cfg cc;
	struct wr_conn_emit emit;
	struct wr_connq *q;
	int rc;

	if (w->nb_tx != 1 || w->nb_rx != 1 || w->tx[0]->port != w->rx[0]->port ||
			w->tx[0]->queue != 0)
		return wr_err_usage(err, -EINVAL, "lcore %u: a connection run "
			"takes one worker lcore per port, on one TX and one RX "
			"queue (--txq 1 --rxq 1; -l with one lcore a port)", w->lcore);
	p = &run->setup.ports[w->tx[0]->pidx];
	rc = wr_opts_conn_port_cfg(run->setup.cfg, p->port_id, &cc, err);
	if (rc != 0)
		return rc;
	q = rte_zmalloc_socket("wr_connq", sizeof(*q), RTE_CACHE_LINE_SIZE, p->socket);
	if (q == NULL)
		return wr_err_env(err, -ENOMEM, "port %u: no memory for its "
			"connection worker", p->port_id);
	w->conn = q;
	w->mode = WR_WORKER_CONN;
	q->txq = w->tx[0];
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
