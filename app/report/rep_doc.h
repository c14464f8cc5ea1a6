/* SPDX-License-Identifier: BSD-3-Clause */
/* What one report shows: tables and plots, before Markdown or HTML (rep_doc.c). */
#ifndef WR_APP_REP_DOC_H
#define WR_APP_REP_DOC_H

#include <stdbool.h>

#include <rte_common.h>

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
	bool far;                      /* an input is two-ended (--peer) */
	bool no_wire;                  /* an input has a port with no wire */
	unsigned int nb_tables;
	struct rep_table tables[32];   /* kinds, label matrices, environment */
	unsigned int nb_plots;         /* plots drawn (png and svg) */
	const char *plot_name[8];      /* file name without extension */
	const char *plot_title[8];
};

/*
 * Append an empty table of rows rows to doc, titled by fmt; NULL when
 * doc is full or out of memory.
 */
struct rep_table *rep_table_new(struct rep_doc *doc, unsigned int rows,
		const char *fmt, ...) __rte_format_printf(3, 4);

/* Free the tables of doc. This function can't fail. */
void rep_doc_free(struct rep_doc *doc);

#endif /* WR_APP_REP_DOC_H */
