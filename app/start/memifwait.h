/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A memif client started before (or just after) its server: wait for the
 * server's socket before the ports start.
 */
#ifndef APP_START_MEMIFWAIT_H
#define APP_START_MEMIFWAIT_H

/* How long a memif client waits for its server's socket, seconds. */
#define APP_MEMIF_WAIT_S 10u

/*
 * For each --vdev net_memif with role=client, wait until its server's
 * socket exists (a file; an abstract socket in /proc/net/unix), up to
 * APP_MEMIF_WAIT_S, saying so on stderr while it waits. Returns 0,
 * APP_EXIT_FAILED (no server: the message names the vdev and the
 * socket) or APP_EXIT_OK early when *stop is set (a signal).
 */
int app_memif_wait(const volatile int *stop);

#endif
