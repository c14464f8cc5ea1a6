/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --web (web.h): libmicrohttpd parses HTTP, a thread per connection
 * (a live stream waits in its own thread, docs/web.md); this file only
 * routes. Every request's body is bounded (WEB_BODY_MAX), connections
 * are limited and time out, so a bad client costs one thread for a
 * while at most and the server keeps serving.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "base/rpc.h"
#include "common/exitcode.h"
#include "web.h"
#include "web_int.h"

/* Connections at once; one more waits in the kernel's queue. */
#define WEB_MAX_CONNS 32
/* Seconds a connection may stay silent (a live stream sends sooner). */
#define WEB_IDLE_S 30

enum MHD_Result
web_reply(struct MHD_Connection *conn, unsigned int status, const char *type,
		const char *body, size_t len)
{
	struct MHD_Response *resp;
	enum MHD_Result rc;

	resp = MHD_create_response_from_buffer(len, (void *)(uintptr_t)body,
		MHD_RESPMEM_MUST_COPY);
	if (resp == NULL)
		return MHD_NO;
	MHD_add_response_header(resp, "Content-Type", type);
	MHD_add_response_header(resp, "Cache-Control", "no-store");
	MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
	rc = MHD_queue_response(conn, status, resp);
	MHD_destroy_response(resp);
	return rc;
}

enum MHD_Result
web_reply_error(struct MHD_Connection *conn, unsigned int status, int code,
		const char *msg)
{
	char *line = wr_rpc_error(NULL, code, msg);
	enum MHD_Result rc;

	if (line == NULL)
		return MHD_NO;
	rc = web_reply(conn, status, "application/json", line, strlen(line));
	free(line);
	return rc;
}

bool
web_authed(const struct app_web *w, struct MHD_Connection *conn, bool cookie)
{
	const char *h = MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
		"Authorization");
	const char *t = !cookie ? NULL :
		MHD_lookup_connection_value(conn, MHD_COOKIE_KIND, "wr_token");
	unsigned char diff = 0;
	size_t i, n;

	if (h != NULL && strncmp(h, "Bearer ", 7) == 0)
		t = h + 7;
	if (t == NULL || w->ops.token_len == 0)
		return false;
	n = strlen(t);
	/* Time independent of where the strings differ. */
	for (i = 0; i < w->ops.token_len; i++)
		diff |= (unsigned char)(w->ops.token[i] ^ (i < n ? t[i] : 0));
	return diff == 0 && n == w->ops.token_len;
}

/* Take a chunk of the body; past WEB_BODY_MAX it is dropped. */
static void
take_body(struct web_req *r, const char *data, size_t n)
{
	char *b;

	if (r->too_big || n == 0)
		return;
	if (r->len + n > WEB_BODY_MAX) {
		r->too_big = true;
		return;
	}
	b = realloc(r->body, r->len + n + 1);
	if (b == NULL) {
		r->too_big = true;
		return;
	}
	memcpy(b + r->len, data, n);
	r->len += n;
	b[r->len] = '\0';
	r->body = b;
}

/* A whole request: its route. */
static enum MHD_Result
route(struct app_web *w, struct MHD_Connection *conn, const char *url,
		const char *method, struct web_req *r)
{
	bool post = strcmp(method, "POST") == 0;

	if (strcmp(url, "/api/rpc") == 0) {
		if (!post)
			return web_reply_error(conn, MHD_HTTP_METHOD_NOT_ALLOWED,
				WR_RPC_INVALID_REQUEST, "/api/rpc: POST a JSON-RPC request");
		if (r->too_big)
			return web_reply_error(conn, MHD_HTTP_CONTENT_TOO_LARGE,
				WR_RPC_TOO_LONG, "request body over 64 KiB: refused");
		return web_api_rpc(w, conn, r);
	}
	if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
		return web_reply_error(conn, MHD_HTTP_METHOD_NOT_ALLOWED,
			WR_RPC_INVALID_REQUEST, "only GET, and POST on /api/rpc");
	if (strcmp(url, "/api/events") == 0)
		return web_sse_open(w, conn);
	if (strcmp(url, "/api/options") == 0)
		return web_api_options(conn);
	return web_files_get(w, conn, url);
}

/* libmicrohttpd's access handler: the body gathered, then routed. */
static enum MHD_Result
on_request(void *cls, struct MHD_Connection *conn, const char *url,
		const char *method, const char *version, const char *data,
		size_t *data_len, void **state)
{
	struct web_req *r = *state;

	(void)version;
	if (r == NULL) {
		r = calloc(1, sizeof(*r));
		if (r == NULL)
			return MHD_NO;
		*state = r;
		return MHD_YES;
	}
	if (*data_len != 0) {
		take_body(r, data, *data_len);
		*data_len = 0;
		return MHD_YES;
	}
	return route(cls, conn, url, method, r);
}

/* A request ended: its state freed. */
static void
on_done(void *cls, struct MHD_Connection *conn, void **state,
		enum MHD_RequestTerminationCode why)
{
	struct web_req *r = *state;

	(void)cls;
	(void)conn;
	(void)why;
	if (r != NULL) {
		free(r->body);
		free(r);
	}
	*state = NULL;
}

/* The daemon on addr:port (IPv4, else IPv6); NULL with errno. */
static struct MHD_Daemon *
listen_web(struct app_web *w, const char *addr, uint16_t port)
{
	unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD |
		MHD_USE_THREAD_PER_CONNECTION;
	struct sockaddr_storage ss;
	struct sockaddr_in *s4 = (struct sockaddr_in *)&ss;
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&ss;

	memset(&ss, 0, sizeof(ss));
	if (inet_pton(AF_INET, addr, &s4->sin_addr) == 1) {
		s4->sin_family = AF_INET;
		s4->sin_port = htons(port);
	} else {
		inet_pton(AF_INET6, addr, &s6->sin6_addr);
		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons(port);
		flags |= MHD_USE_IPv6;
	}
	return MHD_start_daemon(flags, port, NULL, NULL, on_request, w,
		MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&ss,
		MHD_OPTION_CONNECTION_LIMIT, (unsigned int)WEB_MAX_CONNS,
		MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)WEB_IDLE_S,
		MHD_OPTION_NOTIFY_COMPLETED, on_done, w,
		MHD_OPTION_END);
}

int
app_web_start(struct app_web **out, const struct wr_config *cfg,
		const struct app_web_ops *ops)
{
	struct app_web *w;

	*out = NULL;
	if (cfg->web_addr[0] == '\0')
		return 0;
	w = calloc(1, sizeof(*w));
	if (w == NULL)
		return APP_EXIT_FAILED;
	w->ops = *ops;
	w->open = cfg->web_open;
	snprintf(w->history, sizeof(w->history), "%s", cfg->web_history);
	pthread_mutex_init(&w->report_lock, NULL);
	if (web_files_find(w) != 0)
		fprintf(stderr, "wirerate: warning: --web: the page's files are not "
			"installed next to the program; only the API answers\n");
	w->d = listen_web(w, cfg->web_addr, cfg->web_port);
	if (w->d == NULL) {
		fprintf(stderr, "wirerate: error: --web %s:%u: cannot listen: %s\n",
			cfg->web_addr, cfg->web_port, strerror(errno));
		app_web_stop(w);
		return APP_EXIT_FAILED;
	}
	*out = w;
	return 0;
}

void
app_web_stop(struct app_web *w)
{
	if (w == NULL)
		return;
	w->stopping = 1;
	if (w->d != NULL)
		MHD_stop_daemon(w->d);
	web_files_clean(w);
	pthread_mutex_destroy(&w->report_lock);
	free(w);
}
