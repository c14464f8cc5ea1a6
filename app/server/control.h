/* SPDX-License-Identifier: BSD-3-Clause */
/* The control socket opened and closed, its thread (control.c). */
#ifndef WR_APP_CONTROL_H
#define WR_APP_CONTROL_H

#include "config/config.h"
#include "state.h"

/*
 * Listen on cfg's --control path (mode 0600; a stale socket nobody
 * answers on is replaced) and, with --control-listen, on TCP with the
 * secret of --control-token; serve: the leases, --lease-log opened
 * (leases.h); start the control thread. c->watch is set
 * for app_run_all() (c->watch.keep as the caller left it). Returns 0, or
 * the exit code with a message on stderr (2: a token file others can
 * read or that is empty; 1: the machine, a --lease-log not writable).
 */
int app_ctl_open(struct app_ctl *c, const struct wr_config *cfg);

/*
 * Stop the control thread, close the clients and remove the socket
 * file at path. Safe after a failed open. This function can't fail.
 */
void app_ctl_close(struct app_ctl *c, const char *path);

/*
 * app_ctl_call (control_methods.h) for another thread than the control
 * socket's (the web page's: app/web, struct app_web_ops): one call at a
 * time under c->call_lock, as no connection (caller 0). ctx is the
 * struct app_ctl. The web page never calls the peer_* methods.
 */
int app_ctl_call_shared(void *ctx, const char *method, json_t *params,
		json_t **result, char *msg, size_t len);

#endif /* WR_APP_CONTROL_H */
