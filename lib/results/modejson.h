/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The test modes' part of the result document (docs/results.md: mode,
 * trials, results[] and their keys): the methods (lib/methods) hand over
 * the figures of figures.h and the objects to fill; only this file writes
 * their keys. None of these can fail short of memory exhaustion (jansson
 * then drops the key).
 */
#ifndef WR_MODEJSON_H
#define WR_MODEJSON_H

#include <jansson.h>

#include "figures.h"
#include "setup/run.h"

/* One trial's figures: frame_size .. latency_*_ns. */
json_t *wr_result_summary_json(const struct wr_trial_summary *s);

/* doc's mode keys: mode, trial_s (trial_ms), trial_pkts (a sweep by
 * count), rfc2544_trial_length, pdr_ratio (throughput), and the empty
 * trials and results arrays, returned through *trials and *results. */
void wr_result_mode_head(json_t *doc, const char *mode, const struct wr_config *cfg,
		uint64_t trial_ms, json_t **trials, json_t **results);

/* Record the trial run just stopped in trials: its figures, what it was
 * for (what), then its traffic keys (wr_result_add_trial). */
void wr_result_trial_record(json_t *trials, const struct wr_trial_summary *s,
		const char *what, const struct wr_run *run);

/* A new point of results[] at size, not yet appended. */
json_t *wr_result_point(uint32_t size);

/*
 * Mark point res as one the method could not finish ("incomplete", with
 * the reason): it holds what was found before. This function can't fail.
 */
void wr_result_point_incomplete(json_t *res, const char *reason);

/*
 * The point is finished (or failed): it joins results (ref stolen), unless
 * wr_result_point_join put it there already.
 */
void wr_result_point_done(json_t *results, json_t *res);

/*
 * The point joins results now, before it is finished (a sweep's, with its
 * trial), once however often called; the caller keeps its reference for
 * wr_result_point_done.
 */
void wr_result_point_join(json_t *results, json_t *res);

/* Where the point's 100% rate came from ("--rate", "line rate", ...). */
void wr_result_max_from(json_t *res, const char *from);

/* A sweep point: its one trial's figures. */
void wr_result_sweep(json_t *res, const struct wr_trial_summary *s);

/* Trials of the point whose generator fell short of its rate. */
void wr_result_limited(json_t *res, unsigned int limited);

/* A throughput point: NDR, PDR and the search, latency at the NDR from
 * at_ndr (absent when it sent nothing); link 0 when no trusted speed. */
void wr_result_search(json_t *res, const struct wr_search_result *r,
		const struct wr_trial_summary *at_ndr, uint32_t size, uint64_t link);

/*
 * Both directions (docs/twoended.md): res, the downstream point, takes
 * up (stolen), the upstream one, as "upstream". This function can't fail.
 */
void wr_result_point_upstream(json_t *res, json_t *up);

/* A loss point's steps: each trial's figures, pct_of_max and loss_pct. */
void wr_result_loss_steps(json_t *res, const struct wr_trial_summary *steps,
		const double *pct, unsigned int n);

/* A back-to-back point. */
void wr_result_b2b(json_t *res, const struct wr_b2b_figures *b);

/* An MLRsearch point at size. */
void wr_result_mlr(json_t *res, const struct wr_mlr_figures *f, uint32_t size);

/*
 * A point's latency_under_load head: the base rate and where it came
 * from; skipped (NULL: not) says why no level runs. Returns the levels
 * array to fill, NULL when skipped.
 */
json_t *wr_result_lat_head(json_t *res, const char *from, double base,
		const char *skipped);

/* A latency level: the trial just stopped at pct of the base (pps). */
void wr_result_lat_level(json_t *levels, double pct, double pps,
		const struct wr_trial_summary *s, const struct wr_run *run);

#endif /* WR_MODEJSON_H */
