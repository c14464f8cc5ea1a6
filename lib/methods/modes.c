/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/units.h"
#include "modes_int.h"
#include "results/result.h"
#include "search.h"
#include "stats/collect.h"

/* Shortest burst the RFC asks back-to-back trials to reach: 2 s at max. */
#define B2B_DEFAULT_SPAN_S 2.0

const char *
wr_mode_name(enum wr_mode mode)
{
	static const char *const names[] = {
		[WR_MODE_RUN] = "run", [WR_MODE_SWEEP] = "sweep",
		[WR_MODE_THROUGHPUT] = "throughput", [WR_MODE_LOSS] = "loss",
		[WR_MODE_B2B] = "b2b", [WR_MODE_MLR] = "mlr",
		[WR_MODE_Y1564] = "y1564", [WR_MODE_ADDR_CAPACITY] = "addr-capacity",
		[WR_MODE_ADDR_LEARNING] = "addr-learning",
		[WR_MODE_CONN_RATE] = "conn-rate",
		[WR_MODE_CONN_LOAD] = "conn-load",
		[WR_MODE_CONN_CAPACITY] = "conn-capacity",
		[WR_MODE_MESH] = "mesh",
		[WR_MODE_CONN_TEARDOWN] = "conn-teardown",
	};

	return (unsigned int)mode < RTE_DIM(names) ? names[mode] : "?";
}

static unsigned int
nb_tx_ports(const struct wr_run *run)
{
	unsigned int p, n = 0;

	for (p = 0; p < run->setup.nb_ports; p++)
		n += run->setup.ports[p].tx;
	return n ? n : 1;
}

/* Latency over every RX queue whose streams all qualify. */
static void
summarize_latency(const struct wr_run *run, struct wr_trial_summary *s)
{
	static struct wr_hist h;

	wr_hist_init(&h);
	wr_collect_lat(run, WR_COLLECT_LAT_VALID, &h);
	s->lat_valid = h.nb > 0;
	if (!s->lat_valid)
		return;
	s->lat_mean_ns = wr_stats_tsc_to_ns(wr_hist_mean(&h), run->setup.tsc_hz);
	s->lat_p50_ns = wr_stats_tsc_to_ns((double)wr_hist_percentile(&h, 50), run->setup.tsc_hz);
	s->lat_p99_ns = wr_stats_tsc_to_ns((double)wr_hist_percentile(&h, 99), run->setup.tsc_hz);
	s->lat_max_ns = wr_stats_tsc_to_ns((double)h.max, run->setup.tsc_hz);
}

void
wr_mode_summarize(const struct wr_run *run, struct wr_trial_summary *s)
{
	uint64_t tx = 0;
	unsigned int i;

	memset(s, 0, sizeof(*s));
	s->frame_size = run->live.trial.frame_size;
	s->duration_s = wr_run_seconds(run, run->live.start_tsc, run->live.tx_stop_tsc);
	for (i = 0; i < run->setup.nb_ports; i++) {
		tx += run->res.total[i].tx_pkts;
		s->requested_pps += run->setup.ports[i].rate_pps;
	}
	s->requested_pps /= nb_tx_ports(run);
	s->achieved_pps = s->duration_s > 0 ? (double)tx / s->duration_s /
		nb_tx_ports(run) : 0.0;
	for (i = 0; i < run->res.nb_streams; i++) {
		const struct wr_stream_result *r = &run->res.streams[i];

		if (!r->sender_known)
			continue;
		s->sent_pkts += r->sent_pkts;
		s->received_pkts += r->view.seq.nb_rx_pkts;
		/* Each stream's loss is clamped at 0: excess never hides loss. */
		s->lost_pkts += r->lost_pkts;
		s->excess_pkts += r->excess_pkts;
	}
	s->loss_ratio = s->sent_pkts ? (double)s->lost_pkts / (double)s->sent_pkts : 0;
	s->rate_reached = true;
	for (i = 0; i < run->setup.nb_ports; i++) {
		struct wr_rate_check rc;

		if (wr_run_rate_check(run, i, &rc) && !rc.reached) {
			s->rate_reached = false;
			s->tx_refused |= run->res.total[i].tx_full_pkts != 0 ||
				rc.port_blocked;
		}
	}
	summarize_latency(run, s);
}

