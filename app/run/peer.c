/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The sender's side of a two-ended session (peer.h, docs/twoended.md):
 * the handshake, each trial told to the far end and judged on its counts,
 * late frames amending earlier trials, the settle period and the close.
 * Runs on the main lcore between trials: the TX workers are not sending
 * while it waits for the far end (at most --peer-timeout per answer).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/jsonw.h"
#include "base/wr_version.h"
#include "common/exitcode.h"
#include "config/rate.h"
#include "results/result.h"
#include "setup/port.h"
#include "stats/collect.h"
#include "view/view_far.h"
#include "peer.h"
#include "peer_check.h"

/* Late frames of the last trial: wait at least this long for them. */
#define PEER_SETTLE_MIN_MS 1000u

static int
hook_begin(struct wr_run *run, const struct wr_trial *t, double up_pps,
		void *arg, struct wr_error *err)
{
	return app_peer_begin(arg, run, t, up_pps, err);
}

static int
hook_judge(struct wr_run *run, struct wr_trial_summary *s,
		struct wr_trial_summary *up, void *arg, struct wr_error *err)
{
	return app_peer_judge(arg, run, s, up, err);
}

double
app_peer_up_pps(const struct app_peer_session *ps, uint32_t size)
{
	double pps = 0.0;

	if (ps->cfg->peer_rate.unit == WR_RATE_NONE ||
			wr_rate_to_pps(&ps->cfg->peer_rate, size, 0, &pps) != 0)
		return 0.0;
	return pps;
}

static double
hook_up_max(uint32_t size, void *arg)
{
	return app_peer_up_pps(arg, size);
}

/* The mode's record of the trial judged last takes its "far" counts. */
static void
hook_note(json_t *trials, void *arg)
{
	struct app_peer_session *ps = arg;
	json_t *rec = json_array_get(trials, json_array_size(trials) - 1);

	if (rec == NULL || ps->pending == NULL)
		return;
	json_object_set_new(rec, "far", ps->pending);
	ps->recent[ps->tag % RTE_DIM(ps->recent)].rec = rec;
	ps->pending = NULL;
}

/* The far end's --latency: this sender's tsc or sync asks it to time our frames. */
static const char *
far_latency(const struct wr_config *cfg)
{
	return cfg->lat_mode == WR_LAT_SYNC ? "sync" : cfg->lat_mode == WR_LAT_TSC ?
		"tsc" : "auto";
}

/*
 * The options of the far end's run: the sender's largest frames; one
 * way, no TX port (both ways: the far end's own options say which); its
 * --latency (far_latency).
 */
static json_t *
open_params(const struct wr_config *cfg)
{
	json_t *o;
	char grace[32], host[64] = "", who[128];

	snprintf(grace, sizeof(grace), "%" PRIu64 "ms", cfg->grace_ms);
	if (gethostname(host, sizeof(host) - 1) != 0)
		snprintf(host, sizeof(host), "unknown host");
	snprintf(who, sizeof(who), "wirerate pid %ld on %s", (long)getpid(), host);
	o = json_pack("{s:s, s:s, s:s, s:{s:I, s:s}}", "version", WR_VERSION,
		"schema", WR_RESULT_SCHEMA, "sender", who, "options", "size",
		(json_int_t)cfg->frame_size, "grace", grace);
	if (o != NULL && cfg->peer_rate.unit == WR_RATE_NONE)
		json_object_set_new(json_object_get(o, "options"), "tx-ports",
			json_string("none"));
	if (o != NULL && strcmp(far_latency(cfg), "auto") != 0)
		json_object_set_new(json_object_get(o, "options"), "latency",
			json_string(far_latency(cfg)));
	return o;
}

