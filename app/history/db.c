/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Schema version 1 (docs/history.md):
 *   wr_schema(version)                     one row: the schema's version
 *   results(id, digest UNIQUE, file, kind, commit_id, wr_version, time_utc)
 *   series(id, setup, point, metric, lower_better; UNIQUE(setup, point, metric))
 *   points(series_id, result_id, value, trials; PRIMARY KEY both ids)
 * with indexes for its two reads: a series' points (points_series) in
 * time order (results_time).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"

static int
run(struct hist_db *db, const char *sql, struct wr_error *err)
{
	return db->be->exec(db, sql, 0, NULL, NULL, NULL, err);
}

/* The first column of the first row, as an integer. */
static int
first_int(void *ctx, unsigned int n, const char *const *cols)
{
	long *v = ctx;

	if (n > 0 && cols[0] != NULL)
		*v = strtol(cols[0], NULL, 10);
	return 1;
}

/* The migrations: step i takes the schema from version i to i + 1. */
static int
migrate_to_1(struct hist_db *db, struct wr_error *err)
{
	char sql[512];

	snprintf(sql, sizeof(sql), "CREATE TABLE results (id %s, digest TEXT NOT "
		"NULL UNIQUE, file TEXT, kind TEXT NOT NULL, commit_id TEXT NOT NULL, "
		"wr_version TEXT NOT NULL, time_utc TEXT NOT NULL)", db->be->id_type);
	if (run(db, sql, err) != 0)
		return -EIO;
	snprintf(sql, sizeof(sql), "CREATE TABLE series (id %s, setup TEXT NOT NULL, "
		"point TEXT NOT NULL, metric TEXT NOT NULL, lower_better INTEGER NOT "
		"NULL, UNIQUE (setup, point, metric))", db->be->id_type);
	if (run(db, sql, err) != 0 ||
			run(db, "CREATE TABLE points (series_id BIGINT NOT NULL REFERENCES "
			"series(id), result_id BIGINT NOT NULL REFERENCES results(id), "
			"value DOUBLE PRECISION NOT NULL, trials INTEGER NOT NULL, "
			"PRIMARY KEY (series_id, result_id))", err) != 0 ||
			run(db, "CREATE INDEX points_series ON points (series_id)", err) != 0 ||
			run(db, "CREATE INDEX results_time ON results (time_utc, id)", err) != 0)
		return -EIO;
	return 0;
}

static int (*const migrations[HIST_SCHEMA_VERSION])(struct hist_db *,
		struct wr_error *) = { migrate_to_1 };

static int
migrate(struct hist_db *db, struct wr_error *err)
{
	long version = -1;
	char v[16];
	const char *p[] = { v };

	if ((db->be->lock != NULL && run(db, db->be->lock, err) != 0) ||
			run(db, "CREATE TABLE IF NOT EXISTS wr_schema (version INTEGER NOT "
			"NULL)", err) != 0 ||
			db->be->exec(db, "SELECT max(version) FROM wr_schema", 0, NULL,
			first_int, &version, err) != 0)
		return -EIO;
	if (version > HIST_SCHEMA_VERSION)
		return wr_err_usage(err, -EINVAL, "%s: history schema version %ld is newer "
			"than this wirerate's (%d): use a newer wirerate", db->where,
			version, HIST_SCHEMA_VERSION);
	if (version < 0)
		version = 0;
	for (; version < HIST_SCHEMA_VERSION; version++)
		if (migrations[version](db, err) != 0)
			return -EIO;
	snprintf(v, sizeof(v), "%d", HIST_SCHEMA_VERSION);
	if (run(db, "DELETE FROM wr_schema", err) != 0 ||
			db->be->exec(db, "INSERT INTO wr_schema (version) VALUES ($1)", 1, p,
			NULL, NULL, err) != 0)
		return -EIO;
	return 0;
}

/*
 * A reader's check of an open store: wirerate's tables, of a version this
 * wirerate reads. Nothing is written (no DDL, no migration).
 */
