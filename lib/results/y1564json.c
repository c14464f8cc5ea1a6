/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdio.h>
#include <string.h>

#include "base/jsonw.h"
#include "y1564json.h"

static const char *const kind_names[] = {
	[WR_Y1564_CIR] = "cir", [WR_Y1564_EIR] = "cir+eir",
	[WR_Y1564_POLICE] = "policing", [WR_Y1564_PERF] = "perf",
};

void
wr_y1564_verdict_json(json_t *o, const struct wr_y1564_verdict *v)
{
	json_t *fails = json_array(), *names = json_array();
	unsigned int i;

	for (i = 0; i < v->nb_unmeasured; i++)
		json_array_append_new(names, json_string(v->unmeasured[i]));
	for (i = 0; i < v->nb_fails; i++) {
		const struct wr_y1564_fail *f = &v->fails[i];

		json_array_append_new(fails, json_pack("{s:s, s:f, s:f, s:s, s:s}",
			"kpi", f->kpi, "value", f->value, "criterion", f->criterion,
			"rule", f->rule, "unit", f->unit));
	}
	wr_json_set(o, "pass", json_boolean(v->pass));
	wr_json_set(o, "fails", fails);
	wr_json_set(o, "not_measured", names);
}

/* A colour's part of a step: offered rate, frames sent and lost. */
static json_t *
part(double pps, uint64_t sent, uint64_t lost)
{
	return json_pack("{s:f, s:I, s:I, s:I}", "offered_pps", pps,
		"sent_pkts", (json_int_t)sent, "received_pkts", (json_int_t)(sent - lost),
		"lost_pkts", (json_int_t)lost);
}

/* The delay figures: null where no latency could be measured. */
static json_t *
ns_or_null(bool valid, double ns)
{
	return valid ? json_real(ns) : json_null();
}

static json_t *
step_json(const struct wr_y1564_step_rec *r)
{
	const struct wr_y1564_meas *m = r->meas;
	json_t *o = json_pack("{s:s, s:s, s:f, s:o, s:f, s:f, s:f}",
		"step", r->step->name, "kind", kind_names[r->step->kind],
		"duration_s", m->duration_s,
		"green", part(r->step->green_pps, m->green_sent, m->green_lost),
		"flr", r->v->flr, "ir_pps", r->v->ir_pps,
		"ir_bps", r->v->ir_pps * r->frame_bits);

	if (r->step->kind == WR_Y1564_CIR)
		wr_json_set(o, "pct_of_cir", json_real(r->step->pct));
	if (r->step->yellow_pps > 0)
		wr_json_set(o, "yellow", part(r->step->yellow_pps, m->yellow_sent,
			m->yellow_lost));
	wr_json_set(o, "ftd_ns", ns_or_null(m->lat_valid, m->ftd_ns));
	wr_json_set(o, "fdv_ns", ns_or_null(m->lat_valid, m->fdv_ns));
	wr_y1564_verdict_json(o, r->v);
	return o;
}

/* A criterion, or null when the service gave none. */
static json_t *
crit(double x)
{
	return x >= 0 ? json_real(x) : json_null();
}

/* How a stream's frames are marked: "dscp:46" (and "pcp:N" when tagged). */
static json_t *
marking(const struct wr_stream_def *d)
{
	char buf[32];

	if (d->vlan_id != 0)
		snprintf(buf, sizeof(buf), "dscp:%u pcp:%u", d->dscp, d->vlan_prio);
	else
		snprintf(buf, sizeof(buf), "dscp:%u", d->dscp);
	return json_string(buf);
}

