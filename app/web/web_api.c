/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The page's API: POST /api/rpc takes one JSON-RPC request, parsed by
 * the control socket's parser (base/rpc.h) and answered by its methods
 * through the server's hook, so that a start from the form is checked
 * by the same code as one from `wirerate ctl` or the command line. What
 * changes state needs the token; what only reads needs it too unless
 * --web-open; the peer_* methods belong to senders, not to the page.
 * GET /api/options lists the option table for the form.
 */
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "base/error.h"
#include "base/rpc.h"
#include "config/optab.h"
#include "web_int.h"

/* The methods that only read: open to all with --web-open. */
static const char *const readers[] = {
	"ports", "status", "result", "leases",
};

static bool
reads_only(const char *method)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(readers); i++)
		if (strcmp(method, readers[i]) == 0)
			return true;
	return false;
}

/* The HTTP status of a JSON-RPC error code. */
static unsigned int
http_status(int code)
{
	switch (code) {
	case WR_RPC_NO_METHOD: return MHD_HTTP_NOT_FOUND;
	case WR_RPC_BAD_STATE: return MHD_HTTP_CONFLICT;
	case WR_RPC_DENIED: return MHD_HTTP_UNAUTHORIZED;
	case WR_RPC_TOO_LONG: return MHD_HTTP_CONTENT_TOO_LARGE;
	case WR_RPC_INTERNAL: return MHD_HTTP_INTERNAL_SERVER_ERROR;
	case WR_RPC_RUN_FAILED: return 422;  /* Unprocessable Content */
	default: return MHD_HTTP_BAD_REQUEST;
	}
}

/* Who may call method: 0, or an error code with a message. */
static int
allowed(const struct app_web *w, struct MHD_Connection *conn,
		const char *method, const char **why)
{
	if (strncmp(method, "peer_", 5) == 0 || strcmp(method, "auth") == 0) {
		*why = "not a method of the web page (a sender's --peer, or a "
			"TCP client's auth: the page sends the token in a header)";
		return WR_RPC_NO_METHOD;
	}
	if ((w->open && reads_only(method)) ||
			web_authed(w, conn, reads_only(method)))
		return 0;
	*why = reads_only(method) ? "this server's pages need the token "
		"(--control-token's secret; --web-open lets reading go without)" :
		"a change needs the token (--control-token's secret)";
	return WR_RPC_DENIED;
}

enum MHD_Result
web_api_rpc(struct app_web *w, struct MHD_Connection *conn,
		const struct web_req *r)
{
	struct wr_rpc_req req;
	struct wr_error err;
	json_t *result = NULL;
	char msg[WR_ERROR_MSG_LEN];
	const char *why = NULL;
	enum MHD_Result mr;
	char *line;
	int code;

	wr_err_clear(&err);
	msg[0] = '\0';
	code = wr_rpc_parse(r->body != NULL ? r->body : "", r->len, &req, &err);
	if (code != 0)
		snprintf(msg, sizeof(msg), "%s", err.msg);
	else if ((code = allowed(w, conn, req.method, &why)) != 0)
		snprintf(msg, sizeof(msg), "%s: %s", req.method, why);
	else
		code = w->ops.call(w->ops.ctx, req.method, req.params, &result,
			msg, sizeof(msg));
	line = code != 0 ? wr_rpc_error(req.id, code, msg) :
		wr_rpc_result(req.id, result);
	wr_rpc_req_free(&req);
	if (line == NULL)
		return web_reply_error(conn, MHD_HTTP_INTERNAL_SERVER_ERROR,
			WR_RPC_INTERNAL, "no memory for the reply");
	mr = web_reply(conn, code != 0 ? http_status(code) : MHD_HTTP_OK,
		"application/json", line, strlen(line));
	free(line);
	return mr;
}

/* One option of the table as the form shows it. */
static json_t *
option_json(const struct wr_optdesc *o)
{
	json_t *v = json_array();
	unsigned int i;

	for (i = 0; v != NULL && o->values != NULL && o->values[i] != NULL; i++)
		json_array_append_new(v, json_string(o->values[i]));
	return json_pack("{s:s, s:s?, s:s, s:s, s:o*}", "name", o->name,
		"arg", o->arg, "help", o->help,
		"section", wr_optab_section_title(o->section), "values", v);
}

enum MHD_Result
web_api_options(struct MHD_Connection *conn)
{
	json_t *a = json_array();
	enum MHD_Result mr;
	char *s;
	size_t i;

	for (i = 0; a != NULL && i < wr_optab_len; i++)
		if (wr_optab[i].profile != WR_PROF_NONE)
			json_array_append_new(a, option_json(&wr_optab[i]));
	s = a != NULL ? json_dumps(a, JSON_COMPACT) : NULL;
	json_decref(a);
	if (s == NULL)
		return web_reply_error(conn, MHD_HTTP_INTERNAL_SERVER_ERROR,
			WR_RPC_INTERNAL, "no memory");
	mr = web_reply(conn, MHD_HTTP_OK, "application/json", s, strlen(s));
	free(s);
	return mr;
}