static int
check_readable(struct hist_db *db, struct wr_error *err)
{
	struct wr_error ignored;
	long version = -1;

	if (db->be->exec(db, "SELECT max(version) FROM wr_schema", 0, NULL,
			first_int, &version, &ignored) != 0 || version < 1)
		return wr_err_usage(err, -EINVAL, "%s: not a wirerate history (no "
			"wirerate tables; `wirerate history add` makes them)", db->where);
	if (version > HIST_SCHEMA_VERSION)
		return wr_err_usage(err, -EINVAL, "%s: history schema version %ld is newer "
			"than this wirerate's (%d): use a newer wirerate", db->where,
			version, HIST_SCHEMA_VERSION);
	if (version < HIST_SCHEMA_VERSION)
		return wr_err_usage(err, -EINVAL, "%s: history schema version %ld is "
			"older than this wirerate's (%d): `wirerate history add` brings it "
			"up to date", db->where, version, HIST_SCHEMA_VERSION);
	return 0;
}

int
hist_db_open(struct hist_db *db, const char *where, bool writer,
		struct wr_error *err)
{
	struct wr_error ignored;
	int rc;

	memset(db, 0, sizeof(*db));
	rc = strncmp(where, "postgresql://", 13) == 0 || strncmp(where, "postgres://",
		11) == 0 ? hist_pg_open(db, where, err) :
		hist_sqlite_open(db, where, writer, err);
	if (rc != 0)
		return rc;
	if (!writer) {
		rc = check_readable(db, err);
		if (rc != 0)
			hist_db_close(db);
		return rc;
	}
	rc = run(db, db->be->begin, err);
	if (rc == 0)
		rc = migrate(db, err);
	if (rc == 0)
		rc = run(db, "COMMIT", err);
	if (rc != 0) {
		run(db, "ROLLBACK", &ignored);
		hist_db_close(db);
	}
	return rc;
}

void
hist_db_close(struct hist_db *db)
{
	if (db->h != NULL)
		db->be->close(db);
}

/* The id a RETURNING or SELECT gave, or 0 (none). */
static int
add_one(struct hist_db *db, struct hist_result *r, struct wr_error *err)
{
	const char *p[7] = { r->digest, r->file, r->kind, r->commit, r->version,
		r->time, NULL };
	char rid[24], sid[24], val[40], trials[16], lb[4];
	long result_id = 0, series_id;
	unsigned int i;

	if (db->be->exec(db, "INSERT INTO results (digest, file, kind, commit_id, "
			"wr_version, time_utc) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT "
			"(digest) DO NOTHING RETURNING id", 6, p, first_int, &result_id,
			err) != 0)
		return -EIO;
	if (result_id == 0)
		return 0;              /* stored already: once is enough */
	snprintf(rid, sizeof(rid), "%ld", result_id);
	for (i = 0; i < r->facts->nb; i++) {
		const struct wr_hist_fact *f = &r->facts->f[i];
		const char *s[4] = { r->setup, f->point, f->metric, lb };
		const char *pt[4] = { sid, rid, val, trials };

		snprintf(lb, sizeof(lb), "%d", f->lower_better);
		series_id = 0;
		if (db->be->exec(db, "INSERT INTO series (setup, point, metric, "
				"lower_better) VALUES ($1, $2, $3, $4) ON CONFLICT (setup, "
				"point, metric) DO NOTHING", 4, s, NULL, NULL, err) != 0 ||
				db->be->exec(db, "SELECT id FROM series WHERE setup = $1 AND "
				"point = $2 AND metric = $3", 3, s, first_int, &series_id,
				err) != 0)
			return -EIO;
		snprintf(sid, sizeof(sid), "%ld", series_id);
		snprintf(val, sizeof(val), "%.17g", f->value);
		snprintf(trials, sizeof(trials), "%u", f->n);
		if (db->be->exec(db, "INSERT INTO points (series_id, result_id, value, "
				"trials) VALUES ($1, $2, $3, $4)", 4, pt, NULL, NULL, err) != 0)
			return -EIO;
	}
	return 1;
}

int
hist_db_add(struct hist_db *db, struct hist_result *rs, unsigned int nb,
		struct wr_error *err)
{
	struct wr_error ignored;
	unsigned int i;
	int added = 0, rc;

