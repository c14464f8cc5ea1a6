/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `wirerate compare BASELINE RESULT`: judge every metric of a result
 * against a baseline with per-metric tolerances. Noise-aware: when both
 * sides ran repeated trials, a change of the medians within the 95% t
 * quantile times their standard error (from the trials' median absolute
 * deviation, docs/ci.md) is noise, not a regression. Pure: jansson only, no EAL, never prints.
 *
 * Errors are -EINVAL with a message naming the file and the field (bad
 * input: the program exits 2); a regression is not an error.
 */
#ifndef WR_COMPARE_H
#define WR_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "measure/metrics.h"
#include "measure/tolerance.h"
#include "base/error.h"

enum wr_verdict {
	WR_VERDICT_PASS = 0,     /* within tolerance */
	WR_VERDICT_IMPROVED,     /* better beyond tolerance */
	WR_VERDICT_NOISE,        /* worse beyond tolerance, within the noise */
	WR_VERDICT_REGRESSION,   /* worse beyond tolerance */
	WR_VERDICT_SKIPPED,      /* absent on a side, or tolerance "ignore" */
	WR_VERDICT_COUNT,
};

/* One side of one metric. */
struct wr_compare_side {
	bool have;
	double value;        /* the median of the trials when there are some */
	unsigned int n;      /* trials behind value; 1 for a single run */
	double min;          /* spread of the trials; both = value when n is 1 */
	double max;
	double se;           /* standard error of value over the trials (robust:
	                      * lib/results/trials.h); NAN: unknown */
};

struct wr_compare_row {
	unsigned int point;            /* index in wr_compare.points */
	unsigned int id;               /* enum wr_metric_id */
	struct wr_compare_side base;
	struct wr_compare_side cur;
	double change_abs;             /* cur - base, in the metric's unit */
	double change_pct;             /* % of base; NAN when base is 0 */
	struct wr_tolerance tol;
	enum wr_verdict verdict;
	char why[256];                 /* the verdict in words */
};

#define WR_COMPARE_MAX_NOTES 24u
#define WR_COMPARE_NOTE_LEN 256u
#define WR_COMPARE_MAX_POINTS 128u
#define WR_COMPARE_MAX_ROWS 1024u
#define WR_COMPARE_MAX_ALLOWED 16u

/* One point compared: a frame size (and offered load for the loss test). */
struct wr_compare_point {
	unsigned int frame_size;       /* bytes */
	double load_pct;               /* -1 unless the kind is keyed by load */
	int stream_id;                 /* a stream of a run; -1: the run */
	char name[48];                 /* "64 B", "64 B at 90% load" */
};

struct wr_compare {
	char kind[16];                 /* the kind of both results: "run", ... */
	unsigned int frame_size;       /* bytes, of the first point */
	unsigned int nb_points;        /* points present on both sides */
	struct wr_compare_point points[WR_COMPARE_MAX_POINTS];
	unsigned int nb_rows;          /* the kind's metrics, point by point */
	struct wr_compare_row rows[WR_COMPARE_MAX_ROWS];
	unsigned int nb[WR_VERDICT_COUNT]; /* rows per verdict */
	bool regression;               /* at least one row is a regression */
	unsigned int nb_warnings;      /* cross-check warnings of both sides
	                                * (lib/measure/xcheck.h): each fails the compare */
	bool incomplete;               /* a side was written during its run */
	unsigned int nb_allowed;       /* set-up differences the comparison
	                                * allowed (--allow-diff, alike.h) */
	char allowed[WR_COMPARE_MAX_ALLOWED][WR_COMPARE_NOTE_LEN];
	unsigned int nb_notes;         /* differences that do not block */
	char notes[WR_COMPARE_MAX_NOTES][WR_COMPARE_NOTE_LEN];
};

/*
 * Read a result file: valid JSON, an object, schema wirerate-result/1.
 * Returns 0 with *doc (caller json_decref()s), or -EINVAL / -errno with
 * "path:line:column: ..." or "path: field 'schema' ...".
 */
int wr_compare_load(const char *path, json_t **doc, struct wr_error *err);

/*
 * The same checks on len bytes at buf (not NUL-terminated), named name in
 * messages. Returns 0 with *doc (caller json_decref()s), or -EINVAL.
 */
int wr_compare_parse(const char *buf, size_t len, const char *name,
		json_t **doc, struct wr_error *err);

/*
 * Compare cur (named cur_name in messages) against base (base_name), any
 * kind of result (lib/results/kinds.h) point by point: refuse incomparable
 * results (kinds or frame sizes differ, or a set-up key of alike.h that
 * allow, a mask of wr_alike_allow() bits, does not allow) and documents
 * lacking required fields, then judge each metric of the kind at each
 * point present on both sides with tol (a point on one side only is a
 * note). Allowed differences are listed in out->allowed. Returns 0 with
 * out filled, or -EINVAL with a message naming the file and the field or
 * every difference.
 */
int wr_compare_docs(const json_t *base, const char *base_name,
		const json_t *cur, const char *cur_name,
		const struct wr_tolerances *tol, unsigned int allow,
		struct wr_compare *out, struct wr_error *err);

#define WR_COMPARE_SCHEMA "wirerate-compare/1"

/*
 * The comparison c of base_name and cur_name as a JSON document (docs/ci.md):
 * schema, files, kind, verdict ("pass", "regression", "failed" on
 * cross-check warnings), the regressions, the allowed differences, the
 * notes and every row. Returns it (caller json_decref()s), or NULL on no
 * memory.
 */
json_t *wr_compare_json(const struct wr_compare *c, const char *base_name,
		const char *cur_name);

/* "pass", "improved", "noise", "regression", "skipped". */
const char *wr_compare_verdict_name(enum wr_verdict v);

#endif /* WR_COMPARE_H */
