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
#include "search.h"
#include "base/error.h"
#include "results/modejson.h"

/* Lowest rate a throughput search tries, as a fraction of the maximum. */
#define WR_MODE_SEARCH_MIN_FRACTION 0.001
/* Calibration trial when no maximum rate is known (unpaced, vdevs). */
#define WR_MODE_CALIBRATE_MS 2000u

/* State shared by the trials of one mode run. */
struct mode_ctx {
	struct wr_run *run;
	const struct wr_mode_hooks *h;
	json_t *trials;
	json_t *doc;               /* the result: finished points and trials,
	                            * in every checkpoint (wr_mode_run) */
	struct wr_error *err;
	struct wr_progress prog;
	uint32_t size_left;        /* trials at most still to run at this size,
	                            * the next one included (methods set it) */
	uint64_t b2b_max_seen_pkts; /* longest burst a b2b search tried */
	double lat_base_pps;       /* what the search found for latency under
	                            * load (0: nothing), and where it came from */
	const char *lat_base_from;
	json_t *results;           /* the doc's finished points (wr_mode_run) */
	json_t *trial_point;       /* a sweep's point while its trial runs: it
	                            * joins results with the trial it sums up,
	                            * in the same checkpoint (run_sweep) */
	double up_pps;             /* both directions: the far end's rate for
	                            * the next trial, and its trial (far.both) */
	struct wr_trial_summary up;
};

/* A throughput search's bounds under cfg, from max_pps down. Can't fail. */
void wr_mode_search_conf(const struct wr_config *cfg, double max_pps,
		struct wr_search_conf *sc);

/*
 * The loss a search takes from trial s: a trial whose generator fell
 * short counts as lossy (never as a pass); *limited counts them.
 */
uint64_t wr_mode_search_loss(const struct wr_trial_summary *s,
		unsigned int *limited);

/*
 * --mode throughput with a far end that sends too (far.both): one search
 * per direction in the same trials (mode_both.c), downstream (this run
 * to the far end) as the point, upstream in it. Returns as wr_mode_trial.
 */
int wr_mode_throughput_both(struct mode_ctx *m, uint32_t size, json_t *res);

/*
 * Progress (mode_progress.c): start m->prog for the sizes of the run.
 * This function can't fail.
 */
void wr_mode_progress_begin(struct mode_ctx *m);

/* Size idx (1-based) of size bytes starts. This function can't fail. */
void wr_mode_progress_size(struct mode_ctx *m, uint32_t idx, uint32_t size);

/*
 * A trial of kind what, t, starts: count it, publish the progress to
 * telemetry and app/. This function can't fail.
 */
void wr_mode_progress_trial(struct mode_ctx *m, const char *what,
		const struct wr_trial *t);

/*
 * The far end's books of a connection trial (mode_connfar.c), when
 * m->h->conn_far is set; else nothing. begin: before the trial. judge:
 * after it is recorded (the last of m->trials), with the client's books
 * over it (d). Both return 0 (judge: also when the two ends disagree,
 * which app/ counts), or a negative errno with m->err.
 */
int wr_mode_conn_far_begin(struct mode_ctx *m);
int wr_mode_conn_far_judge(struct mode_ctx *m, const struct wr_conn_books *d);

/* Trials a throughput search s may still run, at most. Can't fail. */
uint32_t wr_mode_search_left(const struct wr_search *s);

/* Trials a frame loss sequence f may still run, at most. Can't fail. */
uint32_t wr_mode_flr_left(const struct wr_search_flr *f);

/*
 * Trials one back-to-back search (modes.c b2b_search) of bursts up to
 * max_pkts may still run, with lo passing and hi failing (hi = max_pkts
 * + 1 before the first trial). This function can't fail.
 */
uint32_t wr_mode_b2b_left(uint64_t lo, uint64_t hi, uint64_t max_pkts);

/* The most trials MLRsearch may run at one size under cfg. Can't fail. */
uint32_t wr_mode_mlr_max_trials(const struct wr_config *cfg);

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

/* The link speed the configuration lets us trust, 0 when none. */
uint64_t wr_mode_trusted_link_bps(const struct wr_run *run);

/* MLRsearch at size into res (mode_mlr.c). Returns as wr_mode_trial. */
int wr_mode_mlr(struct mode_ctx *m, uint32_t size, json_t *res);

/*
 * Latency under load after a search that ended with rc (mode_lat.c):
 * when rc is 0 and --lat-loads lists loads, trials at those shares of
 * the rate the search found (m->lat_base_pps), in res
 * "latency_under_load". Returns rc, or the first error of its own trials.
 */
int wr_mode_lat_after(struct mode_ctx *m, uint32_t size, json_t *res, int rc);

/*
 * ITU-T Y.1564 over the services of the configuration (mode_y1564.c):
 * the doc's "y1564". Returns as wr_mode_trial.
 */
int wr_mode_y1564(struct mode_ctx *m);

/* Trials --mode y1564 runs at most under cfg (mode_y1564.c). */
uint32_t wr_mode_y1564_trials(const struct wr_config *cfg);

/*
 * RFC 2889 5.7 or 5.8 (--mode addr-capacity, addr-learning;
 * mode_rfc2889.c): the doc's "rfc2889". Returns as wr_mode_trial.
 */
int wr_mode_rfc2889(struct mode_ctx *m);

/*
 * The maximum connection establishment rate of a --conn client (--mode
 * conn-rate, mode_conn.c): the doc's "conn_rate". Returns as
 * wr_mode_trial.
 */
int wr_mode_conn_rate(struct mode_ctx *m);

/*
 * --mode conn-load (mode_connload.c): a trial per --conn-concurrency
 * value; the doc's "conn_load". Returns as wr_mode_conn_rate.
 */
int wr_mode_conn_load(struct mode_ctx *m);

/*
 * --mode conn-teardown (mode_conntear.c): the tear-down rate search, a
 * fill and a paced close per trial; the doc's "conn_teardown". Returns
 * as wr_mode_conn_rate.
 */
int wr_mode_conn_teardown(struct mode_ctx *m);

/*
 * Run the --fdb-reset command cmd under /bin/sh, its output to our
 * stderr (stdout may carry the result; mode_rfc2889.c). Returns 0, or a
 * negative errno with err set when it could not start or did not exit 0.
 */
int wr_mode_fdb_reset(const char *cmd, struct wr_error *err);

/*
 * RFC 2889 5.1 or 5.2 (--mode mesh; mode_mesh.c): the doc's "rfc2889".
 * Returns as wr_mode_trial.
 */
int wr_mode_mesh(struct mode_ctx *m);

#endif /* WR_MODES_INT_H */
