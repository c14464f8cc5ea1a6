/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RFC 2544 rate searches as pure state machines: the caller runs the
 * trials (send at a rate for the trial duration, count what came back) and
 * feeds the counts in. Nothing here sends, sleeps or prints.
 *
 * Throughput search (RFC 2544 section 26.1). Throughput is "the fastest
 * rate at which the count of test frames transmitted by the DUT is equal to
 * the number of test frames sent to it": the no-drop rate, NDR. Optionally
 * the same pass also finds a partial-drop rate, PDR: the fastest rate whose
 * loss ratio is at most pdr_loss_ratio (e.g. 0.005), as FD.io CSIT's
 * MLRsearch does (draft-ietf-bmwg-mlrsearch): every trial counts for both
 * targets, so the PDR search starts from what the NDR search measured.
 *
 * Algorithm. Each target (NDR, then PDR) has, from all trials so far:
 *   hi = the lowest rate that failed the target (loss above its ratio),
 *   lo = the highest rate that passed it and lies below hi.
 * Taking lo only below hi keeps the answer conservative when the device is
 * not monotonic (a pass above a failure is not believed). The next trial:
 *   - no failure yet: max_pps (RFC 2544 starts at the maximum rate);
 *   - a failure but no pass: the midpoint of [min_pps, hi], and min_pps
 *     itself once that interval is within the resolution;
 *   - both: the midpoint of [lo, hi] (binary search).
 * A target is resolved when hi - lo <= max(res_pps, res_rel * hi) (its
 * rate is then within that resolution of the true threshold, under a
 * monotonic loss curve), when max_pps passed (no loss up to the maximum), or
 * when min_pps failed (not found). The search is done when every target is
 * resolved, or after max_trials trials (then "converged" is false).
 */
#ifndef WR_SEARCH_H
#define WR_SEARCH_H

#include <stdbool.h>
#include <stdint.h>

#include "results/figures.h"

/* Most trials a search records. */
#define WR_SEARCH_MAX_TRIALS 128u

/* What wr_search_next() and wr_search_flr_next() return when not < 0. */
enum wr_search_step {
	WR_SEARCH_DONE = 0,	/* no more trials */
	WR_SEARCH_TRIAL = 1,	/* run a trial at *rate_pps, then report */
};

/* Parameters of a throughput search. */
struct wr_search_conf {
	double min_pps;		/* lowest rate tried, > 0 */
	double max_pps;		/* first rate tried (line rate), >= min_pps */
	double res_pps;		/* absolute resolution, >= 0 */
	double res_rel;		/* resolution relative to hi, in [0, 1) */
	double pdr_loss_ratio;	/* PDR: loss ratio allowed, [0, 1); 0: none */
	uint32_t max_trials;	/* trial cap, 1..WR_SEARCH_MAX_TRIALS */
};

/* One trial as reported. */
struct wr_search_trial {
	double rate_pps;	/* offered rate */
	uint64_t nb_sent_pkts;
	uint64_t nb_lost_pkts;
};

/* Search state; owned by the caller, one thread at a time. */
struct wr_search {
	struct wr_search_conf conf;
	uint32_t nb_trials;
	bool pending;		/* a rate was handed out, not yet reported */
	double pending_pps;
	struct wr_search_trial trials[WR_SEARCH_MAX_TRIALS];
};

/* Frame-loss-rate sequence (RFC 2544 section 26.3). */
struct wr_search_flr {
	double max_pps;		/* rate of the 100% trial */
	double step_pct;	/* step down, percent of max_pps */
	uint32_t step_idx;	/* trial number: rate is 100 - idx * step % */
	uint32_t nb_clean_in_row; /* successive trials without loss */
	bool pending;
	bool done;
};

/*
 * Start a throughput search with conf (copied).
 * Returns 0, or -EINVAL when a NULL is passed, a rate is not finite and
 * positive, max_pps < min_pps, both resolutions are 0 or one is out of
 * range, pdr_loss_ratio is outside [0, 1) or max_trials outside
 * 1..WR_SEARCH_MAX_TRIALS.
 */
int wr_search_init(struct wr_search *s, const struct wr_search_conf *conf);

/*
 * The next trial: stores its rate in *rate_pps and returns WR_SEARCH_TRIAL,
 * or returns WR_SEARCH_DONE. Asked again before the report, it gives the
 * same rate. Returns -EINVAL when s or rate_pps is NULL.
 */
int wr_search_next(struct wr_search *s, double *rate_pps);

/*
 * Report the trial handed out by wr_search_next(): rate_pps is the rate
 * actually offered (the one next() gave, or the measured one if the
 * generator fell short), nb_sent frames were sent and nb_lost of them not
 * received (RFC 2544 counts frames, never rates).
 * Returns 0, or -EINVAL when no trial is pending, rate_pps is not finite
 * and positive, nb_sent is 0 or nb_lost > nb_sent.
 */
int wr_search_report(struct wr_search *s, double rate_pps, uint64_t nb_sent,
		uint64_t nb_lost);

/*
 * The loss a search is told of for a trial that sent nb_sent frames and
 * lost lost_pkts of them (clamped at 0). A trial whose generator fell short
 * of its rate (reached false) is no evidence that the device passed that
 * rate, for any target: it is reported as lossy beyond every loss ratio
 * (all nb_sent frames), so neither the NDR nor the PDR can rise on it.
 * This function can't fail.
 */
uint64_t wr_search_evidence_loss(bool reached, uint64_t nb_sent,
		int64_t lost_pkts);

/*
 * Fill *res from the trials so far (valid at any time, final once next()
 * said done). Returns 0, or -EINVAL when s or res is NULL.
 */
int wr_search_result(const struct wr_search *s, struct wr_search_result *res);

/*
 * The trial the NDR of res (wr_search_result of s) was measured by: the
 * zero-loss trial at exactly res->ndr_pps. Not the highest zero-loss
 * trial: on a device whose loss is not monotonic a clean trial (of the PDR
 * stage, say) may lie above the NDR's upper bound. Returns its index in
 * s->trials, or -1 when no NDR was found.
 */
int wr_search_ndr_trial(const struct wr_search *s, const struct wr_search_result *res);

/*
 * Start the frame-loss-rate sequence: trials at 100%, 100 - step, 100 - 2
 * step ... percent of max_pps, until two successive trials lose nothing or
 * the next step would be at or below 0%. RFC 2544 26.3 asks for steps of
 * at most 10% and encourages finer ones. Returns 0, or -EINVAL when f is
 * NULL, max_pps is not finite and positive or step_pct is outside (0, 10].
 */
int wr_search_flr_init(struct wr_search_flr *f, double max_pps,
		double step_pct);

/*
 * The next trial: its rate in *rate_pps and, when pct is not NULL, its
 * percentage of max_pps in *pct; returns WR_SEARCH_TRIAL, or
 * WR_SEARCH_DONE. Asked again before the report, it gives the same trial.
 * Returns -EINVAL when f or rate_pps is NULL.
 */
int wr_search_flr_next(struct wr_search_flr *f, double *rate_pps,
		double *pct);

/*
 * Report the pending trial's counts; the frame loss rate the RFC reports is
 * nb_lost * 100 / nb_sent. Returns 0, or -EINVAL when no trial is pending,
 * nb_sent is 0 or nb_lost > nb_sent.
 */
int wr_search_flr_report(struct wr_search_flr *f, uint64_t nb_sent,
		uint64_t nb_lost);

#endif /* WR_SEARCH_H */
