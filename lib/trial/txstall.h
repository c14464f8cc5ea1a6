/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A TX port that makes no progress (setup/run.h, WR_RUN_TX_STALL_S): the
 * stats core's check at each interval.
 */
#ifndef WR_TRIAL_TXSTALL_H
#define WR_TRIAL_TXSTALL_H

#include <stdbool.h>
#include <stdint.h>

#include "setup/run.h"

/*
 * Whether a TX port of the trial stalled: in a trial with no --duration,
 * frames of its --count left, none sent for WR_RUN_TX_STALL_S while its
 * PMD refused frames (TX not held by the controller). Reads
 * run->res.total as the last tick (now, TSC) left it; on a stall fills
 * run->res.tx_stall and returns true. Stats core only; this function
 * can't fail.
 */
bool wr_run_tx_stalled(struct wr_run *run, uint64_t now);

#endif
