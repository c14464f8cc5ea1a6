/* SPDX-License-Identifier: BSD-3-Clause */
/* `wirerate serve`: EAL up once, runs on request (serve.c). */
#ifndef WR_APP_SERVE_H
#define WR_APP_SERVE_H

/*
 * wirerate serve [EAL options] -- --control PATH [options]: EAL up once,
 * runs on request through the control socket (docs/api.md). argv[0] is
 * the program. Returns the exit code.
 */
int app_serve_main(int argc, char **argv);

#endif /* WR_APP_SERVE_H */
