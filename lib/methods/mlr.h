/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * MLRsearch (draft-ietf-bmwg-mlrsearch, FD.io CSIT) as a pure state
 * machine: the caller runs each trial (intended load, duration) and
 * reports what it measured; nothing here sends, sleeps or prints.
 *
 * Definitions (draft section numbers of -08 onwards, "Search Goal" and
 * "Load Classification"):
 *   A search goal has a Goal Loss Ratio (GLR), a Goal Exceed Ratio (GER),
 *   a Goal Duration Sum (GDS) and a Goal Width (GW); every goal shares the
 *   Goal Final Trial Duration (GFTD, --trial).
 *   A trial is full-length when its duration >= GFTD, short otherwise;
 *   high-loss for a goal when its loss ratio > GLR, low-loss otherwise.
 *   At one load, over its full-length trials: positive = low-loss
 *   seconds, negative = high-loss seconds, missing = max(0, GDS -
 *   positive - negative), whole = positive + negative + missing;
 *     optimistic exceed ratio  = negative / whole,
 *     pessimistic exceed ratio = (negative + missing) / whole.
 *   The load is an Upper Bound when the optimistic exceed ratio > GER
 *   (more trials cannot save it), a Lower Bound when the pessimistic
 *   exceed ratio <= GER (more trials cannot sink it), undecided otherwise.
 *   Relevant Upper Bound (RUB): the smallest upper bound. Relevant Lower
 *   Bound (RLB): the largest lower bound below the RUB.
 *   The goal is done when RLB and RUB exist and (RUB - RLB) / RUB <= GW,
 *   or when the max load is a lower bound (no RUB: the goal holds up to
 *   the maximum), or when the min load is an upper bound (no RLB).
 *   Conditional Throughput at the RLB: its full-length trials sorted by
 *   loss ratio, the one where the sum of durations (best first) reaches
 *   (1 - GER) x max(GDS, their sum); CT = RLB x (1 - that loss ratio).
 *
 * A trial whose generator fell short of the intended load (offered load
 * below it) is evidence like any other, as the draft has it: the trial
 * load is the intended one, and its loss ratio counts the frames not
 * offered as lost (at least 1 - offered / intended). A maximum the
 * generator cannot reach (line rate, the unpaced maximum) is thus an upper
 * bound, and the search moves below it to what the generator can offer;
 * a stalled trial is one high-loss trial, which the goal exceed ratio
 * weighs like any other.
 *
 * The search strategy is ours (the draft leaves it to implementations):
 *   1. short trials (initial duration) bisect, per goal in turn, from the
 *      max load until the interval is within the goal width, and only
 *      until that goal has a full-length classification; a short trial
 *      steers the next choice only, it never classifies a load;
 *   2. full-length trials then confirm bounds per goal: at undecided loads
 *      first, then at the candidates from step 1, widening by doubling
 *      steps of GW when a candidate proves wrong, then bisecting between
 *      RLB and RUB until the width holds.
 * Every trial counts for every goal.
 */
#ifndef WR_MLR_H
#define WR_MLR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config/goals.h"
#include "results/figures.h"

#define WR_MLR_MAX_TRIALS 512u


struct wr_mlr_conf {
	double min_load;       /* pps, > 0 */
	double max_load;       /* pps, >= min_load */
	double final_s;        /* GFTD */
	double initial_s;      /* short trials, (0, final_s] */
	unsigned int nb_goals;
	struct wr_mlr_goal goals[WR_MLR_MAX_GOALS];
	uint32_t max_trials;   /* 1..WR_MLR_MAX_TRIALS */
};

struct wr_mlr {
	struct wr_mlr_conf conf;
	uint32_t nb_trials;
	bool pending;
	double pending_load;
	double pending_s;
	unsigned int goal;     /* goal being worked on */
	unsigned int widen[WR_MLR_MAX_GOALS]; /* widening steps taken */
	struct wr_mlr_trial trials[WR_MLR_MAX_TRIALS];
};

/* What wr_mlr_next() returns when not < 0. */
enum wr_mlr_step {
	WR_MLR_DONE = 0,
	WR_MLR_TRIAL = 1,
};


/*
 * Start a search with conf (copied). Returns 0 or -EINVAL for a NULL, a
 * load not finite and positive, max < min, durations out of order, no
 * goal, a goal out of range or max_trials out of range.
 */
int wr_mlr_init(struct wr_mlr *m, const struct wr_mlr_conf *conf);

/*
 * The next trial: its intended load and duration; WR_MLR_TRIAL, or
 * WR_MLR_DONE when every goal is done or max_trials were run. Asked again
 * before the report, it gives the same trial. -EINVAL on NULL.
 */
int wr_mlr_next(struct wr_mlr *m, double *load, double *duration_s);

/*
 * Report the pending trial: the offered load, the measured duration and
 * loss ratio (lost / sent), and whether the generator reached the intended
 * load; when it did not, the loss ratio recorded is at least the shortfall
 * 1 - offered / intended (see above). Returns 0, or -EINVAL when nothing
 * is pending, the trial table is full or a value is out of range.
 */
int wr_mlr_report(struct wr_mlr *m, double offered, double duration_s,
		double loss_ratio, bool reached);

/* Goal g's result from the trials so far. -EINVAL on bad arguments. */
int wr_mlr_result(const struct wr_mlr *m, unsigned int g,
		struct wr_mlr_goal_result *r);

#endif /* WR_MLR_H */
