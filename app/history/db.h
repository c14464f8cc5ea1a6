/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The history's schema and every query it makes (db.c): open a store
 * (migrating its schema, refusing a newer one), add a result's facts once
 * (by digest), read each series back in time order.
 */
#ifndef WR_APP_HIST_DB_H
#define WR_APP_HIST_DB_H

#include <stdbool.h>

#include "analysis/histpoints.h"
#include "store.h"

#define HIST_SCHEMA_VERSION 1

/* One result to add: who and when, its set-up and figures. */
struct hist_result {
	const char *file;
	char digest[65];
	char kind[16];
	char commit[128];            /* --commit, else the result's label */
	char version[64];            /* wirerate's, of the run */
	char time[32];               /* env.date_utc */
	char *setup;                 /* canonical JSON (sorted keys) */
	struct wr_hist_facts *facts;
};

/* One point of a series. */
struct hist_point {
	double value;
	char commit[128];
	char time[32];
	char version[64];
};

/* A series: one metric at one point over results of one set-up. */
struct hist_series {
	long id;
	char *setup;
	char point[WR_HIST_NAME_LEN];
	char metric[WR_HIST_NAME_LEN];
	bool lower_better;
	unsigned int nb;
	struct hist_point *p;        /* oldest first */
};

/*
 * Open where (postgresql://... or an SQLite file). A writer (add) creates
 * a missing SQLite file and brings the schema to HIST_SCHEMA_VERSION in
 * one transaction; a reader (show, check, plot, html) opens read-only and
 * writes nothing: a missing file or one without wirerate's tables is
 * refused. Returns 0, or -EINVAL (missing, no history, a newer schema,
 * not a database) / -EIO with err naming where.
 */
int hist_db_open(struct hist_db *db, const char *where, bool writer,
		struct wr_error *err);

void hist_db_close(struct hist_db *db);

/*
 * Add every result of rs (nb) in one transaction: all or none. A result
 * whose digest is stored already is skipped. Returns the number added, or
 * -EIO with err (nothing written).
 */
int hist_db_add(struct hist_db *db, struct hist_result *rs, unsigned int nb,
		struct wr_error *err);

/*
 * Every series whose metric starts with metric (NULL: all), with its
 * points, into *out (*nb of them; free with hist_series_free). Returns 0
 * or -EIO / -ENOMEM with err.
 */
int hist_db_series(struct hist_db *db, const char *metric,
		struct hist_series **out, unsigned int *nb, struct wr_error *err);

void hist_series_free(struct hist_series *s, unsigned int nb);

#endif /* WR_APP_HIST_DB_H */
