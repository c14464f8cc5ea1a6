/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/fileio.h"
#include "report/markup.h"
#include "analyse.h"
#include "store.h"

bool
hist_worse(const struct hist_series *s, const struct wr_cp *c)
{
	return s->lower_better ? c->change_pct > 0 : c->change_pct < 0;
}

int
hist_analyse(const struct hist_series *s, const struct wr_cp_opts *o,
		struct hist_found *f, struct wr_error *err)
{
	double *x = malloc((s->nb ? s->nb : 1) * sizeof(*x));
	unsigned int i;
	int n;

	memset(f, 0, sizeof(*f));
	f->s = s;
	if (x == NULL)
		return wr_err_env(err, -ENOMEM, "no memory for a series");
	for (i = 0; i < s->nb; i++)
		x[i] = s->p[i].value;
	n = wr_cp_find(x, s->nb, o, f->cp, err);
	free(x);
	if (n < 0)
		return n;
	f->nb_cp = (unsigned int)n;
	/* The newest point is in the last segment: a regression when the
	 * change that began it made the metric worse. */
	f->regression = n > 0 && hist_worse(s, &f->cp[n - 1]);
	return 0;
}

int
hist_analyse_all(struct hist_db *db, const char *metric, const struct wr_cp_opts *o,
		struct hist_series **ss, struct hist_found **fs, unsigned int *nb,
		struct wr_error *err)
{
	unsigned int i;

	*fs = NULL;
	if (hist_db_series(db, metric, ss, nb, err) != 0)
		return -EIO;
	*fs = calloc(*nb ? *nb : 1, sizeof(**fs));
	if (*fs == NULL) {
		hist_found_free(*ss, NULL, *nb);
		return wr_err_env(err, -ENOMEM, "no memory for %u series", *nb);
	}
	for (i = 0; i < *nb; i++)
		if (hist_analyse(&(*ss)[i], o, &(*fs)[i], err) != 0) {
			hist_found_free(*ss, *fs, *nb);
			return -EINVAL;
		}
	return 0;
}

void
hist_found_free(struct hist_series *ss, struct hist_found *fs, unsigned int nb)
{
	free(fs);
	hist_series_free(ss, nb);
}

const char *
hist_series_name(const struct hist_series *s, char *buf, size_t len)
{
	snprintf(buf, len, "%s at %s, series %ld", s->metric, s->point, s->id);
	return buf;
}

void
hist_cp_print(FILE *f, const struct hist_series *s, const struct wr_cp *c)
{
	fprintf(f, "  change at run %u (of %u): %s -> %s, %s: %s %+.2f%% "
		"[%+.2f%%..%+.2f%%] (mean %.6g -> %.6g), p = %.4f\n", c->idx + 1, s->nb,
		s->p[c->idx - 1].commit, s->p[c->idx].commit, s->p[c->idx].time,
		hist_worse(s, c) ? "WORSE" : "better", c->change_pct, c->ci_low_pct,
		c->ci_high_pct, c->mean_before, c->mean_after, c->p_value);
}

struct junit_ctx {
	const struct hist_found *fs;
	unsigned int nb;
	const char *error;
};

