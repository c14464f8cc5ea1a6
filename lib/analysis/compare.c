/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "base/error.h"
#include "compare.h"
#include "alike.h"
#include "results/kinds.h"
#include "results/result.h"
#include "results/trials.h"

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
check_schema(json_t *d, const char *name, json_t **doc, struct wr_error *err)
{
	const json_t *schema = json_object_get(d, "schema");

	if (!json_is_object(d) || schema == NULL || !json_is_string(schema)) {
		json_decref(d);
		return wr_err_usage(err, -EINVAL, "%s: field 'schema' is missing or not a "
			"string: not a wirerate result (expected \"schema\": \"%s\")",
			name, WR_RESULT_SCHEMA);
	}
	if (strcmp(json_string_value(schema), WR_RESULT_SCHEMA) != 0) {
		(void)wr_err_usage(err, -EINVAL, "%s: schema mismatch: field 'schema' is "
			"\"%.64s\", this wirerate reads \"%s\"", name,
			json_string_value(schema), WR_RESULT_SCHEMA);
		json_decref(d);
		return -EINVAL;
	}
	*doc = d;
	return 0;
}

int
wr_compare_load(const char *path, json_t **doc, struct wr_error *err)
{
	json_error_t je;
	json_t *d;

	*doc = NULL;
	d = json_load_file(path, 0, &je);
	if (d == NULL) {
		if (je.line <= 0)
			return wr_err_usage(err, -EINVAL, "%s: cannot read: %s", path, je.text);
		return wr_err_usage(err, -EINVAL, "%s:%d:%d: not valid JSON: %s", path,
			je.line, je.column, je.text);
	}
	return check_schema(d, path, doc, err);
}

int
wr_compare_parse(const char *buf, size_t len, const char *name, json_t **doc,
		struct wr_error *err)
{
	json_error_t je;
	json_t *d;

	*doc = NULL;
	d = json_loadb(buf, len, 0, &je);
	if (d == NULL)
		return wr_err_usage(err, -EINVAL, "%s:%d:%d: not valid JSON: %s", name,
			je.line, je.column, je.text);
	return check_schema(d, name, doc, err);
}

/*
 * Runs whose numbers mean different things are refused, naming every
 * set-up key that differs and how to allow it; allowed ones are listed.
 */
static int
check_comparable(const json_t *base, const char *bn, const json_t *cur,
		const char *cn, unsigned int allow, struct wr_compare *out,
		struct wr_error *err)
{
	struct wr_alike_diff d[WR_COMPARE_MAX_ALLOWED];
	char what[768], how[256];
	size_t nw = 0, nh = 0;
	int i, n;

