/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdio.h>
#include <string.h>

#include "y1564.h"

/* 8.1.2 C: the overshoot of the policing step, 25 %. */
#define OVERSHOOT 0.25
/* Below this share of the CIR the overshoot is taken of the CIR. */
#define SMALL_EIR 0.2

static struct wr_y1564_step *
add(struct wr_y1564_step *out, unsigned int *n, unsigned int max,
		enum wr_y1564_kind k, double green, double yellow)
{
	struct wr_y1564_step *s;

	if (*n >= max)
		return NULL;
	s = &out[(*n)++];
	memset(s, 0, sizeof(*s));
	s->kind = k;
	s->green_pps = green;
	s->yellow_pps = yellow;
	return s;
}

unsigned int
wr_y1564_plan(double cir_pps, double eir_pps, const double *pct,
		unsigned int nb, struct wr_y1564_step *out, unsigned int max)
{
	struct wr_y1564_step *s;
	unsigned int i, n = 0;
	double over;

	for (i = 0; i < nb; i++) {
		s = add(out, &n, max, WR_Y1564_CIR, cir_pps * pct[i] / 100.0, 0);
		if (s == NULL)
			return n;
		s->pct = pct[i];
		snprintf(s->name, sizeof(s->name), "cir %g%%", pct[i]);
	}
	if (eir_pps > 0) {
		s = add(out, &n, max, WR_Y1564_EIR, cir_pps, eir_pps);
		if (s != NULL)
			snprintf(s->name, sizeof(s->name), "cir+eir");
		over = eir_pps < SMALL_EIR * cir_pps ? eir_pps + OVERSHOOT * cir_pps :
			(1 + OVERSHOOT) * eir_pps;
		s = add(out, &n, max, WR_Y1564_POLICE, cir_pps, over);
	} else {
		s = add(out, &n, max, WR_Y1564_POLICE, (1 + OVERSHOOT) * cir_pps, 0);
	}
	if (s != NULL)
		snprintf(s->name, sizeof(s->name), "policing");
	return n;
}

static void
fail(struct wr_y1564_verdict *v, const char *kpi, double value, double crit,
		const char *unit, const char *rule)
{
	struct wr_y1564_fail *f;

	v->pass = false;
	if (v->nb_fails >= sizeof(v->fails) / sizeof(v->fails[0]))
		return;
	f = &v->fails[v->nb_fails++];
	f->kpi = kpi;
	f->value = value;
	f->criterion = crit;
	f->unit = unit;
	f->rule = rule;
}

/* A criterion without a figure: not passed unless the user skips it. */
static void
unmeasured(struct wr_y1564_verdict *v, const char *kpi, double crit, bool skip)
{
	if (crit < 0 || v->nb_unmeasured >= WR_Y1564_MAX_UNMEASURED)
		return;
	v->unmeasured[v->nb_unmeasured++] = kpi;
	if (!skip)
		v->pass = false;
}

/* Value above its criterion (criteria below 0 are not judged). */
static void
at_most(struct wr_y1564_verdict *v, const char *kpi, double value, double crit,
		const char *unit)
{
	if (crit >= 0 && value > crit)
		fail(v, kpi, value, crit, unit, "<=");
}

void
wr_y1564_judge(enum wr_y1564_kind k, const struct wr_y1564_crit *c,
		const struct wr_y1564_meas *m, struct wr_y1564_verdict *v)
{
	uint64_t rx = m->green_sent - m->green_lost + m->yellow_sent - m->yellow_lost;
	double flr_min = c->flr > 0 ? c->flr : 0;
	double most;

	memset(v, 0, sizeof(*v));
	v->pass = true;
	v->flr = m->green_sent ? (double)m->green_lost / (double)m->green_sent : 0;
	v->ir_pps = m->duration_s > 0 ? (double)rx / m->duration_s : 0;
	if (m->green_sent == 0)
		fail(v, "FLR", 1, c->flr, "ratio", "<=");
	/* C.2: without an EIR the frames above CIR are the policer's to drop. */
	else if (!(k == WR_Y1564_POLICE && c->eir_pps <= 0))
		at_most(v, "FLR", v->flr, c->flr, "ratio");
	if (m->lat_valid) {
		at_most(v, "FTD", m->ftd_ns, c->ftd_ns, "ns");
		at_most(v, "FDV", m->fdv_ns, c->fdv_ns, "ns");
	} else {
		unmeasured(v, "FTD", c->ftd_ns, c->skip_unmeasured);
		unmeasured(v, "FDV", c->fdv_ns, c->skip_unmeasured);
	}
	if (k == WR_Y1564_POLICE) {
		most = (c->cir_pps + c->eir_pps) * (1 + c->margin);
		if (v->ir_pps > most)
			fail(v, "IR", v->ir_pps, most, "pps", "<=");
	}
	if ((k == WR_Y1564_EIR || (k == WR_Y1564_POLICE && c->eir_pps <= 0)) &&
			v->ir_pps < c->cir_pps * (1 - flr_min))
		fail(v, "IR", v->ir_pps, c->cir_pps * (1 - flr_min), "pps", ">=");
	if (k == WR_Y1564_PERF && c->avail >= 0 && m->avail < c->avail)
		fail(v, "AVAIL", m->avail, c->avail, "ratio", ">=");
}

