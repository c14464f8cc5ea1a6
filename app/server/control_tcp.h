/* SPDX-License-Identifier: BSD-3-Clause */
/* --control-listen: the control socket on TCP, with a token (control_tcp.c). */
#ifndef WR_APP_CONTROL_TCP_H
#define WR_APP_CONTROL_TCP_H

#include <stdbool.h>

#include <jansson.h>

#include "config/config.h"
#include "state.h"

/*
 * Connections the kernel queues on a control socket (UNIX or TCP) before
 * the control thread accepts them: a crowd of clients waits there, not
 * refused with EAGAIN.
 */
#define CONTROL_BACKLOG 256

/*
 * With --control-listen: read the --control-token secret and listen on
 * TCP; c->tcp_fd is -1 without. Returns 0 or the exit code with a
 * message on stderr.
 */
int app_ctl_tcp_open(struct app_ctl *c, const struct wr_config *cfg);

/* Whether params' "token" is the secret. This function can't fail. */
bool app_ctl_token_ok(const struct app_ctl *c, const json_t *params);

#endif /* WR_APP_CONTROL_TCP_H */
