/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Repeated trials (--repeat N): the spread of each figure over the trials
 * and the "summary" object of the result. Pure: jansson only, no EAL.
 */
#ifndef WR_TRIALS_H
#define WR_TRIALS_H

#include <stddef.h>

#include <jansson.h>
#include "base/error.h"
#include "measure/metrics.h"

/* One figure over n trials. */
struct wr_trials_figure {
	unsigned int n;
	double median;
	double min;
	double max;
	double mean;
	double stddev;       /* sample standard deviation (n - 1); 0 when n < 2 */
	double ci95_low;     /* 95% confidence interval of the mean (Student t),
	                      * never below 0 when no value is; */
	double ci95_high;    /* equal to the mean when n < 2 */
};

/*
 * Two-sided 95% Student t quantile for df degrees of freedom (df >= 1):
 * tabulated up to 30, then 1.96 + 2.5 / df (within 0.003 of the exact
 * value). This function can't fail.
 */
double wr_trials_t95(unsigned int df);

/*
 * Median, min, max, mean, standard deviation and 95% CI of v[0..n-1]
 * (n >= 1; v is not modified). Returns 0, or -EINVAL when n is 0 or
 * -ENOMEM.
 */
int wr_trials_figure(const double *v, unsigned int n, struct wr_trials_figure *out);

/*
 * The standard error of the median of v[0..n-1], from a spread one
 * outlier cannot inflate: 1.2533 * sigma / sqrt(n), the large-sample
 * error of a median of normal values, with sigma = 1.4826 * MAD (median
 * absolute deviation from the median, a consistent estimator of the
 * standard deviation). Returns it, NAN when n < 2 or on no memory.
 */
double wr_trials_median_se(const double *v, unsigned int n);

/*
 * The standard error of the median of each metric over the "trials" of a
 * result document (wr_trials_median_se of the trials' own figures):
 * se->have[id] when every one of at least two trials has metric id.
 * Returns 0 (a document without trials leaves se empty), or -EINVAL with
 * err naming the trial and field, or -ENOMEM.
 */
int wr_trials_median_se_of(const json_t *doc, struct wr_metric_values *se,
		struct wr_error *err);

/*
 * The "summary" object for an array of trial objects (the "trials" array
 * of a result; each has "totals" and "accounting"): {"trials": n,
 * "warmup": nb_warmup, "figures": {metric: {n, median, min, max, mean,
 * stddev, ci95_low, ci95_high}}}. A figure is summarised only when every
 * trial has it. Returns the object (caller json_decref()s), or NULL with
 * a message naming the trial and field.
 */
json_t *wr_trials_summarize(const json_t *trials, unsigned int nb_warmup,
		struct wr_error *err);

/*
 * Read back summary.figures.NAME of a result document into out. Returns
 * 0, -ENOENT when the document has no such figure, or -EINVAL with err
 * naming the missing or ill-typed field.
 */
int wr_trials_read_figure(const json_t *doc, const char *name,
		struct wr_trials_figure *out, struct wr_error *err);

#endif /* WR_TRIALS_H */
