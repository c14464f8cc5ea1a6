/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The web page's insides, shared by its files: the server (web.c), the
 * API (web_api.c), the live stream (web_sse.c), files and result pages
 * (web_files.c).
 */
#ifndef WR_APP_WEB_INT_H
#define WR_APP_WEB_INT_H

#include <limits.h>
#include <pthread.h>
#include <stdbool.h>

#include <microhttpd.h>

#include "config/config.h"

#include "web_ops.h"

/* Bytes of one request's body at most; more is refused (413). */
#define WEB_BODY_MAX (64u << 10)

struct app_web {
	struct MHD_Daemon *d;
	struct app_web_ops ops;
	bool open;                    /* --web-open */
	volatile int stopping;        /* live streams end when set */
	char files[PATH_MAX];         /* the page's files (index.html) */
	char tmp[64];                 /* result pages, removed at stop */
	char history[PATH_MAX];       /* --web-history DB, "" = none */
	pthread_mutex_t report_lock;  /* one result page written at a time */
};

/* One request's state, kept by libmicrohttpd between calls. */
struct web_req {
	char *body;                   /* what came, NUL-terminated */
	size_t len;
	bool too_big;                 /* over WEB_BODY_MAX: dropped */
};

/*
 * Queue a reply of status with body (len bytes, copied) and its type.
 * Returns libmicrohttpd's verdict.
 */
enum MHD_Result web_reply(struct MHD_Connection *conn, unsigned int status,
		const char *type, const char *body, size_t len);

/* A JSON error reply {"error": {"code", "message"}} with status. */
enum MHD_Result web_reply_error(struct MHD_Connection *conn,
		unsigned int status, int code, const char *msg);

/*
 * Whether the request carries the token: in an Authorization: Bearer
 * header, or with cookie, in the page's cookie wr_token (sent only by a
 * page of this server: SameSite=Strict). A change always needs the
 * header, which another site's page cannot send.
 */
bool web_authed(const struct app_web *w, struct MHD_Connection *conn,
		bool cookie);

/* POST /api/rpc: one JSON-RPC request in the body (web_api.c). */
enum MHD_Result web_api_rpc(struct app_web *w, struct MHD_Connection *conn,
		const struct web_req *r);

/* GET /api/options: the option table, for the run form (web_api.c). */
enum MHD_Result web_api_options(struct MHD_Connection *conn);

/* GET /api/events: the live stream, server-sent events (web_sse.c). */
enum MHD_Result web_sse_open(struct app_web *w, struct MHD_Connection *conn);

/* GET of a file of the page or of /run/ID/...: web_files.c. */
enum MHD_Result web_files_get(struct app_web *w, struct MHD_Connection *conn,
		const char *url);

/* Find the page's files next to the binary; 0 or -1. */
int web_files_find(struct app_web *w);

/* Remove the result pages written. This function can't fail. */
void web_files_clean(struct app_web *w);

#endif /* WR_APP_WEB_INT_H */
