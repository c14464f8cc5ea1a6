/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --web: the web page of wirerate serve (web.c, docs/web.md). An HTTP
 * server (libmicrohttpd, its own threads) whose requests reach the
 * server through the same JSON-RPC dispatch as the control socket's, by
 * the hook the server gives (struct app_web_ops): this room knows
 * nothing of the server's state.
 */
#ifndef WR_APP_WEB_H
#define WR_APP_WEB_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "config/config.h"

struct app_web;

/* What the server lends the page; it outlives the page. */
struct app_web_ops {
	/*
	 * One JSON-RPC method, as the control socket calls it: fill *result
	 * (a new reference) or return an enum wr_rpc_code with a message in
	 * msg (len bytes). Called from the page's threads, one at a time or
	 * not: the hook serialises what must be.
	 */
	int (*call)(void *ctx, const char *method, json_t *params,
		json_t **result, char *msg, size_t len);
	void *ctx;
	const char *token;    /* --control-token's secret, token_len bytes */
	size_t token_len;
};

/*
 * Listen on cfg's --web address and serve the page until app_web_stop.
 * Returns 0 with *out (NULL when --web is not given), or the exit code
 * with a message on stderr (1: the address cannot be bound).
 */
int app_web_start(struct app_web **out, const struct wr_config *cfg,
		const struct app_web_ops *ops);

/*
 * Stop serving: live streams end, the threads are joined, the result
 * pages written are removed. Safe on NULL. This function can't fail.
 */
void app_web_stop(struct app_web *w);

#endif /* WR_APP_WEB_H */
