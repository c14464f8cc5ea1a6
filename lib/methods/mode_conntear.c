/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --mode conn-teardown (docs/connteardown.md): the connection tear-down
 * rate (RFC 9693) of a --conn client, searched by the RFC 2544 search of
 * --mode throughput and conn-rate (search.h, one configuration:
 * wr_mode_search_conf, the same --resolution and --max-trials) with
 * closes for frames. Each trial fills the table: --conn-count
 * connections per port opened at a safe rate and held (conn/hold.c);
 * then closes them at the trial's rate, a FIN each (conn/teardown.c),
 * and waits until every close ended or its deadline passed. A close
 * that failed or is still open fails the trial; held ones the pass
 * could not close in time are the generator's limit, never a pass.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>

#include "config/opts_conntear.h"
#include "modes_int.h"
#include "results/conntear.h"
#include "results/result.h"
#include "setup/svc.h"
#include "stats/rxpub.h"
#include "trial/connrun.h"

/* How often a trial reads the books (us). */
#define CONNTEAR_POLL_US 10000u
/* Seconds a phase may run past its plan before the trial gives up. */
#define CONNTEAR_SLACK_S 2.0

/* What one search keeps: its state and every trial's figures. */
struct teardown {
	struct wr_search s;
	struct wr_conntear_trial t[WR_SEARCH_MAX_TRIALS];
	struct wr_conn_books before;
	struct wr_conn_books now;
	uint64_t target;           /* connections held per trial, all ports */
	uint64_t t0_tsc;           /* the phase's start */
	bool fill_short;
};

/* Seconds since td->t0_tsc. */
static double
phase_s(const struct teardown *td)
{
	return (double)(rte_rdtsc() - td->t0_tsc) / (double)rte_get_tsc_hz();
}

/* Frames the connection workers' ports refused so far. */
static uint64_t
port_refused(const struct wr_run *run)
{
	uint64_t other, refused, alloc;

	wr_run_conn_port_counts(run, &other, &refused, &alloc);
	return refused;
}

/* Whether the fill ended: every start made and every open one held. */
static bool
fill_done(const struct teardown *td)
{
	const struct wr_conn_books *b = &td->now, *a = &td->before;
	uint64_t starts = b->nb_attempted - a->nb_attempted +
		b->nb_unstarted_pool - a->nb_unstarted_pool +
		b->nb_unstarted_tuples - a->nb_unstarted_tuples +
		b->nb_unstarted_tx - a->nb_unstarted_tx;

	return starts >= td->target && b->nb_open == b->nb_held;
}

/* Whether every close of the pass ended. */
static bool
close_done(const struct teardown *td, uint64_t held)
{
	const struct wr_conn_books *b = &td->now, *a = &td->before;

	return b->nb_close_attempted - a->nb_close_attempted >= held &&
		b->nb_closing == 0;
}

/*
 * Poll the live books until done(td, held) or limit_s of the phase
 * passed, answering ARP and NS. Returns 0, or -EINTR on a signal.
 */
static int
wait_phase(struct mode_ctx *m, struct teardown *td, double limit_s,
		bool (*done)(const struct teardown *, uint64_t), uint64_t held)
{
	const volatile int *sig = m->h->signals;

	td->t0_tsc = rte_rdtsc();
	while (phase_s(td) < limit_s) {
		if (sig != NULL && *sig != 0)
			return -EINTR;
		wr_svc_poll(m->run, false);
		if (wr_rxpub_request(m->run) &&
				wr_run_conn_books(m->run, 0, &td->now) &&
				done(td, held))
			return 0;
		rte_delay_us_sleep(CONNTEAR_POLL_US);
	}
	return 0;
}

/* fill_done as wait_phase takes it. */
static bool
fill_ended(const struct teardown *td, uint64_t held)
{
	(void)held;
	return fill_done(td);
}

/*
 * One trial at cps closes a second per port: fill, close, stop, figures
 * into t. Returns 0, -EINTR on a signal (t filled from what ran), or a
 * negative errno with m->err.
 */
static int
tear_trial(struct mode_ctx *m, struct teardown *td, uint64_t cps,
		struct wr_conntear_trial *t)
{
	const struct wr_config *cfg = m->run->setup.cfg;
	const struct wr_conn_cfg *cc = &cfg->conn.cfg;
	uint64_t per_port = cc->nb_conns, refused0;
	double fill_s = (double)per_port / WR_CONNTEAR_FILL_CPS +
		(double)(cc->syn_timeout_us + cc->resp_timeout_us) / 1e6;
	double close_s = (double)per_port / (double)cps +
		(double)(cc->close_timeout_us + cfg->grace_ms * 1000) / 1e6;
	struct wr_trial tr;
	int rc;

