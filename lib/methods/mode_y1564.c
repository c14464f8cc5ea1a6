/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --mode y1564 (docs/y1564.md): ITU-T Y.1564's service configuration test
 * (8.1.2), one service at a time, its steps planned and judged by y1564.c,
 * then the service performance test (8.2): every service at its CIR at
 * once for --perf-time, each interval fed to the services' availability
 * and series, so that a checkpoint holds the series so far.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/units.h"
#include "modes_int.h"
#include "results/result.h"
#include "results/y1564.h"
#include "results/y1564json.h"

/* One service: its streams, profile, criteria and performance state. */
struct y_svc {
	unsigned int g, y;         /* stream indices; y UINT32_MAX: no EIR */
	struct wr_y1564_crit crit;
	double frame_bits;         /* mean frame size in bits, FCS included */
	json_t *obj;               /* its entry of y1564.services */
	bool pass;
	struct wr_y1564_avail av;
	struct wr_y1564_series *ser;
	uint64_t last_sent, last_rx, last_nb_lat;
	double last_lat_tsc;
};

struct y_ctx {
	struct mode_ctx *m;
	unsigned int nb;
	struct y_svc svc[WR_STREAM_MAX];
	double pps[WR_STREAM_MAX]; /* the trial's stream_pps */
	json_t *obj;               /* doc's "y1564" */
	uint32_t sec;              /* seconds of the performance test fed */
	bool round_trip;
};

/* What a stream of the last trial sent and lost, with its delay. */
struct counts {
	uint64_t sent, rx, lost;
	uint64_t nb_lat;
	double lat_sum_tsc;
	double jitter_tsc;
	bool lat_valid;
};

/* Stream idx of run as its results (final, or the last tick's) say. */
static void
stream_counts(struct y_ctx *y, unsigned int idx, struct counts *c)
{
	const struct wr_run *run = y->m->run;
	unsigned int i;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < run->res.nb_streams; i++) {
		const struct wr_stream_result *r = &run->res.streams[i];

		if (!r->sender_known || r->tx_queue != idx)
			continue;
		c->sent += r->sent_pkts;
		c->rx += r->view.seq.nb_rx_pkts;
		c->lost += (uint64_t)r->lost_pkts;
		c->nb_lat += r->view.nb_lat;
		c->lat_sum_tsc += wr_stats_view_lat_mean_tsc(&r->view) * (double)r->view.nb_lat;
		c->jitter_tsc = RTE_MAX(c->jitter_tsc, r->view.jitter_tsc);
		c->lat_valid = r->lat_valid && r->view.nb_lat > 0;
		/* Back on the port it left from: through a reflector. */
		if (r->rx_port == r->tx_port && r->view.seq.nb_rx_pkts > 0)
			y->round_trip = true;
	}
}

/* The measurement of service s in the last trial of duration_s. */
static void
measure(struct y_ctx *y, const struct y_svc *s, double duration_s,
		struct wr_y1564_meas *m)
{
	uint64_t hz = y->m->run->setup.tsc_hz;
	struct counts g, yl;

	memset(m, 0, sizeof(*m));
	stream_counts(y, s->g, &g);
	memset(&yl, 0, sizeof(yl));
	if (s->y != UINT32_MAX)
		stream_counts(y, s->y, &yl);
	m->green_sent = g.sent;
	m->green_lost = RTE_MIN(g.lost, g.sent);
	m->yellow_sent = yl.sent;
	m->yellow_lost = RTE_MIN(yl.lost, yl.sent);
	m->duration_s = duration_s;
	m->lat_valid = g.lat_valid;
	m->ftd_ns = g.nb_lat ? wr_stats_tsc_to_ns(g.lat_sum_tsc / (double)g.nb_lat, hz) : 0;
	m->fdv_ns = wr_stats_tsc_to_ns(g.jitter_tsc, hz);
	m->avail = -1;
}

/* Frames per second of stream d at rate r (a CIR or an EIR). */
static double
profile_pps(const struct wr_run *run, const struct wr_stream_def *d,
		const struct wr_rate *r)
{
	struct wr_stream_def x = *d;
	struct wr_rate none = { 0 };
	uint64_t link = wr_mode_trusted_link_bps(run);
	double pps = 0;

	if (r->unit == WR_RATE_NONE)
		return 0;
	x.rate = *r;
	x.share_pct = 0;
	return wr_stream_pps(&x, &none, link, &pps) == 0 ? pps : 0;
}

