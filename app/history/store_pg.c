/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The PostgreSQL backend (libpq): a server many CI runners share. Every
 * change is a transaction; the schema's migrations take an advisory lock,
 * so two jobs creating it at once do not collide.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <libpq-fe.h>

#include "store.h"

static int
pg_exec(struct hist_db *db, const char *sql, unsigned int np,
		const char *const *params, hist_row_fn fn, void *ctx,
		struct wr_error *err)
{
	PGresult *r = PQexecParams(db->h, sql, (int)np, NULL, params, NULL, NULL, 0);
	ExecStatusType st = PQresultStatus(r);
	const char *cols[32];
	int i, j, n, rows;

	if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
		(void)wr_err_env(err, -EIO, "%s: %s (in \"%.60s\")", db->where,
			PQresultErrorMessage(r), sql);
		PQclear(r);
		return -EIO;
	}
	rows = PQntuples(r);
	n = PQnfields(r) > 32 ? 32 : PQnfields(r);
	for (i = 0; fn != NULL && i < rows; i++) {
		for (j = 0; j < n; j++)
			cols[j] = PQgetisnull(r, i, j) ? NULL : PQgetvalue(r, i, j);
		if (fn(ctx, (unsigned int)n, cols) != 0)
			break;
	}
	PQclear(r);
	return 0;
}

static void
pg_close(struct hist_db *db)
{
	PQfinish(db->h);
	db->h = NULL;
}

static const struct hist_backend pg_backend = {
	.name = "postgresql",
	.id_type = "BIGSERIAL PRIMARY KEY",
	.begin = "BEGIN",
	.lock = "SELECT pg_advisory_xact_lock(2544037)",
	.exec = pg_exec,
	.close = pg_close,
};

/* Copy src[0, n) to out (at *o, below size), NUL-terminated. */
static void
put(char *out, size_t size, size_t *o, const char *src, size_t n)
{
	while (n-- > 0 && *o + 1 < size)
		out[(*o)++] = *src++;
	out[*o] = '\0';
}

void
hist_redact(char *out, size_t size, const char *where)
{
	const char *p = where, *at, *slash, *colon, *end;
	size_t o = 0;

	out[0] = '\0';
	if (strncmp(p, "postgresql://", 13) == 0 || strncmp(p, "postgres://", 11) == 0) {
		p = strstr(p, "://") + 3;
		put(out, size, &o, where, (size_t)(p - where));
		slash = p + strcspn(p, "/?");
		at = memchr(p, '@', (size_t)(slash - p));
		colon = at != NULL ? memchr(p, ':', (size_t)(at - p)) : NULL;
		if (colon != NULL) {
			put(out, size, &o, p, (size_t)(colon - p));
			put(out, size, &o, ":***", 4);
			p = at;
		}
	}
	while (*p != '\0') {
		if (strncasecmp(p, "password=", 9) == 0 &&
				(p == where || strchr("?& \t", p[-1]) != NULL)) {
			put(out, size, &o, p, 9);
			put(out, size, &o, "***", 3);
			end = p + 9 + strcspn(p + 9, "& \t");
			p = end;
			continue;
		}
		put(out, size, &o, p, 1);
		p++;
	}
}

int
hist_pg_open(struct hist_db *db, const char *url, struct wr_error *err)
{
	PGconn *c = PQconnectdb(url);

	/* Messages name the server, never a password in the URL. */
	hist_redact(db->where, sizeof(db->where), url);
	db->be = &pg_backend;
	if (PQstatus(c) != CONNECTION_OK) {
		(void)wr_err_env(err, -EIO, "%s: cannot connect: %s", db->where,
			PQerrorMessage(c));
		PQfinish(c);
		return -EIO;
	}
	db->h = c;
	return pg_exec(db, "SET client_min_messages = warning", 0, NULL, NULL, NULL, err);
}
