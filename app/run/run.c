/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * One run from its configuration to its result: set-up, the trials of a
 * plain run (--warmup, --repeat) or a test mode, the live view, the
 * result files, close. Driven by main() for a one-shot run and by the
 * server (server/serve.c) for each run it is asked for.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <unistd.h>

#include <rte_cycles.h>

#include "common/exitcode.h"
#include "view/live.h"
#include "view/progress.h"
#include "view/view.h"
#include "view/view_far.h"
#include "view/view_mode.h"
#include "datapath/capture.h"
#include "methods/modes.h"
#include "results/result.h"
#include "stats/telemetry.h"
#include "config/opts_connmode.h"
#include "connrun.h"
#include "peer.h"
#include "results.h"
#include "run.h"

struct live {
	const volatile int *stop;   /* non-zero: end the trial (a signal) */
	bool on;
	bool in_place;
	struct app_progress prog;
	struct app_peer_session *ps; /* --peer: its live counts shown too */
};

/* Who follows the run in progress (the control socket: its ports method
 * waits while the ports close), or NULL. Main lcore only. */
static struct app_run_watch *run_watch;

/* Tell w (NULL: nobody) that the ports are about to change, or are done. */
static void
watch_ports(struct app_run_watch *w, bool hold)
{
	if (w != NULL && w->ports_hold != NULL)
		w->ports_hold(w, hold);
}

/* Tell w (NULL: nobody) which run is live (NULL: none). */
static void
watch_live(struct app_run_watch *w, struct wr_run *run)
{
	if (w != NULL && w->live != NULL)
		w->live(w, run);
}

/* Close run's ports, with the watcher's readers of ethdev held off. */
static void
close_run(struct wr_run *run)
{
	watch_ports(run_watch, true);
	wr_run_close(run);
	watch_ports(run_watch, false);
}

static void
show_interval(const struct wr_run *run, const struct wr_interval *iv, void *arg)
{
	struct live *l = arg;
	char far[256];

	if (l->on)
		app_view_interval(stdout, run, iv, l->in_place, l->ps != NULL &&
			app_peer_live(l->ps, far, sizeof(far)) ? far : NULL);
	else
		app_progress_tick(&l->prog);
}

/*
 * A sending port that sent nothing while its PMD refused every frame
 * offered (a port that never came up, a peer that never connected), or
 * one that stalled short of its --count (setup/run.h, WR_RUN_TX_STALL_S):
 * the run failed, whatever else it counted. Says which, on stderr.
 */
static int
check_sent(const struct wr_run *run)
{
	const struct wr_run_res *res = wr_run_res(run);
	const struct wr_port *p;
	unsigned int i;
	int rc = APP_EXIT_OK;

	if (res->stop_reason == WR_STOP_SIGNAL || res->total == NULL)
		return rc;
	if (res->tx_stall.hit) {
		fprintf(stderr, "wirerate: error: the run stopped short of its "
			"--count: %s\n", res->tx_stall.reason);
		rc = APP_EXIT_FAILED;
	}
	for (i = 0; i < wr_run_nb_ports(run); i++) {
		p = wr_run_port(run, i);
		if (!p->tx || (res->tx_stall.hit && res->tx_stall.pidx == i) ||
				res->total[i].tx_pkts != 0 ||
				res->total[i].tx_full_pkts == 0)
			continue;
		fprintf(stderr, "wirerate: error: port %u (%s) sent no frame: its PMD "
			"refused all %" PRIu64 " offered (TX refused; link %s)\n",
			p->port_id, p->driver, res->total[i].tx_full_pkts,
			p->link_up ? "up" : "down");
		rc = APP_EXIT_FAILED;
	}
	return rc;
}