/* The services of the configuration, each with its JSON entry. */
static int
services(struct y_ctx *y)
{
	const struct wr_config *cfg = y->m->run->setup.cfg;
	unsigned int i;

	for (i = 0; i < cfg->nb_stream_defs; i++) {
		const struct wr_stream_def *d = &cfg->streams[i];
		struct y_svc *s = &y->svc[y->nb];

		if (d->svc.role != WR_SERVICE_GREEN)
			continue;
		memset(s, 0, sizeof(*s));
		s->g = i;
		s->y = d->svc.partner;
		s->pass = true;
		s->crit = (struct wr_y1564_crit){ d->svc.flr, d->svc.ftd_ns,
			d->svc.fdv_ns, d->svc.avail, cfg->police_margin,
			profile_pps(y->m->run, d, &d->svc.cir),
			profile_pps(y->m->run, d, &d->svc.eir), cfg->skip_unmeasured };
		s->frame_bits = 8.0 * wr_stream_mean_size(d);
		if (s->crit.cir_pps <= 0)
			return wr_err_usage(y->m->err, -EINVAL, "--stream %u (%s): cir= gives "
				"no frame rate", i + 1, d->name);
		s->ser = malloc(sizeof(*s->ser));
		if (s->ser == NULL)
			return wr_err_env(y->m->err, -ENOMEM, "--mode y1564: no memory "
				"for the series of %s", d->name);
		wr_y1564_series_init(s->ser);
		s->obj = wr_y1564_service_add(y->obj, d, s->y != UINT32_MAX ?
			&cfg->streams[s->y] : NULL, &s->crit);
		if (s->obj == NULL)
			return wr_err_env(y->m->err, -ENOMEM, "--mode y1564: no memory "
				"for the result of %s", d->name);
		y->nb++;
	}
	return 0;
}

/* Only service s's streams send, at step st's rates. */
static void
rates_of_step(struct y_ctx *y, const struct y_svc *s, const struct wr_y1564_step *st)
{
	memset(y->pps, 0, sizeof(y->pps));
	y->pps[s->g] = st->green_pps;
	if (s->y != UINT32_MAX)
		y->pps[s->y] = st->yellow_pps;
}

/* The verdict so far, and how delay was measured, into doc's y1564. */
static void
verdict(struct y_ctx *y, const char *phase)
{
	json_t *obj[WR_STREAM_MAX];
	bool pass[WR_STREAM_MAX];
	unsigned int i;

	for (i = 0; i < y->nb; i++) {
		obj[i] = y->svc[i].obj;
		pass[i] = y->svc[i].pass;
	}
	wr_y1564_state(y->obj, obj, pass, y->nb, phase, y->round_trip);
}

/* One configuration step of service s. */
static int
config_step(struct y_ctx *y, struct y_svc *s, const struct wr_y1564_step *st)
{
	const struct wr_config *cfg = y->m->run->setup.cfg;
	const char *name = cfg->streams[s->g].name;
	struct wr_trial_summary sum;
	struct wr_y1564_meas meas;
	struct wr_y1564_verdict v;
	struct wr_trial t;
	char what[64];
	int rc;

	rates_of_step(y, s, st);
	wr_mode_trial_at(cfg->frame_size, 0, cfg->step_ms, &t);
	t.stream_pps = y->pps;
	snprintf(what, sizeof(what), "y1564 %s %s", name, st->name);
	snprintf(y->m->prog.phase, sizeof(y->m->prog.phase), "%.14s %s", name, st->name);
	rc = wr_mode_trial(y->m, &t, what, &sum);
	if (rc != 0)
		return rc;
	measure(y, s, sum.duration_s, &meas);
	wr_y1564_judge(st->kind, &s->crit, &meas, &v);
	s->pass = s->pass && v.pass;
	wr_y1564_step_add(s->obj, &(struct wr_y1564_step_rec){ st, &meas, &v,
		s->frame_bits });
	verdict(y, "configuration");
	wr_result_checkpoint_keep(y->m->run, y->m->doc);
	return 0;
}

/* 8.1.2: the configuration test of each service in turn. */
static int
config_test(struct y_ctx *y)
{
	const struct wr_config *cfg = y->m->run->setup.cfg;
	struct wr_y1564_step st[WR_Y1564_MAX_STEPS];
	unsigned int i, j, n;
	int rc = 0;

	for (i = 0; i < y->nb && rc == 0; i++) {
		struct y_svc *s = &y->svc[i];

		n = wr_y1564_plan(s->crit.cir_pps, s->crit.eir_pps, cfg->y1564_steps_pct,
			cfg->nb_y1564_steps, st, RTE_DIM(st));
		for (j = 0; j < n && rc == 0; j++)
			rc = config_step(y, s, &st[j]);
	}
	return rc;
}

/* The second of service s since the last one, from its counts now. */
static void
feed_second(struct y_ctx *y, struct y_svc *s)
{
	uint64_t hz = y->m->run->setup.tsc_hz;
	struct wr_y1564_point p = { .span_s = 1 };
	struct counts c;
	uint64_t rx;

	stream_counts(y, s->g, &c);
	p.sent = c.sent - RTE_MIN(s->last_sent, c.sent);
	rx = c.rx - RTE_MIN(s->last_rx, c.rx);
	p.lost = p.sent > rx ? p.sent - rx : 0;
	p.nb_lat = c.nb_lat - RTE_MIN(s->last_nb_lat, c.nb_lat);
	p.lat_sum_ns = p.nb_lat ? wr_stats_tsc_to_ns(c.lat_sum_tsc - s->last_lat_tsc,
		hz) : 0;
	p.nb_ses = wr_y1564_avail_second(&s->av, p.sent, p.lost);
	wr_y1564_series_add(s->ser, y->sec, &p);
	s->last_sent = c.sent;
	s->last_rx = c.rx;
	s->last_nb_lat = c.nb_lat;
	s->last_lat_tsc = c.lat_sum_tsc;
}

