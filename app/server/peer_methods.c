/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The peer_* methods (docs/twoended.md, docs/api.md): the control
 * thread's side of a two-ended session. Each method checks its params
 * and the session's state, asks the main lcore (peer_serve.c) and waits
 * for its answer. peer_open is the handshake: both ends' versions and
 * result schemas, refused (-32004) when they differ.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/error.h"
#include "base/rpc.h"
#include "base/wr_version.h"
#include "results/result.h"
#include "control_methods.h"
#include "peer.h"
#include "state.h"

void
app_peer_init(struct app_peer *p)
{
	memset(p, 0, sizeof(*p));
	pthread_cond_init(&p->cond, NULL);
}

const char *
app_peer_version(void)
{
	const char *v = getenv("WR_TEST_PEER_VERSION");

	return v != NULL && v[0] != '\0' ? v : WR_VERSION;
}

/*
 * Ask op of the main lcore and wait for its answer (c->lock held; the
 * wait lets it go). Returns 0 with *out, or the answer's error code.
 */
static int
ask(struct app_ctl *c, enum app_peer_op op, json_t **out, char *msg, size_t len)
{
	struct app_peer *p = &c->peer;
	uint64_t id = ++p->asked;
	struct timespec ts;
	int rc = 0;

	p->op = op;
	if (op == APP_PEER_END || op == APP_PEER_CLOSE)
		*c->stop = 1;  /* the trial's wait ends (wr_run_wait) */
	pthread_cond_signal(&c->cond);
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += APP_PEER_ANSWER_S;
	while (p->answered != id && rc == 0)
		rc = pthread_cond_timedwait(&p->cond, &c->lock, &ts);
	if (p->answered != id) {
		if (p->op == op)
			p->op = APP_PEER_NONE;
		return app_ctl_fail(msg, len, WR_RPC_BAD_STATE, "the server's main lcore "
			"did not answer within %d s", APP_PEER_ANSWER_S);
	}
	if (p->reply == NULL)
		return app_ctl_fail(msg, len, p->code, "%s", p->msg);
	*out = p->reply;
	p->reply = NULL;
	return 0;
}

/* A string member of params, or NULL. */
static const char *
param_str(json_t *params, const char *key)
{
	return json_string_value(json_object_get(params, key));
}

/* Milliseconds since the session's holder made its last peer call. */
static uint64_t
idle_ms(const struct app_peer *p)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (uint64_t)((now.tv_sec - p->last_call.tv_sec) * 1000 +
		(now.tv_nsec - p->last_call.tv_nsec) / 1000000);
}

