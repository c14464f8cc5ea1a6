/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "errmsg.h"
#include "compare.h"
#include "result.h"
#include "trials.h"

const char *
wr_compare_verdict_name(enum wr_verdict v)
{
	static const char *const names[WR_VERDICT_COUNT] = {
		"pass", "improved", "noise", "regression", "skipped",
	};

	return (unsigned int)v < WR_VERDICT_COUNT ? names[v] : "?";
}

/* A parsed document is a result of this schema, or it is released. */
static int
check_schema(json_t *d, const char *name, json_t **doc, char *err, size_t errlen)
{
	const json_t *schema = json_object_get(d, "schema");

	if (!json_is_object(d) || schema == NULL || !json_is_string(schema)) {
		json_decref(d);
		return wr_err(-EINVAL, err, errlen, "%s: field 'schema' is missing or not a "
			"string: not a wirerate result (expected \"schema\": \"%s\")",
			name, WR_RESULT_SCHEMA);
	}
	if (strcmp(json_string_value(schema), WR_RESULT_SCHEMA) != 0) {
		(void)wr_err(-EINVAL, err, errlen, "%s: schema mismatch: field 'schema' is "
			"\"%.64s\", this wirerate reads \"%s\"", name,
			json_string_value(schema), WR_RESULT_SCHEMA);
		json_decref(d);
		return -EINVAL;
	}
	*doc = d;
	return 0;
}

int
wr_compare_load(const char *path, json_t **doc, char *err, size_t errlen)
{
	json_error_t je;
	json_t *d;

	*doc = NULL;
	d = json_load_file(path, 0, &je);
	if (d == NULL) {
		if (je.line <= 0)
			return wr_err(-EINVAL, err, errlen, "%s: cannot read: %s", path, je.text);
		return wr_err(-EINVAL, err, errlen, "%s:%d:%d: not valid JSON: %s", path,
			je.line, je.column, je.text);
	}
	return check_schema(d, path, doc, err, errlen);
}

int
wr_compare_parse(const char *buf, size_t len, const char *name, json_t **doc,
		char *err, size_t errlen)
{
	json_error_t je;
	json_t *d;

	*doc = NULL;
	d = json_loadb(buf, len, 0, &je);
	if (d == NULL)
		return wr_err(-EINVAL, err, errlen, "%s:%d:%d: not valid JSON: %s", name,
			je.line, je.column, je.text);
	return check_schema(d, name, doc, err, errlen);
}

/* Ports transmitting and receiving, from ports[].role. */
static int
count_roles(const json_t *doc, const char *name, unsigned int *tx,
		unsigned int *rx, char *err, size_t el)
{
	const json_t *ports = json_object_get(doc, "ports"), *role;
	size_t i;

	*tx = *rx = 0;
	if (!json_is_array(ports))
		return wr_err(-EINVAL, err, el, "%s: field 'ports' is missing or not an array",
			name);
	for (i = 0; i < json_array_size(ports); i++) {
		role = json_object_get(json_array_get(ports, i), "role");
		if (!json_is_string(role))
			return wr_err(-EINVAL, err, el, "%s: field 'ports[%zu].role' is missing "
				"or not a string", name, i);
		*tx += strstr(json_string_value(role), "tx") != NULL;
		*rx += strstr(json_string_value(role), "rx") != NULL;
	}
	return 0;
}

/* config.frame_size: a whole number of bytes. */
static int
need_size(const json_t *doc, const char *name, uint64_t *size, char *err,
		size_t el)
{
	char why[192];

	if (wr_metrics_get_count(doc, "config.frame_size", UINT16_MAX, size, why,
			sizeof(why)) != 0)
		return wr_err(-EINVAL, err, el, "%s: %s", name, why);
	return 0;
}

