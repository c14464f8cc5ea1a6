/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "measure/metrics.h"
#include "trials.h"

/* t(0.975, df) for df = 1..30 (any statistics table). */
static const double t95_table[] = {
	12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
	2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
	2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
};

double
wr_trials_t95(unsigned int df)
{
	if (df == 0)
		df = 1;
	if (df <= RTE_DIM(t95_table))
		return t95_table[df - 1];
	return 1.96 + 2.5 / (double)df;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of s[0..n-1], sorted in place. */
static double
median_sort(double *s, unsigned int n)
{
	qsort(s, n, sizeof(*s), cmp_double);
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2.0;
}

int
wr_trials_figure(const double *v, unsigned int n, struct wr_trials_figure *out)
{
	double *s, sum = 0.0, sq = 0.0, half;
	unsigned int i;

	if (n == 0)
		return -EINVAL;
	s = malloc(n * sizeof(*s));
	if (s == NULL)
		return -ENOMEM;
	memcpy(s, v, n * sizeof(*s));
	memset(out, 0, sizeof(*out));
	out->n = n;
	out->median = median_sort(s, n);
	out->min = s[0];
	out->max = s[n - 1];
	for (i = 0; i < n; i++)
		sum += s[i];
	out->mean = sum / n;
	for (i = 0; i < n; i++)
		sq += (s[i] - out->mean) * (s[i] - out->mean);
	free(s);
	out->stddev = n > 1 ? sqrt(sq / (n - 1)) : 0.0;
	half = n > 1 ? wr_trials_t95(n - 1) * out->stddev / sqrt((double)n) : 0.0;
	out->ci95_low = out->mean - half;
	out->ci95_high = out->mean + half;
	/*
	 * Figures that cannot be negative (rates, latencies, counts) keep a
	 * CI that cannot be either: the t interval is symmetric and, with a
	 * few spread-out trials, would reach below 0.
	 */
	if (out->min >= 0.0 && out->ci95_low < 0.0)
		out->ci95_low = 0.0;
	return 0;
}

double
wr_trials_median_se(const double *v, unsigned int n)
{
	double *s, med, mad;
	unsigned int i;

	if (n < 2 || (s = malloc(n * sizeof(*s))) == NULL)
		return NAN;
	memcpy(s, v, n * sizeof(*s));
	med = median_sort(s, n);
	for (i = 0; i < n; i++)
		s[i] = fabs(s[i] - med);
	mad = median_sort(s, n);
	free(s);
	/* 1.4826: sigma / MAD for normal values; 1.2533 = sqrt(pi / 2). */
	return 1.2533 * 1.4826 * mad / sqrt((double)n);
}

static json_t *
figure_json(const struct wr_trials_figure *f)
{
	json_t *o = json_object();

	json_object_set_new(o, "n", json_integer(f->n));
	json_object_set_new(o, "median", json_real(f->median));
	json_object_set_new(o, "min", json_real(f->min));
	json_object_set_new(o, "max", json_real(f->max));
	json_object_set_new(o, "mean", json_real(f->mean));
	json_object_set_new(o, "stddev", json_real(f->stddev));
	json_object_set_new(o, "ci95_low", json_real(f->ci95_low));
	json_object_set_new(o, "ci95_high", json_real(f->ci95_high));
	return o;
}

/* The metrics of every trial into vals (n entries). */
static int
extract_all(const json_t *trials, struct wr_metric_values *vals,
		struct wr_error *err)
{
	size_t i;

	for (i = 0; i < json_array_size(trials); i++)
		if (wr_metrics_extract(json_array_get(trials, i), &vals[i], err) != 0)
			return wr_err_prefix(err, "trials[%zu]: ", i);
	return 0;
}

/* Summarise metric id over the trials into figures; skipped when missing. */
static int
add_figure(json_t *figures, const struct wr_metric_values *vals, size_t n,
		unsigned int id, double *buf)
{
	struct wr_trials_figure f;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!vals[i].have[id])
			return 0;
		buf[i] = vals[i].v[id];
	}
	if (wr_trials_figure(buf, (unsigned int)n, &f) != 0)
		return -ENOMEM;
	json_object_set_new(figures, wr_metric_defs[id].name, figure_json(&f));
	return 0;
}

json_t *
wr_trials_summarize(const json_t *trials, unsigned int nb_warmup,
		struct wr_error *err)
{
	size_t n = json_array_size(trials);
	struct wr_metric_values *vals = calloc(n ? n : 1, sizeof(*vals));
	double *buf = calloc(n ? n : 1, sizeof(*buf));
	json_t *sum = NULL, *figures;
	unsigned int id;

	if (vals == NULL || buf == NULL) {
		wr_err_env(err, -ENOMEM, "no memory for the trial summary");
		goto out;
	}
	if (extract_all(trials, vals, err) != 0)
		goto out;
	sum = json_object();
	figures = json_object();
	json_object_set_new(sum, "trials", json_integer((json_int_t)n));
	json_object_set_new(sum, "warmup", json_integer(nb_warmup));
	json_object_set_new(sum, "figures", figures);
	for (id = 0; n > 0 && id < WR_METRIC_COUNT; id++) {
		if (add_figure(figures, vals, n, id, buf) != 0) {
			wr_err_env(err, -ENOMEM, "no memory for the trial summary");
			json_decref(sum);
			sum = NULL;
			break;
		}
	}
out:
	free(vals);
	free(buf);
	return sum;
}

int
wr_trials_read_figure(const json_t *doc, const char *name,
		struct wr_trials_figure *out, struct wr_error *err)
{
	static const char *const keys[] = { "median", "min", "max", "mean",
		"stddev", "ci95_low", "ci95_high" };
	double *dst[] = { &out->median, &out->min, &out->max, &out->mean,
		&out->stddev, &out->ci95_low, &out->ci95_high };
	char path[128];
	uint64_t n;
	unsigned int k;

	snprintf(path, sizeof(path), "summary.figures.%s", name);
	if (wr_metrics_get(doc, path) == NULL)
		return -ENOENT;
	snprintf(path, sizeof(path), "summary.figures.%s.n", name);
	if (wr_metrics_get_count(doc, path, UINT_MAX, &n, err) != 0)
		return -EINVAL;
	out->n = (unsigned int)n;
	for (k = 0; k < RTE_DIM(keys); k++) {
		snprintf(path, sizeof(path), "summary.figures.%s.%s", name, keys[k]);
		if (wr_metrics_get_number(doc, path, dst[k], err) != 0)
			return -EINVAL;
	}
	return 0;
}

int
wr_trials_median_se_of(const json_t *doc, struct wr_metric_values *se,
		struct wr_error *err)
{
	const json_t *trials = json_object_get(doc, "trials");
	size_t n = json_array_size(trials), i;
	struct wr_metric_values *vals;
	double *buf;
	unsigned int id;
	int rc = 0;

	memset(se, 0, sizeof(*se));
	if (n < 2)
		return 0;
	vals = calloc(n, sizeof(*vals));
	buf = calloc(n, sizeof(*buf));
	if (vals == NULL || buf == NULL)
		rc = wr_err_env(err, -ENOMEM, "no memory for the trials' spread");
	else
		rc = extract_all(trials, vals, err);
	for (id = 0; rc == 0 && id < WR_METRIC_COUNT; id++) {
		for (i = 0; i < n && vals[i].have[id]; i++)
			buf[i] = vals[i].v[id];
		se->v[id] = i == n ? wr_trials_median_se(buf, (unsigned int)n) : NAN;
		se->have[id] = !isnan(se->v[id]);
	}
	free(vals);
	free(buf);
	return rc;
}
