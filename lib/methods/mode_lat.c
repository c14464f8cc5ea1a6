/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Latency under load (FD.io CSIT's practice): RFC 2544 26.2 measures
 * latency only at the throughput rate, at the edge of loss, where queues
 * are full and the figure says little. After a throughput or MLR search,
 * trials at --lat-loads shares of the rate found (0% being a trickle)
 * record latency percentiles and the whole histogram, with the clock and
 * its resolution beside every figure (written by results/modejson.c).
 */
#include <math.h>
#include <stdio.h>

#include "modes_int.h"

/* "0%": a trickle that queues nowhere, at most the rate found. */
#define LAT_TRICKLE_PPS 10000.0

/* One load level: a trial at pct of base, its latency and loss. */
static int
level(struct mode_ctx *m, uint32_t size, double base, double pct, json_t *levels)
{
	const struct wr_config *cfg = m->run->setup.cfg;
	double pps = pct == 0 ? fmin(LAT_TRICKLE_PPS, base) : base * pct / 100.0;
	uint64_t ms = cfg->lat_trial_ms != 0 ? cfg->lat_trial_ms : cfg->trial_ms;
	struct wr_trial_summary s;
	struct wr_trial t;
	int rc;

	wr_mode_trial_at(size, pps, ms, &t);
	rc = wr_mode_trial(m, &t, "latency", &s);
	if (rc != 0)
		return rc;
	wr_result_lat_level(levels, pct, pps, &s, m->run);
	return 0;
}

int
wr_mode_lat_after(struct mode_ctx *m, uint32_t size, json_t *res, int rc)
{
	const struct wr_config *cfg = m->run->setup.cfg;
	const char *skipped = NULL;
	json_t *levels;
	unsigned int i;

	if (rc != 0 || cfg->nb_lat_loads == 0)
		return rc;
	if (!wr_run_lat_on(m->run))
		skipped = cfg->stamp != WR_STAMP_FULL ?
			"frames carry no TX timestamp (--stamp)" : "--latency off";
	else if (m->lat_base_pps <= 0)
		skipped = "no rate was found";
	levels = wr_result_lat_head(res, m->lat_base_from, m->lat_base_pps, skipped);
	for (i = 0; levels != NULL && i < cfg->nb_lat_loads && rc == 0; i++) {
		m->size_left = cfg->nb_lat_loads - i;
		snprintf(m->prog.phase, sizeof(m->prog.phase), "load %u/%u", i + 1,
			cfg->nb_lat_loads);
		rc = level(m, size, m->lat_base_pps, cfg->lat_loads_pct[i], levels);
	}
	return rc;
}
