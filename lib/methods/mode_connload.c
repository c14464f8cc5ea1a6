/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --mode conn-load (docs/connload.md): a --conn client's load at fixed
 * concurrencies, one trial per --conn-concurrency value in the order
 * given. Each trial keeps that many connections open at once per client
 * port, each opened as soon as another ends (keep-alive HTTP requests
 * back to back, or bulk bytes as fast as the windows allow), for
 * --trial; then the drain: no new connection, each HTTP connection ends
 * after the answer in flight, each bulk one after its bytes; up to
 * --grace for them. The figures are the books' differences over the
 * trial, the server side's too in a run of both roles.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_cycles.h>

#include "config/opts_conn.h"
#include "modes_int.h"
#include "results/connload.h"
#include "results/result.h"
#include "trial/connrun.h"

/* What the mode keeps: the cells so far and the books around a trial. */
struct connload {
	struct wr_connload_cell cell[WR_CONN_LOAD_MAX];
	struct wr_conn_books c0, c1, s0, s1;
	uint8_t crole;          /* the client's role filter for the books:
	                         * 0 alone, WR_CONN_CLIENT with a server */
	bool both;
};

/* Wall-clock seconds since 1970. */
static double
unix_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double
since_s(uint64_t t0)
{
	return (double)(rte_rdtsc() - t0) / (double)rte_get_tsc_hz();
}

/* The books of each side, exact (the workers are stopped). */
static void
books_now(struct wr_run *run, struct connload *cl, struct wr_conn_books *c,
		struct wr_conn_books *s)
{
	wr_run_conn_books(run, cl->crole, c);
	if (cl->both)
		wr_run_conn_books(run, WR_CONN_SERVER, s);
}

/*
 * One trial at conc connections at once: open for --trial, drain with
 * --grace, figures into x. Returns 0, -EINTR on a signal (x filled from
 * what ran), or a negative errno with m->err.
 */
static int
load_trial(struct mode_ctx *m, struct connload *cl, uint32_t conc,
		struct wr_connload_cell *x)
{
	const struct wr_config *cfg = m->run->setup.cfg;
	enum wr_stop_reason why;
	struct wr_trial tr;
	uint64_t t0;
	int rc;

	wr_trial_from_config(cfg, &tr);
	tr.duration_ms = cfg->trial_ms;
	wr_mode_progress_trial(m, "conn-load", &tr);
	rc = wr_mode_conn_far_begin(m);
	if (rc != 0)
		return rc;
	books_now(m->run, cl, &cl->c0, &cl->s0);
	wr_run_conn_concurrency(m->run, conc);
	/* Before the first SYN can leave. */
	x->t0_unix_s = unix_s();
	rc = wr_run_trial(m->run, &tr, m->err);
	if (rc == 0)
		rc = wr_run_start(m->run, m->err);
	if (rc != 0)
		return rc;
	/* The trial's clock (its --trial ends at start_tsc + duration), not
	 * this read after the launch, which would make a whole trial short. */
	t0 = m->run->live.start_tsc;
	why = wr_run_wait(m->run, m->h->signals, m->h->on_interval, m->h->arg);
	x->open_s = since_s(t0);
	x->drained = wr_run_conn_settle(m->run, cfg->grace_ms);
	x->total_s = since_s(t0);
	x->t1_unix_s = unix_s();
	wr_run_stop(m->run, why);
	books_now(m->run, cl, &cl->c1, &cl->s1);
	x->conc = conc;
	x->app = cfg->conn.cfg.app;
	x->has_server = cl->both;
	wr_connload_delta(&cl->c0, &cl->c1, &x->c);
	if (cl->both)
		wr_connload_delta(&cl->s0, &cl->s1, &x->s);
	return why == WR_STOP_SIGNAL ? -EINTR : 0;
}

/*
 * Record cell nb - 1 of cells in the doc's trials, show it, judge it
 * against the far end's books (--peer), checkpoint with the cells so far
 * (conn_load not complete). Returns 0, or a negative errno with m->err
 * (the far end was lost).
 */
static int
load_record(struct mode_ctx *m, const struct wr_connload_cell *cells,
		uint32_t nb)
{
	const struct wr_connload_cell *x = &cells[nb - 1];
	const json_t *o = wr_connload_record(m->trials, x);
	int rc;

	if (o == NULL)
		return 0;
	if (m->h->on_conn_load != NULL)
		m->h->on_conn_load(o, m->h->arg);
	rc = wr_mode_conn_far_judge(m, &x->c);
	/* A crash from now on loses no finished trial (docs/results.md);
	 * the end replaces conn_load. */
	wr_connload_put(m->doc, cells, nb, true);
	wr_result_checkpoint_keep(m->run, m->doc);
	return rc;
}

int
wr_mode_conn_load(struct mode_ctx *m)
{
	const struct wr_config *cfg = m->run->setup.cfg;
	const struct wr_conn_opts *co = &cfg->conn;
	uint32_t i, nb = co->nb_load_conc > 0 ? co->nb_load_conc : 1;
	struct connload *cl = calloc(1, sizeof(*cl));
	int rc = 0;

	if (cl == NULL)
		return wr_err_env(m->err, -ENOMEM, "--mode conn-load: no memory "
			"for the books");
	cl->both = wr_opts_conn_both(co);
	cl->crole = cl->both ? WR_CONN_CLIENT : 0;
	for (i = 0; i < nb && rc == 0; i++) {
		m->size_left = nb - i;
		rc = load_trial(m, cl, co->nb_load_conc > 0 ? co->load_conc[i] :
			co->cfg.max_open, &cl->cell[i]);
		/* A trial a signal cut short is not a finished one: its
		 * figures are of a shorter window than --trial. */
		if (rc == 0 && load_record(m, cl->cell, i + 1) != 0)
			rc = -EPIPE;
	}
	wr_connload_put(m->doc, cl->cell, rc == 0 ? i : i > 0 ?
		i - (rc != -EPIPE) : 0, rc != 0);
	free(cl);
	if (rc == -EINTR)
		return wr_err_fail(m->err, -EINTR, "stopped by a signal");
	return rc;
}
