/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What a subcommand says of an option getopt_long refused: a known
 * option without its value, an abbreviation of several (named), an
 * unknown option with the closest name ("did you mean"), or plainly
 * unknown. Needs no EAL.
 */
#ifndef WR_APP_BADOPT_H
#define WR_APP_BADOPT_H

#include <getopt.h>
#include <stddef.h>

/*
 * The message for arg (argv[optind - 1] after getopt_long returned '?')
 * against opts (ended by a NULL name), without the program's name, into
 * buf of n bytes. prog names the --help to see. Can't fail (truncates).
 */
void app_bad_option_msg(const char *prog, const struct option *opts,
	const char *arg, char *buf, size_t n);

/*
 * Print "PROG: error: " and that message on stderr; returns
 * APP_EXIT_USAGE.
 */
int app_bad_option(const char *prog, const struct option *opts, const char *arg);

#endif /* WR_APP_BADOPT_H */
