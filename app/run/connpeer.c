/* SPDX-License-Identifier: BSD-3-Clause */
/* A connection client's far end (connpeer.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/jsonw.h"
#include "base/rpc.h"
#include "common/exitcode.h"
#include "config/optab.h"
#include "config/opts_connmode.h"
#include "connpeer.h"

/* How often the far end's state is asked for while waiting (ms). */
#define POLL_MS 50u

static uint64_t
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* The far end's server: this client's application, port and concurrency. */
static json_t *
start_params(const struct wr_config *cfg)
{
	const struct wr_conn_cfg *c = &cfg->conn.cfg;
	char port[8], conc[16];

	json_t *o;

	snprintf(port, sizeof(port), "%u", c->server_port);
	snprintf(conc, sizeof(conc), "%" PRIu32, c->max_open);
	o = json_pack("{s:s, s:s, s:s, s:s, s:s}", "conn", "server",
		"conn-app", wr_optab_word(WR_OPT_CONN_APP, c->app - 1),
		"conn-listen", port, "conn-concurrency", conc, "duration", "0");
	/* A mode reads the far end's books after each trial (capacity as
	 * its settle ends): published each interval, the shortest keeps
	 * that wait short. */
	if (o != NULL && (wr_opts_connmode_is(cfg->mode) ||
			cfg->mode == WR_MODE_CONN_CAPACITY))
		json_object_set_new(o, "interval", json_string("100ms"));
	return o;
}

/* The far end's status (a new reference), or NULL with err. */
static json_t *
far_status(struct app_conn_peer *cp, struct wr_error *err)
{
	json_t *st = NULL;

	return app_peer_request(&cp->conn, "status", NULL, &st, NULL, err) == 0 ?
		st : NULL;
}

/* Whether st says the far end's connection server has traffic now. */
static bool
far_running(const json_t *st)
{
	const json_t *live = json_object_get(st, "live");
	const char *s = json_string_value(json_object_get(st, "state"));
	const char *ls = json_string_value(json_object_get(live, "state"));

	return s != NULL && strcmp(s, "running") == 0 && ls != NULL &&
		strcmp(ls, "running") == 0 &&
		json_is_object(json_object_get(live, "conn"));
}

/* Whether st says the far end's run has ended (done or failed). */
static bool
far_ended(const json_t *st)
{
	const char *s = json_string_value(json_object_get(st, "state"));

	return s != NULL && (strcmp(s, "done") == 0 || strcmp(s, "failed") == 0);
}

/* Wait until the far end runs (want_end false) or ended (true). */
static int
far_wait(struct app_conn_peer *cp, bool want_end, struct wr_error *err)
{
	uint64_t end = now_ms() + cp->cfg->peer_timeout_ms;
	json_t *st;
	bool there;

	for (;;) {
		st = far_status(cp, err);
		if (st == NULL)
			return -EPIPE;
		there = want_end ? far_ended(st) : far_running(st);
		if (!want_end && far_ended(st)) {
			json_decref(st);
			return wr_err_fail(err, -EIO, "--peer %s: the far end's "
				"server run ended before it ran (its stderr says why)",
				cp->cfg->peer);
		}
		json_decref(st);
		if (there)
			return 0;
		if (now_ms() >= end)
			return wr_err_fail(err, -ETIMEDOUT, "--peer %s: the far end's "
				"server was not %s after --peer-timeout (%" PRIu64 " ms)",
				cp->cfg->peer, want_end ? "done" : "running",
				cp->cfg->peer_timeout_ms);
		usleep(POLL_MS * 1000u);
	}
}

int
app_conn_peer_open(struct app_conn_peer *cp, const struct wr_config *cfg)
{
	struct wr_error err;
	json_t *res = NULL;
	int code = 0, rc;

	memset(cp, 0, sizeof(*cp));
	cp->cfg = cfg;
	wr_err_clear(&err);
	rc = app_peer_connect(&cp->conn, cfg->peer, cfg->peer_token_path,
		cfg->peer_timeout_ms, &err);
	if (rc == 0) {
		cp->start = start_params(cfg);
		rc = app_peer_request(&cp->conn, "start", json_incref(cp->start),
			&res, &code, &err);
		json_decref(res);
	}
	if (rc != 0 && code == WR_RPC_BAD_PARAMS) {
		char why[sizeof(err.msg)];

		snprintf(why, sizeof(why), "%s", err.msg);
		wr_err_usage(&err, -EINVAL, "--peer %s: the far end refused the "
			"server's options: %s", cfg->peer, why);
	}
	if (rc == 0)
		rc = far_wait(cp, false, &err);
	if (rc != 0) {
		json_decref(cp->start);
		cp->start = NULL;
		app_peer_disconnect(&cp->conn);
		return app_error("wirerate", &err);
	}
	return 0;
}

