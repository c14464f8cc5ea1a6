/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The history's storage, behind one narrow interface: run one SQL
 * statement with text parameters ($1, $2, ...) and take its rows as text.
 * Two backends: SQLite (store_sqlite.c, a file: WAL and a busy timeout,
 * so CI jobs may add at once) and PostgreSQL (store_pg.c, a
 * postgresql:// URL, through libpq). The SQL and the schema live in
 * db.c alone, in the dialect both speak.
 */
#ifndef WR_APP_HIST_STORE_H
#define WR_APP_HIST_STORE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/error.h"

/* One row: n columns as text (NULL for SQL NULL). Non-zero stops. */
typedef int (*hist_row_fn)(void *ctx, unsigned int n, const char *const *cols);

struct hist_db;

struct hist_backend {
	const char *name;            /* "sqlite", "postgresql" */
	const char *id_type;         /* an auto-numbered primary key's type */
	const char *begin;           /* the statement a writing transaction opens */
	const char *lock;            /* run first in the schema's transaction
	                              * (writers one at a time), or NULL */
	/*
	 * Run sql with params (np of them, text) and call fn (if not NULL)
	 * on each row. Returns 0, or -EIO with err naming the database and
	 * the server's message.
	 */
	int (*exec)(struct hist_db *db, const char *sql, unsigned int np,
		const char *const *params, hist_row_fn fn, void *ctx,
		struct wr_error *err);
	void (*close)(struct hist_db *db);
};

struct hist_db {
	const struct hist_backend *be;
	void *h;                     /* the backend's handle */
	char where[256];             /* the file or URL, for messages */
};

/*
 * Open the SQLite file path: a writer creates it and turns WAL on; a
 * reader opens it read-only (SQLITE_OPEN_READONLY) and changes nothing.
 * Returns 0, -EIO (cannot open: an environment error) or -EINVAL (missing
 * for a reader, not an SQLite database) with err.
 */
int hist_sqlite_open(struct hist_db *db, const char *path, bool writer,
		struct wr_error *err);

/*
 * where as shown and stored: a URL's password (user:PASSWORD@) and any
 * password=VALUE parameter written ***. Into out (size bytes, truncated).
 * This function can't fail.
 */
void hist_redact(char *out, size_t size, const char *where);

/* Connect to url (postgresql://...). Returns 0, or -EIO with err. */
int hist_pg_open(struct hist_db *db, const char *url, struct wr_error *err);

#endif /* WR_APP_HIST_STORE_H */
