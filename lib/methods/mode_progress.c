/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Progress of a test mode (measure/progress.h): how many trials each method
 * may still run, at this size and at each later one, and the hand-over
 * to telemetry and app/ before every trial. The bounds are upper bounds:
 * they assume the worst answer from every trial still to come.
 */
#include <math.h>

#include <rte_cycles.h>

#include "config/opts_conntear.h"
#include "modes_int.h"
#include "stats/telemetry.h"

/* A b2b size not yet calibrated may need bursts up to this many times
 * longer than the longest one tried so far (64 B against 1518 B is 18x). */
#define B2B_UNSEEN_FACTOR 32u

/* Trials one target of s may still need, with lo passing, hi failing. */
static uint32_t
target_left(const struct wr_search_conf *c, double lo, double hi)
{
	double floor_pps = lo > 0 ? lo : c->min_pps;
	/* The resolution only grows with hi, and hi stays above lo. */
	double res = fmax(c->res_pps, c->res_rel * floor_pps);

	if (hi <= 0)    /* no failure yet: the maximum, or it passed there */
		return lo > 0 ? 0 : 2 + wr_progress_halvings(c->max_pps - c->min_pps, res);
	if (hi <= c->min_pps)
		return 0;
	if (lo > 0 && hi - lo <= fmax(c->res_pps, c->res_rel * hi))
		return 0;
	/* Without a pass the search ends by trying min_pps itself. */
	return wr_progress_halvings(hi - floor_pps, res) + (lo > 0 ? 0 : 1);
}

uint32_t
wr_mode_search_left(const struct wr_search *s)
{
	const struct wr_search_conf *c = &s->conf;
	uint32_t cap = c->max_trials > s->nb_trials ? c->max_trials - s->nb_trials : 0;
	struct wr_search_result r;
	uint32_t n;

	if (wr_search_result(s, &r) != 0 || (r.converged && s->nb_trials > 0))
		return 0;
	/* Every trial counts for both targets: the sum bounds them both. */
	n = target_left(c, r.ndr_pps, r.ndr_upper_pps);
	if (c->pdr_loss_ratio > 0)
		n += target_left(c, r.pdr_pps, r.pdr_upper_pps);
	return RTE_MIN(n, cap);
}

uint32_t
wr_mode_flr_left(const struct wr_search_flr *f)
{
	struct wr_search_flr c = *f;
	uint32_t n = 0;
	double pps;

	/* The worst case: loss in every trial, so no two clean ones end it. */
	while (n < WR_SEARCH_MAX_TRIALS * 8 &&
			wr_search_flr_next(&c, &pps, NULL) == WR_SEARCH_TRIAL) {
		n++;
		wr_search_flr_report(&c, 1, 1);
	}
	return n;
}

uint32_t
wr_mode_b2b_left(uint64_t lo, uint64_t hi, uint64_t max_pkts)
{
	if (lo == 0 && hi == max_pkts + 1)  /* the longest burst comes first */
		return 1 + wr_progress_halvings((double)max_pkts, 1.0);
	return wr_progress_halvings((double)(hi - lo), 1.0);
}

/* A calibration trial is needed for the 100% rate. */
static uint32_t
calibrates(const struct mode_ctx *m)
{
	return m->run->setup.cfg->mode != WR_MODE_Y1564 &&
		m->run->setup.cfg->mode != WR_MODE_ADDR_CAPACITY &&
		m->run->setup.cfg->mode != WR_MODE_ADDR_LEARNING &&
		m->run->setup.cfg->mode != WR_MODE_CONN_RATE &&
		m->run->setup.cfg->mode != WR_MODE_CONN_TEARDOWN &&
		m->run->setup.cfg->mode != WR_MODE_MESH &&
		m->run->setup.cfg->rate.unit == WR_RATE_NONE &&
		wr_mode_trusted_link_bps(m->run) == 0;
}

static uint32_t
fresh_search(const struct wr_config *cfg)
{
	static struct wr_search s;     /* ~3 kB: not on the stack */
	struct wr_search_conf c = {
		.max_pps = 1.0, .min_pps = WR_MODE_SEARCH_MIN_FRACTION,
		.res_rel = cfg->resolution_pct / 100.0,
		.pdr_loss_ratio = cfg->pdr_ratio, .max_trials = cfg->max_trials,
	};

	if (wr_search_init(&s, &c) != 0)
		return cfg->max_trials;
	return wr_mode_search_left(&s);
}