	if (run(db, db->be->begin, err) != 0)
		return -EIO;
	for (i = 0; i < nb; i++) {
		rc = add_one(db, &rs[i], err);
		if (rc < 0) {
			run(db, "ROLLBACK", &ignored);
			return wr_err_prefix(err, "%s: ", rs[i].file);
		}
		added += rc;
	}
	if (run(db, "COMMIT", err) != 0) {
		run(db, "ROLLBACK", &ignored);
		return -EIO;
	}
	return added;
}

struct series_list {
	struct hist_series *s;
	unsigned int nb, cap;
	int oom;
};

static int
series_row(void *ctx, unsigned int n, const char *const *c)
{
	struct series_list *l = ctx;
	struct hist_series *s, *grown;

	if (n < 5)
		return 1;
	if (l->nb == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 64;
		grown = realloc(l->s, l->cap * sizeof(*l->s));
		if (grown == NULL) {
			l->oom = 1;
			return 1;
		}
		l->s = grown;
	}
	s = &l->s[l->nb++];
	memset(s, 0, sizeof(*s));
	s->id = strtol(c[0], NULL, 10);
	s->setup = strdup(c[1]);
	snprintf(s->point, sizeof(s->point), "%s", c[2]);
	snprintf(s->metric, sizeof(s->metric), "%s", c[3]);
	s->lower_better = c[4][0] == '1';
	l->oom |= s->setup == NULL;
	return l->oom;
}

/* Points of a series, grown as rows come. */
struct point_list {
	struct hist_series *s;
	unsigned int cap;
	int oom;
};

static int
point_row(void *ctx, unsigned int n, const char *const *c)
{
	struct point_list *l = ctx;
	struct hist_series *s = l->s;
	struct hist_point *p, *grown;

	if (n < 4)
		return 1;
	if (s->nb == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 64;
		grown = realloc(s->p, l->cap * sizeof(*s->p));
		if (grown == NULL) {
			l->oom = 1;
			return 1;
		}
		s->p = grown;
	}
	p = &s->p[s->nb++];
	p->value = strtod(c[0], NULL);
	snprintf(p->commit, sizeof(p->commit), "%s", c[1] ? c[1] : "-");
	snprintf(p->time, sizeof(p->time), "%s", c[2] ? c[2] : "-");
	snprintf(p->version, sizeof(p->version), "%s", c[3] ? c[3] : "-");
	return 0;
}

/* The points of s, oldest first (the order they were added within a second). */
static int
load_points(struct hist_db *db, struct hist_series *s, struct wr_error *err)
{
	struct point_list l = { s, 0, 0 };
	char id[24];
	const char *p[] = { id };

	snprintf(id, sizeof(id), "%ld", s->id);
	if (db->be->exec(db, "SELECT p.value, r.commit_id, r.time_utc, r.wr_version "
			"FROM points p JOIN results r ON r.id = p.result_id WHERE "
			"p.series_id = $1 ORDER BY r.time_utc, r.id", 1, p, point_row, &l,
			err) != 0)
		return -EIO;
	if (l.oom)
		return wr_err_env(err, -ENOMEM, "no memory for the points of a series");
	return 0;
}

void
hist_series_free(struct hist_series *s, unsigned int nb)
{
	unsigned int i;

	for (i = 0; s != NULL && i < nb; i++) {
		free(s[i].setup);
		free(s[i].p);
	}
	free(s);
}

int
hist_db_series(struct hist_db *db, const char *metric, struct hist_series **out,
		unsigned int *nb, struct wr_error *err)
{
	struct series_list l = { NULL, 0, 0, 0 };
	char like[WR_HIST_NAME_LEN + 2];
	const char *p[] = { like };
	unsigned int i;

	snprintf(like, sizeof(like), "%s%%", metric != NULL ? metric : "");
	*out = NULL;
	*nb = 0;
	if (db->be->exec(db, "SELECT id, setup, point, metric, lower_better FROM "
			"series WHERE metric LIKE $1 ORDER BY setup, point, metric", 1, p,
			series_row, &l, err) != 0)
		goto fail;
	if (l.oom) {
		wr_err_env(err, -ENOMEM, "no memory for the series");
		goto fail;
	}
	for (i = 0; i < l.nb; i++)
		if (load_points(db, &l.s[i], err) != 0)
			goto fail;
	*out = l.s;
	*nb = l.nb;
	return 0;
fail:
	hist_series_free(l.s, l.nb);
	return -EIO;
}
