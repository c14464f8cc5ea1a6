/* SPDX-License-Identifier: BSD-3-Clause */
/* A connection run's life on the stats core (connrun.h). */
#include <string.h>

#include <rte_cycles.h>

#include "base/counter.h"
#include "connrun.h"
#include "datapath/connworker.h"
#include "datapath/worker.h"
#include "stats/rxpub.h"
#include "stats/snapshot.h"
#include "setup/svc.h"

bool
wr_run_is_conn(const struct wr_run *run)
{
	return run->setup.cfg->conn.cfg.role != 0;
}

bool
wr_run_conn_done(const struct wr_run *run)
{
	const struct wr_conn_cfg *cc = &run->setup.cfg->conn.cfg;
	const struct wr_conn_books *b;
	const struct wr_connq *q;
	unsigned int i;

	if (cc->role != WR_CONN_CLIENT || cc->nb_conns == 0)
		return false;
	for (i = 0; i < run->setup.plan.nb_workers; i++) {
		q = wr_run_connq(run, i);
		if (q == NULL || q->role != WR_CONN_CLIENT)
			continue;
		b = wr_run_connq_books(run, i);
		/* a start the pool refused is not made later */
		if (b == NULL || wr_conn_books_starts(b) < q->nb_conns ||
			b->nb_open != 0)
			return false;
	}
	return true;
}

bool
wr_run_conn_done_now(struct wr_run *run)
{
	const struct wr_worker *w;
	unsigned int i;

	for (i = 0; i < run->setup.plan.nb_workers; i++) {
		w = run->setup.workers[i];
		if (w != NULL && w->mode != WR_WORKER_CONN)
			return false;
	}
	return wr_rxpub_request(run) && wr_run_conn_done(run);
}

void
wr_run_conn_drain(struct wr_run *run)
{
	__atomic_store_n(&run->live.ctl.conn_drain, 1, __ATOMIC_RELEASE);
}

void
wr_run_conn_release(struct wr_run *run)
{
	__atomic_store_n(&run->live.ctl.conn_drain, 2, __ATOMIC_RELEASE);
}

bool
wr_run_conn_idle(const struct wr_run *run)
{
	const struct wr_connq *q;
	unsigned int i;

	for (i = 0; i < run->setup.plan.nb_workers; i++) {
		q = wr_run_connq(run, i);
		if (q != NULL && wr_counter_read(&q->st.idle) == 0)
			return false;
	}
	return true;
}

void
wr_run_conn_port_counts(const struct wr_run *run, uint64_t *other,
		uint64_t *refused, uint64_t *alloc_fail)
{
	const struct wr_connq *q;
	unsigned int i;

	*other = *refused = *alloc_fail = 0;
	for (i = 0; i < run->setup.plan.nb_workers; i++) {
		q = wr_run_connq(run, i);
		if (q == NULL)
			continue;
		*other += wr_counter_read(&q->st.nb_rx_other_pkts);
		*refused += wr_counter_read(&q->st.nb_tx_refused_pkts);
		*alloc_fail += wr_counter_read(&q->st.nb_alloc_fail);
	}
}

void
wr_run_conn_rate(struct wr_run *run, uint64_t cps)
{
	unsigned int i;
	const struct wr_connq *cq;

	for (i = 0; i < run->setup.plan.nb_workers; i++) {
		cq = wr_run_connq(run, i);
		/* Stopped: the worker reads it at its next launch. */
		if (cq != NULL)
			run->setup.workers[i]->conn->trial_cps = cps;
	}
}

void
wr_run_conn_teardown(struct wr_run *run)
{
	__atomic_store_n(&run->live.ctl.conn_drain, 3, __ATOMIC_RELEASE);
}

void
wr_run_conn_close_rate(struct wr_run *run, uint64_t cps)
{
	unsigned int i;

	for (i = 0; i < run->setup.plan.nb_workers; i++)
		/* Stopped: the worker reads it during its next launch. */
		if (wr_run_connq(run, i) != NULL)
			run->setup.workers[i]->conn->trial_close_cps = cps;
}

unsigned int
wr_run_conn_clients(const struct wr_run *run)
{
	const struct wr_connq *q;
	unsigned int i, n = 0;

	for (i = 0; i < run->setup.plan.nb_workers; i++) {
		q = wr_run_connq(run, i);
		n += q != NULL && q->role == WR_CONN_CLIENT;
	}
	return n;
}

void
wr_run_conn_concurrency(struct wr_run *run, uint32_t conc)
{
	unsigned int i;
	const struct wr_connq *cq;

	for (i = 0; i < run->setup.plan.nb_workers; i++) {
		cq = wr_run_connq(run, i);
		/* Stopped: the worker reads it at its next launch. */
		if (cq != NULL)
			run->setup.workers[i]->conn->trial_conc = conc;
	}
}

bool
wr_run_conn_settle(struct wr_run *run, uint64_t ms)
{
	const uint64_t hz = rte_get_tsc_hz();
	const uint64_t end = rte_rdtsc() + ms * (hz / 1000);

	wr_run_conn_drain(run);
	do {
		wr_svc_poll(run, false);
		if (wr_run_conn_idle(run))
			return true;
		rte_delay_us_sleep(1000);
	} while (rte_rdtsc() < end);
	return wr_run_conn_idle(run);
}