/*
 * A paced trial whose generator fell short of the rate (the worker was
 * stalled) says nothing about the device: run it again, at most this often.
 */
#define TRIAL_ATTEMPTS 3

/* A trial, repeated while its rate was not reached; the last one counts. */
int
wr_mode_trial(struct mode_ctx *m, const struct wr_trial *t, const char *what,
		struct wr_trial_summary *s)
{
	unsigned int i;
	int rc = 0;

	for (i = 0; i < TRIAL_ATTEMPTS; i++) {
		/* A run again is beyond the method's bound of trials left. */
		if (i > 0 && m->size_left != WR_PROGRESS_UNKNOWN)
			m->size_left++;
		rc = wr_mode_trial_once(m, t, what, s);
		if (rc != 0 || (s->rate_reached && (m->h->far == NULL ||
				!m->h->far->both || m->up.rate_reached)))
			break;
	}
	return rc;
}

/*
 * A sweep's point is its trial's summary (the last attempt's): it joins
 * results as the trial is recorded, so that no checkpoint holds the
 * trial without its point. A trial a signal stopped leaves the point
 * bare (frame_size only), as a failed point.
 */
static void
point_of_trial(struct mode_ctx *m, const struct wr_trial_summary *s)
{
	wr_result_sweep(m->trial_point, s);
	wr_result_point_join(m->results, m->trial_point);
}

/* One trial: prepare, run, stop, summarise, record. */
int
wr_mode_trial_once(struct mode_ctx *m, const struct wr_trial *t, const char *what,
		struct wr_trial_summary *s)
{
	enum wr_stop_reason why;
	int rc;

	const struct wr_mode_far *far = m->h->far;

	wr_mode_progress_trial(m, what, t);
	rc = far != NULL ? far->begin(m->run, t, far->both ? m->up_pps : 0.0,
		far->arg, m->err) : 0;
	if (rc == 0)
		rc = wr_run_trial(m->run, t, m->err);
	if (rc == 0)
		rc = wr_run_start(m->run, m->err);
	if (rc != 0)
		return rc;
	why = wr_run_wait(m->run, m->h->signals, m->h->on_interval, m->h->arg);
	wr_run_stop(m->run, why);
	wr_mode_summarize(m->run, s);
	if (far != NULL) {
		memset(&m->up, 0, sizeof(m->up));
		rc = far->judge(m->run, s, far->both ? &m->up : NULL, far->arg, m->err);
		if (rc != 0)
			return rc;
	}
	wr_result_trial_record(m->trials, s, what, m->run);
	if (far != NULL)
		far->note(m->trials, far->arg);
	if (m->trial_point != NULL && why != WR_STOP_SIGNAL)
		point_of_trial(m, s);
	/* A crash from now on loses no finished trial (docs/results.md). */
	wr_result_checkpoint_keep(m->run, m->doc);
	if (m->h->on_trial != NULL)
		m->h->on_trial(m->run, what, s, m->h->arg);
	if (why == WR_STOP_SIGNAL) {
		return wr_err_fail(m->err, -EINTR, "stopped by a signal");
	}
	return 0;
}

void
wr_mode_trial_at(uint32_t size, double pps, uint64_t ms, struct wr_trial *t)
{
	memset(t, 0, sizeof(*t));
	t->frame_size = size;
	if (pps > 0) {
		t->rate.unit = WR_RATE_PPS;
		t->rate.value = pps;
	}
	t->duration_ms = ms;
}