static json_t *
service_json(const struct wr_stream_def *green,
		const struct wr_stream_def *yellow, const struct wr_y1564_crit *c)
{
	json_t *o = json_pack("{s:s, s:f, s:f, s:f, s:f}", "name", green->name,
		"cir_pps", c->cir_pps, "eir_pps", c->eir_pps,
		"frame_size", wr_stream_mean_size(green),
		"police_margin", c->margin);

	wr_json_set(o, "criteria", json_pack("{s:o, s:o, s:o, s:o}",
		"flr", crit(c->flr), "ftd_ns", crit(c->ftd_ns), "fdv_ns", crit(c->fdv_ns),
		"avail", crit(c->avail)));
	wr_json_set(o, "green", marking(green));
	if (yellow != NULL) {
		wr_json_set(o, "yellow", marking(yellow));
		wr_json_set(o, "yellow_stream", json_string(yellow->name));
	}
	wr_json_set(o, "steps", json_array());
	return o;
}

/* Column k of the series' points. */
static json_t *
column(const struct wr_y1564_series *s, int k)
{
	json_t *a = json_array();
	uint32_t i;

	for (i = 0; i < s->nb; i++) {
		const struct wr_y1564_point *p = &s->p[i];

		switch (k) {
		case 0: json_array_append_new(a, json_integer(p->t_s)); break;
		case 1: json_array_append_new(a, json_integer((json_int_t)p->sent)); break;
		case 2: json_array_append_new(a, json_integer((json_int_t)p->lost)); break;
		case 3: json_array_append_new(a, json_integer(p->nb_ses)); break;
		default:
			json_array_append_new(a, p->nb_lat ? json_real(p->lat_sum_ns /
				(double)p->nb_lat) : json_null());
		}
	}
	return a;
}

static json_t *
windows(const struct wr_y1564_avail *a)
{
	json_t *w = json_array();
	uint32_t i, n = a->nb_windows < WR_Y1564_MAX_WINDOWS ? a->nb_windows :
		WR_Y1564_MAX_WINDOWS;

	for (i = 0; i < n; i++) {
		uint32_t len = a->windows[i].len_s;

		/* The open period lasts until now (it has not ended). */
		if (i + 1 == a->nb_windows && a->unavailable)
			len = a->nb_s - a->windows[i].start_s;
		json_array_append_new(w, json_pack("{s:i, s:i}", "start_s",
			a->windows[i].start_s, "len_s", len));
	}
	return w;
}

void
wr_y1564_perf_json(json_t *svc, const struct wr_y1564_avail *a,
		const struct wr_y1564_series *s, const struct wr_y1564_meas *m,
		const struct wr_y1564_verdict *v, double frame_bits)
{
	json_t *o = json_pack("{s:i, s:i, s:i, s:f, s:b, s:i}",
		"seconds", a->nb_s, "unavailable_s", wr_y1564_avail_unavailable_s(a),
		"ses", a->nb_ses, "avail", wr_y1564_avail_ratio(a),
		"unavailable_now", a->unavailable, "unavailable_periods", a->nb_windows);

	wr_json_set(o, "windows", windows(a));
	wr_json_set(o, "series", json_pack("{s:i, s:o, s:o, s:o, s:o, s:o}",
		"span_s", s->span_s, "t_s", column(s, 0), "sent_pkts", column(s, 1),
		"lost_pkts", column(s, 2), "ses", column(s, 3), "ftd_ns", column(s, 4)));
	if (m != NULL) {
		wr_json_set(o, "green", part(0, m->green_sent, m->green_lost));
		json_object_del(json_object_get(o, "green"), "offered_pps");
		wr_json_set(o, "duration_s", json_real(m->duration_s));
		wr_json_set(o, "ftd_ns", ns_or_null(m->lat_valid, m->ftd_ns));
		wr_json_set(o, "fdv_ns", ns_or_null(m->lat_valid, m->fdv_ns));
	}
	if (v != NULL) {
		wr_json_set(o, "flr", json_real(v->flr));
		wr_json_set(o, "ir_pps", json_real(v->ir_pps));
		wr_json_set(o, "ir_bps", json_real(v->ir_pps * frame_bits));
		wr_y1564_verdict_json(o, v);
	}
	wr_json_set(svc, "perf", o);
}

