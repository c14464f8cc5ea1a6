/* SPDX-License-Identifier: BSD-3-Clause */
/* `wirerate history` (history.c): its arguments and its commands. */
#ifndef WR_APP_HISTORY_H
#define WR_APP_HISTORY_H

#include "results/changepoint.h"
#include "db.h"

struct hist_args {
	const char *cmd;              /* add, show, check, plot, html */
	const char *db;
	char **files;                 /* add: the results */
	unsigned int nb_files;
	const char *commit;           /* --commit */
	const char *metric;           /* --metric prefix, NULL: all */
	const char *junit;
	const char *json;
	const char *out;              /* --out DIR */
	struct wr_cp_opts cp;
};

/* The subcommand's main (common/subcmds.h). */
int app_history_main(int argc, char **argv);

/* show (check false) or check: print every series; the exit code. */
int hist_show_check(const struct hist_args *a, struct hist_db *db, bool check);

/* check's --junit and --json on bad input (msg), as compare does. */
void hist_report_bad_input(const struct hist_args *a, const char *msg);

#endif /* WR_APP_HISTORY_H */
