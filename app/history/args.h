/* SPDX-License-Identifier: BSD-3-Clause */
/* The arguments of `wirerate history` (parsed in history.c). */
#ifndef WR_APP_HIST_ARGS_H
#define WR_APP_HIST_ARGS_H

#include "analysis/changepoint.h"
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

#endif /* WR_APP_HIST_ARGS_H */