static uint32_t
fresh_b2b(const struct mode_ctx *m)
{
	const struct wr_config *cfg = m->run->setup.cfg;
	uint64_t max = cfg->b2b_max_pkts;

	if (max == 0 && m->b2b_max_seen_pkts == 0)
		return WR_PROGRESS_UNKNOWN;
	if (max == 0)
		max = m->b2b_max_seen_pkts * B2B_UNSEEN_FACTOR;
	return (cfg->b2b_max_pkts == 0 ? calibrates(m) : 0) +
		cfg->b2b_trials * wr_mode_b2b_left(0, max + 1, max);
}

/* Trials at most at a size not started yet. */
static uint32_t
per_size(const struct mode_ctx *m)
{
	const struct wr_config *cfg = m->run->setup.cfg;
	struct wr_search_flr f;

	switch (cfg->mode) {
	case WR_MODE_THROUGHPUT:
		return calibrates(m) + fresh_search(cfg) + cfg->nb_lat_loads;
	case WR_MODE_MLR:
		return calibrates(m) + wr_mode_mlr_max_trials(cfg) + cfg->nb_lat_loads;
	case WR_MODE_LOSS:
		if (wr_search_flr_init(&f, 1.0, cfg->loss_step_pct) != 0)
			return WR_PROGRESS_UNKNOWN;
		return calibrates(m) + wr_mode_flr_left(&f);
	case WR_MODE_B2B:
		return fresh_b2b(m);
	case WR_MODE_Y1564:
		return wr_mode_y1564_trials(cfg);
	case WR_MODE_ADDR_CAPACITY:
		return 1 + wr_progress_halvings((double)(cfg->rfc2889.max_nb -
			cfg->rfc2889.min_nb), 1.0);
	case WR_MODE_ADDR_LEARNING:
	case WR_MODE_CONN_RATE:
	case WR_MODE_CONN_TEARDOWN:
		return fresh_search(cfg);
	case WR_MODE_CONN_LOAD:
		return cfg->conn.nb_load_conc > 0 ? cfg->conn.nb_load_conc : 1;
	case WR_MODE_MESH:
		return cfg->rfc2889.mesh_max_pps > cfg->rfc2889.mesh_min_pps ?
			fresh_search(cfg) : 1;
	default:
		return 1;
	}
}

void
wr_mode_progress_begin(struct mode_ctx *m)
{
	const struct wr_config *cfg = m->run->setup.cfg;
	uint64_t ms = cfg->mode == WR_MODE_SWEEP ? cfg->duration_ms : cfg->trial_ms;
	double extra_s = 0;

	if (cfg->mode == WR_MODE_Y1564)
		ms = RTE_MAX(cfg->step_ms, cfg->perf_ms);
	/* A connection trial's drain: up to --grace more. */
	if (cfg->mode == WR_MODE_CONN_RATE || cfg->mode == WR_MODE_CONN_LOAD)
		ms += cfg->grace_ms;
	/* A tear-down trial: its fill, its closes at the top rate, the
	 * last close's deadline and --grace. */
	if (cfg->mode == WR_MODE_CONN_TEARDOWN)
		ms = cfg->conn.cfg.nb_conns * 1000 / WR_CONNTEAR_FILL_CPS +
			cfg->conn.cfg.nb_conns * 1000 / RTE_MAX(cfg->conn.cfg.cps,
			(uint64_t)1) + cfg->conn.cfg.close_timeout_us / 1000 +
			cfg->grace_ms;

	if (cfg->nb_lat_loads != 0)
		ms = RTE_MAX(ms, cfg->lat_trial_ms);
	/* A calibration is one trial of a size, perhaps longer than the rest. */
	if (cfg->mode != WR_MODE_SWEEP && calibrates(m) && WR_MODE_CALIBRATE_MS > ms)
		extra_s = (double)(WR_MODE_CALIBRATE_MS - ms) / 1e3;
	wr_progress_begin(&m->prog, wr_mode_name(cfg->mode),
		cfg->nb_sizes ? cfg->nb_sizes : 1, rte_rdtsc(), m->run->setup.tsc_hz);
	wr_progress_lengths(&m->prog, (double)ms / 1e3, extra_s);
}

void
wr_mode_progress_size(struct mode_ctx *m, uint32_t idx, uint32_t size)
{
	wr_progress_size(&m->prog, idx, size);
	m->size_left = per_size(m);
}

void
wr_mode_progress_trial(struct mode_ctx *m, const char *what,
		const struct wr_trial *t)
{
	uint32_t left = m->size_left;

	if (left != WR_PROGRESS_UNKNOWN && left > 0)
		left--;
	m->size_left = left;
	wr_progress_trial(&m->prog, what, (double)t->duration_ms / 1e3, left,
		per_size(m), rte_rdtsc());
	wr_telemetry_progress(&m->prog);
	if (m->h->on_progress != NULL)
		m->h->on_progress(&m->prog, m->h->arg);
}
