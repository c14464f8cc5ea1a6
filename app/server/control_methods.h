/* SPDX-License-Identifier: BSD-3-Clause */
/* The control socket's methods (control_methods.c, docs/api.md). */
#ifndef WR_APP_CONTROL_METHODS_H
#define WR_APP_CONTROL_METHODS_H

#include <stddef.h>

#include <jansson.h>

#include "state.h"

/*
 * The methods: fill *result (a new reference) or return an enum
 * wr_rpc_code with a message in msg (len bytes). Called by the control
 * thread with c->lock not held.
 */
int app_ctl_call(struct app_ctl *c, const char *method, json_t *params,
		json_t **result, char *msg, size_t len);

/*
 * Write the message of an error reply (msg, len bytes), cut at a
 * character if it is too long (the reply is JSON: UTF-8 only); returns
 * code. This function can't fail.
 */
int app_ctl_fail(char *msg, size_t len, int code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/*
 * The run options params (a start request's) over the server's into a
 * new configuration *out (the caller frees it). Returns 0 or an enum
 * wr_rpc_code with a message in msg. Control thread, lock not held.
 */
int app_ctl_run_config(struct app_ctl *c, json_t *params,
		struct wr_config **out, char *msg, size_t len);

#endif /* WR_APP_CONTROL_METHODS_H */
