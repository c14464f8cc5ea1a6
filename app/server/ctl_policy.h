/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Who the control socket serves (ctl_policy.c): authentication, what a
 * line gets, the auth deadline, and which connection gives way when a
 * socket's slots are all taken.
 */
#ifndef WR_APP_CTL_POLICY_H
#define WR_APP_CTL_POLICY_H

#include <stddef.h>
#include <stdint.h>

#include "ctl_client.h"
#include "state.h"

/* How long a TCP client may stay without auth, in milliseconds. */
#define CTL_AUTH_WAIT_MS 5000

/*
 * Answer one request line of cl. Returns 0, or -1 when cl must be
 * closed (cl->fd is already -1 when it was told why). A client not yet
 * authenticated is closed after its first error; an authenticated one
 * gets error replies and stays.
 */
int ctl_policy_answer(struct app_ctl *c, struct ctl_client *cl,
		const char *line, size_t len);

/*
 * The slot of cls (nb, one socket's) for a new connection: a free one,
 * else the one of the oldest connection without auth, told why and
 * closed. Returns its index, or -1 when every slot is authenticated (the
 * new connection is then refused). This function can't fail.
 */
int ctl_policy_slot(struct ctl_client *cls, unsigned int nb);

/* Refuse fd, every slot being authenticated: told so, then closed. */
void ctl_policy_refuse(int fd);

/*
 * Close the clients of cls (nb) not authenticated by their deadline, each
 * told why. Returns the milliseconds until the next deadline, -1 when
 * none. This function can't fail.
 */
int ctl_policy_expire(struct ctl_client *cls, unsigned int nb, uint64_t now_ms);

#endif /* WR_APP_CTL_POLICY_H */
