/* SPDX-License-Identifier: BSD-3-Clause */
/* The wirerate program: messages, display and exit codes. */
#ifndef WR_APP_H
#define WR_APP_H

#include <stdbool.h>
#include <stdio.h>

#include "run.h"

enum app_exit {
	APP_EXIT_OK = 0,
	APP_EXIT_FAILED = 1,
	APP_EXIT_USAGE = 2,
};

/* Print --help to f. */
void app_usage(FILE *f, const char *prog);

/* Describe ports, adaptations and the lcore plan before the run. */
void app_view_plan(FILE *f, const struct wr_run *run);

/* Show one interval: in place on a terminal, plain lines otherwise. */
void app_view_interval(FILE *f, const struct wr_run *run,
		const struct wr_interval *iv, bool in_place);

/* The final summary: per-port totals, streams, accounting. */
void app_view_summary(FILE *f, const struct wr_run *run);

#endif /* WR_APP_H */
