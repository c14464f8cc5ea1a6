/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/sha256.h"
#include "report/jsonpath.h"
#include "analysis/compare.h"
#include "input.h"

/* One end of a merge, loaded as a result. */
static int
load_end(const char *merge_path, const json_t *m, const char *end, json_t **doc,
		struct wr_error *err)
{
	const char *file = rep_str_of(json_object_get(m, end), "file", NULL);
	char path[PATH_MAX];

	if (file == NULL)
		return wr_err_usage(err, -EINVAL, "%s: field '%s.file' is missing",
			merge_path, end);
	rep_sibling(path, sizeof(path), merge_path, file);
	return wr_compare_load(path, doc, err);
}

/*
 * A two-ended run: the receiver's figures and set-up, TX figures and
 * cycles from the sender, loss from the merge's balance.
 */
static int
merge_facts(const char *path, const json_t *m, json_t **rdoc,
		struct hist_result *r, struct wr_error *err)
{
	static struct wr_hist_facts snd;
	const json_t *tot = json_object_get(m, "totals");
	json_t *sdoc = NULL;
	unsigned int i, j;
	int rc = -EINVAL;

	if (strcmp(rep_str_of(m, "schema", ""), "wirerate-merge/1") != 0)
		return wr_err_usage(err, -EINVAL, "%s: schema is not \"wirerate-merge/1\"", path);
	if (load_end(path, m, "sender", &sdoc, err) != 0 ||
			load_end(path, m, "receiver", rdoc, err) != 0)
		goto out;
	if (wr_hist_facts(*rdoc, r->facts, err) != 0 || wr_hist_facts(sdoc, &snd, err) != 0) {
		wr_err_prefix(err, "%s: an end's ", path);
		goto out;
	}
	for (i = 0; i < r->facts->nb; i++) {
		struct wr_hist_fact *f = &r->facts->f[i];

		if (strncmp(f->metric, "tx_", 3) != 0 && strncmp(f->metric, "cycles", 6) != 0)
			continue;
		for (j = 0; j < snd.nb; j++)
			if (strcmp(snd.f[j].metric, f->metric) == 0 &&
					strcmp(snd.f[j].point, f->point) == 0)
				f->value = snd.f[j].value;
	}
	for (i = 0; i < r->facts->nb; i++)
		if (strcmp(r->facts->f[i].metric, "loss_pct") == 0 &&
				json_integer_value(json_object_get(tot, "sent_pkts")) > 0)
			r->facts->f[i].value = 100.0 * (double)json_integer_value(
				json_object_get(tot, "lost_pkts")) /
				(double)json_integer_value(json_object_get(tot, "sent_pkts"));
	snprintf(r->kind, sizeof(r->kind), "two-ended");
	rc = 0;
out:
	json_decref(sdoc);
	return rc;
}

/*
 * The DUT's cost beside a cell (dut.json, wirerate-dut/1: what the DUT
 * observer measured, docs/campaigns.md): its CPU busy % and interrupts/s,
 * at the cell's frame size. Absent: a cell without an observer.
 */
static int
dut_facts(const char *cell_path, struct hist_result *r, struct wr_error *err)
{
	static const struct { const char *path, *metric; } figs[] = {
		{ "cpu.cpu.busy", "dut_cpu_busy_pct" },
		{ "interrupts_per_s", "dut_interrupts_per_s" },
	};
	char path[PATH_MAX], point[WR_HIST_NAME_LEN];
	unsigned int i;
	double v;
	json_t *d;

	rep_sibling(path, sizeof(path), cell_path, "dut.json");
	d = json_load_file(path, 0, NULL);
	if (d == NULL)
		return 0;
	if (strcmp(rep_str_of(d, "schema", ""), "wirerate-dut/1") != 0 ||
			r->facts->nb == 0) {
		json_decref(d);
		return wr_err_usage(err, -EINVAL, "%s: not a wirerate-dut/1 file", path);
	}
	snprintf(point, sizeof(point), "%s", r->facts->f[0].point);
	for (i = 0; i < sizeof(figs) / sizeof(figs[0]); i++)
		if (wr_metrics_get_number(d, figs[i].path, &v, NULL) == 0 &&
				wr_hist_fact_add(r->facts, point, figs[i].metric, 1, v, err) != 0)
			break;
	json_decref(d);
	return i == sizeof(figs) / sizeof(figs[0]) ? 0 : -EINVAL;
}

/* The figures of doc (a result, merge or cell), *fig the run they describe. */
static int
figures(const char *path, json_t *doc, json_t **fig, struct hist_result *r,
		struct wr_error *err)
{
	const char *schema = rep_str_of(doc, "schema", "");
	char merge[PATH_MAX];
	json_t *m;
	int rc;

