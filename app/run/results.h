/* SPDX-License-Identifier: BSD-3-Clause */
/* Repeated trials on screen, and the result files of a run (results.c). */
#ifndef WR_APP_RESULTS_H
#define WR_APP_RESULTS_H

#include <stdio.h>

#include <jansson.h>

#include "base/error.h"
#include "config/config.h"
#include "setup/run.h"

/*
 * After trial t (0-based, warm-ups first) of a repeated run: say so on f
 * and, for a counted trial, append its result to trials. far: the
 * trial's counts at the far end (--peer; else NULL), kept in the record
 * as "far" (its RX figures and loss then the far end's). Returns 0, or
 * -1 with a message on stderr.
 */
int app_trial_done(FILE *f, const struct wr_run *run, unsigned int t,
		json_t *trials, json_t *far);

/*
 * Build the result (with trials and their summary when trials is not
 * NULL), print the trials' summary on f, and write --json and --csv.
 * With keep, the document is also handed to *keep (the caller frees it).
 * far (NULL: none) is the far end's part of a two-ended run (peer.h),
 * the document's "far". Returns 0, or -1 with a message on stderr.
 */
int app_results_write(const struct wr_run *run, json_t *trials, json_t *far,
		FILE *f, json_t **keep);

/*
 * wr_result_write_json() with SIGINT and SIGTERM held until the file is in
 * place, so that a second signal (a quick exit) cannot leave the temporary
 * file behind. Returns 0 or a negative errno with a message in err.
 */
int app_write_json(json_t *doc, const char *path, struct wr_error *err);

/*
 * --capture: write the kept frames to the pcapng file atomically (signals
 * held) and say so on f. Returns 0 (also without --capture) or -1 with a
 * message on stderr.
 */
int app_capture_write(const struct wr_run *run, FILE *f);

/*
 * Before any traffic: --json and --csv name a writable file or a file that
 * can be created (the directory exists and is writable), so a run never
 * ends without its results. Returns 0, or -1 with a message on stderr.
 */
int app_outputs_check(const struct wr_config *cfg);

#endif /* WR_APP_RESULTS_H */
