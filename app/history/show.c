/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `history show` and `history check`: every series with its change
 * points; show adds what splits series of one metric and point (the
 * set-up keys whose values differ), check the verdict and its exit code.
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "common/exitcode.h"
#include "analyse.h"
#include "show.h"

#define PROG "wirerate history"

/* The set-up keys in which series a and b differ, into buf. */
static void
splits(const struct hist_series *a, const struct hist_series *b, char *buf,
		size_t len)
{
	json_t *x = json_loads(a->setup, 0, NULL), *y = json_loads(b->setup, 0, NULL);
	const char *key;
	json_t *v;
	size_t used = 0;
	char *s1, *s2;

	buf[0] = '\0';
	json_object_foreach(x, key, v) {
		if (json_equal(v, json_object_get(y, key)) || used >= len)
			continue;
		s1 = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
		s2 = json_dumps(json_object_get(y, key), JSON_ENCODE_ANY | JSON_COMPACT);
		used += (size_t)snprintf(buf + used, len - used, "%s%s: %.60s vs %.60s",
			used ? "; " : "", key, s1 ? s1 : "?", s2 ? s2 : "-");
		free(s1);
		free(s2);
	}
	json_decref(x);
	json_decref(y);
}

/* Series of the same metric and point before s, and what splits them. */
static void
print_splits(const struct hist_series *ss, unsigned int i)
{
	char why[768];
	unsigned int j;

	for (j = 0; j < i; j++) {
		if (strcmp(ss[j].metric, ss[i].metric) != 0 ||
				strcmp(ss[j].point, ss[i].point) != 0)
			continue;
		splits(&ss[j], &ss[i], why, sizeof(why));
		printf("  not alike series %ld: %s\n", ss[j].id, why);
	}
}

static void
print_found(const struct hist_found *f, bool check)
{
	const struct hist_series *s = f->s;
	char name[160];
	unsigned int i;

	if (check && !f->regression)
		return;
	printf("%s%s: %u run(s), newest %.6g (%s, %s, wirerate %s)\n",
		f->regression ? "REGRESSION " : "", hist_series_name(s, name, sizeof(name)),
		s->nb, s->nb ? s->p[s->nb - 1].value : 0, s->nb ? s->p[s->nb - 1].commit : "-",
		s->nb ? s->p[s->nb - 1].time : "-", s->nb ? s->p[s->nb - 1].version : "-");
	for (i = 0; i < f->nb_cp; i++)
		hist_cp_print(stdout, s, &f->cp[i]);
}

void
hist_report_bad_input(const struct hist_args *a, const char *msg)
{
	struct wr_error err;

	if (a->junit != NULL && hist_junit_write(a->junit, NULL, 0, msg, &err) != 0)
		app_error(PROG, &err);
	if (a->json != NULL && hist_json_write(a->json, a->db, NULL, 0, msg, &err) != 0)
		app_error(PROG, &err);
}

/* check's verdict line, its files and exit code. */
static int
verdict(const struct hist_args *a, const struct hist_db *db,
		const struct hist_found *fs, unsigned int nb)
{
	unsigned int i, fails = 0;
	struct wr_error err;
	char name[160];
	int rc;

	for (i = 0; i < nb; i++)
		fails += fs[i].regression;
	if (fails == 0) {
		printf("verdict: PASS: %u series, none past a lasting worsening\n", nb);
	} else {
		printf("verdict: REGRESSION in %u series:", fails);
		for (i = 0; i < nb; i++) {
			const struct wr_cp *c = &fs[i].cp[fs[i].nb_cp - 1];

			if (fs[i].regression)
				printf(" %s from run %u (%s -> %s, %+.2f%%);",
					hist_series_name(fs[i].s, name, sizeof(name)),
					c->idx + 1, fs[i].s->p[c->idx - 1].commit,
					fs[i].s->p[c->idx].commit, c->change_pct);
		}
		printf("\n");
	}
	rc = fails ? APP_EXIT_FAILED : APP_EXIT_OK;
	if ((a->junit != NULL && hist_junit_write(a->junit, fs, nb, NULL, &err) != 0) ||
			(a->json != NULL && hist_json_write(a->json, db->where, fs, nb,
			NULL, &err) != 0)) {
		app_error(PROG, &err);
		rc = APP_EXIT_FAILED;
	}
	return rc;
}

int
hist_show_check(const struct hist_args *a, struct hist_db *db, bool check)
{
	struct hist_series *ss;
	struct hist_found *fs;
	struct wr_error err;
	unsigned int nb, i;
	int rc = APP_EXIT_OK;

	if (hist_analyse_all(db, a->metric, &a->cp, &ss, &fs, &nb, &err) != 0)
		return app_error(PROG, &err);
	for (i = 0; i < nb; i++) {
		print_found(&fs[i], check);
		if (!check)
			print_splits(ss, i);
	}
	if (check)
		rc = verdict(a, db, fs, nb);
	hist_found_free(ss, fs, nb);
	return rc;
}