/* The link speed the configuration lets us trust, 0 when none. */
uint64_t
wr_mode_trusted_link_bps(const struct wr_run *run)
{
	unsigned int p;

	if (run->setup.cfg->link_speed_bps != 0)
		return run->setup.cfg->link_speed_bps;
	for (p = 0; p < run->setup.nb_ports; p++)
		if (run->setup.ports[p].tx && run->setup.ports[p].link_speed_mbps != 0 &&
				!wr_run_speed_is_label(&run->setup.ports[p]))
			return (uint64_t)run->setup.ports[p].link_speed_mbps * 1000000;
	return 0;
}

/*
 * The 100% rate of the RFC 2544 tests at size: --rate, else line rate of a
 * trusted link, else what an unpaced calibration trial reaches (labelled).
 */
int
wr_mode_max_rate(struct mode_ctx *m, uint32_t size, double *pps, json_t *res)
{
	const struct wr_config *cfg = m->run->setup.cfg;
	uint64_t link = wr_mode_trusted_link_bps(m->run);
	struct wr_trial_summary s;
	struct wr_trial t;
	int rc;

	if (cfg->rate.unit == WR_RATE_PCT && link == 0) {
		return wr_err_usage(m->err, -EINVAL, "--rate %g%%: no trusted link "
			"speed (virtual NICs report a label): give --link-speed",
			cfg->rate.value);
	}
	if (cfg->rate.unit != WR_RATE_NONE) {
		wr_result_max_from(res, "--rate");
		return wr_rate_to_pps(&cfg->rate, size, link, pps);
	}
	if (link != 0) {
		*pps = wr_units_line_rate_pps(link, size);
		wr_result_max_from(res, "line rate");
		return 0;
	}
	wr_mode_trial_at(size, 0, WR_MODE_CALIBRATE_MS, &t);
	rc = wr_mode_trial(m, &t, "calibrate", &s);
	if (rc != 0)
		return rc;
	*pps = s.achieved_pps;
	wr_result_max_from(res, "calibration (unpaced)");
	if (*pps <= 0)
		return wr_err_fail(m->err, -EIO, "the calibration trial at %u B sent "
			"nothing: no 100%% rate to start from (give --rate)", size);
	return 0;
}

static int
run_sweep(struct mode_ctx *m, uint32_t size, json_t *res)
{
	struct wr_trial_summary s;
	struct wr_trial t;
	int rc;

	wr_trial_from_config(m->run->setup.cfg, &t);
	t.frame_size = size;
	m->trial_point = res;   /* filled as each attempt is recorded */
	rc = wr_mode_trial(m, &t, "sweep", &s);
	m->trial_point = NULL;
	return rc;
}

/*
 * Loss the search is told of (wr_search_evidence_loss): a trial whose
 * generator never reached its rate (even after retries) cannot show the
 * device passed that rate, for the NDR or the PDR, so the search errs low,
 * never high; *limited counts them.
 */
void
wr_mode_search_conf(const struct wr_config *cfg, double max_pps,
		struct wr_search_conf *sc)
{
	memset(sc, 0, sizeof(*sc));
	sc->max_pps = max_pps;
	sc->min_pps = max_pps * WR_MODE_SEARCH_MIN_FRACTION;
	sc->res_rel = cfg->resolution_pct / 100.0;
	sc->pdr_loss_ratio = cfg->pdr_ratio;
	sc->max_trials = cfg->max_trials;
}

uint64_t
wr_mode_search_loss(const struct wr_trial_summary *s, unsigned int *limited)
{
	if (!s->rate_reached)
		(*limited)++;
	return wr_search_evidence_loss(s->rate_reached, s->sent_pkts, s->lost_pkts);
}

/* What a search may still run at this size: its trials, then latency. */
static void
search_progress(struct mode_ctx *m, const struct wr_search *srch)
{
	struct wr_search_result r;

	wr_search_result(srch, &r);
	m->size_left = wr_mode_search_left(srch) + m->run->setup.cfg->nb_lat_loads;
	/* The NDR is resolved once its bounds are within the resolution. */
	snprintf(m->prog.phase, sizeof(m->prog.phase), "%s",
		r.ndr_found && r.ndr_upper_pps > 0 && r.ndr_upper_pps - r.ndr_pps <=
		srch->conf.res_rel * r.ndr_upper_pps && srch->conf.pdr_loss_ratio > 0 ?
		"PDR" : "NDR");
}

