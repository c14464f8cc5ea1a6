/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the test modes share inside lib/: modes.c runs and records trials;
 * mode_mlr.c (MLRsearch) and mode_lat.c (latency under load) build on it.
 * Not for app/.
 */
#ifndef WR_MODES_INT_H
#define WR_MODES_INT_H

#include <jansson.h>

#include "modes.h"
#include "base/error.h"

/* State shared by the trials of one mode run. */
struct mode_ctx {
	struct wr_run *run;
	const struct wr_mode_hooks *h;
	json_t *trials;
	struct wr_error *err;
};

/*
 * Run one trial t, recorded in the result's "trials" as what; a paced
 * trial whose generator fell short is run again (at most 3 times, the
 * last counts). Returns 0, -EINTR on a signal, or a negative errno.
 */
int wr_mode_trial(struct mode_ctx *m, const struct wr_trial *t,
		const char *what, struct wr_trial_summary *s);

/* The same, run once even when the generator fell short (MLRsearch
 * decides itself what such a trial is worth). */
int wr_mode_trial_once(struct mode_ctx *m, const struct wr_trial *t,
		const char *what, struct wr_trial_summary *s);

/* A trial of size bytes at pps per TX port (0: unpaced) for ms. */
void wr_mode_trial_at(uint32_t size, double pps, uint64_t ms,
		struct wr_trial *t);

/*
 * The 100% rate at size (--rate, a trusted line rate or a calibration
 * trial), noted in res as "max_from". Returns 0 or a negative errno.
 */
int wr_mode_max_rate(struct mode_ctx *m, uint32_t size, double *pps,
		json_t *res);

/* The JSON object of a trial summary (caller owns it). */
json_t *wr_mode_summary_json(const struct wr_trial_summary *s);

/* The link speed the configuration lets us trust, 0 when none. */
uint64_t wr_mode_trusted_link_bps(const struct wr_run *run);

/* MLRsearch at size into res (mode_mlr.c). Returns as wr_mode_trial. */
int wr_mode_mlr(struct mode_ctx *m, uint32_t size, json_t *res);

/*
 * Latency under load after a search that ended with rc (mode_lat.c):
 * when rc is 0 and --lat-loads lists loads, trials at those shares of
 * the rate res found, in res "latency_under_load". Returns rc, or the
 * first error of its own trials.
 */
int wr_mode_lat_after(struct mode_ctx *m, uint32_t size, json_t *res, int rc);

#endif /* WR_MODES_INT_H */
