/* SPDX-License-Identifier: BSD-3-Clause */
/* A connection run's life on the stats core (connrun.h). */
#include <string.h>

#include "base/counter.h"
#include "connrun.h"
#include "datapath/connworker.h"
#include "datapath/worker.h"

bool
wr_run_is_conn(const struct wr_run *run)
{
	return run->setup.cfg->conn.cfg.role != 0;
}

/* The connection worker i of run, or NULL. */
static const struct wr_connq *
connq(const struct wr_run *run, unsigned int i)
{
	const struct wr_worker *w = run->setup.workers[i];

	return w != NULL && w->mode == WR_WORKER_CONN ? w->conn : NULL;
}

/* q's books: exact after the workers returned, else the last copy. */
static const struct wr_conn_books *
books_of(const struct wr_run *run, const struct wr_connq *q)
{
	if (!__atomic_load_n(&run->live.launched, __ATOMIC_ACQUIRE) ||
			run->live.end_tsc > run->live.start_tsc)
		return wr_conn_engine_books(q->eng);
	return wr_connq_pub_read(q, run->live.ctl.pub_req);
}

bool
wr_run_conn_books(const struct wr_run *run, uint8_t role,
		struct wr_conn_books *sum)
{
	const struct wr_conn_books *b;
	const struct wr_connq *q;
	unsigned int i;
	bool whole = true;

	memset(sum, 0, sizeof(*sum));
	wr_hist_init(&sum->lat.connect_us);
	wr_hist_init(&sum->lat.ttfb_us);
	wr_hist_init(&sum->lat.ttlb_us);
	for (i = 0; i < run->setup.plan.nb_workers; i++) {
		q = connq(run, i);
		if (q == NULL || (role != 0 && q->role != role))
			continue;
		b = books_of(run, q);
		if (b == NULL)
			whole = false;
		else
			wr_conn_books_sum(sum, b);
	}
	return whole;
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
		q = connq(run, i);
		if (q == NULL || q->role != WR_CONN_CLIENT)
			continue;
		b = books_of(run, q);
		if (b == NULL || b->nb_attempted < cc->nb_conns || b->nb_open != 0)
			return false;
	}
	return true;
}

void
wr_run_conn_drain(struct wr_run *run)
{
	__atomic_store_n(&run->live.ctl.conn_drain, 1, __ATOMIC_RELEASE);
}

bool
wr_run_conn_idle(const struct wr_run *run)
{
	const struct wr_connq *q;
	unsigned int i;

	for (i = 0; i < run->setup.plan.nb_workers; i++) {
		q = connq(run, i);
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
		q = connq(run, i);
		if (q == NULL)
			continue;
		*other += wr_counter_read(&q->st.nb_rx_other_pkts);
		*refused += wr_counter_read(&q->st.nb_tx_refused_pkts);
		*alloc_fail += wr_counter_read(&q->st.nb_alloc_fail);
	}
}