json_t *
wr_y1564_doc(json_t *doc, const struct wr_config *cfg)
{
	json_t *y = json_pack("{s:s, s:f, s:f, s:f, s:f, s:[]}", "recommendation",
		"ITU-T Y.1564 (02/2016)", "step_s", (double)cfg->step_ms / 1e3,
		"perf_s", (double)cfg->perf_ms / 1e3, "police_margin", cfg->police_margin,
		"ses_flr", cfg->ses_flr, "services");

	if (y != NULL)
		wr_json_set(doc, "y1564", y);
	return y;
}

json_t *
wr_y1564_service_add(json_t *y, const struct wr_stream_def *green,
		const struct wr_stream_def *yellow, const struct wr_y1564_crit *c)
{
	json_t *o = service_json(green, yellow, c);

	if (o == NULL || json_array_append_new(json_object_get(y, "services"), o) != 0)
		return NULL;
	return o;
}

void
wr_y1564_step_add(json_t *svc, const struct wr_y1564_step_rec *r)
{
	json_array_append_new(json_object_get(svc, "steps"), step_json(r));
}

void
wr_y1564_state(json_t *y, json_t *const *svc, const bool *pass,
		unsigned int n, const char *phase, bool round_trip)
{
	bool all = true;
	unsigned int i;

	for (i = 0; i < n; i++) {
		wr_json_set(svc[i], "pass", json_boolean(pass[i]));
		all = all && pass[i];
	}
	wr_json_set(y, "pass", json_boolean(all));
	wr_json_set(y, "phase", json_string(phase));
	wr_json_set(y, "delay", json_string(round_trip ? "round-trip" : "one-way"));
	wr_json_set(y, "delay_clock", json_string(round_trip ?
		"the sender's TSC, out and back through the far end's reflector" :
		"one TSC: both ends in this process, on this host"));
}

/* ", not measured: FTD FDV" (o's criteria without a figure) at buf + at. */
static size_t
unmeasured_text(const json_t *o, char *buf, size_t len, size_t at,
		const char *head)
{
	const json_t *x;
	size_t i;

	json_array_foreach(json_object_get(o, "not_measured"), i, x) {
		if (at >= len)
			break;
		at += (size_t)snprintf(buf + at, len - at, "%s %s", i == 0 ? head : "",
			json_string_value(x));
	}
	return at;
}

void
wr_y1564_verdict_text(const json_t *o, char *buf, size_t len)
{
	const json_t *x;
	size_t i, at;

	if (!json_is_boolean(json_object_get(o, "pass"))) {
		snprintf(buf, len, "not judged (cut short)");
		return;
	}
	if (json_is_true(json_object_get(o, "pass"))) {
		at = (size_t)snprintf(buf, len, "pass");
		unmeasured_text(o, buf, len, at, "; not measured (skipped):");
		return;
	}
	if (json_array_size(json_object_get(o, "fails")) == 0) {
		unmeasured_text(o, buf, len, 0, "not measured:");
		return;
	}
	at = (size_t)snprintf(buf, len, "FAIL:");
	json_array_foreach(json_object_get(o, "fails"), i, x) {
		const char *rule = json_string_value(json_object_get(x, "rule"));

		if (at >= len)
			break;
		at += (size_t)snprintf(buf + at, len - at, " %s %.4g %s %.4g;",
			json_string_value(json_object_get(x, "kpi")),
			json_number_value(json_object_get(x, "value")),
			rule != NULL && strcmp(rule, "<=") == 0 ? ">" : "<",
			json_number_value(json_object_get(x, "criterion")));
	}
	if (at < len)
		unmeasured_text(o, buf, len, at, " not measured:");
}

void
wr_y1564_ms_text(const json_t *o, const char *k, char *buf, size_t len)
{
	const json_t *v = json_object_get(o, k);

	if (json_is_number(v))
		snprintf(buf, len, "%.3f", json_number_value(v) / 1e6);
	else
		snprintf(buf, len, "-");
}