int64_t
app_conn_peer_count(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_integer(v) ? (int64_t)json_integer_value(v) : -1;
}

/* One equation of the two ends' books into checks; whether it holds. */
static bool
check(json_t *checks, const char *name, const char *eq, int64_t left,
		uint64_t right)
{
	bool ok = left >= 0 && (uint64_t)left == right;

	json_array_append_new(checks, json_pack("{s:s, s:s, s:I, s:I, s:b}",
		"name", name, "equation", eq, "left", (json_int_t)left,
		"right", (json_int_t)right, "ok", ok));
	if (!ok)
		fprintf(stderr, "wirerate: error: --peer: the two ends' books "
			"disagree: %s (%" PRId64 " against %" PRIu64 ")\n", eq, left,
			right);
	return ok;
}

/*
 * Each connection the client completed was accepted and closed there,
 * each byte one end sent the other delivered, each answer the client
 * counted served there.
 */
bool
app_conn_peer_judge(json_t *far, const json_t *fb, const struct wr_conn_books *b)
{
	json_t *checks = json_array();
	uint64_t failed = b->nb_failed_syn_timeout + b->nb_failed_refused +
		b->nb_failed_reset + b->nb_failed_rtx_timeout +
		b->nb_failed_resp_timeout + b->nb_failed_http;
	bool ok = true;

	json_object_set_new(far, "checks", checks);
	if (failed != 0 || b->nb_open != 0) {
		json_object_set_new(far, "judged", json_false());
		return true;
	}
	json_object_set_new(far, "judged", json_true());
	ok &= check(checks, "accepted", "far accepted = completed here",
		app_conn_peer_count(fb, "accepted"), b->nb_completed);
	ok &= check(checks, "closed", "far closed = completed here",
		app_conn_peer_count(fb, "closed"), b->nb_completed);
	ok &= check(checks, "far_failed", "far failed = 0",
		app_conn_peer_count(fb, "failed_total"), 0);
	ok &= check(checks, "served", "far requests served = answers here",
		app_conn_peer_count(fb, "reqs_served"), b->nb_resps);
	ok &= check(checks, "bytes_up", "far bytes delivered = bytes sent here",
		app_conn_peer_count(fb, "l7_rx_bytes"), b->nb_l7_tx_bytes);
	ok &= check(checks, "bytes_down", "far bytes sent = bytes delivered here",
		app_conn_peer_count(fb, "l7_tx_bytes"), b->nb_l7_rx_bytes);
	return ok;
}

/* Stop the far end's run and fetch its result (a new reference), or NULL. */
static json_t *
far_result(struct app_conn_peer *cp, struct wr_error *err)
{
	json_t *res = NULL;

	if (app_peer_request(&cp->conn, "stop", NULL, &res, NULL, err) != 0)
		return NULL;
	json_decref(res);
	res = NULL;
	if (far_wait(cp, true, err) != 0 ||
			app_peer_request(&cp->conn, "result", NULL, &res, NULL, err) != 0)
		return NULL;
	return res;
}

json_t *
app_conn_peer_close(struct app_conn_peer *cp, const struct wr_conn_books *ours,
		bool *ok)
{
	json_t *far = json_pack("{s:s, s:O}", "peer", cp->cfg->peer, "start",
		cp->start);
	const json_t *fb;
	struct wr_error err;
	json_t *res, *conns;

	wr_err_clear(&err);
	*ok = false;
	res = far_result(cp, &err);
	conns = json_object_get(json_object_get(res, "result"), "connections");
	fb = json_object_get(conns, "books");
	if (res == NULL || !json_is_object(fb)) {
		if (res != NULL)
			wr_err_fail(&err, -EPROTO, "--peer %s: the far end's result "
				"has no connection books", cp->cfg->peer);
		app_error("wirerate", &err);
		if (far != NULL)
			json_object_set_new(far, "error", json_string(err.msg));
	} else if (far != NULL && ours == NULL) {
		json_object_set(far, "exit_code", json_object_get(res, "exit_code"));
	} else if (far != NULL) {
		json_object_set(far, "exit_code", json_object_get(res, "exit_code"));
		json_object_set(far, "connections", conns);
		*ok = app_conn_peer_judge(far, fb, ours) &&
			json_integer_value(json_object_get(res, "exit_code")) == 0;
	}
	json_decref(res);
	json_decref(cp->start);
	cp->start = NULL;
	app_peer_disconnect(&cp->conn);
	return far;
}