static int
finish(struct wr_run *run, json_t *trials, json_t *far, json_t **doc)
{
	int rc = APP_EXIT_OK;

	app_view_summary(stdout, run);
	app_view_far_summary(stdout, far);
	if (app_results_write(run, trials, far, stdout, doc) != 0)
		rc = APP_EXIT_FAILED;
	if (check_sent(run) != APP_EXIT_OK)
		rc = APP_EXIT_FAILED;
	if (wr_run_res(run)->mbufs_missing != 0) {
		fprintf(stderr, "wirerate: error: %" PRIu64 " mbufs were not "
			"returned to their pools\n", wr_run_res(run)->mbufs_missing);
		rc = APP_EXIT_FAILED;
	}
	return rc;
}

/* --linger: the peer closes its end of the link first (docs/testbeds.md). */
static void
linger(struct wr_run *run, const volatile int *stop)
{
	const struct wr_config *cfg = wr_run_cfg(run);

	if (cfg->linger_ms == 0 || wr_run_linger(run, stop))
		return;
	if (*stop == 0)
		fprintf(stderr, "wirerate: note: a link was still up after --linger "
			"%" PRIu64 " ms; closing the ports anyway\n", cfg->linger_ms);
}

/* Print err and give the exit code its class means. */
static int
failed(const struct wr_error *err)
{
	return app_error("wirerate", err);
}

/* Trial of a repeated run starts, left more after it: publish and show. */
static void
repeat_progress(struct app_progress *ap, struct wr_progress *p,
		const struct wr_trial *tr, unsigned int left)
{
	wr_progress_trial(p, "trial", (double)tr->duration_ms / 1e3, left, 0,
		rte_rdtsc());
	wr_telemetry_progress(p);
	app_progress_trial(ap, p);
}

/* --warmup trials, then --repeat counted ones of the configured trial. */
/*
 * A plain run's trial with a far end: told before, judged after
 * (peer.h). Returns 0 or a negative errno with err.
 */
static int
peer_trial(struct app_peer_session *ps, struct wr_run *run,
		const struct wr_trial *tr, bool after, struct wr_error *err)
{
	struct wr_trial_summary s;

	if (ps == NULL)
		return 0;
	if (!after)
		return app_peer_begin(ps, run, tr, app_peer_up_pps(ps, tr->frame_size),
			err);
	wr_mode_summarize(run, &s);
	return app_peer_judge(ps, run, &s, NULL, err);
}

/* The far end's close; its books must close as the run's own. */
static int
peer_close(struct app_peer_session *ps, int code)
{
	const char *peer = ps != NULL ? ps->cfg->peer : "";
	int rc = ps != NULL ? app_peer_close(ps) : 0;
	const char *settle_why = rc == -EPIPE ? app_peer_settle_error(ps) : NULL;

	if (rc == 0)
		return code;
	if (rc == -ENODATA)
		fprintf(stderr, "wirerate: error: --peer %s: the far end received "
			"none of the frames sent (far.trials): check the path and "
			"the addresses between the two ends\n", peer);
	else if (rc == -EPIPE)
		fprintf(stderr, "wirerate: error: --peer %s: the settle pass after "
			"the last trial failed, so its late frames are not counted "
			"(far.settle): %s\n", peer, settle_why != NULL ? settle_why : "?");
	else
		fprintf(stderr, "wirerate: error: --peer %s: a trial's books do "
			"not close (sent != received + lost; far.trials)\n", peer);
	return code == APP_EXIT_OK ? APP_EXIT_FAILED : code;
}

