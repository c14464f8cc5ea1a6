/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The exit codes of every wirerate command, and the one place where an
 * error's class (lib/base/error.h) becomes one. Needs no EAL: the unit
 * tests link it alone.
 */
#ifndef WR_APP_EXITCODE_H
#define WR_APP_EXITCODE_H

#include "base/error.h"

enum app_exit {
	APP_EXIT_OK = 0,
	APP_EXIT_FAILED = 1,  /* the run failed, or the machine could not do it */
	APP_EXIT_USAGE = 2,   /* bad usage or input: the request is wrong */
};

/*
 * The exit code for e: usage 2; environment and failure 1. An error
 * without a class (NULL, WR_ERR_NONE) is a failure: 1. Never 0.
 */
int app_exit_code(const struct wr_error *e);

/*
 * Print "PROG: error: MESSAGE" on stderr and return app_exit_code(e).
 * prog is "wirerate" or "wirerate SUBCOMMAND".
 */
int app_error(const char *prog, const struct wr_error *e);

/*
 * app_error for an error of class usage that app/ finds itself (argv):
 * prints "PROG: error: MESSAGE" and returns APP_EXIT_USAGE.
 */
int app_usage_error(const char *prog, const char *fmt, ...)
	__rte_format_printf(2, 3);

#endif /* WR_APP_EXITCODE_H */
