/* SPDX-License-Identifier: BSD-3-Clause */
/* --mode conn-capacity on the stats core (conncap.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include <rte_cycles.h>

#include "config/opts_conncap.h"
#include "results/result.h"
#include "stats/rxpub.h"
#include "common/exitcode.h"
#include "trial/connrun.h"
#include "conncap.h"
#include "connpeer.h"

/* The check's wait, at least (ms), as a connection run's drain. */
#define CONNCAP_CHECK_MIN_MS 2000u
/* How often the settle and the check read the books (us). */
#define CONNCAP_POLL_US 10000u

void
app_conncap_init(struct wr_conncap *c, const struct wr_config *cfg)
{
	const struct wr_conn_cfg *cc = &cfg->conn.cfg;

	/* A handshake ends within the SYN timeout, a first answer within
	 * the response timeout, and a second for the books to show it. */
	wr_conncap_init(c, cc->nb_conns, (double)(cc->syn_timeout_us +
		cc->resp_timeout_us) / 1e6 + 1.0);
}

/* Do what a step asked and say it. */
static void
apply(struct wr_run *run, const struct wr_conncap *c,
	enum wr_conncap_act act, bool show)
{
	if (act == WR_CONNCAP_DRAIN) {
		wr_run_conn_drain(run);
		if (show)
			printf("capacity: opening stopped at %.1f s (%s); waiting for "
				"the handshakes under way\n", c->t_stop_s,
				wr_conncap_why_name(c->why));
	} else if (act == WR_CONNCAP_RELEASE) {
		wr_run_conn_release(run);
		if (show)
			printf("capacity: %" PRIu64 " connections held%s; checking "
				"each with one more request\n", c->capacity,
				c->settled ? "" : " (some still opening at the "
				"settle's limit)");
	}
	if (show)
		fflush(stdout);
}

bool
app_conncap_interval(struct wr_run *run, struct wr_conncap *c,
	const struct wr_conn_books *b, double t_s, bool stop, bool show)
{
	enum wr_conncap_act act;

	if (c->phase != WR_CONNCAP_FILL)
		return true;
	act = wr_conncap_step(c, b, t_s, stop);
	apply(run, c, act, show);
	return act != WR_CONNCAP_WAIT;
}

/* Seconds since t0. */
static double
since_s(uint64_t t0)
{
	return (double)(rte_rdtsc() - t0) / (double)rte_get_tsc_hz();
}

/* The far end's books as the settle ends (app_conn_peer_held). */
static void
far_held_read(struct app_conn_peer *cp, const struct wr_conncap *c,
	const struct wr_conn_books *b, json_t **far_held)
{
	struct wr_error err;

	wr_err_clear(&err);
	*far_held = app_conn_peer_held(cp, c->capacity, b->nb_established,
		&err);
	if (*far_held == NULL)
		app_error("wirerate", &err);
}

bool
app_conncap_finish(struct wr_run *run, struct wr_conncap *c,
	const struct wr_config *cfg, uint64_t t0_tsc, bool show,
	struct app_conn_peer *cp, json_t **far_held)
{
	double check_s = (double)(RTE_MAX(cfg->grace_ms,
		(uint64_t)CONNCAP_CHECK_MIN_MS) * 1000 +
		cfg->conn.cfg.resp_timeout_us) / 1e6;
	struct wr_conn_books *b = malloc(sizeof(*b));
	enum wr_conncap_act act;
	double t_release = 0.0;
	bool done = false;

	if (b == NULL)
		return false;
	for (;;) {
		if (wr_rxpub_request(run) && wr_run_conn_books(run, 0, b)) {
			act = wr_conncap_step(c, b, since_s(t0_tsc), true);
			if (act == WR_CONNCAP_RELEASE && cp != NULL)
				far_held_read(cp, c, b, far_held);
			apply(run, c, act, show);
			if (act == WR_CONNCAP_RELEASE)
				t_release = since_s(t0_tsc);
			if (act == WR_CONNCAP_END) {
				done = true;
				break;
			}
		}
		if (c->phase == WR_CONNCAP_CHECK &&
				since_s(t0_tsc) - t_release > check_s)
			break;
		if (c->phase == WR_CONNCAP_SETTLE && since_s(t0_tsc) -
				c->t_stop_s > c->settle_max_s + check_s)
			break;
		rte_delay_us_sleep(CONNCAP_POLL_US);
	}
	free(b);
	return done;
}

void
app_conncap_checkpoint(struct wr_run *run, const struct wr_conncap *c,
	const struct wr_conn_books *b, json_t **keep)
{
	const struct wr_config *cfg = wr_run_cfg(run);
	struct wr_conncap_doc d;
	struct wr_error err;
	json_t *o;

	if (cfg->json_path[0] == '\0' || cfg->checkpoint_ms == 0)
		return;
	o = json_object();
	wr_conncap_doc(c, b, cfg->conn.cfg.cps, cfg->conn.cfg.syn_timeout_us,
		&d);
	d.running = true;
	d.held_now = b->nb_held;
	if (o == NULL || wr_results_conncap_put(o, &d, &err) != 0) {
		json_decref(o);
		return;
	}
	wr_result_checkpoint_keep(run, o);
	json_decref(*keep);
	*keep = o;
}

int
app_conncap_report(const struct wr_conncap *c,
	const struct wr_conn_books *b, const struct wr_config *cfg,
	json_t *doc, struct wr_error *err)
{
	struct wr_conncap_doc d;

	if (c->phase >= WR_CONNCAP_CHECK)
		printf("capacity: %" PRIu64 " connections held (opening ended by "
			"%s after %" PRIu64 " attempted, %" PRIu64 " failed); check: %"
			PRIu64 " of %" PRIu64 " answered\n", c->capacity,
			wr_conncap_why_name(c->why), c->attempted, c->failed,
			b->nb_hold_checks_ok, c->capacity);
	else
		printf("capacity: not found (the run ended in its %s)\n",
			c->phase == WR_CONNCAP_FILL ? "fill" : "settle");
	if (doc == NULL)
		return 0;
	wr_conncap_doc(c, b, cfg->conn.cfg.cps, cfg->conn.cfg.syn_timeout_us, &d);
	return wr_results_conncap_put(doc, &d, err);
}
