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

#include "config/config.h"
#include "web_ops.h"

struct app_web;

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
