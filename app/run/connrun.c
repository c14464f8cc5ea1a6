/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A connection run (connrun.h): start the engines, a row per interval
 * and role (the live view, view/live_conn.h: CPS, open, completed,
 * failed, requests/s, goodput, retransmits), the
 * drain (no new connection; the open ones get up to the drain's grace,
 * then count as open), the books on screen and in the result.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <rte_cycles.h>

#include "common/exitcode.h"
#include "results/conn_doc.h"
#include "results/result.h"
#include "setup/svc.h"
#include "trial/connrun.h"
#include "trial/trial.h"
#include "view/live_conn.h"
#include "conncap.h"
#include "connrun.h"
#include "results.h"

/* How long the drain waits for open connections, at least (ms). */
#define CONN_DRAIN_MIN_MS 2000u

/* One role's rows: a run of both roles has a client side and a server's. */
struct conn_side {
	uint8_t role;               /* enum wr_conn_role */
	struct wr_conn_cfg cfg;     /* a port's of this role, for the result */
	struct wr_conn_books *books;
	struct wr_conn_interval *iv;
	uint32_t nb_iv;
	uint32_t cap_iv;
	struct wr_conn_interval prev;
};

/* The run's rows and what ends it; the stats core's. */
struct conn_live {
	const volatile int *stop;   /* a signal */
	int end;                    /* non-zero: wr_run_wait returns */
	bool show;
	bool in_place;              /* rows in place: a terminal */
	bool by_count;              /* ended: the count was done */
	unsigned int nb_sides;      /* 2: client and server ports */
	struct conn_side side[2];
	struct wr_conncap *cap;     /* --mode conn-capacity, else NULL */
	struct wr_run *run;         /* the run, to drain it (cap) */
	json_t *ckpt;               /* cap: merged into each checkpoint */
	json_t *far_held;           /* cap with --peer: the far end's books
	                             * as the settle ended (capacity.far) */
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
	r->nb_rtx = wr_conn_books_rtx(b);
}

/* Keep row r; false when no memory (the row is then only shown). */
static bool
row_keep(struct conn_side *l, const struct wr_conn_interval *r)
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

/* The role of side d's rows. */
static const char *
side_role(const struct conn_side *d)
{
	return d->role == WR_CONN_SERVER ? "server" : "client";
}

/* The label of side d's summary: empty for a run of one role. */
static const char *
side_label(const struct conn_live *l, const struct conn_side *d)
{
	if (l->nb_sides < 2)
		return "";
	return d->role == WR_CONN_SERVER ? "server " : "client ";
}

