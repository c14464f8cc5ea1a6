/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A connection run (connrun.h): start the engines, a row per interval
 * (attempted, completed, failed, open, CPS, requests/s, goodput), the
 * drain (no new connection; the open ones get up to the drain's grace,
 * then count as open), the books on screen and in the result.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include <rte_cycles.h>

#include "common/exitcode.h"
#include "results/conn_doc.h"
#include "results/result.h"
#include "setup/svc.h"
#include "trial/connrun.h"
#include "trial/trial.h"
#include "conncap.h"
#include "connrun.h"
#include "results.h"

/* How long the drain waits for open connections, at least (ms). */
#define CONN_DRAIN_MIN_MS 2000u

/* The run's rows and what ends it; the stats core's. */
struct conn_live {
	const volatile int *stop;   /* a signal */
	int end;                    /* non-zero: wr_run_wait returns */
	bool show;
	bool by_count;              /* ended: the count was done */
	bool server;
	struct wr_conn_interval *iv;
	uint32_t nb_iv;
	uint32_t cap_iv;
	struct wr_conn_interval prev;
	struct wr_conncap *cap;     /* --mode conn-capacity, else NULL */
	struct wr_run *run;         /* the run, to drain it (cap) */
};

static uint64_t
failed_sum(const struct wr_conn_books *b)
{
	return b->nb_failed_syn_timeout + b->nb_failed_refused +
		b->nb_failed_reset + b->nb_failed_rtx_timeout +
		b->nb_failed_resp_timeout + b->nb_failed_http;
}

/* A row from the books at t_s; a server's attempted are its accepted,
 * its completed those closed, its answers the requests it served. */
static void
row_of(const struct wr_conn_books *b, bool server, double t_s,
		struct wr_conn_interval *r)
{
	r->t_s = t_s;
	r->nb_attempted = server ? b->nb_accepted : b->nb_attempted;
	r->nb_completed = server ? b->nb_closed : b->nb_completed;
	r->nb_failed = failed_sum(b);
	r->nb_open = b->nb_open;
	r->nb_resps = server ? b->nb_reqs_served : b->nb_resps;
	r->nb_l7_rx_bytes = b->nb_l7_rx_bytes;
	r->nb_l7_tx_bytes = b->nb_l7_tx_bytes;
	r->nb_rtx = b->nb_rtx_rto + b->nb_rtx_fast;
}

static void
row_show(const struct wr_conn_interval *r, const struct wr_conn_interval *p)
{
	double dt = r->t_s - p->t_s;

	if (dt <= 0.0)
		return;
	printf("%7.1f s  attempted %10" PRIu64 "  completed %10" PRIu64
		"  failed %8" PRIu64 "  open %8" PRIu64 "  CPS %10.0f  req/s %10.0f"
		"  goodput %8.3f Mb/s\n", r->t_s, r->nb_attempted, r->nb_completed,
		r->nb_failed, r->nb_open,
		(double)(r->nb_attempted - p->nb_attempted) / dt,
		(double)(r->nb_resps - p->nb_resps) / dt,
		(double)(r->nb_l7_rx_bytes - p->nb_l7_rx_bytes +
		r->nb_l7_tx_bytes - p->nb_l7_tx_bytes) * 8e-6 / dt);
	fflush(stdout);
}

/* Keep row r; false when no memory (the row is then only shown). */
static bool
row_keep(struct conn_live *l, const struct wr_conn_interval *r)
{
	struct wr_conn_interval *n;

	if (l->nb_iv == l->cap_iv) {
		n = realloc(l->iv, (l->cap_iv * 2 + 16) * sizeof(*n));
		if (n == NULL)
			return false;
		l->iv = n;
		l->cap_iv = l->cap_iv * 2 + 16;
	}
	l->iv[l->nb_iv++] = *r;
	return true;
}

/* wr_run_wait's interval: a row, and the end when the count is done. */
static void
conn_interval(const struct wr_run *run, const struct wr_interval *iv, void *arg)
{
	struct conn_live *l = arg;
	struct wr_conn_books *b = malloc(sizeof(*b));
	struct wr_conn_interval r;

	if (b == NULL)
		return;
	if (wr_run_conn_books(run, b)) {
		row_of(b, l->server, iv->t_s, &r);
		row_keep(l, &r);
		if (l->show)
			row_show(&r, &l->prev);
		l->prev = r;
		if (l->cap != NULL && app_conncap_interval(l->run,
				l->cap, b, iv->t_s, *l->stop != 0, l->show))
			l->end = 1;
	}
	free(b);
	if (*l->stop != 0)
		l->end = 1;
	if (l->cap == NULL && wr_run_conn_done(run)) {
		l->by_count = true;
		l->end = 1;
	}
}