void
wr_y1564_avail_init(struct wr_y1564_avail *a, double ses_flr)
{
	memset(a, 0, sizeof(*a));
	a->ses_flr = ses_flr;
}

/* A new unavailable period began run_s seconds ago, at second start. */
static void
window_open(struct wr_y1564_avail *a, uint32_t start)
{
	if (a->nb_windows < WR_Y1564_MAX_WINDOWS) {
		a->windows[a->nb_windows].start_s = start;
		a->windows[a->nb_windows].len_s = 0;
	}
	a->nb_windows++;
}

/* The open period's length, kept with it. */
static void
window_len(struct wr_y1564_avail *a, uint32_t end)
{
	struct wr_y1564_window *w;

	if (a->nb_windows == 0 || a->nb_windows > WR_Y1564_MAX_WINDOWS)
		return;
	w = &a->windows[a->nb_windows - 1];
	w->len_s = end - w->start_s;
}

bool
wr_y1564_avail_second(struct wr_y1564_avail *a, uint64_t sent, uint64_t lost)
{
	bool ses = sent > 0 && (double)lost > a->ses_flr * (double)sent;
	uint32_t now = a->nb_s++;

	a->nb_ses += ses;
	if (!a->unavailable) {
		a->run_s = ses ? a->run_s + 1 : 0;
		if (a->run_s == WR_Y1564_AVAIL_RUN) {
			/* The 10 seconds that started it are unavailable. */
			a->unavailable = true;
			a->unavail_s += WR_Y1564_AVAIL_RUN;
			a->run_s = 0;
			window_open(a, now + 1 - WR_Y1564_AVAIL_RUN);
			window_len(a, now + 1);
		}
		return ses;
	}
	if (ses) {
		/* The seconds without one since were still unavailable. */
		a->unavail_s += a->run_s + 1;
		a->run_s = 0;
		window_len(a, now + 1);
		return ses;
	}
	if (++a->run_s == WR_Y1564_AVAIL_RUN) {
		a->unavailable = false;
		a->run_s = 0;
	}
	return ses;
}

uint32_t
wr_y1564_avail_unavailable_s(const struct wr_y1564_avail *a)
{
	return a->unavail_s + (a->unavailable ? a->run_s : 0);
}

double
wr_y1564_avail_ratio(const struct wr_y1564_avail *a)
{
	if (a->nb_s == 0)
		return 1.0;
	return 1.0 - (double)wr_y1564_avail_unavailable_s(a) / (double)a->nb_s;
}

void
wr_y1564_series_init(struct wr_y1564_series *s)
{
	s->nb = 0;
	s->span_s = 1;
}

/* Point b's seconds into a, which comes just before it. */
static void
point_add(struct wr_y1564_point *a, const struct wr_y1564_point *b)
{
	a->span_s += b->span_s;
	a->sent += b->sent;
	a->lost += b->lost;
	a->nb_ses += b->nb_ses;
	a->lat_sum_ns += b->lat_sum_ns;
	a->nb_lat += b->nb_lat;
}

/* Every two points into one: the series at half its resolution. */
static void
halve(struct wr_y1564_series *s)
{
	uint32_t i, n = 0;

	for (i = 0; i < s->nb; i += 2, n++) {
		struct wr_y1564_point m = s->p[i];

		if (i + 1 < s->nb)
			point_add(&m, &s->p[i + 1]);
		s->p[n] = m;
	}
	s->nb = n;
	s->span_s *= 2;
}

bool
wr_y1564_series_add(struct wr_y1564_series *s, uint32_t t_s,
		const struct wr_y1564_point *sec)
{
	struct wr_y1564_point *last = s->nb ? &s->p[s->nb - 1] : NULL;
	bool merged = false;

	/* The last point takes seconds until it spans span_s. */
	if (last != NULL && last->span_s < s->span_s) {
		point_add(last, sec);
		return false;
	}
	if (s->nb == WR_Y1564_SERIES_CAP) {
		halve(s);
		merged = true;
		last = &s->p[s->nb - 1];
		if (last->span_s < s->span_s)
			return wr_y1564_series_add(s, t_s, sec) || merged;
	}
	s->p[s->nb] = *sec;
	s->p[s->nb].t_s = t_s;
	s->nb++;
	return merged;
}
