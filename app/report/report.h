/* SPDX-License-Identifier: BSD-3-Clause */
/* `wirerate report`: the runs it tabulates and plots (report.c, plot.c). */
#ifndef WR_APP_REPORT_H
#define WR_APP_REPORT_H

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

#define REP_MAX_COLS 16u
#define REP_CELL 256u

/* A table rendered as Markdown or HTML. */
struct rep_table {
	char title[192];
	unsigned int nb_cols;
	unsigned int nb_rows;
	bool text;                               /* all columns left-aligned */
	const char *head[REP_MAX_COLS];          /* point into static or run data */
	char (*cell)[REP_MAX_COLS][REP_CELL];    /* nb_rows rows */
};

/* Everything one report shows. */
struct rep_doc {
	const char *title;
	unsigned int nb_tables;
	struct rep_table tables[32];   /* kinds, label matrices, environment */
	unsigned int nb_plots;         /* plots drawn (png and svg) */
	const char *plot_name[8];      /* file name without extension */
	const char *plot_title[8];
};

/*
 * Fill doc with the runs table, one ROW x COLUMN matrix of metric per
 * frame size when every label reads ROW/COLUMN, and the environment
 * table. Returns 0 or -ENOMEM. Free with rep_doc_free().
 */
int rep_doc_build(const struct rep *r, int metric, struct rep_doc *doc);

/*
 * Append a table per result file that holds two or more streams: a row
 * per stream, sent (tx_streams) and received (streams) joined by
 * stream_id. Returns 0 or -ENOMEM.
 */
int rep_stream_tables(const struct rep *r, struct rep_doc *doc);

/*
 * Append an empty table of rows rows to doc, titled by fmt; NULL when
 * doc is full or out of memory.
 */
struct rep_table *rep_table_new(struct rep_doc *doc, unsigned int rows,
		const char *fmt, ...) __rte_format_printf(3, 4);

/* Free the tables of doc. This function can't fail. */
void rep_doc_free(struct rep_doc *doc);

/* doc as Markdown on f; the plots are referenced by file name. */
void rep_doc_markdown(FILE *f, const struct rep_doc *doc);

/* doc as a standalone HTML page on f, embedding the plots (img). */
void rep_doc_html(FILE *f, const struct rep_doc *doc);

/*
 * The per-size table as CSV on f: label, file, frame_size, trials, then
 * each metric and its _min and _max over the trials. Returns 0 or -EIO.
 */
int rep_csv(FILE *f, const struct rep *r);

/*
 * Throughput of a run as the report plots it: what was received, or what
 * was sent when the run had no receiving port, read from m (r's figures,
 * or their min or max). which is WR_METRIC_TX_MPPS, WR_METRIC_TX_GBPS_L1
 * or WR_METRIC_TX_GBPS_L2 (its RX twin is used when the run received).
 */
double rep_throughput(const struct rep_run *r, const struct wr_metric_values *m,
		unsigned int which);

/* True when any run has a cycles-per-packet figure. */
bool rep_have_cycles(const struct rep *r);

/*
 * Write dir/plots.gp and its data files, run gnuplot (path or name on
 * PATH) in dir, and leave each plot r calls for as NAME.png and NAME.svg:
 * throughput (runs and sweeps), cycles (when rep_have_cycles()), and the
 * plots of the test modes (plot_kinds.c). doc lists them (nb_plots,
 * plot_name, plot_title). gnuplot's own messages go to dir/gnuplot.log.
 * Returns 0 or -1 with a message in err (doc then lists none).
 */
int rep_plot(const struct rep *r, const char *dir, const char *gnuplot,
		const char *title, struct rep_doc *doc, struct wr_error *err);

/* Add the test modes' plots r calls for to doc's list. Can't fail. */
void rep_plot_kinds_list(const struct rep *r, struct rep_doc *doc);

/* Write dir/NAME.dat for each of those plots. Returns 0 or -1 with err. */
int rep_plot_kinds_data(const struct rep *r, const char *dir, struct wr_error *err);

/* Their gnuplot commands (png and svg) on f. This function can't fail. */
void rep_plot_kinds_script(FILE *f, const struct rep *r, const char *title);

/*
 * The latency-under-load plot (plot_lat.c): listed, its data file and its
 * script, when some result has latency_under_load levels. Called by the
 * functions above; return and fail as they do.
 */
void rep_plot_lat_list(const struct rep *r, struct rep_doc *doc);
int rep_plot_lat_data(const struct rep *r, const char *dir, struct wr_error *err);
void rep_plot_lat_script(FILE *f, const struct rep *r, const char *title);

/* A gnuplot double-quoted string of s on f. */
void rep_gp_string(FILE *f, const char *s);

/* gnuplot commands for an x axis of r's frame sizes (log 2, one tic each). */
void rep_gp_size_axis(FILE *f, const struct rep *r);

/*
 * When path is a campaign cell (wirerate-cell/1) or a merge
 * (wirerate-merge/1): record it in rep->campaign and, when it has a
 * balanced merge, add its pair of results as one run (its receiver's
 * document is the file). Returns 0, 1 when path is neither (read it as a
 * result), or -1 with a message in err.
 */
int rep_campaign_load(struct rep *rep, const char *path, struct wr_error *err);

/*
 * Put the campaign table (every cell, failed ones too, with both ends'
 * cycles per frame) first in doc. Returns 0 (also without cells) or
 * -ENOMEM.
 */
int rep_campaign_table(const struct rep *rep, struct rep_doc *doc);

/* Free what rep_campaign_load() kept. This function can't fail. */
void rep_campaign_free(struct rep *rep);

#endif /* WR_APP_REPORT_H */
