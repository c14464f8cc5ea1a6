/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The companion file of a result: every interval of every trial, one JSON
 * object a line (JSON Lines), appended as the run goes. The result keeps
 * only the last WR_RUN_KEEP_INTERVALS intervals (setup/run.h), so memory
 * and the checkpoint stay bounded; this file loses none. For --json R.json
 * it is R.samples.jsonl (docs/results.md).
 */
#ifndef WR_SERIES_H
#define WR_SERIES_H

#include <stddef.h>

#include <jansson.h>

#include "setup/run.h"

/*
 * The companion path of result path json_path into out: NAME.json ->
 * NAME.samples.jsonl, anything else gets ".samples.jsonl" added. Returns 0,
 * -ENOENT when there is none (no --json, or a path that is not a regular
 * file: /dev/stdout), or -ENAMETOOLONG.
 */
int wr_series_path(const char *json_path, char *out, size_t len);

/*
 * Append interval iv of the trial in progress to run's companion file,
 * created afresh at the run's first interval. A failed write closes
 * the file and is recorded (series{} says so); the run goes on. Stats core
 * only. This function can't fail.
 */
void wr_series_append(struct wr_run *run, const struct wr_interval *iv);

/* Close run's companion file. This function can't fail. */
void wr_series_close(struct wr_run *run);

/*
 * series{}: intervals of the trial, how many samples[] keeps and from
 * which, the companion file (null when none), its lines and whether every
 * write succeeded.
 */
json_t *wr_series_json(const struct wr_run *run);

#endif /* WR_SERIES_H */