	if (strcmp(schema, "wirerate-result/1") == 0) {
		*fig = json_incref(doc);
		if (wr_hist_facts(doc, r->facts, err) != 0)
			return wr_err_prefix(err, "%s: ", path);
		snprintf(r->kind, sizeof(r->kind), "%s", r->facts->kind);
		return 0;
	}
	if (strcmp(schema, "wirerate-merge/1") == 0)
		return merge_facts(path, doc, fig, r, err);
	if (strcmp(schema, "wirerate-cell/1") != 0)
		return wr_err_usage(err, -EINVAL, "%s: not a wirerate result: field "
			"'schema' is \"%.40s\" (expected wirerate-result/1, wirerate-merge/1 "
			"or wirerate-cell/1)", path, schema);
	if (strcmp(rep_str_of(doc, "status", ""), "passed") != 0 ||
			rep_str_of(doc, "merged", NULL) == NULL)
		return 1;
	rep_sibling(merge, sizeof(merge), path, rep_str_of(doc, "merged", ""));
	m = json_load_file(merge, 0, NULL);
	if (m == NULL)
		return wr_err_usage(err, -EINVAL, "%s: its merge %s cannot be read",
			path, merge);
	rc = merge_facts(merge, m, fig, r, err);
	json_decref(m);
	return rc != 0 ? rc : dut_facts(path, r, err);
}

/*
 * A result its writer marked invalid (top-level "invalid": {"field",
 * "reason"}, a far end's reply that failed its checks) is no figure to
 * keep. Returns 0, or -EINVAL naming the file and the reason.
 */
static int
refuse_invalid(const char *path, const json_t *doc, struct wr_error *err)
{
	const json_t *inv = json_object_get(doc, "invalid");

	if (inv == NULL)
		return 0;
	return wr_err_usage(err, -EINVAL, "%s: the result is marked invalid "
		"(field '%.60s': %.200s): not stored", path,
		rep_str_of(inv, "field", "?"), rep_str_of(inv, "reason", "no reason given"));
}

/*
 * Every figure finite: one inf or nan in the store would break every
 * later check of its series. Returns 0, or -EINVAL naming the file and
 * the figure.
 */
static int
refuse_non_finite(const char *path, const struct hist_result *r,
		struct wr_error *err)
{
	unsigned int i;

	for (i = 0; i < r->facts->nb; i++)
		if (!isfinite(r->facts->f[i].value))
			return wr_err_usage(err, -EINVAL, "%s: figure '%s' at %s is "
				"not a finite number: not stored", path,
				r->facts->f[i].metric, r->facts->f[i].point);
	return 0;
}

int
hist_input_read(const char *path, const char *commit, struct hist_result *r,
		struct wr_error *err)
{
	json_t *doc = NULL, *fig = NULL, *setup = NULL;
	json_error_t je;
	char *canon;
	int rc;

	memset(r, 0, sizeof(*r));
	r->file = path;
	r->facts = malloc(sizeof(*r->facts));
	if (r->facts == NULL)
		return wr_err_env(err, -ENOMEM, "%s: no memory", path);
	doc = json_load_file(path, 0, &je);
	if (doc == NULL || !json_is_object(doc)) {
		json_decref(doc);
		return wr_err_usage(err, -EINVAL, "%s: not a wirerate result: %s", path,
			doc == NULL ? je.text : "not a JSON object");
	}
	rc = refuse_invalid(path, doc, err);
	if (rc == 0)
		rc = figures(path, doc, &fig, r, err);
	if (rc == 0)
		rc = refuse_invalid(path, fig, err);
	if (rc == 0)
		rc = refuse_non_finite(path, r, err);
	if (rc == 0)
		rc = wr_hist_setup(fig, path, &setup, err);
	if (rc == 0 && strcmp(r->kind, "two-ended") == 0)
		json_object_set_new(setup, "two_ended", json_true());
	if (rc == 0) {
		canon = json_dumps(doc, JSON_SORT_KEYS | JSON_COMPACT);
		r->setup = json_dumps(setup, JSON_SORT_KEYS | JSON_COMPACT);
		if (canon == NULL || r->setup == NULL)
			rc = wr_err_env(err, -ENOMEM, "%s: no memory", path);
		else
			wr_sha256_hex(canon, strlen(canon), r->digest);
		free(canon);
		snprintf(r->commit, sizeof(r->commit), "%s", commit != NULL ? commit :
			rep_str_of(fig, "label", "-"));
		snprintf(r->version, sizeof(r->version), "%s",
			rep_str_of(json_object_get(fig, "env"), "wirerate_version", "-"));
		snprintf(r->time, sizeof(r->time), "%s",
			rep_str_of(json_object_get(fig, "env"), "date_utc", "-"));
	}
	json_decref(setup);
	json_decref(fig);
	json_decref(doc);
	return rc;
}

void
hist_input_free(struct hist_result *r)
{
	free(r->facts);
	free(r->setup);
	r->facts = NULL;
	r->setup = NULL;
}
