/* SPDX-License-Identifier: BSD-3-Clause */
/* The control socket's thread: one epoll loop over every client (ctl_loop.c). */
#ifndef WR_APP_CTL_LOOP_H
#define WR_APP_CTL_LOOP_H

#include "state.h"

/*
 * The control thread's body (arg: struct app_ctl *, its sockets open):
 * serves the UNIX and TCP sockets' clients until a byte arrives on
 * c->wake_fd[0], then closes them. Returns NULL.
 */
void *ctl_loop_thread(void *arg);

#endif /* WR_APP_CTL_LOOP_H */
