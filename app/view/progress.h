/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The progress line of a test mode or of --repeat, from the struct that
 * lib/ fills (measure/progress.h): on a terminal one line redrawn in place
 * (at each trial and each --interval), piped or --plain a plain line per
 * trial. Off with --quiet. It fits the terminal's width, 80 columns piped.
 */
#ifndef WR_APP_PROGRESS_H
#define WR_APP_PROGRESS_H

#include <stdbool.h>
#include <stdio.h>

#include "config/config.h"
#include "measure/progress.h"

/* The display's state; owned by the main thread. */
struct app_progress {
	bool on;                        /* not --quiet */
	bool in_place;                  /* a terminal, not --plain */
	bool drawn;                     /* a line is on screen, cursor at its end */
	const struct wr_progress *p;    /* the latest, NULL before the first */
};

/* Set ap up for cfg and stdout. This function can't fail. */
void app_progress_init(struct app_progress *ap, const struct wr_config *cfg);

/* A trial starts with progress p: show it. This function can't fail. */
void app_progress_trial(struct app_progress *ap, const struct wr_progress *p);

/* An interval passed: redraw the line in place. This function can't fail. */
void app_progress_tick(struct app_progress *ap);

/* Take the in-place line off the screen before other output. Can't fail. */
void app_progress_clear(struct app_progress *ap);

/*
 * The progress line of p at now_tsc into buf (len bytes), at most width
 * columns: the most detail that fits. Returns buf. This function can't fail.
 */
const char *app_progress_line(const struct wr_progress *p, uint64_t now_tsc,
		unsigned int width, char *buf, size_t len);

#endif /* WR_APP_PROGRESS_H */
