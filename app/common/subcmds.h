/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The subcommands, once: main() (main/main.c) dispatches from this list,
 * --help (start/usage.c) shows it, and the build (buildtools/optdump.c)
 * lists it for the man page and bash completion, which take each one's
 * text from `wirerate NAME --help`. A new subcommand is one line here and
 * an app_NAME_main().
 * X(name, one-line summary)
 */
#ifndef WR_APP_SUBCMDS_H
#define WR_APP_SUBCMDS_H

#define APP_SUBCMDS(X) \
	X(compare, "judge a result against a baseline: verdict and exit code for CI") \
	X(report, "tables and plots of one or more results") \
	X(history, "keep every result; change points of alike runs for CI") \
	X(merge, "balance of a two-ended run, per stream") \
	X(check, "check a command line as a run would, start nothing") \
	X(serve, "EAL up once, runs on request through a JSON-RPC socket") \
	X(ctl, "one request to a control socket: status, update, stop, ...")

#endif /* WR_APP_SUBCMDS_H */