static int
junit_fill(FILE *f, const void *arg)
{
	const struct junit_ctx *j = arg;
	unsigned int i, fails = 0;
	char name[160], why[512];

	for (i = 0; i < j->nb; i++)
		fails += j->fs[i].regression;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\""
		"wirerate history\" tests=\"%u\" failures=\"%u\" errors=\"%u\">\n "
		"<testsuite name=\"wirerate.history\" tests=\"%u\" failures=\"%u\" "
		"errors=\"%u\" time=\"0\">\n", j->error ? 1 : j->nb, fails, !!j->error,
		j->error ? 1 : j->nb, fails, !!j->error);
	for (i = 0; i < j->nb; i++) {
		const struct hist_found *h = &j->fs[i];
		const struct wr_cp *c = &h->cp[h->nb_cp ? h->nb_cp - 1 : 0];

		fputs("  <testcase classname=\"wirerate.history\" name=\"", f);
		app_markup_text(f, hist_series_name(h->s, name, sizeof(name)));
		fputs("\" time=\"0\">\n", f);
		if (h->regression) {
			snprintf(why, sizeof(why), "regression from run %u (%s -> %s): "
				"%+.2f%% [%+.2f%%..%+.2f%%], p = %.4f", c->idx + 1,
				h->s->p[c->idx - 1].commit, h->s->p[c->idx].commit,
				c->change_pct, c->ci_low_pct, c->ci_high_pct, c->p_value);
			fputs("   <failure type=\"regression\" message=\"", f);
			app_markup_text(f, why);
			fputs("\"/>\n", f);
		}
		fputs("  </testcase>\n", f);
	}
	if (j->error != NULL) {
		fputs("  <testcase classname=\"wirerate.history\" name=\"input\" "
			"time=\"0\">\n   <error type=\"bad-input\" message=\"", f);
		app_markup_text(f, j->error);
		fputs("\"/>\n  </testcase>\n", f);
	}
	fputs(" </testsuite>\n</testsuites>\n", f);
	return ferror(f) ? -EIO : 0;
}

int
hist_junit_write(const char *path, const struct hist_found *fs, unsigned int nb,
		const char *error, struct wr_error *err)
{
	struct junit_ctx j = { fs, nb, error };

	return wr_file_write(path, junit_fill, &j, err);
}

static json_t *
cp_json(const struct hist_series *s, const struct wr_cp *c)
{
	return json_pack("{s:i, s:s, s:s, s:s, s:s, s:f, s:f, s:f, s:f, s:f, s:f}",
		"index", (int)c->idx, "commit_before", s->p[c->idx - 1].commit,
		"commit_after", s->p[c->idx].commit, "time", s->p[c->idx].time,
		"direction", hist_worse(s, c) ? "worse" : "better",
		"change_pct", c->change_pct, "ci95_low_pct", c->ci_low_pct,
		"ci95_high_pct", c->ci_high_pct, "mean_before", c->mean_before,
		"mean_after", c->mean_after, "p_value", c->p_value);
}

static json_t *
found_json(const struct hist_found *h)
{
	json_t *cps = json_array(), *setup = json_loads(h->s->setup, 0, NULL);
	unsigned int i;

	for (i = 0; i < h->nb_cp; i++)
		json_array_append_new(cps, cp_json(h->s, &h->cp[i]));
	return json_pack("{s:I, s:s, s:s, s:o*, s:i, s:s, s:b, s:o}", "series",
		(json_int_t)h->s->id, "metric", h->s->metric, "point", h->s->point,
		"setup", setup, "points", (int)h->s->nb, "newest_commit",
		h->s->nb ? h->s->p[h->s->nb - 1].commit : "-", "regression",
		h->regression, "change_points", cps);
}

static int
json_fill(FILE *f, const void *arg)
{
	return json_dumpf(arg, f, JSON_INDENT(1)) != 0 || fputc('\n', f) == EOF ||
		ferror(f) ? -EIO : 0;
}

int
hist_json_write(const char *path, const char *db, const struct hist_found *fs,
		unsigned int nb, const char *error, struct wr_error *err)
{
	json_t *doc, *series = json_array();
	unsigned int i, fails = 0;
	char shown[512];
	int rc;

	hist_redact(shown, sizeof(shown), db);
	for (i = 0; i < nb; i++) {
		fails += fs[i].regression;
		json_array_append_new(series, found_json(&fs[i]));
	}
	doc = json_pack("{s:s, s:s, s:s, s:o}", "schema", "wirerate-history-check/1",
		"db", shown, "verdict", error ? "bad-input" : fails ? "regression" : "pass",
		"series", series);
	if (doc != NULL && error != NULL)
		json_object_set_new(doc, "error", json_string(error));
	if (doc == NULL)
		return wr_err_env(err, -ENOMEM, "no memory");
	rc = wr_file_write(path, json_fill, doc, err);
	json_decref(doc);
	return rc;
}