static int
run_single(struct wr_run *run, const struct wr_config *cfg,
		const volatile int *stop, json_t **doc, struct app_peer_session *ps)
{
	struct live l = { stop, !cfg->quiet, isatty(STDOUT_FILENO) && !cfg->plain, { 0 },
		ps };
	unsigned int t, nb = cfg->nb_warmup + cfg->nb_repeat;
	struct wr_progress prog;
	enum wr_stop_reason why = WR_STOP_NONE;
	json_t *trials = nb > 1 ? json_array() : NULL;
	/* The finished trials, in each checkpoint of the next ones. */
	json_t *done = trials != NULL ? json_pack("{s:O}", "trials", trials) : NULL;
	struct wr_trial tr;
	struct wr_error err;
	bool unrecorded = false;
	int rc = 0, books;

	wr_err_clear(&err);
	wr_trial_from_config(cfg, &tr);
	app_progress_init(&l.prog, cfg);
	/* The live view redraws its frame below a plain progress line. */
	l.prog.in_place = false;
	wr_progress_begin(&prog, "repeat", 1, rte_rdtsc(), rte_get_tsc_hz());
	wr_progress_lengths(&prog, (double)tr.duration_ms / 1e3, 0);
	for (t = 0; t < nb && why != WR_STOP_SIGNAL && !wr_run_res(run)->tx_stall.hit;
			t++) {
		if (nb > 1)
			repeat_progress(&l.prog, &prog, &tr, nb - t - 1);
		rc = peer_trial(ps, run, &tr, false, &err);
		if (rc == 0)
			rc = wr_run_trial(run, &tr, &err);
		if (rc == 0)
			rc = wr_run_start(run, &err);
		if (rc != 0)
			break;
		/* --start-on-rx: RX polls now; tell a script it may send. */
		if (cfg->start_on_rx) {
			printf("waiting for the first frame (--start-on-rx)\n");
			fflush(stdout);
		}
		why = wr_run_wait(run, stop, show_interval, &l);
		wr_run_stop(run, why);
		rc = peer_trial(ps, run, &tr, true, &err);
		if (rc != 0)
			break;
		if (trials != NULL && app_trial_done(stdout, run, t, trials,
				ps != NULL ? ps->pending : NULL) != 0) {
			unrecorded = true;
			break;
		}
		if (ps != NULL)
			app_peer_show(stdout, ps);
		if (json_array_size(trials) != 0)
			wr_result_checkpoint_keep(run, done);
	}
	wr_result_checkpoint_keep(run, NULL);
	json_decref(done);
	/* Before the ports close: the file describes them. */
	if (app_capture_write(run, stdout) != 0)
		unrecorded = true;
	linger(run, stop);
	close_run(run);
	books = peer_close(ps, APP_EXIT_OK);
	if (rc != 0) {
		if (ps != NULL && json_object_get(ps->far, "lost") != NULL)
			app_results_write(run, trials, ps->far, stdout, doc);
		rc = failed(&err);
	} else if (unrecorded) {
		/* What could not be recorded was said when it failed. */
		wr_err_fail(&err, -EIO, "cannot record the trial or the capture");
		rc = failed(&err);
	} else {
		rc = finish(run, trials, ps != NULL ? ps->far : NULL, doc);
		if (rc == APP_EXIT_OK)
			rc = books;
	}
	json_decref(trials);
	return rc;
}

static void
show_trial(const struct wr_run *run, const char *what,
		const struct wr_trial_summary *s, void *arg)
{
	struct live *l = arg;

	app_progress_clear(&l->prog);
	app_view_trial(stdout, run, what, s);
}

static void
show_progress(const struct wr_progress *p, void *arg)
{
	struct live *l = arg;

	app_progress_trial(&l->prog, p);
}

static void
show_conn_trial(const struct wr_connrate_trial *t, bool pass, void *arg)
{
	struct live *l = arg;

	app_progress_clear(&l->prog);
	app_view_conn_trial(stdout, t, pass);
}

static void
show_conn_load(const json_t *cell, void *arg)
{
	struct live *l = arg;

	app_progress_clear(&l->prog);
	app_view_connload_cell(stdout, cell);
}

static void
show_conn_tear(const json_t *trial, void *arg)
{
	struct live *l = arg;

	app_progress_clear(&l->prog);
	app_view_conntear_trial(stdout, trial);
}

/* A test mode: many trials, a progress line each, a table at the end. */
static int
run_mode(struct wr_run *run, const struct wr_config *cfg,
		const volatile int *stop, json_t **keep, struct app_peer_session *ps,
		struct app_conn_peer *cp)
{
	struct live l = { stop, false, false, { 0 }, NULL };
	struct wr_mode_hooks h = { stop, show_interval, show_trial, &l,
		show_progress, ps != NULL ? &ps->hooks : NULL, show_conn_trial,
		show_conn_load, show_conn_tear, cp != NULL ?
		app_conn_peer_mode_hooks(cp, !cfg->quiet) : NULL };
	json_t *doc = wr_result_head(run);
	struct wr_error fail;
	int rc, code = APP_EXIT_OK;

