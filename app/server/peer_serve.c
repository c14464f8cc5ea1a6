/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The main lcore's side of a two-ended session (docs/twoended.md): one
 * run of the session's options, set up once, and per sender trial one
 * trial of it that sends nothing and counts the frames tagged with the
 * sender's trial id (measure/seq.h), from peer_trial until peer_end; the
 * frames of earlier trials it sees are counted as theirs (late). Every op
 * the control thread asks (peer_methods.c) is answered here.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "setup/clockread.h"
#include "base/jsonw.h"
#include "base/rpc.h"
#include "measure/seq.h"
#include "results/result.h"
#include "setup/port.h"
#include "stats/collect.h"
#include "trial/trial.h"
#include "clock.h"
#include "peer.h"
#include "state.h"

/* The op asked next, taken (c->lock held); NONE on shutdown or a signal. */
static enum app_peer_op
take(struct app_ctl *c, const volatile int *signals)
{
	enum app_peer_op op;

	while (c->peer.op == APP_PEER_NONE && !c->shutdown && *signals == 0)
		app_ctl_wait_100ms(&c->cond, &c->lock);
	op = c->peer.op;
	c->peer.op = APP_PEER_NONE;
	return op;
}

/* Answer the op taken last (c->lock held): reply, or code and message. */
static void
answer(struct app_ctl *c, json_t *reply, int code, const char *msg)
{
	c->peer.reply = reply;
	c->peer.code = code;
	snprintf(c->peer.msg, sizeof(c->peer.msg), "%s", msg);
	if (reply == NULL && code == 0)
		c->peer.code = WR_RPC_INTERNAL;
	c->peer.answered = c->peer.asked;
	pthread_cond_broadcast(&c->peer.cond);
}

/* What the session's run is: both ends' facts for the sender's result. */
static json_t *
open_reply(const struct wr_run *run)
{
	json_t *head = wr_result_head(run), *o;

	if (head == NULL)
		return NULL;
	o = json_pack("{s:s, s:s, s:O?, s:O?}", "version", app_peer_version(),
		"schema", WR_RESULT_SCHEMA, "env", json_object_get(head, "env"),
		"ports", json_object_get(head, "ports"));
	json_decref(head);
	return o;
}

/* One stream's counts of the trial just ended, and of the ones before. */
static json_t *
stream_counts(const struct wr_stream_result *r)
{
	const struct wr_seq *q = &r->view.seq;
	json_t *prev = json_array();
	unsigned int i;

	for (i = 0; i < WR_SEQ_TAG_PREV; i++)
		json_array_append_new(prev, wr_json_u64(q->nb_prev_pkts[i]));
	return json_pack("{s:I, s:o, s:o, s:o, s:o, s:o}",
		"stream_id", (json_int_t)r->stream_id,
		"rx_pkts", wr_json_u64(q->nb_rx_pkts),
		"dup_pkts", wr_json_u64(q->nb_dup_pkts),
		"reordered_pkts", wr_json_u64(q->nb_late_pkts),
		"prev_pkts", prev,
		"stray_pkts", wr_json_u64(q->nb_stray_pkts));
}

/* What each TX queue sent in the trial (both directions). */
static json_t *
tx_counts(const struct wr_run *run)
{
	json_t *a = json_array();
	const struct wr_txq *tq;
	unsigned int i;

	WR_RUN_FOREACH_TXQ(run, i, tq)
		json_array_append_new(a, json_pack("{s:I, s:o}", "stream_id",
			(json_int_t)wr_port_stream_id(tq->port, tq->queue), "sent_pkts",
			wr_json_u64(wr_collect_txq_sent(run, tq))));
	return a;
}

/* Whether every TX port reached its rate (true when none sends). */
static bool
tx_reached(const struct wr_run *run)
{
	struct wr_rate_check rc;
	unsigned int p;

	for (p = 0; p < run->setup.nb_ports; p++)
		if (wr_run_rate_check(run, p, &rc) && !rc.reached)
			return false;
	return true;
}

/*
 * The trial's answer: per stream what arrived of it and of the trials
 * before it, and the run's own view of the trial (totals, PMD
 * cross-check, accounting) as in a result's trials[].
 */
static json_t *
end_reply(const struct wr_run *run, uint16_t tag)
{
	json_t *streams = json_array(), *trial = json_object();
	struct wr_clock_anchor a;
	unsigned int i;

	for (i = 0; i < run->res.nb_streams; i++)
		json_array_append_new(streams, stream_counts(&run->res.streams[i]));
	wr_result_add_trial(trial, run, false);
	/* Ties this trial's latency stamps to this host's clock (oneway.h). */
	wr_clock_anchor(&a);
	return json_pack("{s:i, s:o, s:o, s:o, s:b, s:{s:I, s:I, s:f}}", "trial", tag,
		"streams", streams, "doc", trial, "tx_streams", tx_counts(run),
		"tx_rate_reached", tx_reached(run), "anchor", "tsc", (json_int_t)a.tsc,
		"realtime_ns", (json_int_t)a.realtime_ns, "read_ns", a.read_ns);
}

