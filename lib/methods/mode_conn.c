/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --mode conn-rate (docs/tcp.md "Connection modes"): the maximum
 * connection establishment rate (RFC 9693) of a --conn client, searched
 * by the RFC 2544 search of --mode throughput (search.h, the same
 * --resolution, --max-trials and --pdr) with connections for frames:
 * each trial opens connections at a rate for --trial, drains (no new
 * one; the open ones get --grace to end), and reports attempted and
 * failed (attempted - completed). A trial whose generator could not
 * start every connection due (its pool, its source tuples, its TX
 * buffers) is the generator's limit: it never counts as a pass, and the
 * verdict names it.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>

#include "modes_int.h"
#include "results/connload.h"
#include "results/connrate.h"
#include "results/result.h"
#include "trial/connrun.h"

/* What one search keeps: its state and every trial's figures. */
struct connsearch {
	struct wr_search s;
	struct wr_connrate_trial t[WR_SEARCH_MAX_TRIALS];
	struct wr_conn_books before;
	struct wr_conn_books after;
	uint64_t refused0;         /* frames the ports refused before */
};

/* Frames the connection workers' ports refused so far. */
static uint64_t
port_refused(const struct wr_run *run)
{
	uint64_t other, refused, alloc;

	wr_run_conn_port_counts(run, &other, &refused, &alloc);
	return refused;
}

/* The books of every engine, exact (the workers are stopped). */
static void
books_now(struct wr_run *run, struct wr_conn_books *b)
{
	wr_run_conn_books(run, 0, b);
}

/*
 * One trial at cps a second per port: open for --trial, drain with
 * --grace, figures into t. Returns 0, -EINTR on a signal (t filled
 * from what ran), or a negative errno with m->err.
 */
static int
conn_trial(struct mode_ctx *m, struct connsearch *cs, uint64_t cps,
		struct wr_connrate_trial *t)
{
	const struct wr_config *cfg = m->run->setup.cfg;
	enum wr_stop_reason why;
	struct wr_trial tr;
	uint64_t t0;
	double open_s;
	int rc;

	wr_trial_from_config(cfg, &tr);
	tr.duration_ms = cfg->trial_ms;
	wr_mode_progress_trial(m, "conn-rate", &tr);
	rc = wr_mode_conn_far_begin(m);
	if (rc != 0)
		return rc;
	books_now(m->run, &cs->before);
	cs->refused0 = port_refused(m->run);
	wr_run_conn_rate(m->run, cps);
	rc = wr_run_trial(m->run, &tr, m->err);
	if (rc == 0)
		rc = wr_run_start(m->run, m->err);
	if (rc != 0)
		return rc;
	/* The trial's clock (its --trial ends at start_tsc + duration). */
	t0 = m->run->live.start_tsc;
	why = wr_run_wait(m->run, m->h->signals, m->h->on_interval, m->h->arg);
	open_s = (double)(rte_rdtsc() - t0) / (double)rte_get_tsc_hz();
	wr_run_conn_settle(m->run, cfg->grace_ms);
	wr_run_stop(m->run, why);
	books_now(m->run, &cs->after);
	wr_connrate_trial_of(&cs->before, &cs->after, (double)cps, open_s, t);
	t->nb_tx_refused = port_refused(m->run) - cs->refused0;
	return why == WR_STOP_SIGNAL ? -EINTR : 0;
}

/*
 * Record trial t in the doc's trials, show it, judge it against the far
 * end's books (--peer), checkpoint. Returns 0, or a negative errno with
 * m->err (the far end was lost).
 */
static int
conn_record(struct mode_ctx *m, struct connsearch *cs,
		const struct wr_connrate_trial *t, bool pass)
{
	struct wr_conn_books d;
	int rc;

	wr_connrate_trial_record(m->trials, t, pass);
	if (m->h->on_conn_trial != NULL)
		m->h->on_conn_trial(t, pass, m->h->arg);
	wr_connload_delta(&cs->before, &cs->after, &d);
	rc = wr_mode_conn_far_judge(m, &d);
	/* A crash from now on loses no finished trial (docs/results.md). */
	wr_result_checkpoint_keep(m->run, m->doc);
	return rc;
}

/* The verdict of the search so far into the doc's "conn_rate". */
static void
conn_verdict(struct mode_ctx *m, const struct connsearch *cs, double top)
{
	struct wr_connrate_verdict v;

	memset(&v, 0, sizeof(v));
	v.top_cps = top;
	v.pdr_ratio = cs->s.conf.pdr_loss_ratio;
	wr_search_result(&cs->s, &v.r);
	wr_connrate_judge(&v, cs->t, cs->s.nb_trials);
	wr_connrate_put(m->doc, &v);
}

/* The search's next rate as the engine takes it: whole, at least 1. */
static uint64_t
whole_cps(double rate)
{
	return rate < 1.0 ? 1 : (uint64_t)llround(rate);
}

/* The search's loop; returns as wr_mode_trial. */
static int
conn_search(struct mode_ctx *m, struct connsearch *cs)
{
	struct wr_connrate_trial *t;
	uint64_t sent, lost, cps;
	double rate;
	int rc;

	while ((rc = wr_search_next(&cs->s, &rate)) == WR_SEARCH_TRIAL) {
		m->size_left = wr_mode_search_left(&cs->s);
		cps = whole_cps(rate);
		t = &cs->t[cs->s.nb_trials];
		rc = conn_trial(m, cs, cps, t);
		if (rc == -EINTR)
			return wr_err_fail(m->err, -EINTR, "stopped by a signal");
		if (rc != 0)
			return rc;
		lost = wr_connrate_loss(t, &sent);
		rc = wr_search_report(&cs->s, (double)cps, sent, lost);
		if (rc != 0)
			return rc;
		rc = conn_record(m, cs, t, lost == 0);
		if (rc != 0)
			return rc;
	}
	return rc < 0 ? rc : 0;
}

int
wr_mode_conn_rate(struct mode_ctx *m)
{
	const struct wr_config *cfg = m->run->setup.cfg;
	double top = (double)cfg->conn.cfg.cps;
	struct wr_search_conf sc;
	struct connsearch *cs = calloc(1, sizeof(*cs));
	int rc;

	if (cs == NULL)
		return wr_err_env(m->err, -ENOMEM, "--mode conn-rate: no memory "
			"for the search");
	wr_mode_search_conf(cfg, top, &sc);
	if (sc.min_pps < 1.0)
		sc.min_pps = RTE_MIN(1.0, top);
	rc = wr_search_init(&cs->s, &sc);
	if (rc != 0) {
		free(cs);
		return wr_err_usage(m->err, rc, "--mode conn-rate: the search's "
			"bounds (--conn-rate %.0f, --resolution, --max-trials) are "
			"out of range", top);
	}
	rc = conn_search(m, cs);
	conn_verdict(m, cs, top);
	free(cs);
	return rc;
}
