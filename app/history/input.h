/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The files `history add` takes, read into what the store keeps: a result
 * of any kind (wirerate-result/1), a `wirerate merge` file
 * (wirerate-merge/1: figures of both ends) or a campaign's cell record
 * (wirerate-cell/1: its merge). Everything is read and checked before any
 * is written (input.c).
 */
#ifndef WR_APP_HIST_INPUT_H
#define WR_APP_HIST_INPUT_H

#include "db.h"

/*
 * Read path into r (commit: --commit, or NULL for the result's label).
 * Returns 0, 1 for a failed campaign cell (no figures: nothing to add),
 * or -EINVAL with err naming the file and the reason.
 */
int hist_input_read(const char *path, const char *commit, struct hist_result *r,
		struct wr_error *err);

void hist_input_free(struct hist_result *r);

#endif /* WR_APP_HIST_INPUT_H */