/*
 * The rate latency under load takes shares of: the PDR when one was asked
 * and differs from the NDR, else the NDR; 0 when none was found.
 */
static void
lat_base(struct mode_ctx *m, const struct wr_search_result *r)
{
	if (r->pdr_found && r->pdr_pps != r->ndr_pps) {
		m->lat_base_from = "pdr";
		m->lat_base_pps = r->pdr_pps;
	} else {
		m->lat_base_from = "ndr";
		m->lat_base_pps = r->ndr_found ? r->ndr_pps : 0.0;
	}
}

/*
 * RFC 2544 26.1: the highest rate without loss, and latency there (26.2):
 * from the trial at the reported NDR rate (wr_search_ndr_trial), each
 * search trial's summary kept by its index until the search ends.
 */
static int
run_throughput(struct mode_ctx *m, uint32_t size, json_t *res)
{
	const struct wr_config *cfg = m->run->setup.cfg;
	struct wr_trial_summary *sums, none;
	struct wr_search_conf sc;
	struct wr_search_result r;
	struct wr_search srch;
	struct wr_trial t;
	unsigned int limited = 0;
	double pps;
	int rc, at;

	if (m->h->far != NULL && m->h->far->both)
		return wr_mode_throughput_both(m, size, res);
	rc = wr_mode_max_rate(m, size, &pps, res);
	if (rc != 0)
		return rc;
	sums = calloc(WR_SEARCH_MAX_TRIALS, sizeof(*sums));
	if (sums == NULL)
		return wr_err_env(m->err, -ENOMEM, "--mode throughput: no memory "
			"for the trials' summaries");
	memset(&none, 0, sizeof(none));
	wr_mode_search_conf(cfg, pps, &sc);
	rc = wr_search_init(&srch, &sc);
	while (rc == 0 && wr_search_next(&srch, &pps) == WR_SEARCH_TRIAL) {
		struct wr_trial_summary *s = &sums[srch.nb_trials];

		search_progress(m, &srch);
		wr_mode_trial_at(size, pps, cfg->trial_ms, &t);
		rc = wr_mode_trial(m, &t, "search", s);
		if (rc == 0 && s->sent_pkts == 0)
			rc = wr_err_fail(m->err, -EIO, "--mode throughput at %u B: the "
				"trial at %.6g pps sent no frame: no loss ratio to search "
				"on", size, pps);
		if (rc == 0)
			rc = wr_search_report(&srch, pps, s->sent_pkts,
				wr_mode_search_loss(s, &limited));
	}
	if (rc == 0) {
		wr_result_limited(res, limited);
		wr_search_result(&srch, &r);
		at = wr_search_ndr_trial(&srch, &r);
		wr_result_search(res, &r, at >= 0 ? &sums[at] : &none, size,
			wr_mode_trusted_link_bps(m->run));
		lat_base(m, &r);
	}
	free(sums);
	return rc;
}

