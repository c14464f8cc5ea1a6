/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The figures the test modes (lib/methods) hand to the result document:
 * plain structs, filled by the methods, serialised by modejson.c alone, so
 * each key of the result has one home (docs/results.md says what it means).
 */
#ifndef WR_FIGURES_H
#define WR_FIGURES_H

#include <stdbool.h>
#include <stdint.h>

#include "config/goals.h"

/* What one trial came to. */
struct wr_trial_summary {
	uint32_t frame_size;
	double requested_pps;     /* per TX port; 0: unpaced */
	double achieved_pps;      /* per TX port, over the trial */
	uint64_t sent_pkts;       /* all streams whose sender is in the run */
	uint64_t received_pkts;
	int64_t lost_pkts;        /* sum of each stream's loss, each >= 0 */
	uint64_t excess_pkts;     /* frames counted beyond what was sent */
	double loss_ratio;        /* lost / sent */
	bool rate_reached;        /* every paced port reached its rate */
	bool tx_refused;          /* not reached, and a port short of its
	                           * rate refused frames (back-pressure), not
	                           * the generator's own limit */
	double duration_s;
	bool lat_valid;
	double lat_mean_ns;
	double lat_p50_ns;
	double lat_p99_ns;
	double lat_max_ns;
};

/* Outcome of a search. A rate is 0 where there is none. */
struct wr_search_result {
	double ndr_pps;		/* highest zero-loss rate (lo of NDR) */
	double ndr_upper_pps;	/* lowest lossy rate (hi of NDR) */
	double pdr_pps;		/* the same for PDR; copies NDR when no PDR */
	double pdr_upper_pps;
	bool ndr_found;		/* false: loss even at min_pps */
	bool pdr_found;
	bool converged;		/* every target resolved; false: trial cap */
	uint32_t nb_trials;
};

/* One MLRsearch trial as the search saw it (mlr.h). */
struct wr_mlr_trial {
	double load;           /* intended, pps */
	double offered;        /* what the generator achieved, pps */
	double duration_s;     /* intended (the draft's trial duration) */
	double measured_s;     /* as the caller measured it */
	double loss_ratio;     /* shortfall of offered below load included */
	bool reached;          /* offered reached the intended load */
	unsigned int goal;     /* the goal it was chosen for */
};

/* Per goal, what the trials so far prove. Loads are 0 where none. */
struct wr_mlr_goal_result {
	double rlb;            /* relevant lower bound */
	double rub;            /* relevant upper bound */
	double cond_throughput;/* at rlb, see above; 0 without rlb */
	bool done;
	bool rlb_is_max;       /* no upper bound up to max_load */
	bool rub_is_min;       /* even min_load fails */
};

/* A back-to-back point (RFC 2544 26.4): the longest burst of each search. */
struct wr_b2b_figures {
	uint64_t max_tried_pkts;     /* the longest burst tried */
	unsigned int nb_bursts;      /* searches finished */
	const uint64_t *bursts_pkts; /* [nb_bursts] */
};

/* An MLRsearch point: the goals' results, the trials, the bounds. */
struct wr_mlr_figures {
	unsigned int nb_goals;
	const struct wr_mlr_goal *goals;            /* [nb_goals] */
	const struct wr_mlr_goal_result *results;   /* [nb_goals] */
	uint32_t nb_trials;
	const struct wr_mlr_trial *trials;          /* [nb_trials] */
	double final_s, initial_s;  /* trial durations */
	double min_pps, max_pps;    /* the loads searched between */
	double search_s;            /* trial time added up */
};

#endif /* WR_FIGURES_H */
