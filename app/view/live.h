/* SPDX-License-Identifier: BSD-3-Clause */
/* The live view of a plain run, every --interval (live.c). */
#ifndef WR_APP_LIVE_H
#define WR_APP_LIVE_H

#include <stdbool.h>
#include <stdio.h>

#include "setup/run.h"

/*
 * Show one interval: in place on a terminal, plain lines otherwise; extra
 * (NULL: none), lines of the run's far end (--peer), below the frame.
 */
void app_view_interval(FILE *f, const struct wr_run *run,
		const struct wr_interval *iv, bool in_place, const char *extra);

#endif /* WR_APP_LIVE_H */
