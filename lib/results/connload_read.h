/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A --mode conn-load result's points for report and compare: one per
 * trial, keyed by its concurrency (connections for bulk). Pure: jansson
 * only.
 */
#ifndef WR_CONNLOAD_READ_H
#define WR_CONNLOAD_READ_H

#include <jansson.h>

#include "base/error.h"
#include "kinds.h"

/*
 * The trials of doc's "conn_load.cells" into out (the kind's points()).
 * A result written during its run (--checkpoint) holds the trials
 * finished by then. Returns 0, or -EINVAL with err naming the field.
 */
int wr_connload_points(const json_t *doc, struct wr_points *out,
		struct wr_error *err);

#endif /* WR_CONNLOAD_READ_H */