/*
 * The drain: no new connection; wait for the open ones up to the
 * larger of --grace and CONN_DRAIN_MIN_MS plus the response timeout,
 * answering ARP and NS meanwhile. Returns whether all ended.
 */
static bool
conn_drain(struct wr_run *run, const struct wr_config *cfg, bool release)
{
	const uint64_t hz = rte_get_tsc_hz();
	uint64_t ms = RTE_MAX(cfg->grace_ms, (uint64_t)CONN_DRAIN_MIN_MS) +
		cfg->conn.cfg.resp_timeout_us / 1000;
	const uint64_t end = rte_rdtsc() + ms * (hz / 1000);

	if (release)
		wr_run_conn_release(run);
	else
		wr_run_conn_drain(run);
	while (rte_rdtsc() < end) {
		wr_svc_poll(run, false);
		if (wr_run_conn_idle(run))
			return true;
		rte_delay_us_sleep(1000);
	}
	return false;
}

/* The books on screen: the run's totals and how they close. */
static void
conn_summary(const struct wr_run *run, const struct wr_conn_books *b,
		bool server, double dur_s, bool drained)
{
	uint64_t other, refused, alloc;

	if (server)
		printf("connections: accepted %" PRIu64 ", closed %" PRIu64
			", open %" PRIu64 ", requests served %" PRIu64 "\n",
			b->nb_accepted, b->nb_closed, b->nb_open, b->nb_reqs_served);
	else
		printf("connections: attempted %" PRIu64 ", completed %" PRIu64
			", failed %" PRIu64 " (SYN timeout %" PRIu64 ", refused %"
			PRIu64 ", reset %" PRIu64 ", retransmission timeout %" PRIu64
			", response timeout %" PRIu64 ", HTTP %" PRIu64 "), open %"
			PRIu64 "; not started %" PRIu64 "\n", b->nb_attempted,
			b->nb_completed, failed_sum(b), b->nb_failed_syn_timeout,
			b->nb_failed_refused, b->nb_failed_reset,
			b->nb_failed_rtx_timeout, b->nb_failed_resp_timeout,
			b->nb_failed_http, b->nb_open, b->nb_unstarted_pool +
			b->nb_unstarted_tuples + b->nb_unstarted_tx +
			b->nb_unstarted_late);
	printf("requests: sent %" PRIu64 ", answered %" PRIu64 ", failed %"
		PRIu64 "; %.0f connections/s, %.0f requests/s over %.3f s%s\n",
		b->nb_reqs_sent, b->nb_resps, b->nb_reqs_failed,
		dur_s > 0 ? (double)(server ? b->nb_accepted : b->nb_attempted) / dur_s : 0.0,
		dur_s > 0 ? (double)(server ? b->nb_reqs_served : b->nb_resps) / dur_s : 0.0,
		dur_s, drained ? "" : " (not drained: some still open)");
	wr_run_conn_port_counts(run, &other, &refused, &alloc);
	printf("frames: %" PRIu64 " refused by the port (freed; TCP resends), %"
		PRIu64 " pool refusals, %" PRIu64 " received not TCP of ours\n",
		refused, alloc, other);
}

/* The result: the run's document with its "connections" object. */
static int
conn_result(struct wr_run *run, const struct wr_config *cfg,
		const struct conn_live *l, const struct wr_conn_books *b,
		double dur_s, bool drained, json_t *far, json_t **keep)
{
	struct wr_conn_result r = { &cfg->conn.cfg, b, l->iv, l->nb_iv,
		wr_run_plan(run)->nb_workers, dur_s, drained, "tsc" };
	struct wr_error err;
	json_t *doc;
	int rc = 0;

	wr_err_clear(&err);
	if (cfg->json_path[0] == '\0' && keep == NULL)
		return l->cap != NULL ? app_conncap_report(l->cap, b, cfg, NULL,
			&err) : 0;
	doc = wr_result_build_trials(run, NULL, &err);
	if (doc == NULL || wr_results_conn_put(doc, &r, &err) != 0 ||
			(far != NULL && json_object_set(json_object_get(doc,
			"connections"), "far", far) != 0) ||
			(l->cap != NULL && app_conncap_report(l->cap, b, cfg, doc,
			&err) != 0) ||
			(cfg->json_path[0] != '\0' &&
			app_write_json(doc, cfg->json_path, &err) != 0)) {
		app_error("wirerate", &err);
		rc = -1;
	}
	if (keep != NULL && rc == 0)
		*keep = doc;
	else
		json_decref(doc);
	return rc;
}

