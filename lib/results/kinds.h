/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The kinds of result wirerate writes (a run, a repeated run, one per
 * test mode: sweep, throughput, loss, b2b, mlr, and a connection run) and
 * their points: one set of
 * figures per frame size (and per offered load for the loss test, and per
 * stream of a single run: its loss), what
 * `wirerate compare` judges and `wirerate report` tabulates and plots.
 * A new kind is one more entry of wr_kinds[] with its points() reader.
 * Pure: jansson only, no EAL, no I/O.
 */
#ifndef WR_KINDS_H
#define WR_KINDS_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "measure/metrics.h"
#include "base/error.h"

#define WR_KIND_MAX_POINTS 256u
#define WR_KIND_MAX_COLS 12u

/* One point of a result: its key and its figures. */
struct wr_point {
	unsigned int frame_size;      /* bytes, FCS included */
	double load_pct;              /* loss test: offered load, % of the
	                               * maximum; -1 for other kinds */
	int stream_id;                /* a stream of a run (port * 16 +
	                               * queue of its sender); -1: the run */
	unsigned int n;               /* trials behind the figures; 1: one */
	struct wr_metric_values m;    /* figures (medians over trials) */
	struct wr_metric_values lo;   /* spread over the trials, = m for n 1 */
	struct wr_metric_values hi;
	struct wr_metric_values se;   /* standard error of m over the trials
	                               * (lib/results/trials.h), have: known */
};

struct wr_points;

/* One kind of result. */
struct wr_kind {
	const char *name;      /* "run", "repeat", "sweep", ... */
	const char *mode;      /* the document's "mode"; NULL: no "mode" */
	const char *title;     /* heading of its table in a report */
	bool by_load;          /* points are keyed by load_pct too */
	/* Metrics compare judges, and the columns of its report table. */
	unsigned int nb_judged;
	unsigned int judged[WR_KIND_MAX_COLS];
	unsigned int nb_shown;
	unsigned int shown[WR_KIND_MAX_COLS];
	/* Read the points of doc into out. Returns 0 or -EINVAL with err. */
	int (*points)(const json_t *doc, struct wr_points *out, struct wr_error *err);
	const char *point_name;  /* the name of its one point, not keyed by
	                          * frame size (a connection run); NULL: "64 B" */
	const char *key_name;    /* what frame_size holds when not a size
	                          * ("concurrency 16"); NULL: a frame size */
};

/* Every point of one result document. */
struct wr_points {
	const struct wr_kind *kind;
	unsigned int nb;
	struct wr_point p[WR_KIND_MAX_POINTS];
};

/* The kinds, in report order, and their number. */
extern const struct wr_kind wr_kinds[];
extern const unsigned int wr_nb_kinds;

/*
 * Whether doc was written during its run (--checkpoint, "stop_reason":
 * "running"): its figures stop at its last interval, and a test mode's
 * results[] holds only the points finished by then (none, killed in the
 * first). This function can't fail.
 */
bool wr_kind_running(const json_t *doc);

/*
 * The kind of doc (a result document), or NULL with err naming the
 * unknown "mode".
 */
const struct wr_kind *wr_kind_of(const json_t *doc, struct wr_error *err);

/*
 * The kind and points of doc, sorted by frame size then load. Returns 0,
 * or -EINVAL with err naming the missing or ill-typed field.
 */
int wr_kind_points(const json_t *doc, struct wr_points *out, struct wr_error *err);

/*
 * Metrics compare judges at p: the kind's, or for a stream of a run its
 * loss (the only figure a stream has on its own). Returns their number,
 * *ids the list. This function can't fail.
 */
unsigned int wr_point_judged(const struct wr_kind *k, const struct wr_point *p,
		const unsigned int **ids);

/*
 * "64 B", "64 B at 90% load" for a point keyed by load, "64 B, stream
 * tx1.0" for a stream, "concurrency 16" for a kind with a key_name.
 * Returns buf.
 */
const char *wr_point_name(const struct wr_kind *k, const struct wr_point *p,
		char *buf, size_t len);

/* The point of pts with p's key, or NULL. */
const struct wr_point *wr_points_find(const struct wr_points *pts,
		const struct wr_point *p);

#endif /* WR_KINDS_H */