int
app_peer_open(struct app_peer_session *ps, const struct wr_config *cfg)
{
	struct wr_error err;
	const char *ver;
	json_t *res = NULL;
	int code, rc;

	memset(ps, 0, sizeof(*ps));
	ps->cfg = cfg;
	ps->hooks = (struct wr_mode_far){ hook_begin, hook_judge, hook_note, ps,
		cfg->peer_rate.unit != WR_RATE_NONE, hook_up_max };
	wr_err_clear(&err);
	rc = app_peer_connect(&ps->conn, cfg->peer, cfg->peer_token_path,
		cfg->peer_timeout_ms, &err);
	if (rc == 0)
		rc = app_peer_request(&ps->conn, "peer_open", open_params(cfg), &res,
			&code, &err);
	if (rc != 0 && (code == WR_RPC_MISMATCH || code == WR_RPC_BAD_PARAMS ||
			code == WR_RPC_NO_METHOD))
		err.cls = WR_ERR_USAGE;
	ver = json_string_value(json_object_get(res, "version"));
	if (rc == 0 && (ver == NULL || strcmp(ver, WR_VERSION) != 0))
		rc = wr_err_usage(&err, -EPROTO, "--peer %s: the two ends differ: "
			"this sender is wirerate %s, the peer wirerate %s", cfg->peer,
			WR_VERSION, ver != NULL ? ver : "(none said)");
	if (rc != 0) {
		json_decref(res);
		app_peer_disconnect(&ps->conn);
		return app_error("wirerate", &err);
	}
	ps->trials = json_array();
	ps->far = json_pack("{s:s, s:O?, s:O?, s:O?, s:O?, s:O}", "peer", cfg->peer,
		"version", json_object_get(res, "version"), "schema",
		json_object_get(res, "schema"), "env", json_object_get(res, "env"),
		"ports", json_object_get(res, "ports"), "trials", ps->trials);
	json_decref(res);
	return 0;
}

static int check_fail(struct app_peer_session *ps, const char *field,
		const json_t *v, const char *why, struct wr_error *err);

/* err's message, prefixed with what was lost and when (the trial). */
static void
lost_msg(struct wr_error *err, const char *what, uint16_t tag)
{
	char why[WR_ERROR_MSG_LEN];

	snprintf(why, sizeof(why), "%s", err->msg);
	wr_err_fail(err, -err->errnum, "%s %u, its counts unknown (%s)", what,
		tag, why);
}

int
app_peer_begin(struct app_peer_session *ps, struct wr_run *run,
		const struct wr_trial *t, double up_pps, struct wr_error *err)
{
	json_t *res = NULL;
	int rc;

	/* Tag 0 is what a sender without --peer numbers: never a trial's. */
	if (++ps->tag == 0)
		ps->tag = 1;
	ps->frame_size = t->frame_size;
	wr_run_seq_tag(run, true, ps->tag);
	ps->up_pps = up_pps;
	/* Both ways: its TX lasts as this run's, within this run's grace. */
	rc = app_peer_request(&ps->conn, "peer_trial", json_pack("{s:i, s:I, s:f, "
		"s:I}", "trial", ps->tag, "frame_size", (json_int_t)t->frame_size,
		"rate_pps", up_pps, "duration_ms", (json_int_t)(up_pps > 0 ?
		t->duration_ms : 0)), &res, NULL, err);
	if (rc == 0 && (!json_is_integer(json_object_get(res, "trial")) ||
			json_integer_value(json_object_get(res, "trial")) != ps->tag)) {
		rc = check_fail(ps, "trial", json_object_get(res, "trial"),
			"peer_trial's answer names another trial", err);
		json_decref(res);
		return rc;
	}
	json_decref(res);
	if (rc != 0) {
		lost_msg(err, "the far end was lost before trial", ps->tag);
		app_peer_lost(ps, err);
		return rc;
	}
	ps->counting = true;
	return 0;
}

/* The far end's counts of stream sid in reply streams, or NULL. */
static json_t *
stream_of(json_t *streams, uint64_t sid)
{
	size_t i;
	json_t *o;

	json_array_foreach(streams, i, o)
		if ((uint64_t)json_integer_value(json_object_get(o, "stream_id")) == sid)
			return o;
	return NULL;
}

static uint64_t
u64_of(const json_t *o, const char *key)
{
	return (uint64_t)json_integer_value(json_object_get(o, key));
}

static void
add_u64(json_t *o, const char *key, int64_t n)
{
	json_object_set_new(o, key, json_integer(json_integer_value(
		json_object_get(o, key)) + n));
}

