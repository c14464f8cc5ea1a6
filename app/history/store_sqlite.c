/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The SQLite backend: a file any job on the machine opens, in WAL mode
 * (readers never wait on a writer) with a busy timeout (a writer waits
 * for another's transaction instead of failing). Parameters $N are
 * SQLite's ?N.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "store.h"

#define BUSY_TIMEOUT_MS 60000

static int
fail(struct hist_db *db, const char *sql, struct wr_error *err)
{
	return wr_err_env(err, -EIO, "%s: %s (in \"%.60s\")", db->where,
		sqlite3_errmsg(db->h), sql);
}

/* sql with $N written ?N, into a new string. */
static char *
dialect(const char *sql)
{
	char *out = strdup(sql), *p;

	for (p = out; p != NULL && *p != '\0'; p++)
		if (*p == '$' && isdigit((unsigned char)p[1]))
			*p = '?';
	return out;
}

static int
sq_exec(struct hist_db *db, const char *sql, unsigned int np,
		const char *const *params, hist_row_fn fn, void *ctx,
		struct wr_error *err)
{
	const char *cols[32];
	sqlite3_stmt *st = NULL;
	char *q = dialect(sql);
	unsigned int i, n;
	int rc;

	if (q == NULL)
		return wr_err_env(err, -ENOMEM, "%s: no memory", db->where);
	rc = sqlite3_prepare_v2(db->h, q, -1, &st, NULL);
	free(q);
	if (rc != SQLITE_OK)
		return fail(db, sql, err);
	for (i = 0; i < np; i++)
		sqlite3_bind_text(st, (int)i + 1, params[i], -1, SQLITE_TRANSIENT);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		n = (unsigned int)sqlite3_column_count(st);
		if (n > 32)
			n = 32;
		for (i = 0; i < n; i++)
			cols[i] = (const char *)sqlite3_column_text(st, (int)i);
		if (fn != NULL && fn(ctx, n, cols) != 0) {
			rc = SQLITE_DONE;
			break;
		}
	}
	if (rc != SQLITE_DONE) {
		rc = fail(db, sql, err);
		sqlite3_finalize(st);
		return rc;
	}
	sqlite3_finalize(st);
	return 0;
}

static void
sq_close(struct hist_db *db)
{
	sqlite3_close(db->h);
	db->h = NULL;
}

static const struct hist_backend sqlite_backend = {
	.name = "sqlite",
	.id_type = "INTEGER PRIMARY KEY",
	/* IMMEDIATE: take the write lock at once, so two writers never both
	 * read and then deadlock upgrading (the busy timeout then waits). */
	.begin = "BEGIN IMMEDIATE",
	.lock = NULL,
	.exec = sq_exec,
	.close = sq_close,
};

/*
 * WAL mode for a writer. Switching a new file's mode takes its exclusive
 * lock, and SQLite answers SQLITE_BUSY at once (no busy handler) when
 * another writer opening the same new file holds it or recovers its WAL
 * index: tried again every 10 ms, as long as the busy timeout.
 */
static int
sq_wal(struct hist_db *db, struct wr_error *err)
{
	int tries = BUSY_TIMEOUT_MS / 10, rc;

	for (;;) {
		rc = sq_exec(db, "PRAGMA journal_mode=WAL", 0, NULL, NULL, NULL, err);
		if (rc == 0 || --tries <= 0 ||
				(sqlite3_errcode(db->h) != SQLITE_BUSY &&
				 sqlite3_errcode(db->h) != SQLITE_LOCKED))
			return rc;
		usleep(10000);
	}
}

int
hist_sqlite_open(struct hist_db *db, const char *path, bool writer,
		struct wr_error *err)
{
	int flags = writer ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE :
		SQLITE_OPEN_READONLY;
	sqlite3 *h = NULL;

	snprintf(db->where, sizeof(db->where), "%s", path);
	db->be = &sqlite_backend;
	if (!writer && access(path, F_OK) != 0)
		return wr_err_usage(err, -EINVAL, "%s: no such history database "
			"(only `wirerate history add` creates one)", path);
	if (sqlite3_open_v2(path, &h, flags, NULL) != SQLITE_OK) {
		(void)wr_err_env(err, -EIO, "%s: cannot open: %s", path,
			h != NULL ? sqlite3_errmsg(h) : "no memory");
		sqlite3_close(h);
		return -EIO;
	}
	db->h = h;
	sqlite3_busy_timeout(h, BUSY_TIMEOUT_MS);
	/* A reader reads the header only: a file that is no database fails
	 * here too, and nothing (journal mode, schema) is changed. */
	if ((writer && sq_wal(db, err) != 0) || sq_exec(db, writer ? "PRAGMA foreign_keys=ON" :
			"SELECT count(*) FROM sqlite_master", 0, NULL, NULL, NULL,
			err) != 0) {
		(void)wr_err_usage(err, -EINVAL, "%s: not an SQLite database, or "
			"unusable: %s", path, sqlite3_errmsg(h));
		sq_close(db);
		return -EINVAL;
	}
	return 0;
}
