/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * How far each metric may move before `wirerate compare` calls it a
 * regression. Defaults come from the metric table; a file or the command
 * line overrides them. Pure: no EAL; the file is read with stdio.
 *
 * File syntax, one setting a line, '#' starts a comment:
 *     METRIC = 5%        relative change, in % of the baseline
 *     METRIC = 0.01      absolute change, in the metric's own unit
 *     METRIC = ignore    not judged (still shown)
 * METRIC is a metric name (tx_mpps, latency_p99_ns, ...) or a group
 * (throughput, loss, latency, cpu) setting all of its metrics; later
 * lines win.
 */
#ifndef WR_TOLERANCE_H
#define WR_TOLERANCE_H

#include <stdbool.h>
#include <stddef.h>

#include "metrics.h"
#include "base/error.h"

struct wr_tolerance {
	double value;       /* >= 0 */
	bool relative;      /* value is a % of the baseline */
	bool ignore;        /* shown but never judged */
};

struct wr_tolerances {
	struct wr_tolerance t[WR_METRIC_COUNT];
};

/* Fill t with the defaults of the metric table. This function can't fail. */
void wr_tolerances_defaults(struct wr_tolerances *t);

/*
 * Apply one "METRIC = VALUE" setting (also "METRIC=VALUE" from a command
 * line). Returns 0, or -EINVAL with a message saying what is accepted.
 */
int wr_tolerances_set(struct wr_tolerances *t, const char *setting,
		struct wr_error *err);

/*
 * Apply every setting of the file at path. Returns 0, -errno when it
 * cannot be read, or -EINVAL with "path:line: message".
 */
int wr_tolerances_load(struct wr_tolerances *t, const char *path,
		struct wr_error *err);

/* "5%", "0.01" or "ignore" into buf. Returns buf. */
const char *wr_tolerance_format(const struct wr_tolerance *t, char *buf, size_t len);

#endif /* WR_TOLERANCE_H */
