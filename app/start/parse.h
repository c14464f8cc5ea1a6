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

/* A connection run's pools against the memory EAL may take, before EAL. */
/*
 * Bytes of memory EAL may take on this machine: the hugepages
 * (/proc/meminfo HugePages_Total x Hugepagesize), or the machine's memory
 * (MemTotal) when the EAL options argv[1..dd-1] hold --no-huge. 0 when
 * /proc/meminfo cannot be read (nothing to check against).
 */
uint64_t app_connmem_avail_bytes(int dd, char **argv);

/*
 * For a connection run (cfg->conn.cfg.role != 0): the pools of the ports
 * named by --tx-ports (one port when none is named) against
 * app_connmem_avail_bytes. Returns APP_RUN, or the exit code of the error
 * said on stderr (2).
 */
int app_connmem_check(const struct wr_config *cfg, int dd, char **argv);

#endif /* WR_APP_PARSE_H */
