/* SPDX-License-Identifier: BSD-3-Clause */
/* `wirerate ctl`: one request to a control socket (ctl.c). */
#ifndef WR_APP_CTL_H
#define WR_APP_CTL_H

/*
 * wirerate ctl [--timeout SECONDS] PATH METHOD [key=value...]: one
 * request to a control socket, its reply on stdout. Returns the exit
 * code: 0 a result, 1 an error reply, no server or no reply within the
 * timeout, 2 bad usage.
 */
int app_ctl_main(int argc, char **argv);

#endif /* WR_APP_CTL_H */
