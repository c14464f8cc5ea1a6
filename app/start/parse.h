/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The wirerate options parsed before EAL starts (parse.c): defaults, then
 * --profile, then the command line; --version, the signals of a run, and
 * `wirerate check`.
 */
#ifndef WR_APP_PARSE_H
#define WR_APP_PARSE_H

#include "config/config.h"

/* app_parse_before_eal: go on and run (not an exit code). */
#define APP_RUN (-1)

/*
 * The wirerate options of argv (after the first --, argv[dd]: defaults,
 * then --profile, then the options) into cfg, before EAL starts. Returns
 * APP_RUN, or the exit code (0 after --help or --version; an error's
 * class's, said on stderr).
 */
int app_parse_before_eal(int argc, char **argv, int dd, struct wr_config *cfg);

/*
 * SIGINT and SIGTERM to handler (SA_RESTART: the flag it sets is polled),
 * SIGPIPE ignored. This function can't fail.
 */
void app_signals_install(void (*handler)(int sig));

/* --version: wirerate's (git describe at build time) and DPDK's. */
void app_print_version(void);

/*
 * wirerate check [EAL options] -- [wirerate options]: the command line
 * checked as a run checks it, nothing started. argv[0] is the program.
 * Returns the exit code: 0 valid, 2 bad usage or input.
 */
int app_check_main(int argc, char **argv);

#endif /* WR_APP_PARSE_H */
