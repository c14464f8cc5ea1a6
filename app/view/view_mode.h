/* SPDX-License-Identifier: BSD-3-Clause */
/* Progress lines and result tables of the test modes (view_mode.c). */
#ifndef WR_APP_VIEW_MODE_H
#define WR_APP_VIEW_MODE_H

#include <stdio.h>

#include <jansson.h>

#include "methods/modes.h"
#include "setup/run.h"

/* One line per trial of a test mode: progress on long runs. */
void app_view_trial(FILE *f, const struct wr_run *run, const char *what,
		const struct wr_trial_summary *s);

/* The table of a test mode's results, from its JSON document. */
void app_view_mode(FILE *f, json_t *doc);

/* A finished trial of --mode conn-teardown, its "trials" entry, and the
 * search's table from the result (view_conntear.c). */
void app_view_conntear_trial(FILE *f, const json_t *t);
void app_view_conntear(FILE *f, const json_t *doc);

/* A finished trial of --mode conn-rate (view_connrate.c). */
void app_view_conn_trial(FILE *f, const struct wr_connrate_trial *t,
		bool pass);

/* The table and verdict of a --mode conn-rate result (its doc). */
void app_view_connrate(FILE *f, const json_t *doc);

/* A finished trial of --mode conn-load, its "trials" entry t
 * (view_connload.c). */
void app_view_connload_cell(FILE *f, const json_t *t);

/* The table and verdict of a --mode conn-load result (its doc). */
void app_view_connload(FILE *f, const json_t *doc);

#endif /* WR_APP_VIEW_MODE_H */