/* RFC 2544 26.3: loss at 100%, 90%, ... until two trials without loss. */
static int
run_loss(struct mode_ctx *m, uint32_t size, json_t *res)
{
	/* 100%, then steps of --loss-step down to 0%: the most there can be. */
	unsigned int cap = (unsigned int)(100.0 / m->run->setup.cfg->loss_step_pct) + 2;
	struct wr_trial_summary *steps = calloc(cap, sizeof(*steps));
	double *pct = calloc(cap, sizeof(*pct));
	struct wr_search_flr flr;
	struct wr_trial t;
	unsigned int limited = 0, n = 0;
	double pps, max;
	int rc;

	rc = steps == NULL || pct == NULL ? wr_err_env(m->err, -ENOMEM,
		"--mode loss: no memory for %u steps", cap) : 0;
	if (rc == 0)
		rc = wr_mode_max_rate(m, size, &max, res);
	if (rc == 0)
		rc = wr_search_flr_init(&flr, max, m->run->setup.cfg->loss_step_pct);
	while (rc == 0 && n < cap &&
			wr_search_flr_next(&flr, &pps, &pct[n]) == WR_SEARCH_TRIAL) {
		struct wr_trial_summary *s = &steps[n];

		m->size_left = wr_mode_flr_left(&flr);
		snprintf(m->prog.phase, sizeof(m->prog.phase), "at %g%%", pct[n]);
		wr_mode_trial_at(size, pps, m->run->setup.cfg->trial_ms, &t);
		rc = wr_mode_trial(m, &t, "loss", s);
		if (rc == 0) {
			n++;
			limited += !s->rate_reached;
			rc = wr_search_flr_report(&flr, s->sent_pkts,
				s->lost_pkts > 0 ? (uint64_t)s->lost_pkts : 0);
		}
	}
	wr_result_loss_steps(res, steps, pct, n);
	wr_result_limited(res, limited);
	free(steps);
	free(pct);
	return rc;
}

/*
 * Longest burst sent back to back without loss: binary search on length;
 * nb_after searches follow this one.
 */
static int
b2b_search(struct mode_ctx *m, uint32_t size, uint64_t max_pkts,
		unsigned int nb_after, uint64_t *best)
{
	struct wr_trial_summary s;
	struct wr_trial t;
	uint64_t lo = 0, hi = max_pkts + 1, n;
	int rc;

	while (hi - lo > 1) {
		m->size_left = wr_mode_b2b_left(lo, hi, max_pkts) + nb_after *
			wr_mode_b2b_left(0, max_pkts + 1, max_pkts);
		n = lo == 0 && hi == max_pkts + 1 ? max_pkts : lo + (hi - lo) / 2;
		wr_mode_trial_at(size, 0, m->run->setup.cfg->trial_ms, &t);
		t.count_pkts = n;
		rc = wr_mode_trial(m, &t, "b2b", &s);
		if (rc != 0)
			return rc;
		if (s.lost_pkts == 0 && s.sent_pkts == n * nb_tx_ports(m->run))
			lo = n;
		else
			hi = n;
	}
	*best = lo;
	return 0;
}

/* RFC 2544 26.4: back-to-back, repeated; mean, min, max burst. */
static int
run_b2b(struct mode_ctx *m, uint32_t size, json_t *res)
{
	const struct wr_config *cfg = m->run->setup.cfg;
	uint64_t *bursts = calloc(cfg->b2b_trials ? cfg->b2b_trials : 1, sizeof(*bursts));
	struct wr_b2b_figures b = { .max_tried_pkts = cfg->b2b_max_pkts,
		.bursts_pkts = bursts };
	double pps = 0.0;   /* stays 0 when the 100% rate was not found */
	int rc = 0;

	if (bursts == NULL)
		return wr_err_env(m->err, -ENOMEM, "--mode b2b: no memory for "
			"%u searches", cfg->b2b_trials);
	if (b.max_tried_pkts == 0) {
		rc = wr_mode_max_rate(m, size, &pps, res);
		b.max_tried_pkts = (uint64_t)(pps * B2B_DEFAULT_SPAN_S);
	}
	m->b2b_max_seen_pkts = RTE_MAX(m->b2b_max_seen_pkts, b.max_tried_pkts);
	for (; rc == 0 && b.nb_bursts < cfg->b2b_trials; b.nb_bursts++) {
		snprintf(m->prog.phase, sizeof(m->prog.phase), "search %u/%u",
			b.nb_bursts + 1, cfg->b2b_trials);
		rc = b2b_search(m, size, b.max_tried_pkts,
			cfg->b2b_trials - b.nb_bursts - 1, &bursts[b.nb_bursts]);
		if (rc != 0)
			break;
	}
	wr_result_b2b(res, &b);
	free(bursts);
	return rc;
}