/* Start counting trial tag (c->lock held; let go while setting up). */
static int
trial_start(struct app_ctl *c, struct wr_run *run, struct wr_error *err)
{
	struct wr_trial t;
	uint16_t tag = c->peer.tag;
	uint32_t size = c->peer.frame_size;
	int rc;

	memset(&t, 0, sizeof(t));
	t.frame_size = size;
	t.duration_ms = c->peer.duration_ms;
	t.count_only = c->peer.count_only;
	if (t.count_only) {
		t.rate.unit = WR_RATE_NONE;
	} else if (c->peer.rate_pps > 0) {
		t.rate.unit = WR_RATE_PPS;
		t.rate.value = c->peer.rate_pps;
	} else if (run->setup.q.nb_tx > 0) {
		return wr_err_usage(err, -EINVAL, "this far end sends (its session "
			"has TX ports): peer_trial needs rate_pps > 0, or "
			"count_only");
	}
	*c->stop = 0;
	pthread_mutex_unlock(&c->lock);
	wr_run_seq_tag(run, true, tag);
	rc = wr_run_trial(run, &t, err);
	if (rc == 0)
		rc = wr_run_start(run, err);
	pthread_mutex_lock(&c->lock);
	if (rc == 0) {
		c->peer.in_trial = true;
		c->peer.cur_tag = tag;
	}
	return rc;
}

/*
 * The trial counts until peer_end (or the session ends), or its TX time
 * is up (both directions); then stop. It stays in_trial until END.
 */
static void
trial_run(struct app_ctl *c, struct wr_run *run)
{
	enum wr_stop_reason why;

	pthread_mutex_unlock(&c->lock);
	why = wr_run_wait(run, c->stop, NULL, NULL);
	wr_run_stop(run, why);
	pthread_mutex_lock(&c->lock);
}

/* The session's ops until close, shutdown or a signal (c->lock held). */
static void
session_ops(struct app_ctl *c, struct wr_run *run, const volatile int *signals)
{
	struct wr_error err;
	enum app_peer_op op;

	for (;;) {
		op = take(c, signals);
		if (op == APP_PEER_TRIAL) {
			wr_err_clear(&err);
			if (trial_start(c, run, &err) != 0) {
				answer(c, NULL, WR_RPC_RUN_FAILED, err.msg);
				continue;
			}
			answer(c, json_pack("{s:i, s:b}", "trial", c->peer.cur_tag,
				"counting", 1), 0, "no memory");
			trial_run(c, run);
			/* The op that ended the wait (END, CLOSE, or none), or
			 * the next one once its TX time is up (duration_ms). */
			op = take(c, signals);
			c->peer.in_trial = false;
			if (op == APP_PEER_END) {
				answer(c, end_reply(run, c->peer.cur_tag), 0, "no memory");
				continue;
			}
		}
		if (op == APP_PEER_CLOSE || op == APP_PEER_NONE)
			return;
		if (op == APP_PEER_OPEN || op == APP_PEER_END)
			answer(c, NULL, WR_RPC_BAD_STATE, "not now in this session");
	}
}

void
app_peer_serve(struct app_ctl *c, struct wr_config *cfg,
		const volatile int *signals)
{
	struct wr_run *run = NULL;
	struct wr_error err;
	uint64_t trials;
	int rc;

	wr_err_clear(&err);
	c->watch.ports_hold(&c->watch, true);
	rc = wr_run_create(cfg, c->peer.cmdline, c->watch.keep, &run, &err);
	c->watch.ports_hold(&c->watch, false);
	pthread_mutex_lock(&c->lock);
	if (rc != 0) {
		answer(c, NULL, WR_RPC_RUN_FAILED, err.msg);
		c->state = APP_CTL_FAILED;
		pthread_mutex_unlock(&c->lock);
		free(cfg);
		return;
	}
	c->peer.session = true;
	c->peer.nb_sessions++;
	c->state = APP_CTL_RUNNING;
	c->run = run;
	answer(c, open_reply(run), 0, "no memory");
	session_ops(c, run, signals);
	trials = run->live.nb_trials;
	c->run = NULL;
	pthread_mutex_unlock(&c->lock);
	c->watch.ports_hold(&c->watch, true);
	wr_run_close(run);
	c->watch.ports_hold(&c->watch, false);
	pthread_mutex_lock(&c->lock);
	c->peer.session = false;
	c->state = APP_CTL_DONE;
	/* A close that was asked is answered; one by shutdown is not. */
	if (c->peer.asked != c->peer.answered)
		answer(c, json_pack("{s:I, s:I}", "trials", (json_int_t)trials,
			"mbufs_missing", (json_int_t)run->res.mbufs_missing), 0,
			"no memory");
	pthread_mutex_unlock(&c->lock);
	wr_run_destroy(run);
	free(cfg);
}