/* Runs whose numbers mean different things are refused, with the reason. */
static int
check_comparable(const json_t *base, const char *bn, const json_t *cur,
		const char *cn, struct wr_compare *out, char *err, size_t el)
{
	uint64_t bs, cs;
	double bv, cv;
	unsigned int btx, brx, ctx, crx;

	if (need_size(base, bn, &bs, err, el) != 0 ||
			need_size(cur, cn, &cs, err, el) != 0)
		return -EINVAL;
	if (bs != cs)
		return wr_err(-EINVAL, err, el, "incomparable runs: frame size %" PRIu64 " B in "
			"%s, %" PRIu64 " B in %s (compare runs of the same frame size)",
			bs, bn, cs, cn);
	out->frame_size = (unsigned int)bs;
	if (wr_metrics_get_number(base, "config.vlan", &bv, err, el) == 0 &&
			wr_metrics_get_number(cur, "config.vlan", &cv, err, el) == 0 &&
			(bv == 0) != (cv == 0))
		return wr_err(-EINVAL, err, el, "incomparable runs: frames are %s in %s and "
			"%s in %s", bv ? "VLAN-tagged" : "untagged", bn,
			cv ? "VLAN-tagged" : "untagged", cn);
	if (count_roles(base, bn, &btx, &brx, err, el) != 0 ||
			count_roles(cur, cn, &ctx, &crx, err, el) != 0)
		return -EINVAL;
	if (btx != ctx || brx != crx)
		return wr_err(-EINVAL, err, el, "incomparable runs: %s transmits on %u and "
			"receives on %u port(s), %s on %u and %u", bn, btx, brx, cn,
			ctx, crx);
	return 0;
}

static void __rte_format_printf(2, 3)
note(struct wr_compare *out, const char *fmt, ...)
{
	va_list ap;

	if (out->nb_notes == WR_COMPARE_MAX_NOTES)
		return;
	va_start(ap, fmt);
	vsnprintf(out->notes[out->nb_notes++], WR_COMPARE_NOTE_LEN, fmt, ap);
	va_end(ap);
}

/* Note a field whose value differs between the sides (strings or numbers). */
static void
note_diff(struct wr_compare *out, const json_t *base, const json_t *cur,
		const char *path)
{
	const json_t *b = wr_metrics_get(base, path), *c = wr_metrics_get(cur, path);
	char *bs, *cs;

	if (b == NULL || c == NULL || json_equal(b, c))
		return;
	bs = json_dumps(b, JSON_ENCODE_ANY);
	cs = json_dumps(c, JSON_ENCODE_ANY);
	note(out, "%s differs: %s in the baseline, %s in the result", path,
		bs ? bs : "?", cs ? cs : "?");
	free(bs);
	free(cs);
}

/* What differs in the set-up but does not make the runs incomparable. */
static void
note_env(struct wr_compare *out, const json_t *base, const json_t *cur)
{
	static const char *const fields[] = {
		"env.wirerate_version", "env.dpdk_version", "env.cpu_model",
		"env.tsc_hz", "env.kernel", "env.hostname", "env.profile",
		"config.txq", "config.rxq", "config.txd", "config.rxd",
		"config.burst_pkts", "config.flows",
	};
	static const char *const port_fields[] = {
		"driver", "device", "pci_id", "vmxnet3_version", "mtu",
		"link_speed_mbps", "txq", "rxq", "txd", "rxd",
	};
	size_t i, k, n;
	char path[64];

	for (i = 0; i < RTE_DIM(fields); i++)
		note_diff(out, base, cur, fields[i]);
	n = RTE_MIN(json_array_size(json_object_get(base, "ports")),
		json_array_size(json_object_get(cur, "ports")));
	for (i = 0; i < n; i++) {
		for (k = 0; k < RTE_DIM(port_fields); k++) {
			snprintf(path, sizeof(path), "ports[%zu].%s", i, port_fields[k]);
			note_diff(out, base, cur, path);
		}
	}
}

/* Each metric of one document: the trials' median and spread if any. */
static int
side_values(const json_t *doc, const char *name, unsigned int which,
		struct wr_compare *out, char *err, size_t el)
{
	struct wr_metric_values m;
	struct wr_trials_figure f;
	char why[192];
	unsigned int id;
	int rc;

	if (wr_metrics_extract(doc, &m, why, sizeof(why)) != 0)
		return wr_err(-EINVAL, err, el, "%s: %s", name, why);
	for (id = 0; id < WR_METRIC_COUNT; id++) {
		struct wr_compare_row *r = &out->rows[id];
		struct wr_compare_side *s = which == 0 ? &r->base : &r->cur;

		s->have = m.have[id];
		s->value = s->min = s->max = m.v[id];
		s->n = 1;
		rc = wr_trials_read_figure(doc, wr_metric_defs[id].name, &f, why,
			sizeof(why));
		if (rc == -EINVAL)
			return wr_err(-EINVAL, err, el, "%s: %s", name, why);
		if (rc == 0) {
			s->have = true;
			s->value = f.median;
			s->min = f.min;
			s->max = f.max;
			s->n = f.n;
		}
	}
	return 0;
}