/*
 * n frames of stream sid of the trial back trials before ps->tag arrived
 * late: they count for that trial, in its far counts (dir: NULL the
 * downstream ones, which its record also takes; "upstream" the others).
 */
static void
amend(struct app_peer_session *ps, const char *dir, unsigned int back,
		uint64_t sid, uint64_t n)
{
	uint16_t tag = (uint16_t)(ps->tag - back);
	struct app_peer_rec *r = &ps->recent[tag % RTE_DIM(ps->recent)];
	json_t *f, *s;

	if (n == 0)
		return;
	f = r->far != NULL && r->tag == tag ? (dir == NULL ? r->far :
		json_object_get(r->far, dir)) : NULL;
	if (f == NULL) {
		add_u64(ps->far, "late_unattributed_pkts", (int64_t)n);
		return;
	}
	s = stream_of(json_object_get(f, "streams"), sid);
	if (s != NULL) {
		add_u64(s, "rx_pkts", (int64_t)n);
		add_u64(s, "late_pkts", (int64_t)n);
		add_u64(s, "lost_pkts", -(int64_t)n);
	}
	add_u64(f, "rx_pkts", (int64_t)n);
	add_u64(f, "late_pkts", (int64_t)n);
	add_u64(f, "lost_pkts", -(int64_t)n);
	if (dir == NULL && r->rec != NULL) {
		add_u64(r->rec, "received_pkts", (int64_t)n);
		add_u64(r->rec, "lost_pkts", -(int64_t)n);
		json_object_set_new(r->rec, "loss_ratio", json_real(u64_of(r->rec,
			"sent_pkts") ? (double)json_integer_value(json_object_get(r->rec,
			"lost_pkts")) / (double)u64_of(r->rec, "sent_pkts") : 0.0));
		json_object_set_new(r->rec, "amended_by_late", json_true());
	}
}

/* Late frames of the trials before, as the far end saw them in this one. */
static void
amend_all(struct app_peer_session *ps, json_t *streams)
{
	size_t i;
	json_t *o, *prev;
	unsigned int b;

	json_array_foreach(streams, i, o) {
		prev = json_object_get(o, "prev_pkts");
		for (b = 0; b < json_array_size(prev); b++)
			amend(ps, NULL, b + 1, u64_of(o, "stream_id"),
				(uint64_t)json_integer_value(json_array_get(prev, b)));
		add_u64(ps->far, "stray_pkts", (int64_t)u64_of(o, "stray_pkts"));
	}
}

/* One TX stream of the run against the far end's count of it. */
static json_t *
stream_far(uint64_t sid, uint64_t sent, json_t *theirs, struct wr_trial_summary *s)
{
	uint64_t rx = u64_of(theirs, "rx_pkts");
	uint64_t lost = sent > rx ? sent - rx : 0, excess = rx > sent ? rx - sent : 0;

	s->sent_pkts += sent;
	s->received_pkts += rx;
	s->lost_pkts += (int64_t)lost;
	s->excess_pkts += excess;
	return json_pack("{s:I, s:I, s:I, s:I, s:I, s:i, s:I, s:I}", "stream_id",
		(json_int_t)sid, "sent_pkts", (json_int_t)sent, "rx_pkts",
		(json_int_t)rx, "lost_pkts", (json_int_t)lost, "excess_pkts",
		(json_int_t)excess, "late_pkts", 0, "dup_pkts",
		(json_int_t)u64_of(theirs, "dup_pkts"), "reordered_pkts",
		(json_int_t)u64_of(theirs, "reordered_pkts"));
}

/*
 * One-way latency of the far end's timing of our frames (results/oneway.h,
 * docs/testbeds.md), judged per trial on both ends' env: this run's, with
 * its anchors at set-up and now; the far end's from peer_open, with its
 * anchors at set-up and at this trial's end (reply's anchor). The trial's
 * record gets one_way (and far.one_way the last), its streams as the far
 * end timed them shifted onto this end's clock with the bound, or null
 * with the reason. The far end's per-port latency is its own TSC's
 * differences: kept only with --latency tsc (one host).
 */
