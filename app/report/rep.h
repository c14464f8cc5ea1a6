/* SPDX-License-Identifier: BSD-3-Clause */
/* `wirerate report`: the runs it tabulates and plots, as read (report.c). */
#ifndef WR_APP_REP_H
#define WR_APP_REP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>
#include <rte_common.h>

#include "config/config.h"
#include "measure/metrics.h"
#include "results/kinds.h"

#define REP_MAX_RUNS 256u

/* One point of a result file (lib/results/kinds.h): a row of the report. */
struct rep_run {
	const char *path;
	json_t *doc;                  /* owned by rep.docs */
	unsigned int file;            /* index of the file, in argument order */
	const struct wr_kind *kind;   /* the file's kind of result */
	char label[WR_LABEL_LEN];     /* --labels, the run's label, or driver@host */
	unsigned int frame_size;
	double load_pct;              /* loss test: offered load %; -1 otherwise */
	unsigned int n;               /* trials behind the figures; 1: single run */
	struct wr_metric_values m;    /* figures: the trials' medians if any */
	struct wr_metric_values lo;   /* the trials' min (= m for a single run) */
	struct wr_metric_values hi;   /* the trials' max */
};

struct rep_campaign;

struct rep {
	struct rep_campaign *campaign; /* two-ended inputs (report_campaign.c) */
	unsigned int nb_files;
	json_t *docs[REP_MAX_RUNS];   /* one per file */
	unsigned int nb_runs;         /* rows: points of every file */
	struct rep_run run[REP_MAX_RUNS];
	unsigned int order[REP_MAX_RUNS]; /* by label (first seen), then size */
	unsigned int nb_series;           /* distinct labels */
	const char *series[REP_MAX_RUNS]; /* label of each series */
	unsigned int series_of[REP_MAX_RUNS]; /* run index -> series */
};

#endif /* WR_APP_REP_H */
