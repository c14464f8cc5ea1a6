/* SPDX-License-Identifier: BSD-3-Clause */
/* Connection table capacity's phases and result (conncap.h). */
#include <string.h>

#include "conncap.h"

void
wr_conncap_init(struct wr_conncap *c, uint64_t ceiling, double settle_max_s)
{
	memset(c, 0, sizeof(*c));
	c->ceiling = ceiling;
	c->settle_max_s = settle_max_s;
}

/* Failed connections of every class. */
static uint64_t
failed_of(const struct wr_conn_books *b)
{
	return b->nb_failed_syn_timeout + b->nb_failed_refused +
		b->nb_failed_reset + b->nb_failed_rtx_timeout +
		b->nb_failed_resp_timeout + b->nb_failed_http;
}

/* The fill: whether it ends now, and why. */
static uint8_t
fill_end(const struct wr_conncap *c, const struct wr_conn_books *b,
	bool stop)
{
	uint64_t starts = wr_conn_books_starts(b);

	if (failed_of(b) != 0)
		return WR_CONNCAP_BY_FAILURE;
	if (starts >= c->ceiling)
		return WR_CONNCAP_BY_CEILING;
	return stop ? WR_CONNCAP_BY_STOP : WR_CONNCAP_NOT_YET;
}

/* The settle ends: the capacity is what is held now. */
static void
settle(struct wr_conncap *c, const struct wr_conn_books *b, double t_s)
{
	c->settled = b->nb_open == b->nb_held;
	c->t_settled_s = t_s;
	c->capacity = b->nb_held;
	c->attempted = b->nb_attempted;
	c->failed = failed_of(b);
	c->failed_syn = b->nb_failed_syn_timeout + b->nb_failed_refused;
	c->phase = WR_CONNCAP_CHECK;
}

enum wr_conncap_act
wr_conncap_step(struct wr_conncap *c, const struct wr_conn_books *b,
	double t_s, bool stop)
{
	switch (c->phase) {
	case WR_CONNCAP_FILL:
		c->why = fill_end(c, b, stop);
		if (c->why == WR_CONNCAP_NOT_YET)
			return WR_CONNCAP_WAIT;
		c->t_stop_s = t_s;
		c->phase = WR_CONNCAP_SETTLE;
		return WR_CONNCAP_DRAIN;
	case WR_CONNCAP_SETTLE:
		if (b->nb_open != b->nb_held &&
				t_s - c->t_stop_s < c->settle_max_s)
			return WR_CONNCAP_WAIT;
		settle(c, b, t_s);
		return WR_CONNCAP_RELEASE;
	case WR_CONNCAP_CHECK:
		if (b->nb_open != 0)
			return WR_CONNCAP_WAIT;
		c->phase = WR_CONNCAP_DONE;
		return WR_CONNCAP_END;
	default:
		return WR_CONNCAP_WAIT;
	}
}

const char *
wr_conncap_why_name(uint8_t why)
{
	static const char *const names[] = {
		[WR_CONNCAP_NOT_YET] = "none",
		[WR_CONNCAP_BY_FAILURE] = "failure",
		[WR_CONNCAP_BY_CEILING] = "ceiling",
		[WR_CONNCAP_BY_STOP] = "stopped",
	};

	return why < sizeof(names) / sizeof(names[0]) ? names[why] : "none";
}

static const char *
phase_name(uint8_t phase)
{
	static const char *const names[] = {
		[WR_CONNCAP_FILL] = "fill", [WR_CONNCAP_SETTLE] = "settle",
		[WR_CONNCAP_CHECK] = "check", [WR_CONNCAP_DONE] = "done",
	};

	return phase < sizeof(names) / sizeof(names[0]) ? names[phase] : "?";
}

void
wr_conncap_doc(const struct wr_conncap *c, const struct wr_conn_books *b,
	uint64_t cps, uint64_t syn_timeout_us, struct wr_conncap_doc *d)
{
	bool found = c->phase >= WR_CONNCAP_CHECK;

	memset(d, 0, sizeof(*d));
	d->phase = phase_name(c->phase);
	d->ended_by = wr_conncap_why_name(c->why);
	d->found = found;
	d->settled = found && c->settled;
	d->capacity = c->capacity;
	d->ceiling = c->ceiling;
	d->rate_cps = cps;
	d->syn_timeout_s = (double)syn_timeout_us / 1e6;
	d->fill_s = c->t_stop_s;
	d->attempted = found ? c->attempted : b->nb_attempted;
	d->failed = found ? c->failed : failed_of(b);
	d->failed_syn = found ? c->failed_syn :
		b->nb_failed_syn_timeout + b->nb_failed_refused;
	d->held_peak = b->nb_held_peak;
	d->checks_ok = b->nb_hold_checks_ok;
}