	n = wr_alike_diffs(base, bn, cur, cn, d, RTE_DIM(d), err);
	what[0] = how[0] = '\0';
	for (i = 0; i < n; i++) {
		const struct wr_alike_key *k = &wr_alike_keys[d[i].key];

		if (allow & (1u << d[i].key)) {
			snprintf(out->allowed[out->nb_allowed++], WR_COMPARE_NOTE_LEN,
				"%s: %s in the baseline, %s in the result (--allow-diff "
				"%s)", k->name, d[i].base, d[i].cur, k->name);
			continue;
		}
		if (nw < sizeof(what))
			nw += (size_t)snprintf(what + nw, sizeof(what) - nw, "%s%s: %s "
				"in %s, %s in %s", nw ? "; " : "", k->what, d[i].base,
				bn, d[i].cur, cn);
		if (nh < sizeof(how))
			nh += (size_t)snprintf(how + nh, sizeof(how) - nh,
				" --allow-diff %s", k->name);
	}
	if (n < 0)
		return -EINVAL;
	if (nw != 0)
		return wr_err_usage(err, -EINVAL, "incomparable runs: %s (compare runs "
			"of one configuration, or name what differs on purpose:%s)",
			what, how);
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
		"config.burst_pkts",
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

/*
 * The change of the medians that repeated trials make plausible by chance:
 * the two-sided 95% Student t quantile (n_b + n_c - 2 degrees of freedom,
 * as the two-sample t test) times the standard error of the difference,
 * sqrt(se_b^2 + se_c^2). The errors come from each side's median absolute
 * deviation, so one outlier among the trials neither widens it nor moves
 * the medians; more trials narrow it. NAN when a side has fewer than two
 * trials (a single run: nothing excuses a change).
 */
static double
noise_limit(const struct wr_compare_row *r)
{
	if (r->base.n < 2 || r->cur.n < 2 || isnan(r->base.se) || isnan(r->cur.se))
		return NAN;
	return wr_trials_t95(r->base.n + r->cur.n - 2) *
		sqrt(r->base.se * r->base.se + r->cur.se * r->cur.se);
}

/*
 * Noise: within noise_limit(), and the worse side's best trial reaches
 * the other's worst. The second condition never excuses a change alone (one
 * outlier would stretch a range over everything): it keeps a handful of
 * trials, whose error estimate is loose, from calling two sets that do
 * not overlap at all chance.
 */
static bool
within_noise(const struct wr_compare_row *r, double limit)
{
	bool overlap = wr_metric_defs[r->id].dir == WR_METRIC_HIGHER_BETTER ?
		r->cur.max >= r->base.min : r->cur.min <= r->base.max;

	return overlap && fabs(r->change_abs) <= limit;
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
	double bad, noise;

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
	noise = noise_limit(r);
	if (bad > r->tol.value && within_noise(r, noise)) {
		r->verdict = WR_VERDICT_NOISE;
		snprintf(r->why, sizeof(r->why), "worse beyond the %s tolerance "
			"but within the trials' noise: the medians differ by %.4g, "
			"at most %.4g by chance (t95 x standard error, %u and %u "
			"trials)", tol, fabs(r->change_abs), noise, r->base.n,
			r->cur.n);
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

/*
 * A metric one side lacks. The baseline's figure vanished from the result
 * (an NDR not found, an MLR goal at 0, a b2b without a passing burst, a
 * receiver that got nothing): a regression. Only a figure the baseline
 * lacks too, or gained by the result, is skipped: nothing to hold it to.
 */
static void
judge_absent(struct wr_compare_row *r)
{
	r->change_pct = NAN;
	if (r->base.have && !r->tol.ignore) {
		r->verdict = WR_VERDICT_REGRESSION;
		snprintf(r->why, sizeof(r->why), "measured in the baseline (%.6g), "
			"missing in the result", r->base.value);
		return;
	}
	r->verdict = WR_VERDICT_SKIPPED;
	snprintf(r->why, sizeof(r->why), "%s", r->tol.ignore ?
		"ignored (tolerance file)" : !r->cur.have ?
		"not measured in the baseline nor the result" :
		"not measured in the baseline");
}

/* "64, 512, 1518" into buf: the frame sizes of pts; returns how many. */
static unsigned int
sizes_str(const struct wr_points *pts, char *buf, size_t len)
{
	unsigned int i, prev = 0, n = 0;
	size_t used = 0;

	buf[0] = '\0';
	for (i = 0; i < pts->nb && used < len; i++) {
		if (pts->p[i].frame_size == prev)
			continue;
		used += (size_t)snprintf(buf + used, len - used, "%s%u",
			used ? ", " : "", pts->p[i].frame_size);
		prev = pts->p[i].frame_size;
		n++;
	}
	return n;
}

/* True when every frame size of a is in b. */
static bool
sizes_within(const struct wr_points *a, const struct wr_points *b)
{
	unsigned int i, j;

	for (i = 0; i < a->nb; i++) {
		for (j = 0; j < b->nb; j++)
			if (a->p[i].frame_size == b->p[j].frame_size)
				break;
		if (j == b->nb)
			return false;
	}
	return true;
}

/*
 * Same kind (a run and a repeated run are) and the same frame sizes; a
 * side written during its run (b_running, c_running) may lack the sizes
 * it had not finished (judge_points notes them).
 */
static int
check_points(const struct wr_points *b, const char *bn, bool b_running,
		const struct wr_points *c, const char *cn, bool c_running,
		struct wr_error *err)
{
	char bs[160], cs[160];
	bool many = sizes_str(b, bs, sizeof(bs)) + sizes_str(c, cs, sizeof(cs)) > 2;

	if (b->kind->points != c->kind->points)
		return wr_err_usage(err, -EINVAL, "incomparable results: %s is a %s "
			"result (%s%s), %s a %s result (%s%s); compare results of "
			"one kind", bn, b->kind->name, b->kind->point_name ?: bs,
			b->kind->point_name ? "" : " B", cn, c->kind->name,
			c->kind->point_name ?: cs, c->kind->point_name ? "" : " B");
	if (((!c_running && !sizes_within(b, c)) ||
			(!b_running && !sizes_within(c, b))) && b->kind->key_name)
		return wr_err_usage(err, -EINVAL, "incomparable runs: %s list %s "
			"in %s, %s in %s (compare runs of the same %s list)",
			b->kind->key_name, bs, bn, cs, cn, b->kind->key_name);
	if ((!c_running && !sizes_within(b, c)) || (!b_running && !sizes_within(c, b)))
		return wr_err_usage(err, -EINVAL, "incomparable runs: frame size%s %s B "
			"in %s, %s B in %s (compare runs of the same frame size%s)",
			many ? "s" : "", bs, bn, cs, cn, many ? "s" : "");
	return 0;
}

static void
side_of(const struct wr_point *p, unsigned int id, struct wr_compare_side *s)
{
	s->have = p->m.have[id];
	s->value = p->m.v[id];
	s->min = p->lo.v[id];
	s->max = p->hi.v[id];
	s->n = p->n;
	s->se = p->se.have[id] ? p->se.v[id] : NAN;
}

/* Judge the kind's metrics at one point present on both sides. */
static int
judge_point(const struct wr_point *bp, const struct wr_point *cp,
		const struct wr_kind *k, const struct wr_tolerances *tol,
		struct wr_compare *out, struct wr_error *err)
{
	struct wr_compare_point *pt = &out->points[out->nb_points];
	const unsigned int *ids;
	unsigned int i, nb = wr_point_judged(k, bp, &ids);

	if (out->nb_points == WR_COMPARE_MAX_POINTS ||
			out->nb_rows + nb > WR_COMPARE_MAX_ROWS)
		return wr_err_usage(err, -EINVAL, "more than %u points to compare",
			WR_COMPARE_MAX_POINTS);
	pt->frame_size = bp->frame_size;
	pt->load_pct = bp->load_pct;
	pt->stream_id = bp->stream_id;
	wr_point_name(k, bp, pt->name, sizeof(pt->name));
	for (i = 0; i < nb; i++) {
		struct wr_compare_row *r = &out->rows[out->nb_rows++];

		r->point = out->nb_points;
		r->id = ids[i];
		r->tol = tol->t[r->id];
		side_of(bp, r->id, &r->base);
		side_of(cp, r->id, &r->cur);
		if (!r->base.have || !r->cur.have)
			judge_absent(r);
		else
			judge(r);
		out->nb[r->verdict]++;
	}
	out->nb_points++;
	return 0;
}

/* Every point of base against the same point of cur. */
static int
judge_points(const struct wr_points *b, const struct wr_points *c,
		const struct wr_tolerances *tol, struct wr_compare *out,
		struct wr_error *err)
{
	const struct wr_point *cp;
	char name[48];
	unsigned int i;

	for (i = 0; i < b->nb; i++) {
		cp = wr_points_find(c, &b->p[i]);
		if (cp == NULL)
			note(out, "%s: only in the baseline", wr_point_name(b->kind,
				&b->p[i], name, sizeof(name)));
		else if (judge_point(&b->p[i], cp, b->kind, tol, out, err) != 0)
			return -EINVAL;
	}
	for (i = 0; i < c->nb; i++)
		if (wr_points_find(b, &c->p[i]) == NULL)
			note(out, "%s: only in the result", wr_point_name(c->kind,
				&c->p[i], name, sizeof(name)));
	return 0;
}

/* Cross-check warnings of one array (a result's or a trial's). */
static void
note_warnings(struct wr_compare *out, const json_t *a, const char *name)
{
	const json_t *w;
	size_t i;

	if (!json_is_array(a))
		return;
	json_array_foreach(a, i, w) {
		out->nb_warnings++;
		note(out, "%s: cross-check %s failed: %s", name,
			json_string_value(json_object_get(w, "check")) ?: "?",
			json_string_value(json_object_get(w, "what")) ?: "?");
	}
}

/*
 * What a side says about its own integrity: written during the run
 * (stop_reason "running": figures up to its last interval), and the
 * cross-checks that disagreed, at the top and in each trial.
 */
static void
judge_integrity(const json_t *doc, const char *name, struct wr_compare *out)
{
	const json_t *trials = json_object_get(doc, "trials"), *t;
	size_t i;

	if (wr_kind_running(doc)) {
		out->incomplete = true;
		note(out, "%s is INCOMPLETE: written during its run (stop_reason "
			"running), figures up to its last interval", name);
	}
	note_warnings(out, json_object_get(doc, "warnings"), name);
	if (json_is_array(trials))
		json_array_foreach(trials, i, t)
			note_warnings(out, json_object_get(t, "warnings"), name);
}

/* The points of doc, err prefixed with its name. */
static int
load_points(const json_t *doc, const char *name, struct wr_points *pts,
		struct wr_error *err)
{
	if (wr_kind_points(doc, pts, err) != 0)
		return wr_err_prefix(err, "%s: ", name);
	return 0;
}

int
wr_compare_docs(const json_t *base, const char *base_name,
		const json_t *cur, const char *cur_name,
		const struct wr_tolerances *tol, unsigned int allow,
		struct wr_compare *out, struct wr_error *err)
{
	struct wr_points *pts = malloc(2 * sizeof(*pts));
	int rc = -EINVAL;

	memset(out, 0, sizeof(*out));
	if (pts == NULL)
		return wr_err_env(err, -ENOMEM, "no memory");
	if (load_points(base, base_name, &pts[0], err) != 0 ||
			load_points(cur, cur_name, &pts[1], err) != 0 ||
			check_points(&pts[0], base_name, wr_kind_running(base), &pts[1],
			cur_name, wr_kind_running(cur), err) != 0 ||
			check_comparable(base, base_name, cur, cur_name, allow, out,
			err) != 0)
		goto out;
	snprintf(out->kind, sizeof(out->kind), "%s", pts[1].kind->name);
	/* A checkpoint killed in its first point has none. */
	out->frame_size = pts[0].nb ? pts[0].p[0].frame_size :
		pts[1].nb ? pts[1].p[0].frame_size : 0;
	if (judge_points(&pts[0], &pts[1], tol, out, err) != 0)
		goto out;
	if (out->nb_points == 0)
		note(out, "no point finished on both sides: nothing was compared");
	note_env(out, base, cur);
	judge_integrity(base, base_name, out);
	judge_integrity(cur, cur_name, out);
	out->regression = out->nb[WR_VERDICT_REGRESSION] > 0;
	rc = 0;
out:
	free(pts);
	return rc;
}
