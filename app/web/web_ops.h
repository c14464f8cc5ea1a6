/* SPDX-License-Identifier: BSD-3-Clause */
/* What the server lends the web page (web.h): its methods and token. */
#ifndef WR_APP_WEB_OPS_H
#define WR_APP_WEB_OPS_H

#include <stddef.h>

#include <jansson.h>

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

#endif /* WR_APP_WEB_OPS_H */