/* The far end's books on screen, as the client's summary shows ours. */
static void
far_summary(const json_t *far, bool ok)
{
	const json_t *b = json_object_get(json_object_get(far, "connections"), "books");

	if (!json_is_object(b))
		return;
	printf("far end (%s): accepted %" JSON_INTEGER_FORMAT ", closed %"
		JSON_INTEGER_FORMAT ", failed %" JSON_INTEGER_FORMAT ", open %"
		JSON_INTEGER_FORMAT "; requests served %" JSON_INTEGER_FORMAT
		"; bytes delivered %" JSON_INTEGER_FORMAT ", sent %"
		JSON_INTEGER_FORMAT "; %s\n",
		json_string_value(json_object_get(far, "peer")),
		json_integer_value(json_object_get(b, "accepted")),
		json_integer_value(json_object_get(b, "closed")),
		json_integer_value(json_object_get(b, "failed_total")),
		json_integer_value(json_object_get(b, "open")),
		json_integer_value(json_object_get(b, "reqs_served")),
		json_integer_value(json_object_get(b, "l7_rx_bytes")),
		json_integer_value(json_object_get(b, "l7_tx_bytes")),
		!json_is_true(json_object_get(far, "judged")) ? "not judged (failures "
		"or open connections here)" : ok ? "both ends' books agree" :
		"the books DISAGREE");
}

int
app_conn_run(struct wr_run *run, const struct wr_config *cfg,
		const volatile int *stop, json_t **doc, struct app_conn_peer *cp)
{
	struct conn_live l = { .stop = stop, .show = !cfg->quiet,
		.server = cfg->conn.cfg.role == WR_CONN_SERVER };
	struct wr_conn_books *b = calloc(1, sizeof(*b));
	struct wr_conncap cap;
	struct wr_trial tr;
	struct wr_error err;
	enum wr_stop_reason why;
	json_t *far = NULL;
	bool far_ok = true;
	uint64_t t0;
	double dur_s;
	bool drained;
	int rc;

	wr_err_clear(&err);
	if (b == NULL) {
		wr_err_env(&err, -ENOMEM, "no memory for the books");
		return app_error("wirerate", &err);
	}
	wr_trial_from_config(cfg, &tr);
	rc = wr_run_trial(run, &tr, &err);
	if (rc == 0)
		rc = wr_run_start(run, &err);
	if (rc != 0) {
		free(b);
		return app_error("wirerate", &err);
	}
	if (cfg->mode == WR_MODE_CONN_CAPACITY) {
		app_conncap_init(&cap, cfg);
		l.cap = &cap;
		l.run = run;
	}
	t0 = rte_rdtsc();
	why = wr_run_wait(run, &l.end, conn_interval, &l);
	drained = l.cap != NULL && app_conncap_finish(run, l.cap, cfg, t0,
		l.show);
	drained = drained || conn_drain(run, cfg, l.cap != NULL);
	dur_s = (double)(rte_rdtsc() - t0) / (double)rte_get_tsc_hz();
	wr_run_stop(run, l.by_count ? WR_STOP_COUNT : *stop != 0 ?
		WR_STOP_SIGNAL : why);
	wr_run_conn_books(run, b);
	wr_run_close(run);
	conn_summary(run, b, l.server, dur_s, drained);
	if (cp != NULL) {
		far = app_conn_peer_close(cp, b, &far_ok);
		if (!cfg->quiet)
			far_summary(far, far_ok);
	}
	rc = conn_result(run, cfg, &l, b, dur_s, drained, far, doc) != 0 ||
		!far_ok ? APP_EXIT_FAILED : APP_EXIT_OK;
	json_decref(far);
	if (wr_run_res(run)->mbufs_missing != 0) {
		fprintf(stderr, "wirerate: error: %" PRIu64 " mbufs were not "
			"returned to their pools\n", wr_run_res(run)->mbufs_missing);
		rc = APP_EXIT_FAILED;
	}
	free(l.iv);
	free(b);
	return rc;
}