/* True when the worse side's best trial reaches the other's worst one. */
static bool
inside_spread(const struct wr_compare_row *r)
{
	if (r->base.n < 2 || r->cur.n < 2)
		return false;
	if (wr_metric_defs[r->id].dir == WR_METRIC_HIGHER_BETTER)
		return r->cur.max >= r->base.min;
	return r->cur.min <= r->base.max;
}

/* How much worse cur is, in the tolerance's unit (negative: better). */
static double
badness(const struct wr_compare_row *r)
{
	double sign = wr_metric_defs[r->id].dir == WR_METRIC_HIGHER_BETTER ? -1 : 1;

	if (!r->tol.relative)
		return sign * r->change_abs;
	if (isnan(r->change_pct))
		return sign * r->change_abs > 0 ? INFINITY : -INFINITY;
	return sign * r->change_pct;
}

static void
judge(struct wr_compare_row *r)
{
	char tol[32];
	double bad;

	r->change_abs = r->cur.value - r->base.value;
	r->change_pct = r->base.value != 0 ? 100.0 * r->change_abs /
		fabs(r->base.value) : (r->change_abs == 0 ? 0.0 : NAN);
	wr_tolerance_format(&r->tol, tol, sizeof(tol));
	if (r->tol.ignore) {
		r->verdict = WR_VERDICT_SKIPPED;
		snprintf(r->why, sizeof(r->why), "ignored (tolerance file)");
		return;
	}
	bad = badness(r);
	if (bad > r->tol.value && inside_spread(r)) {
		r->verdict = WR_VERDICT_NOISE;
		snprintf(r->why, sizeof(r->why), "worse beyond the %s tolerance "
			"but inside the trials' spread (baseline %.6g..%.6g, result "
			"%.6g..%.6g)", tol, r->base.min, r->base.max, r->cur.min,
			r->cur.max);
	} else if (bad > r->tol.value) {
		r->verdict = WR_VERDICT_REGRESSION;
		snprintf(r->why, sizeof(r->why), "worse beyond the %s tolerance "
			"(%.6g -> %.6g)", tol, r->base.value, r->cur.value);
	} else if (bad < -r->tol.value) {
		r->verdict = WR_VERDICT_IMPROVED;
		snprintf(r->why, sizeof(r->why), "better beyond the %s tolerance", tol);
	} else {
		r->verdict = WR_VERDICT_PASS;
		snprintf(r->why, sizeof(r->why), "within the %s tolerance", tol);
	}
}

int
wr_compare_docs(const json_t *base, const char *base_name,
		const json_t *cur, const char *cur_name,
		const struct wr_tolerances *tol, struct wr_compare *out,
		char *err, size_t errlen)
{
	unsigned int id;

	memset(out, 0, sizeof(*out));
	if (check_comparable(base, base_name, cur, cur_name, out, err, errlen) != 0 ||
			side_values(base, base_name, 0, out, err, errlen) != 0 ||
			side_values(cur, cur_name, 1, out, err, errlen) != 0)
		return -EINVAL;
	note_env(out, base, cur);
	out->nb_rows = WR_METRIC_COUNT;
	for (id = 0; id < WR_METRIC_COUNT; id++) {
		struct wr_compare_row *r = &out->rows[id];

		r->id = id;
		r->tol = tol->t[id];
		if (!r->base.have || !r->cur.have) {
			r->verdict = WR_VERDICT_SKIPPED;
			r->change_pct = NAN;
			snprintf(r->why, sizeof(r->why), "not measured in the %s",
				!r->base.have && !r->cur.have ? "baseline nor the result" :
				!r->base.have ? "baseline" : "result");
		} else {
			judge(r);
		}
		out->nb[r->verdict]++;
	}
	out->regression = out->nb[WR_VERDICT_REGRESSION] > 0;
	return 0;
}