/* wr_run_wait's interval: a row a side, and the end when the count is done. */
static void
conn_interval(const struct wr_run *run, const struct wr_interval *iv, void *arg)
{
	struct conn_live *l = arg;
	struct wr_conn_books *b = malloc(sizeof(*b));
	struct wr_conn_interval r[2];
	struct app_view_conn_side vs[2] = { { 0 }, { 0 } };
	struct conn_side *d;
	unsigned int k, n = 0, of[2] = { 0, 0 };

	if (b == NULL)
		return;
	for (k = 0; k < l->nb_sides; k++) {
		d = &l->side[k];
		if (!wr_run_conn_books(run, l->nb_sides > 1 ? d->role : 0, b))
			continue;
		row_of(b, d->role == WR_CONN_SERVER, iv->t_s, &r[n]);
		row_keep(d, &r[n]);
		vs[n] = (struct app_view_conn_side){ side_role(d), &r[n], &d->prev };
		of[n++] = k;
		if (l->cap != NULL && app_conncap_interval(l->run,
				l->cap, b, iv->t_s, *l->stop != 0, l->show))
			l->end = 1;
		if (l->cap != NULL)
			app_conncap_checkpoint(l->run, l->cap, b, &l->ckpt);
	}
	free(b);
	if (l->show)
		app_view_conn_interval(stdout, vs, n, l->in_place);
	for (k = 0; k < n; k++)
		l->side[of[k]].prev = r[k];
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

/* The frames of the connection ports that were not connections'. */
static void
frames_summary(const struct wr_run *run)
{
	uint64_t other, refused, alloc;

	wr_run_conn_port_counts(run, &other, &refused, &alloc);
	printf("frames: %" PRIu64 " refused by the port (freed; TCP resends), %"
		PRIu64 " pool refusals,\n  %" PRIu64 " received not TCP of ours\n",
		refused, alloc, other);
}

/* Side d's object in doc: "connections", or "connections_server" for
 * the server side of a run of both roles (docs/results.md). */
static int
side_put(json_t *doc, const struct wr_run *run, const struct conn_live *l,
		const struct conn_side *d, double dur_s, bool drained,
		struct wr_error *err)
{
	struct wr_conn_result r = { &d->cfg, d->books, d->iv, d->nb_iv,
		wr_run_plan(run)->nb_workers, dur_s, drained, "tsc", NULL, 0 };
	struct wr_conn_queue *qs = calloc(RTE_MAX(r.nb_lcores, 1u), sizeof(*qs));
	struct wr_conn_queue *n;
	unsigned int i, lcore;
	int rc;

	if (qs == NULL)
		return wr_err_env(err, -ENOMEM, "no memory for the queues' books");
	/* Each worker of this side: its queue pair and its books. */
	for (i = 0; i < r.nb_lcores; i++) {
		n = &qs[r.nb_queues];
		n->books = wr_run_connq_books(run, i);
		if (n->books != NULL && wr_run_connq_pair(run, i, d->role,
				&n->port, &n->queue, &lcore)) {
			n->lcore = lcore;
			r.nb_queues++;
		}
	}
	r.queues = qs;
	rc = wr_results_conn_put_as(doc, l->nb_sides > 1 &&
		d->role == WR_CONN_SERVER ? "connections_server" : "connections",
		&r, err);
	free(qs);
	return rc;
}

/* The result: the run's document with its "connections" object(s). */
static int
conn_result(struct wr_run *run, const struct wr_config *cfg,
		const struct conn_live *l, double dur_s, bool drained,
		json_t *far, json_t **keep)
{
	struct wr_error err;
	json_t *doc;
	unsigned int k;
	int rc = 0;

	wr_err_clear(&err);
	if (cfg->json_path[0] == '\0' && keep == NULL)
		return l->cap != NULL ? app_conncap_report(l->cap,
			l->side[0].books, cfg, NULL, &err) : 0;
	doc = wr_result_build_trials(run, NULL, &err);
	if (doc == NULL)
		rc = -1;
	for (k = 0; rc == 0 && k < l->nb_sides; k++)
		rc = side_put(doc, run, l, &l->side[k], dur_s, drained, &err);
	if (rc == 0 && far != NULL)
		rc = json_object_set(json_object_get(doc, "connections"), "far", far);
	if (rc == 0 && l->cap != NULL)
		rc = app_conncap_report(l->cap, l->side[0].books, cfg, doc, &err);
	if (rc == 0 && l->far_held != NULL)
		rc = json_object_set(json_object_get(doc, "capacity"), "far",
			l->far_held);
	if (rc == 0 && cfg->json_path[0] != '\0')
		rc = app_write_json(doc, cfg->json_path, &err);
	if (rc != 0) {
		app_error("wirerate", &err);
		rc = -1;
	}
	if (keep != NULL && rc == 0)
		*keep = doc;
	else
		json_decref(doc);
	return rc;
}

/* The sides of cfg's run: one role, or client and server ports. */
static int
sides_init(struct conn_live *l, const struct wr_config *cfg,
		struct wr_error *err)
{
	const struct wr_conn_opts *co = &cfg->conn;
	unsigned int k;

	l->nb_sides = wr_opts_conn_both(co) ? 2 : 1;
	l->side[0].role = co->cfg.role;
	l->side[0].cfg = co->cfg;
	if (l->nb_sides == 2) {
		l->side[1].role = WR_CONN_SERVER;
		if (wr_opts_conn_port_cfg(cfg, (unsigned int)__builtin_ctzll(
				co->server_ports), &l->side[1].cfg, err) != 0)
			return -EINVAL;
	}
	for (k = 0; k < l->nb_sides; k++) {
		l->side[k].books = calloc(1, sizeof(struct wr_conn_books));
		if (l->side[k].books == NULL)
			return wr_err_env(err, -ENOMEM, "no memory for the books");
	}
	return 0;
}

static void
sides_free(struct conn_live *l)
{
	unsigned int k;

	for (k = 0; k < 2; k++) {
		free(l->side[k].iv);
		free(l->side[k].books);
	}
}

/* Each worker's share of side d, when the side has more than one. */
static void
queues_summary(const struct wr_run *run, const struct conn_side *d)
{
	const struct wr_conn_books *b;
	unsigned int i, n = 0, lcore;
	uint16_t port, queue;
	bool server = d->role == WR_CONN_SERVER;

	for (i = 0; i < wr_run_plan(run)->nb_workers; i++)
		n += wr_run_connq_pair(run, i, d->role, &port, &queue, &lcore);
	for (i = 0; n > 1 && i < wr_run_plan(run)->nb_workers; i++) {
		b = wr_run_connq_books(run, i);
		if (b == NULL || !wr_run_connq_pair(run, i, d->role, &port,
				&queue, &lcore))
			continue;
		printf("  queue %u.%u (lcore %u): %s %" PRIu64 ", %s %" PRIu64
			", failed %" PRIu64 ", open %" PRIu64 "; %s %" PRIu64 "\n",
			port, queue, lcore, server ? "accepted" : "attempted",
			server ? b->nb_accepted : b->nb_attempted,
			server ? "closed" : "completed",
			server ? b->nb_closed : b->nb_completed, failed_sum(b),
			b->nb_open, server ? "requests served" : "answers",
			server ? b->nb_reqs_served : b->nb_resps);
	}
}

/* After the run: each side's row over the whole run and its books on
 * screen (each worker's share too), then the frames. */
static void
sides_summary(const struct wr_run *run, struct conn_live *l, double dur_s,
		bool drained)
{
	struct wr_conn_interval r[2];
	struct app_view_conn_side vs[2];
	struct conn_side *d;
	unsigned int k;

	for (k = 0; k < l->nb_sides; k++) {
		d = &l->side[k];
		wr_run_conn_books(run, l->nb_sides > 1 ? d->role : 0, d->books);
		row_of(d->books, d->role == WR_CONN_SERVER, dur_s, &r[k]);
		vs[k] = (struct app_view_conn_side){ side_role(d), &r[k], &r[k] };
	}
	app_view_conn_total(stdout, vs, l->nb_sides, dur_s);
	for (k = 0; k < l->nb_sides; k++) {
		app_view_conn_books(stdout, l->side[k].books,
			l->side[k].role == WR_CONN_SERVER,
			side_label(l, &l->side[k]), dur_s, drained);
		queues_summary(run, &l->side[k]);
	}
	frames_summary(run);
}

/* The far end's books on screen, as the client's summary shows ours. */
/* Whether the far end held the capacity found here (capacity.far.ok);
 * an error on stderr when not, or when it could not be read. */
static bool
held_ok(const json_t *fh, const struct wr_config *cfg)
{
	if (fh == NULL)
		return false;       /* app_conn_peer_held said why */
	if (json_is_true(json_object_get(fh, "ok")))
		return true;
	fprintf(stderr, "wirerate: error: --peer %s: the far end's books as "
		"the settle ended disagree with the capacity held here "
		"(capacity.far)\n", cfg->peer);
	return false;
}

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
		.in_place = isatty(STDOUT_FILENO) && !cfg->plain };
	struct wr_conncap cap;
	json_t *far = NULL, *far_held = NULL;
	bool far_ok = true;
	struct wr_trial tr;
	struct wr_error err;
	enum wr_stop_reason why;
	uint64_t t0;
	double dur_s;
	bool drained;
	int rc;

	wr_err_clear(&err);
	rc = sides_init(&l, cfg, &err);
	if (rc == 0) {
		wr_trial_from_config(cfg, &tr);
		/* A capacity run holds its connections past the count. */
		tr.conn_count_ends = cfg->mode != WR_MODE_CONN_CAPACITY;
		rc = wr_run_trial(run, &tr, &err);
	}
	if (rc == 0)
		rc = wr_run_start(run, &err);
	if (rc != 0) {
		sides_free(&l);
		return app_error("wirerate", &err);
	}
	if (cfg->mode == WR_MODE_CONN_CAPACITY) {
		app_conncap_init(&cap, cfg);
		l.cap = &cap;
		l.run = run;
		l.in_place = false;    /* its own lines between the rows */
	}
	t0 = rte_rdtsc();
	why = wr_run_wait(run, &l.end, conn_interval, &l);
	wr_result_checkpoint_keep(run, NULL);
	json_decref(l.ckpt);
	drained = l.cap != NULL && app_conncap_finish(run, l.cap, cfg, t0,
		l.show, cp, &far_held);
	drained = drained || conn_drain(run, cfg, l.cap != NULL);
	dur_s = (double)(rte_rdtsc() - t0) / (double)rte_get_tsc_hz();
	wr_run_stop(run, l.by_count ? WR_STOP_COUNT : *stop != 0 ?
		WR_STOP_SIGNAL : why);
	sides_summary(run, &l, dur_s, drained);
	/* --linger: workers stopped, the ports stay open until the peer has
	 * closed its end (docs/testbeds.md: memif can crash the side still
	 * polling when its peer leaves). */
	fflush(stdout);
	if (cfg->linger_ms != 0 && !wr_run_linger(run, stop) && *stop == 0)
		fprintf(stderr, "wirerate: note: a link was still up after "
			"--linger %" PRIu64 " ms; closing the ports anyway\n",
			cfg->linger_ms);
	wr_run_close(run);
	if (cp != NULL) {
		far = app_conn_peer_close(cp, l.side[0].books, &far_ok);
		if (!cfg->quiet)
			far_summary(far, far_ok);
	}
	/* The far end holding the capacity, read before the check. */
	if (l.cap != NULL && cp != NULL && l.cap->phase >= WR_CONNCAP_CHECK)
		far_ok = far_ok && held_ok(far_held, cfg);
	l.far_held = far_held;
	rc = conn_result(run, cfg, &l, dur_s, drained, far, doc) != 0 ||
		!far_ok ? APP_EXIT_FAILED : APP_EXIT_OK;
	json_decref(far);
	json_decref(far_held);
	if (wr_run_res(run)->mbufs_missing != 0) {
		fprintf(stderr, "wirerate: error: %" PRIu64 " mbufs were not "
			"returned to their pools\n", wr_run_res(run)->mbufs_missing);
		rc = APP_EXIT_FAILED;
	}
	sides_free(&l);
	return rc;
}
