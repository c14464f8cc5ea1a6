/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The control socket's policy (ctl_policy.h). A UNIX socket's clients
 * are authenticated by the socket's mode (0600: the server's user); a
 * TCP client by an auth request with the --control-token secret. Until
 * then a TCP connection is anyone's: its first error closes it, it has
 * CTL_AUTH_WAIT_MS to authenticate, and it is the first to give way when
 * the slots are full. An authenticated client is never closed for an
 * unauthenticated one.
 */
#include <stdio.h>
#include <string.h>

#include <rte_common.h>

#include "clock.h"
#include "control_methods.h"
#include "control_tcp.h"
#include "ctl_policy.h"
#include "leases.h"

/* Tell cl why (an error reply with code and msg) and close it. -1. */
static int
refuse(struct ctl_client *cl, json_t *id, int code, const char *msg)
{
	ctl_client_last_word(cl, wr_rpc_error(id, code, msg));
	return -1;
}

/*
 * auth, and every request of a TCP client before it: the secret lets the
 * client in; anything else is refused and the client closed (-1).
 */
static int
authenticate(struct app_ctl *c, struct ctl_client *cl, struct wr_rpc_req *req)
{
	if (strcmp(req->method, "auth") == 0 &&
			(cl->authed || app_ctl_token_ok(c, req->params))) {
		cl->authed = true;
		return req->id == NULL ? 0 : ctl_client_send(cl,
			wr_rpc_result(req->id, json_pack("{s:b}", "authenticated", true)));
	}
	return refuse(cl, req->id, WR_RPC_DENIED, "send auth with the "
		"--control-token secret first: {\"method\": \"auth\", "
		"\"params\": {\"token\": ...}}");
}

/* An error reply: kept open when authenticated, else told and closed. */
static int
fail(struct ctl_client *cl, json_t *id, int code, const char *msg)
{
	if (!cl->authed)
		return refuse(cl, id, code, msg);
	return ctl_client_send(cl, wr_rpc_error(id, code, msg));
}

/* A line over WR_RPC_MAX_LINE (already dropped by the reader). */
static int
too_long(struct ctl_client *cl)
{
	char msg[80];

	snprintf(msg, sizeof(msg), "request longer than %u bytes: dropped",
		WR_RPC_MAX_LINE);
	return fail(cl, NULL, WR_RPC_TOO_LONG, msg);
}

/*
 * One method for cl: under call_lock (shared with the web page), but
 * the peer_* methods, which wait for the main lcore and which the page
 * never calls.
 */
static int
call(struct app_ctl *c, const struct ctl_client *cl, struct wr_rpc_req *req,
		json_t **result, char *msg, size_t len)
{
	bool shared = strncmp(req->method, "peer_", 5) != 0;
	int code;

	if (shared)
		pthread_mutex_lock(&c->call_lock);
	c->caller = cl->serial;
	c->caller_id = req->id;
	code = app_ctl_call(c, req->method, req->params, result, msg, len);
	c->caller_id = NULL;
	if (shared)
		pthread_mutex_unlock(&c->call_lock);
	return code;
}

int
ctl_policy_answer(struct app_ctl *c, struct ctl_client *cl, const char *line,
		size_t len)
{
	struct wr_rpc_req req;
	struct wr_error err;
	json_t *result = NULL;
	char msg[WR_ERROR_MSG_LEN];
	int code, rc;

	if (line == NULL)
		return too_long(cl);
	if (len == 0)
		return 0;
	wr_err_clear(&err);
	code = wr_rpc_parse(line, len, &req, &err);
	if (code != 0)
		rc = fail(cl, req.id, code, err.msg);
	else if (!cl->authed || strcmp(req.method, "auth") == 0)
		rc = authenticate(c, cl, &req);
	else {
		msg[0] = '\0';
		code = call(c, cl, &req, &result, msg, sizeof(msg));
		rc = 0;
		/* A queued acquire: its reply comes from the lease outbox. */
		if (code == APP_CTL_DEFERRED)
			;
		else if (req.id != NULL)
			rc = ctl_client_send(cl, code != 0 ?
				wr_rpc_error(req.id, code, msg) :
				wr_rpc_result(req.id, result));
		else
			json_decref(result);
	}
	wr_rpc_req_free(&req);
	return rc;
}

int
ctl_policy_slot(struct ctl_client *cls, unsigned int nb)
{
	unsigned int i;
	int old = -1;

	for (i = 0; i < nb; i++) {
		if (cls[i].fd < 0)
			return (int)i;
		if (!cls[i].authed && (old < 0 || cls[i].since_ms < cls[old].since_ms))
			old = (int)i;
	}
	if (old >= 0)
		refuse(&cls[old], NULL, WR_RPC_DENIED, "closed before auth: every "
			"slot was taken and this was the oldest connection without auth");
	return old;
}

void
ctl_policy_refuse(int fd)
{
	struct ctl_client cl;

	ctl_client_init(&cl, fd, false, 0, 0);
	refuse(&cl, NULL, WR_RPC_BAD_STATE, "too many clients connected: "
		"try again later");
}

int
ctl_policy_expire(struct ctl_client *cls, unsigned int nb, uint64_t now_ms)
{
	uint64_t next = UINT64_MAX;
	unsigned int i;

	for (i = 0; i < nb; i++) {
		if (cls[i].fd < 0 || cls[i].authed)
			continue;
		if (now_ms < cls[i].deadline_ms) {
			next = RTE_MIN(next, cls[i].deadline_ms - now_ms);
			continue;
		}
		refuse(&cls[i], NULL, WR_RPC_DENIED, "no auth within the first "
			RTE_STR(CTL_AUTH_WAIT_MS) " ms: closed");
	}
	return next == UINT64_MAX ? -1 : (int)next;
}