	if (doc == NULL) {
		wr_err_env(&fail, -ENOMEM, "no memory for the result");
		return failed(&fail);
	}
	app_progress_init(&l.prog, cfg);
	if (ps != NULL)
		json_object_set(doc, "far", ps->far);
	rc = wr_mode_run(run, &h, doc, &fail);
	if (ps != NULL)
		app_peer_mark(doc, ps->far);
	app_progress_clear(&l.prog);
	if (rc != 0 && rc != -EINTR)
		code = failed(&fail);
	/* Before the ports close: the file describes them. */
	if (app_capture_write(run, stdout) != 0 && code == APP_EXIT_OK)
		code = APP_EXIT_FAILED;
	linger(run, stop);
	close_run(run);
	code = peer_close(ps, code);
	if (cp != NULL)
		code = app_conn_peer_mode_end(cp, doc, code);
	wr_result_mode_end(doc, run, rc);
	app_view_mode(stdout, doc);
	if (cfg->json_path[0] != '\0' &&
			app_write_json(doc, cfg->json_path, &fail) != 0)
		code = failed(&fail);
	/* A service activation that failed a step is a failed test, also
	 * when a signal cut it short after the step. */
	if (code == APP_EXIT_OK && (rc == 0 || rc == -EINTR) && json_is_false(
			json_object_get(json_object_get(doc, "y1564"), "pass")))
		code = APP_EXIT_FAILED;
	if (wr_run_res(run)->mbufs_missing != 0 && code == APP_EXIT_OK) {
		wr_err_fail(&fail, -EIO, "mbufs were not returned to their pools");
		code = failed(&fail);
	}
	if (keep != NULL)
		*keep = doc;
	else
		json_decref(doc);
	return code;
}

int
app_run_all(const struct wr_config *cfg, const char *cmdline,
		const volatile int *stop, json_t **doc,
		struct app_run_watch *w)
{
	static struct app_peer_session peer;
	struct app_peer_session *ps = NULL;
	struct app_conn_peer cpeer, *cp = NULL;
	struct wr_error err;
	struct wr_run *run;
	int rc;

	wr_err_clear(&err);
	run_watch = w;
	peer.far = NULL;
	if (cfg->peer[0] != '\0' && cfg->conn.cfg.role != 0) {
		/* The far end's server runs before our first SYN. */
		rc = app_conn_peer_open(&cpeer, cfg);
		if (rc != 0)
			return rc;
		cp = &cpeer;
	} else if (cfg->peer[0] != '\0') {
		/* Before any port comes up: the far end must answer first. */
		rc = app_peer_open(&peer, cfg);
		if (rc != 0)
			return rc;
		ps = &peer;
	}
	watch_ports(w, true);
	rc = wr_run_create(cfg, cmdline, w != NULL ? w->keep : NULL, &run, &err);
	watch_ports(w, false);
	if (rc != 0) {
		if (ps != NULL)
			app_peer_close(ps);
		if (cp != NULL)
			json_decref(app_conn_peer_close(cp, NULL, &(bool){ false }));
		json_decref(peer.far);
		return failed(&err);
	}
	if (!cfg->quiet)
		app_view_plan(stdout, run);
	watch_live(w, run);
	if (cfg->conn.cfg.role != 0 && !wr_opts_connmode_is(cfg->mode))
		rc = app_conn_run(run, cfg, stop, doc, cp);
	else
		rc = cfg->mode == WR_MODE_RUN ? run_single(run, cfg, stop, doc, ps) :
			run_mode(run, cfg, stop, doc, ps, cp);
	json_decref(peer.far);
	watch_live(w, NULL);
	watch_ports(w, true);
	wr_run_destroy(run);
	watch_ports(w, false);
	return rc;
}