static json_t *
far_oneway(struct app_peer_session *ps, const struct wr_run *run, json_t *reply,
		json_t *doc)
{
	json_t *own = wr_result_head(run), *far, *clock, *anchors, *s;
	size_t i;

	far = json_pack("{s:o?, s:{s:s}}", "env", json_deep_copy(json_object_get(ps->far,
		"env")), "config", "latency", far_latency(ps->cfg));
	clock = json_object_get(json_object_get(far, "env"), "clock");
	anchors = json_object_get(clock, "anchors");
	if (json_array_size(anchors) > 0 && json_object_get(reply, "anchor") != NULL) {
		json_array_clear(anchors);
		json_array_append(anchors, json_array_get(json_object_get(json_object_get(
			json_object_get(ps->far, "env"), "clock"), "anchors"), 0));
		json_array_append(anchors, json_object_get(reply, "anchor"));
	}
	wr_oneway_judge(own, far, &ps->oneway);
	json_decref(own);
	json_decref(far);
	json_object_set_new(ps->far, "one_way", wr_oneway_json(&ps->oneway));
	json_array_foreach(json_object_get(doc, "streams"), i, s)
		wr_oneway_latency_json(&ps->oneway, s, s);
	if (!ps->oneway.available || ps->oneway.synced_clocks)
		json_array_foreach(json_object_get(doc, "totals"), i, s)
			json_object_del(s, "latency");
	return wr_oneway_json(&ps->oneway);
}

/* A failed check of the far end's answer: the trial's counts refused. */
static int
check_fail(struct app_peer_session *ps, const char *field, const json_t *v,
		const char *why, struct wr_error *err)
{
	char *text = v != NULL ? json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT) :
		NULL;
	int rc;

	rc = wr_err_usage(err, -EPROTO, "--peer %s: trial %u: the far end's "
		"\"%s\" is %s: %s; its counts are not taken", ps->cfg->peer,
		ps->tag, field, text != NULL ? text : "missing", why);
	free(text);
	app_peer_lost(ps, err);
	json_object_set_new(ps->far, "invalid", json_pack("{s:s, s:s}",
		"field", field, "reason", err->msg));
	return rc;
}

/* The trial's "far": per stream both ends' counts, the far end's view. */
static json_t *
trial_far(struct app_peer_session *ps, const struct wr_run *run, json_t *reply,
		struct wr_trial_summary *s)
{
	json_t *streams = json_array(), *theirs = json_object_get(reply, "streams");
	json_t *doc = json_object_get(reply, "doc"), *ow;
	const struct wr_txq *tq;
	unsigned int i;

	s->sent_pkts = s->received_pkts = s->excess_pkts = 0;
	s->lost_pkts = 0;
	WR_RUN_FOREACH_TXQ(run, i, tq) {
		uint64_t sid = wr_port_stream_id(tq->port, tq->queue);

		json_array_append_new(streams, stream_far(sid, wr_collect_txq_sent(run,
			tq), stream_of(theirs, sid), s));
	}
	s->loss_ratio = s->sent_pkts ? (double)s->lost_pkts / (double)s->sent_pkts : 0;
	ow = far_oneway(ps, run, reply, doc);
	return json_pack("{s:i, s:i, s:I, s:I, s:I, s:I, s:i, s:o, s:o, s:{s:O?, s:O?, "
		"s:O?, s:O?}}", "trial", ps->tag, "frame_size", ps->frame_size,
		"sent_pkts", (json_int_t)s->sent_pkts, "rx_pkts",
		(json_int_t)s->received_pkts, "lost_pkts", (json_int_t)s->lost_pkts,
		"excess_pkts", (json_int_t)s->excess_pkts, "late_pkts", 0,
		"streams", streams, "one_way", ow, "peer", "totals", json_object_get(doc, "totals"),
		"warnings", json_object_get(doc, "warnings"), "cross_checked",
		json_object_get(doc, "cross_checked"), "streams",
		json_object_get(doc, "streams"));
}

/* This run's RX view of stream sid (the far end's), or NULL. */
static const struct wr_stream_result *
our_stream(const struct wr_run *run, uint64_t sid)
{
	unsigned int i;

	for (i = 0; i < run->res.nb_streams; i++)
		if (run->res.streams[i].stream_id == sid)
			return &run->res.streams[i];
	return NULL;
}

