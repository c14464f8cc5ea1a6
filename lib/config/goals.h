/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Search goals of --mode mlr (--goals): what the user asks MLRsearch to
 * find, parsed here; the search itself is methods/mlr.h, which defines
 * each field (Goal Loss Ratio, Goal Exceed Ratio, Goal Duration Sum,
 * Goal Width).
 */
#ifndef WR_GOALS_H
#define WR_GOALS_H

#include <stddef.h>
#include "base/error.h"

#define WR_MLR_MAX_GOALS 8u

struct wr_mlr_goal {
	double loss_ratio;     /* GLR, [0, 1) */
	double exceed_ratio;   /* GER, [0, 1) */
	double duration_sum_s; /* GDS, > 0 */
	double width;          /* GW, relative, (0, 1) */
};

/*
 * Parse one goal "LOSS:EXCEED:SUM:WIDTH" (SUM a duration: 21, 21s,
 * 500ms). Returns 0 or -EINVAL with a message naming the field.
 */
int wr_mlr_goal_parse(const char *s, struct wr_mlr_goal *g, struct wr_error *err);

/*
 * Parse a comma-separated list of goals into g[0..*n-1] (at most
 * WR_MLR_MAX_GOALS). Returns 0 or -EINVAL with a message.
 */
int wr_mlr_goals_parse(const char *s, struct wr_mlr_goal *g, unsigned int *n,
		struct wr_error *err);

/* CSIT's goals: NDR (0) and PDR (0.005), each 0.5 exceed, 21 s, 0.5%. */
void wr_mlr_default_goals(struct wr_mlr_goal *g, unsigned int *n);

#endif /* WR_GOALS_H */
