/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The result of a run as JSON (schema in docs/results.md), written
 * atomically: a temporary file in the same directory, fsync, rename.
 */
#ifndef WR_RESULT_H
#define WR_RESULT_H

#include <stddef.h>

#include <jansson.h>

#include "setup/run.h"

#define WR_RESULT_SCHEMA "wirerate-result/1"

/* Build the whole result; NULL on memory exhaustion. Caller json_decref()s. */
json_t *wr_result_build(const struct wr_run *run);

/* schema, env, config, plan and ports of run; NULL on memory exhaustion. */
json_t *wr_result_head(const struct wr_run *run);

/*
 * Add the last trial's frame_size, duration_s, stop_reason, totals, streams,
 * accounting (and samples when asked) to object o.
 */
void wr_result_add_trial(json_t *o, const struct wr_run *run, bool samples);

/*
 * One trial of a repeated run (--repeat): "trial" (1-based), then the
 * traffic keys of a result: samples, duration_s, stop_reason, totals,
 * streams, accounting (without mbufs_missing, known only at the end).
 * Call after wr_run_stop(). NULL on memory exhaustion; caller
 * json_decref()s.
 */
json_t *wr_result_trial(const struct wr_run *run, unsigned int trial);

/*
 * The whole result, plus "trials" (a reference is taken) and their
 * "summary" when trials is not NULL. NULL with a message in err.
 */
json_t *wr_result_build_trials(const struct wr_run *run, json_t *trials,
		struct wr_error *err);

/*
 * Write the result of run to path atomically. Returns 0, or a negative
 * errno with a message naming the path.
 */
int wr_result_write(const struct wr_run *run, const char *path,
		struct wr_error *err);

/*
 * Write any JSON document to path atomically (temporary file, fsync,
 * rename; in place when path is a device or FIFO, see wr_file_write).
 * Returns 0 or a negative errno with a message.
 */
int wr_result_write_json(json_t *doc, const char *path, struct wr_error *err);

/* The same without the fsyncs (wr_file_write_nosync): atomic against a
 * crash of the process, not against a power cut. */
int wr_result_write_json_nosync(json_t *doc, const char *path,
		struct wr_error *err);

/*
 * The result of a run still going, from what the stats core holds after
 * its last tick (the workers' published copies, never their live state):
 * the keys of wr_result_build with "stop_reason": "running" and
 * "complete": false, samples and totals up to the last interval, streams
 * as of that interval. In a trial that saw no interval yet, just after it
 * ended, those of the last finished trial (its final reading). Returns
 * NULL without memory, or before any tick and any finished trial.
 */
json_t *wr_result_build_running(const struct wr_run *run);

/*
 * Rewrite --json atomically with wr_result_build_running, so that a crash
 * (SIGKILL, SIGSEGV, power cut) leaves the run up to its last interval.
 * Counts it in run->live.nb_ckpt_written or nb_ckpt_failed. Stats core only.
 */
void wr_result_checkpoint(struct wr_run *run);

/*
 * What finished so far: the keys of done (a method's "mode", "trials",
 * "results" ...; --repeat's "trials") go into every checkpoint of run from
 * now on, so that a crash keeps every finished point and trial. done is
 * borrowed: its owner keeps it alive, and calls this with NULL before it
 * frees it. With --checkpoint on and a trial run, a checkpoint is written
 * at once. Stats core only. This function can't fail.
 */
void wr_result_checkpoint_keep(struct wr_run *run, json_t *done);

/* The "capture" object of a result: what was kept and lost. */
json_t *wr_result_capture_json(const struct wr_capture *cap);

/*
 * A test mode's closing keys, once its ports closed: mbufs_missing,
 * stranded_pkts, stop_reason (rc -EINTR: signal, 0: done, else error)
 * and capture. This function can't fail.
 */
void wr_result_mode_end(json_t *doc, const struct wr_run *run, int rc);

#endif /* WR_RESULT_H */