/* One interval of the performance test: a second of each service. */
static void
perf_tick(const struct wr_run *run, const struct wr_interval *iv, void *arg)
{
	struct y_ctx *y = arg;
	unsigned int i;

	for (i = 0; i < y->nb; i++) {
		feed_second(y, &y->svc[i]);
		wr_y1564_perf_json(y->svc[i].obj, &y->svc[i].av, y->svc[i].ser, NULL,
			NULL, y->svc[i].frame_bits);
	}
	y->sec++;
	if (y->m->h->on_interval != NULL)
		y->m->h->on_interval(run, iv, y->m->h->arg);
}

/* The final figures and verdict of each service's performance test. */
static void
perf_judge(struct y_ctx *y, double duration_s)
{
	unsigned int i;

	for (i = 0; i < y->nb; i++) {
		struct y_svc *s = &y->svc[i];
		struct wr_y1564_meas meas;
		struct wr_y1564_verdict v;

		/* What the last interval left (half a second or more), the
		 * frames in flight come in. */
		if (duration_s - y->sec >= 0.5)
			feed_second(y, s);
		measure(y, s, duration_s, &meas);
		meas.avail = wr_y1564_avail_ratio(&s->av);
		wr_y1564_judge(WR_Y1564_PERF, &s->crit, &meas, &v);
		s->pass = s->pass && v.pass;
		wr_y1564_perf_json(s->obj, &s->av, s->ser, &meas, &v, s->frame_bits);
	}
}

/* 8.2: every service at its CIR at once, judged over the whole test. */
static int
perf_test(struct y_ctx *y)
{
	struct mode_ctx *m = y->m;
	const struct wr_config *cfg = m->run->setup.cfg;
	struct wr_trial_summary sum;
	enum wr_stop_reason why;
	struct wr_trial t;
	unsigned int i;
	int rc;

	memset(y->pps, 0, sizeof(y->pps));
	for (i = 0; i < y->nb; i++) {
		y->pps[y->svc[i].g] = y->svc[i].crit.cir_pps;
		wr_y1564_avail_init(&y->svc[i].av, cfg->ses_flr);
	}
	wr_mode_trial_at(cfg->frame_size, 0, cfg->perf_ms, &t);
	t.stream_pps = y->pps;
	snprintf(m->prog.phase, sizeof(m->prog.phase), "performance");
	verdict(y, "performance");
	wr_mode_progress_trial(m, "y1564 perf", &t);
	rc = wr_run_trial(m->run, &t, m->err);
	if (rc == 0)
		rc = wr_run_start(m->run, m->err);
	if (rc != 0)
		return rc;
	why = wr_run_wait(m->run, m->h->signals, perf_tick, y);
	wr_run_stop(m->run, why);
	wr_mode_summarize(m->run, &sum);
	wr_result_trial_record(m->trials, &sum, "y1564 perf", m->run);
	if (why != WR_STOP_SIGNAL)
		perf_judge(y, sum.duration_s);
	verdict(y, why == WR_STOP_SIGNAL ? "performance" : "done");
	wr_result_checkpoint_keep(m->run, m->doc);
	if (m->h->on_trial != NULL)
		m->h->on_trial(m->run, "y1564 perf", &sum, m->h->arg);
	if (why == WR_STOP_SIGNAL)
		return wr_err_fail(m->err, -EINTR, "stopped by a signal");
	return 0;
}

uint32_t
wr_mode_y1564_trials(const struct wr_config *cfg)
{
	unsigned int i;
	uint32_t n = cfg->perf_ms != 0;

	for (i = 0; i < cfg->nb_stream_defs; i++)
		if (cfg->streams[i].svc.role == WR_SERVICE_GREEN)
			n += cfg->nb_y1564_steps + (cfg->streams[i].svc.partner !=
				UINT32_MAX ? 2 : 1);
	return n;
}

int
wr_mode_y1564(struct mode_ctx *m)
{
	const struct wr_config *cfg = m->run->setup.cfg;
	struct y_ctx *y = calloc(1, sizeof(*y));
	unsigned int i;
	int rc;

	if (y == NULL)
		return wr_err_env(m->err, -ENOMEM, "--mode y1564: no memory");
	y->m = m;
	y->obj = wr_y1564_doc(m->doc, cfg);
	if (y->obj == NULL) {
		free(y);
		return wr_err_env(m->err, -ENOMEM, "--mode y1564: no memory");
	}
	rc = services(y);
	if (rc == 0) {
		verdict(y, "configuration");
		rc = config_test(y);
	}
	if (rc == 0 && cfg->perf_ms != 0)
		rc = perf_test(y);
	if (rc == 0)
		verdict(y, "done");
	for (i = 0; i < y->nb; i++)
		free(y->svc[i].ser);
	free(y);
	return rc;
}
