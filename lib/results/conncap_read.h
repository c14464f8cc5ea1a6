/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A --mode conn-capacity result read back (its "capacity" object,
 * conncap_doc.h): the figures of its one point for `wirerate report`
 * and `wirerate compare`. Pure: jansson only, no EAL, no I/O.
 */
#ifndef WR_RESULTS_CONNCAP_READ_H
#define WR_RESULTS_CONNCAP_READ_H

#include <stdbool.h>

#include <jansson.h>

#include "base/error.h"
#include "kinds.h"

/* Whether doc is a capacity run's result (it has "capacity"). */
bool wr_conncap_is(const json_t *doc);

/*
 * The one point of a capacity result into out: conn_capacity (the
 * connections held; in a file written during the fill, stop_reason
 * running, the count held so far), conn_capacity_answered (the held
 * ones whose check got a 2xx) and conn_capacity_failed (failed
 * connections when it was read). A capacity not found has no
 * conn_capacity nor answered. Returns 0, or -EINVAL with err naming the
 * missing or ill-typed field.
 */
int wr_conncap_points(const json_t *doc, struct wr_points *out,
		struct wr_error *err);

#endif /* WR_RESULTS_CONNCAP_READ_H */