/*
 * Upstream, both directions: what the far end sent (its tx_streams) against
 * what this run received of it; up summarises it for the search. Late
 * frames of earlier trials this run received amend their upstream.
 */
static json_t *
up_far(struct app_peer_session *ps, const struct wr_run *run, json_t *reply,
		struct wr_trial_summary *up)
{
	json_t *streams = json_array(), *o;
	size_t i;
	unsigned int b;

	json_array_foreach(json_object_get(reply, "tx_streams"), i, o) {
		uint64_t sid = u64_of(o, "stream_id");
		const struct wr_stream_result *r = our_stream(run, sid);
		const struct wr_seq *q = r != NULL ? &r->view.seq : NULL;
		json_t *mine = json_pack("{s:I, s:I, s:I}", "rx_pkts", (json_int_t)(q ?
			q->nb_rx_pkts : 0), "dup_pkts", (json_int_t)(q ? q->nb_dup_pkts : 0),
			"reordered_pkts", (json_int_t)(q ? q->nb_late_pkts : 0));

		json_array_append_new(streams, stream_far(sid, u64_of(o, "sent_pkts"),
			mine, up));
		json_decref(mine);
		for (b = 0; q != NULL && b < WR_SEQ_TAG_PREV; b++)
			amend(ps, "upstream", b + 1, sid, q->nb_prev_pkts[b]);
	}
	up->frame_size = ps->frame_size;
	up->requested_pps = ps->up_pps;
	up->rate_reached = json_is_true(json_object_get(reply, "tx_rate_reached"));
	up->loss_ratio = up->sent_pkts ? (double)up->lost_pkts / (double)up->sent_pkts : 0;
	return json_pack("{s:f, s:b, s:I, s:I, s:I, s:I, s:i, s:o}", "requested_pps",
		ps->up_pps, "rate_reached", up->rate_reached, "sent_pkts",
		(json_int_t)up->sent_pkts, "rx_pkts", (json_int_t)up->received_pkts,
		"lost_pkts", (json_int_t)up->lost_pkts, "excess_pkts",
		(json_int_t)up->excess_pkts, "late_pkts", 0, "streams", streams);
}

/*
 * peer_end's answer checked against what the sender knows (peer_check.h):
 * 0, or -EPROTO with err (a usage error: the far end's figures cannot be
 * taken) naming the field; the result is then marked invalid.
 */
static int
check_end(struct app_peer_session *ps, const struct wr_run *run, json_t *res,
		struct wr_error *err)
{
	const json_t *v = NULL;
	const char *why = "";
	const char *field = app_peer_check_end(run, ps->tag, res, &why, &v);

	return field == NULL ? 0 : check_fail(ps, field, v, why, err);
}

int
app_peer_judge(struct app_peer_session *ps, struct wr_run *run,
		struct wr_trial_summary *s, struct wr_trial_summary *up,
		struct wr_error *err)
{
	struct wr_trial_summary scratch;
	json_t *res = NULL, *far;
	int rc;

	ps->counting = false;
	rc = app_peer_request_after(&ps->conn, "peer_end", json_pack("{s:i}",
		"trial", ps->tag), ps->cfg->grace_ms, &res, NULL, err);
	if (rc != 0) {
		lost_msg(err, "the far end was lost in trial", ps->tag);
		app_peer_lost(ps, err);
		return rc;
	}
	rc = check_end(ps, run, res, err);
	if (rc != 0) {
		json_decref(res);
		return rc;
	}
	amend_all(ps, json_object_get(res, "streams"));
	far = trial_far(ps, run, res, s);
	if (far != NULL && ps->hooks.both) {
		memset(&scratch, 0, sizeof(scratch));
		json_object_set_new(far, "upstream", up_far(ps, run, res, up != NULL ?
			up : &scratch));
	}
	json_decref(res);
	if (far == NULL)
		return wr_err_env(err, -ENOMEM, "no memory for trial %u's counts",
			ps->tag);
	json_array_append(ps->trials, far);
	ps->recent[ps->tag % RTE_DIM(ps->recent)] = (struct app_peer_rec){
		ps->tag, far, NULL };
	json_decref(ps->pending);
	ps->pending = far;
	return 0;
}

