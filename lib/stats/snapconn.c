/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A connection run's books: summed over the connection workers (the
 * copies they published for the stats core's last request, exact once
 * they returned), and their figures in the snapshot (snapshot.h).
 */
#include <string.h>

#include "datapath/connworker.h"
#include "datapath/worker.h"
#include "snapshot.h"

const struct wr_connq *
wr_run_connq(const struct wr_run *run, unsigned int i)
{
	const struct wr_worker *w = run->setup.workers[i];

	return w != NULL && w->mode == WR_WORKER_CONN ? w->conn : NULL;
}

const struct wr_conn_books *
wr_run_connq_books(const struct wr_run *run, unsigned int i)
{
	const struct wr_connq *q = wr_run_connq(run, i);

	if (q == NULL)
		return NULL;
	if (!__atomic_load_n(&run->live.launched, __ATOMIC_ACQUIRE) ||
			run->live.end_tsc > run->live.start_tsc)
		return wr_conn_engine_books(q->eng);
	return wr_connq_pub_read(q, run->live.ctl.pub_req);
}

bool
wr_run_connq_pair(const struct wr_run *run, unsigned int i, uint8_t role,
		uint16_t *port, uint16_t *queue, unsigned int *lcore)
{
	const struct wr_connq *q = wr_run_connq(run, i);

	if (q == NULL || (role != 0 && q->role != role))
		return false;
	*port = q->txq->port;
	*queue = q->txq->queue;
	*lcore = run->setup.workers[i]->lcore;
	return true;
}

bool
wr_run_conn_books(const struct wr_run *run, uint8_t role,
		struct wr_conn_books *sum)
{
	const struct wr_connq *q;
	const struct wr_conn_books *b;
	unsigned int i;
	bool whole = true;

	memset(sum, 0, sizeof(*sum));
	wr_hist_init(&sum->lat.connect_us);
	wr_hist_init(&sum->lat.ttfb_us);
	wr_hist_init(&sum->lat.ttlb_us);
	for (i = 0; i < run->setup.plan.nb_workers; i++) {
		q = wr_run_connq(run, i);
		if (q == NULL || (role != 0 && q->role != role))
			continue;
		b = wr_run_connq_books(run, i);
		if (b == NULL)
			whole = false;
		else
			wr_conn_books_sum(sum, b);
	}
	return whole;
}

const char *
wr_snap_conn_role(uint8_t role)
{
	return role == WR_CONN_CLIENT ? "client" : role == WR_CONN_SERVER ?
		"server" : "none";
}

/* The books' counts into c (no rates). */
static void
conn_counts(struct wr_snap_conn *c, const struct wr_conn_books *b)
{
	c->attempted = b->nb_attempted;
	c->established = b->nb_established;
	c->completed = b->nb_completed;
	c->failed = b->nb_failed_syn_timeout + b->nb_failed_refused +
		b->nb_failed_reset + b->nb_failed_rtx_timeout +
		b->nb_failed_resp_timeout + b->nb_failed_http;
	c->open = b->nb_open;
	c->peak_open = b->nb_peak_open;
	c->unstarted = b->nb_unstarted_pool + b->nb_unstarted_tuples +
		b->nb_unstarted_tx;
	c->accepted = b->nb_accepted;
	c->closed = b->nb_closed;
	c->reqs_sent = b->nb_reqs_sent;
	c->resps = b->nb_resps;
	c->reqs_failed = b->nb_reqs_failed;
	c->reqs_served = b->nb_reqs_served;
	c->l7_tx_bytes = b->nb_l7_tx_bytes;
	c->l7_rx_bytes = b->nb_l7_rx_bytes;
	c->rtx_segs = wr_conn_books_rtx(b);
}

/* (now - before) / s, 0 when s is not positive or the count went back. */
static double
per_s(uint64_t now, uint64_t before, double s)
{
	return s > 0.0 && now >= before ? (double)(now - before) / s : 0.0;
}

void
wr_snap_conn(struct wr_snap *s, const struct wr_run *run, const struct wr_snap *prev)
{
	struct wr_snap_conn *c = &s->conn;
	const struct wr_snap_conn *p = prev != NULL && prev->conn.known ? &prev->conn : NULL;
	struct wr_conn_books sum;
	double dt;

	memset(c, 0, sizeof(*c));
	c->role = run->setup.cfg->conn.cfg.role;
	if (c->role == 0)
		return;
	c->known = true;
	c->whole = wr_run_conn_books(run, 0, &sum);
	conn_counts(c, &sum);
	/* Rates over the last interval while running, the whole run once done. */
	if (p == NULL || s->state == WR_SNAP_DONE) {
		static const struct wr_snap_conn zero;

		p = &zero;
		dt = (double)s->elapsed_ms / 1e3;
	} else {
		dt = ((double)s->elapsed_ms - (double)prev->elapsed_ms) / 1e3;
	}
	c->cps = per_s(c->role == WR_CONN_SERVER ? c->closed : c->completed,
		c->role == WR_CONN_SERVER ? p->closed : p->completed, dt);
	c->requests_per_s = per_s(c->role == WR_CONN_SERVER ? c->reqs_served : c->resps,
		c->role == WR_CONN_SERVER ? p->reqs_served : p->resps, dt);
	c->goodput_bps = 8.0 * (per_s(c->l7_tx_bytes, p->l7_tx_bytes, dt) +
		per_s(c->l7_rx_bytes, p->l7_rx_bytes, dt));
}