static int
run_size(struct mode_ctx *m, uint32_t size, json_t *res)
{
	switch (m->run->setup.cfg->mode) {
	case WR_MODE_THROUGHPUT:
		return wr_mode_lat_after(m, size, res, run_throughput(m, size, res));
	case WR_MODE_MLR:
		return wr_mode_lat_after(m, size, res, wr_mode_mlr(m, size, res));
	case WR_MODE_LOSS: return run_loss(m, size, res);
	case WR_MODE_B2B: return run_b2b(m, size, res);
	default: return run_sweep(m, size, res);
	}
}

int
wr_mode_run(struct wr_run *run, const struct wr_mode_hooks *hooks,
		json_t *doc, struct wr_error *err)
{
	const struct wr_config *cfg = run->setup.cfg;
	struct mode_ctx m = { .run = run, .h = hooks, .doc = doc, .err = err };
	json_t *results;
	unsigned int i, n = cfg->nb_sizes ? cfg->nb_sizes : 1;
	uint32_t size = cfg->frame_size;
	json_t *res;
	uint64_t trial_ms = cfg->mode == WR_MODE_SWEEP ? cfg->duration_ms : cfg->trial_ms;
	int rc = 0;

	wr_result_mode_head(doc, wr_mode_name(cfg->mode), cfg, trial_ms, &m.trials,
		&results);
	m.results = results;
	wr_err_clear(err);
	/* Each checkpoint holds every finished point and trial. */
	wr_result_checkpoint_keep(run, doc);
	wr_mode_progress_begin(&m);
	if (cfg->mode == WR_MODE_Y1564) {
		/* Its services' frame sizes are their own: no size loop. */
		wr_mode_progress_size(&m, 1, size);
		rc = wr_mode_y1564(&m);
		n = 0;
	} else if (cfg->mode == WR_MODE_ADDR_CAPACITY ||
			cfg->mode == WR_MODE_ADDR_LEARNING) {
		/* Its frames are 64 bytes, its own (rfc2889_frame.h). */
		wr_mode_progress_size(&m, 1, 64);
		rc = wr_mode_rfc2889(&m);
		n = 0;
	} else if (cfg->mode == WR_MODE_CONN_RATE) {
		/* Connections, not frames: no size loop. */
		wr_mode_progress_size(&m, 1, 0);
		rc = wr_mode_conn_rate(&m);
		n = 0;
	} else if (cfg->mode == WR_MODE_CONN_LOAD) {
		wr_mode_progress_size(&m, 1, 0);
		rc = wr_mode_conn_load(&m);
		n = 0;
	} else if (cfg->mode == WR_MODE_CONN_TEARDOWN) {
		wr_mode_progress_size(&m, 1, 0);
		rc = wr_mode_conn_teardown(&m);
		n = 0;
	} else if (cfg->mode == WR_MODE_MESH) {
		/* Its sizes are looped by the method, in one "rfc2889". */
		rc = wr_mode_mesh(&m);
		n = 0;
	}
	for (i = 0; i < n && rc == 0; i++) {
		size = cfg->nb_sizes ? cfg->sizes[i] : cfg->frame_size;
		wr_mode_progress_size(&m, i + 1, size);
		res = wr_result_point(size);
		rc = run_size(&m, size, res);
		/* A point the method could not finish says so, and why. */
		if (rc != 0 && rc != -EINTR)
			wr_result_point_incomplete(res, err->msg[0] != '\0' ?
				err->msg : strerror(-rc));
		/* A point joins results once it is finished (or failed); a
		 * sweep's joined with its trial (point_of_trial). */
		wr_result_point_done(results, res);
		wr_result_checkpoint_keep(run, doc);
	}
	wr_result_checkpoint_keep(run, NULL);
	/*
	 * The search state machines (search.c, mlr.c) refuse a state with a
	 * bare errno: a method that could not go on is a failed run.
	 */
	if (rc != 0 && err != NULL && err->cls == WR_ERR_NONE)
		wr_err_fail(err, rc, "--mode %s at %u B: the method could not go on: "
			"%s", wr_mode_name(cfg->mode), size, strerror(-rc));
	return rc;
}