void
app_peer_mark(json_t *doc, json_t *far)
{
	json_t *bad = json_object_get(far, "invalid");

	if (doc != NULL && bad != NULL)
		json_object_set(doc, "invalid", bad);
}

void
app_peer_lost(struct app_peer_session *ps, const struct wr_error *err)
{
	json_object_set_new(ps->far, "lost", json_pack("{s:i, s:s}", "trial",
		ps->tag, "reason", err->msg));
}

/*
 * A trial of nothing: the far end counts what still arrives of the last.
 * It sends nothing either (count_only), also when it sends in the trials
 * (--peer-rate). Returns 0 or the negative errno of the failed call.
 */
static int
settle(struct app_peer_session *ps)
{
	uint64_t ms = ps->cfg->grace_ms > PEER_SETTLE_MIN_MS ? ps->cfg->grace_ms :
		PEER_SETTLE_MIN_MS;
	struct wr_error err;
	json_t *res = NULL;
	int rc;

	if (++ps->tag == 0)
		ps->tag = 1;
	rc = app_peer_request(&ps->conn, "peer_trial", json_pack("{s:i, s:I, s:b}",
		"trial", ps->tag, "frame_size", (json_int_t)ps->frame_size,
		"count_only", 1), &res, NULL, &err);
	json_decref(res);
	res = NULL;
	if (rc == 0) {
		usleep((useconds_t)(ms * 1000));
		rc = app_peer_request_after(&ps->conn, "peer_end", json_pack("{s:i}",
			"trial", ps->tag), ps->cfg->grace_ms, &res, NULL, &err);
	}
	if (rc == 0)
		amend_all(ps, json_object_get(res, "streams"));
	json_decref(res);
	json_object_set_new(ps->far, "settle", rc == 0 ? json_pack("{s:i, s:I}",
		"trial", ps->tag, "ms", (json_int_t)ms) : json_pack("{s:s}", "error",
		err.msg));
	return rc;
}

const char *
app_peer_settle_error(const struct app_peer_session *ps)
{
	return json_string_value(json_object_get(json_object_get(ps->far,
		"settle"), "error"));
}

/* Whether every trial's books close: sent = received + lost, no excess. */
static bool
books_close(const json_t *trials)
{
	size_t i;
	json_t *t;

	json_array_foreach(trials, i, t) {
		int64_t lost = json_integer_value(json_object_get(t, "lost_pkts"));

		if (lost < 0 || u64_of(t, "excess_pkts") != 0 ||
				u64_of(t, "sent_pkts") != u64_of(t, "rx_pkts") + (uint64_t)lost)
			return false;
	}
	return true;
}

void
app_peer_show(FILE *f, const struct app_peer_session *ps)
{
	app_view_far_trial(f, ps->pending);
}

/* Whether the far end received nothing of what the trials sent. */
static bool
received_none(const json_t *trials)
{
	uint64_t sent = 0, rx = 0;
	size_t i;
	json_t *t;

	json_array_foreach(trials, i, t) {
		sent += u64_of(t, "sent_pkts");
		rx += u64_of(t, "rx_pkts");
	}
	return sent != 0 && rx == 0;
}

int
app_peer_close(struct app_peer_session *ps)
{
	struct wr_error err;
	json_t *res = NULL;
	int rc = 0;
	bool ok, settled = true;

	if (ps->conn.fd >= 0 && json_object_get(ps->far, "lost") == NULL &&
			json_array_size(ps->trials) != 0)
		settled = settle(ps) == 0;
	if (ps->conn.fd >= 0 && app_peer_request(&ps->conn, "peer_close", NULL,
			&res, NULL, &err) == 0)
		json_object_set_new(ps->far, "closed", res);
	app_peer_disconnect(&ps->conn);
	ok = books_close(ps->trials);
	json_object_set_new(ps->far, "balanced", json_boolean(ok));
	if (ok && received_none(ps->trials))
		rc = -ENODATA;
	else if (!ok)
		rc = -EIO;
	else if (!settled)
		rc = -EPIPE;
	json_decref(ps->pending);
	ps->pending = NULL;
	json_decref(ps->trials);
	ps->trials = NULL;
	return rc;
}
