/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef WR_APP_VIEW_FAR_H
#define WR_APP_VIEW_FAR_H

#include <stdio.h>

#include <jansson.h>

/*
 * The far end's figures of a two-ended run (--peer, docs/twoended.md),
 * printed from its own answers (far.trials[]: its ports' totals, the
 * trial's books), labelled "far end": this end's RX columns count
 * nothing of the frames it sent there.
 */

/*
 * One trial t (an entry of far.trials), one line on f: the far end's RX
 * rate by its own totals, what it received of the frames sent, the
 * loss. Nothing when t is NULL.
 */
void app_view_far_trial(FILE *f, const json_t *t);

/*
 * After a run, the far end's part of the summary: per far port its own
 * RX rate and frames in the last trial, the loss, and whether every
 * trial's books closed (far.balanced). Nothing when far is NULL or has
 * no trial.
 */
void app_view_far_summary(FILE *f, const json_t *far);

#endif /* WR_APP_VIEW_FAR_H */
