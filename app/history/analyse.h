/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The change points of every series (analysis/changepoint.h) and what they
 * mean for the newest point: `history check`'s verdict, its JUnit XML and
 * JSON (analyse.c), and the words `show` prints.
 */
#ifndef WR_APP_HIST_ANALYSE_H
#define WR_APP_HIST_ANALYSE_H

#include <stdbool.h>
#include <stdio.h>

#include "analysis/changepoint.h"
#include "db.h"

/* One series with its change points. */
struct hist_found {
	const struct hist_series *s;
	unsigned int nb_cp;
	struct wr_cp cp[WR_CP_MAX];
	bool regression;             /* the newest point is past a worsening
	                              * change point (the last one) */
};

/* The change points of s into f. Returns 0 or -EINVAL with err. */
int hist_analyse(const struct hist_series *s, const struct wr_cp_opts *o,
		struct hist_found *f, struct wr_error *err);

/*
 * Every series of db whose metric starts with metric (NULL: all), each
 * analysed with o: *ss the series, *fs their change points (same order),
 * *nb their number. Free with hist_found_free. Returns 0, or -EIO /
 * -ENOMEM / -EINVAL with err.
 */
int hist_analyse_all(struct hist_db *db, const char *metric,
		const struct wr_cp_opts *o, struct hist_series **ss,
		struct hist_found **fs, unsigned int *nb, struct wr_error *err);

/* Free what hist_analyse_all() returned. This function can't fail. */
void hist_found_free(struct hist_series *ss, struct hist_found *fs, unsigned int nb);

/* Whether change point c of s is a worsening (direction of the metric). */
bool hist_worse(const struct hist_series *s, const struct wr_cp *c);

/* "metric at point, set-up #id": the series in words, into buf. */
const char *hist_series_name(const struct hist_series *s, char *buf, size_t len);

/* One line of c: index, commits, time, direction, magnitude, p. */
void hist_cp_print(FILE *f, const struct hist_series *s, const struct wr_cp *c);

/* JUnit XML of fs (nb) to path, atomically. Returns 0 or -errno with err. */
int hist_junit_write(const char *path, const struct hist_found *fs, unsigned int nb,
		const char *error, struct wr_error *err);

/* JSON (wirerate-history-check/1) of fs to path. Returns 0 or -errno. */
int hist_json_write(const char *path, const char *db, const struct hist_found *fs,
		unsigned int nb, const char *error, struct wr_error *err);

#endif /* WR_APP_HIST_ANALYSE_H */