/* The refusal of a second sender: who holds the session, since when. */
static int
busy(struct app_ctl *c, char *msg, size_t len)
{
	char when[32];
	struct tm tm;

	gmtime_r(&c->peer.since, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	return app_ctl_fail(msg, len, WR_RPC_BAD_STATE, "busy: a peer session is "
		"held by %s since %s; it ends at its peer_close or after %.3g s "
		"without a peer call (--peer-idle)", c->peer.holder, when,
		(double)c->base->peer_idle_ms / 1e3);
}

/* peer_open: versions first, then the session's run (its options). */
static int
m_open(struct app_ctl *c, json_t *params, json_t **out, char *msg, size_t len)
{
	const char *ver = param_str(params, "version");
	const char *schema = param_str(params, "schema");
	const char *sender = param_str(params, "sender");
	json_t *opts = json_object_get(params, "options"), *empty;
	struct wr_config *cfg;
	int rc;

	if (ver == NULL || schema == NULL)
		return app_ctl_fail(msg, len, WR_RPC_BAD_PARAMS, "peer_open: \"version\" and "
			"\"schema\" (strings) are required");
	if (strcmp(ver, app_peer_version()) != 0 || strcmp(schema, WR_RESULT_SCHEMA) != 0)
		return app_ctl_fail(msg, len, WR_RPC_MISMATCH, "the two ends differ: this "
			"peer is wirerate %s (%s), the sender wirerate %s (%s)",
			app_peer_version(), WR_RESULT_SCHEMA, ver, schema);
	if (opts != NULL && !json_is_object(opts))
		return app_ctl_fail(msg, len, WR_RPC_BAD_PARAMS, "peer_open: \"options\" "
			"must be an object of run options");
	empty = json_object();
	rc = app_ctl_run_config(c, opts != NULL ? opts : empty, &cfg, msg, len);
	json_decref(empty);
	if (rc != 0)
		return rc;
	pthread_mutex_lock(&c->lock);
	if (c->state == APP_CTL_QUEUED || (c->state == APP_CTL_RUNNING &&
			!c->peer.session) || c->shutdown) {
		pthread_mutex_unlock(&c->lock);
		free(cfg);
		return app_ctl_fail(msg, len, WR_RPC_BAD_STATE, c->shutdown ? "the server is "
			"shutting down" : "run %" PRIu64 " is on: a peer session needs "
			"the server idle", c->run_id);
	}
	if (c->peer.session && idle_ms(&c->peer) < c->base->peer_idle_ms) {
		pthread_mutex_unlock(&c->lock);
		free(cfg);
		return busy(c, msg, len);
	}
	if (c->peer.session) {
		/* A sender that went away left its session: this one ends it. */
		json_t *gone = NULL;

		rc = ask(c, APP_PEER_CLOSE, &gone, msg, len);
		json_decref(gone);
		if (rc != 0) {
			pthread_mutex_unlock(&c->lock);
			free(cfg);
			return rc;
		}
	}
	c->peer.cfg = cfg;
	snprintf(c->peer.holder, sizeof(c->peer.holder), "%s",
		sender != NULL && sender[0] != '\0' ? sender : "a sender");
	c->peer.since = time(NULL);
	c->peer.owner = c->caller;
	snprintf(c->peer.cmdline, sizeof(c->peer.cmdline), "wirerate serve: "
		"peer_open from a sender");
	rc = ask(c, APP_PEER_OPEN, out, msg, len);
	pthread_mutex_unlock(&c->lock);
	return rc;
}

/* The tag of params' "trial" (0 .. 65535). */
static int
param_tag(json_t *params, uint16_t *tag, char *msg, size_t len)
{
	json_t *v = json_object_get(params, "trial");

	if (!json_is_integer(v) || json_integer_value(v) < 0 ||
			json_integer_value(v) > UINT16_MAX)
		return app_ctl_fail(msg, len, WR_RPC_BAD_PARAMS, "\"trial\": an integer "
			"0..65535 (the trial's tag) is required");
	*tag = (uint16_t)json_integer_value(v);
	return 0;
}

/* peer_trial: count the frames of trial tag from now on. */
static int
m_trial(struct app_ctl *c, json_t *params, json_t **out, char *msg, size_t len)
{
	json_t *size = json_object_get(params, "frame_size"), *rate, *dur, *only;
	uint16_t tag = 0;
	int rc = param_tag(params, &tag, msg, len);

	if (rc != 0)
		return rc;
	if (!json_is_integer(size) || json_integer_value(size) < 64 ||
			json_integer_value(size) > 65535)
		return app_ctl_fail(msg, len, WR_RPC_BAD_PARAMS, "\"frame_size\": an "
			"integer 64..65535 is required");
	rate = json_object_get(params, "rate_pps");
	if (rate != NULL && (!json_is_number(rate) || json_number_value(rate) < 0))
		return app_ctl_fail(msg, len, WR_RPC_BAD_PARAMS, "\"rate_pps\": a "
			"number >= 0 (frames/s per TX port) is expected");
	dur = json_object_get(params, "duration_ms");
	if (dur != NULL && (!json_is_integer(dur) || json_integer_value(dur) < 0))
		return app_ctl_fail(msg, len, WR_RPC_BAD_PARAMS, "\"duration_ms\": "
			"an integer >= 0 is expected (0: TX until peer_end)");
	only = json_object_get(params, "count_only");
	if (only != NULL && !json_is_boolean(only))
		return app_ctl_fail(msg, len, WR_RPC_BAD_PARAMS, "\"count_only\": "
			"true or false is expected (true: send nothing, count)");
	pthread_mutex_lock(&c->lock);
	if (!c->peer.session || c->peer.in_trial) {
		rc = app_ctl_fail(msg, len, WR_RPC_BAD_STATE, c->peer.session ? "trial %u is "
			"still counted: peer_end it first" : "no peer session "
			"(peer_open first)", c->peer.cur_tag);
	} else {
		c->peer.tag = tag;
		c->peer.frame_size = (uint32_t)json_integer_value(size);
		c->peer.rate_pps = rate != NULL ? json_number_value(rate) : 0.0;
		c->peer.duration_ms = dur != NULL ? (uint64_t)json_integer_value(dur) : 0;
		c->peer.count_only = json_is_true(only);
		rc = ask(c, APP_PEER_TRIAL, out, msg, len);
	}
	pthread_mutex_unlock(&c->lock);
	return rc;
}

/* peer_end: the trial's counts, once its RX grace is over. */
static int
m_end(struct app_ctl *c, json_t *params, json_t **out, char *msg, size_t len)
{
	uint16_t tag = 0;
	int rc = param_tag(params, &tag, msg, len);

	if (rc != 0)
		return rc;
	pthread_mutex_lock(&c->lock);
	if (!c->peer.in_trial || c->peer.cur_tag != tag)
		rc = app_ctl_fail(msg, len, WR_RPC_BAD_STATE, "trial %u is not being "
			"counted (%s)", tag, c->peer.in_trial ? "another one is" :
			"none is");
	else
		rc = ask(c, APP_PEER_END, out, msg, len);
	pthread_mutex_unlock(&c->lock);
	return rc;
}

/* peer_close: the session's run closed; what it said of its ports. */
static int
m_close(struct app_ctl *c, json_t *params, json_t **out, char *msg, size_t len)
{
	int rc;

	(void)params;
	pthread_mutex_lock(&c->lock);
	if (!c->peer.session)
		rc = app_ctl_fail(msg, len, WR_RPC_BAD_STATE, "no peer session");
	else
		rc = ask(c, APP_PEER_CLOSE, out, msg, len);
	pthread_mutex_unlock(&c->lock);
	return rc;
}

int
app_peer_call(struct app_ctl *c, const char *method, json_t *params,
		json_t **result, char *msg, size_t len)
{
	static const struct {
		const char *name;
		int (*fn)(struct app_ctl *, json_t *, json_t **, char *, size_t);
	} methods[] = {
		{ "peer_open", m_open }, { "peer_trial", m_trial },
		{ "peer_end", m_end }, { "peer_close", m_close },
	};
	unsigned int i;

	for (i = 0; i < sizeof(methods) / sizeof(methods[0]); i++)
		if (strcmp(method, methods[i].name) == 0) {
			int rc = 0;

			*result = NULL;
			/* A session's calls come from the connection that opened
			 * it: a sender whose session was ended (--peer-idle) and
			 * taken by another never acts on the new one. */
			pthread_mutex_lock(&c->lock);
			if (i > 0 && c->peer.session && c->caller != c->peer.owner)
				rc = app_ctl_fail(msg, len, WR_RPC_BAD_STATE, "%s: the "
					"peer session is held by %s on another "
					"connection", method, c->peer.holder);
			pthread_mutex_unlock(&c->lock);
			if (rc != 0)
				return rc;
			rc = methods[i].fn(c, params, result, msg, len);
			if (rc == 0) {
				pthread_mutex_lock(&c->lock);
				clock_gettime(CLOCK_MONOTONIC, &c->peer.last_call);
				pthread_mutex_unlock(&c->lock);
			}
			return rc;
		}
	return app_ctl_fail(msg, len, WR_RPC_NO_METHOD, "%s: no such method (peer_open, "
		"peer_trial, peer_end, peer_close)", method);
}