	memset(t, 0, sizeof(*t));
	t->cps = (double)cps;
	t->nb_target = td->target;
	wr_trial_from_config(cfg, &tr);
	tr.duration_ms = 0;
	wr_mode_progress_trial(m, "conn-teardown", &tr);
	wr_run_conn_books(m->run, 0, &td->before);
	refused0 = port_refused(m->run);
	wr_run_conn_rate(m->run, WR_CONNTEAR_FILL_CPS);
	wr_run_conn_close_rate(m->run, cps);
	rc = wr_run_trial(m->run, &tr, m->err);
	if (rc == 0)
		rc = wr_run_start(m->run, m->err);
	if (rc != 0)
		return rc;
	rc = wait_phase(m, td, fill_s + CONNTEAR_SLACK_S, fill_ended, 0);
	t->fill_s = phase_s(td);
	if (rc == 0) {
		t->nb_held = td->now.nb_held;
		wr_run_conn_teardown(m->run);
		rc = wait_phase(m, td, close_s + CONNTEAR_SLACK_S, close_done,
			t->nb_held);
		t->close_s = phase_s(td);
	}
	wr_run_stop(m->run, rc == -EINTR ? WR_STOP_SIGNAL : WR_STOP_COUNT);
	wr_run_conn_books(m->run, 0, &td->now);
	wr_conntear_trial_of(&td->before, &td->now, t->nb_held, t);
	t->nb_tx_refused = port_refused(m->run) - refused0;
	return rc;
}

/* Record trial t in the doc's trials, checkpoint, show it. */
static void
tear_record(struct mode_ctx *m, const struct wr_conntear_trial *t, bool pass)
{
	wr_conntear_trial_record(m->trials, t, pass);
	/* A crash from now on loses no finished trial (docs/results.md). */
	wr_result_checkpoint_keep(m->run, m->doc);
	if (m->h->on_conn_tear != NULL)
		m->h->on_conn_tear(json_array_get(m->trials,
			json_array_size(m->trials) - 1), m->h->arg);
}

/* The search's loop; returns as wr_mode_trial. */
static int
tear_search(struct mode_ctx *m, struct teardown *td)
{
	struct wr_conntear_trial *t;
	uint64_t sent, lost, cps;
	double rate;
	int rc;

	while ((rc = wr_search_next(&td->s, &rate)) == WR_SEARCH_TRIAL) {
		m->size_left = wr_mode_search_left(&td->s);
		cps = rate < 1.0 ? 1 : (uint64_t)llround(rate);
		t = &td->t[td->s.nb_trials];
		rc = tear_trial(m, td, cps, t);
		if (rc == -EINTR)
			return wr_err_fail(m->err, -EINTR, "stopped by a signal");
		if (rc != 0)
			return rc;
		if (t->nb_held < td->target) {
			td->fill_short = true;
			tear_record(m, t, false);
			return wr_err_fail(m->err, -EIO, "--mode conn-teardown: the "
				"fill held %" PRIu64 " of %" PRIu64 " connections: the "
				"device's table (or the server) takes fewer; lower "
				"--conn-count", t->nb_held, td->target);
		}
		lost = wr_conntear_loss(t, &sent);
		rc = wr_search_report(&td->s, (double)cps, sent, lost);
		if (rc != 0)
			return rc;
		tear_record(m, t, lost == 0);
	}
	return rc < 0 ? rc : 0;
}

int
wr_mode_conn_teardown(struct mode_ctx *m)
{
	const struct wr_config *cfg = m->run->setup.cfg;
	double top = (double)cfg->conn.cfg.cps;
	struct teardown *td = calloc(1, sizeof(*td));
	struct wr_conntear_verdict v;
	struct wr_search_conf sc;
	uint32_t i;
	int rc;

	if (td == NULL)
		return wr_err_env(m->err, -ENOMEM, "--mode conn-teardown: no "
			"memory for the search");
	td->target = cfg->conn.cfg.nb_conns * wr_run_conn_clients(m->run);
	wr_mode_search_conf(cfg, top, &sc);
	if (sc.min_pps < 1.0)
		sc.min_pps = RTE_MIN(1.0, top);
	rc = wr_search_init(&td->s, &sc);
	if (rc != 0) {
		free(td);
		return wr_err_usage(m->err, rc, "--mode conn-teardown: the "
			"search's bounds (--conn-rate %.0f, --resolution, "
			"--max-trials) are out of range", top);
	}
	rc = tear_search(m, td);
	memset(&v, 0, sizeof(v));
	v.top_cps = top;
	v.nb_conns = cfg->conn.cfg.nb_conns;
	v.fill_short = td->fill_short;
	wr_search_result(&td->s, &v.r);
	for (i = 0; i < td->s.nb_trials; i++)
		v.nb_limited += wr_conntear_limited(&td->t[i]);
	wr_conntear_put(m->doc, &v, td->t, td->s.nb_trials +
		(td->fill_short ? 1 : 0));
	free(td);
	return rc;
}
