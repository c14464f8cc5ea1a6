/* SPDX-License-Identifier: BSD-3-Clause */
/* The cross-checks of a trial, fed from the run (lib/measure/xcheck.h). */
#ifndef WR_XCHECK_RUN_H
#define WR_XCHECK_RUN_H

#include "setup/run.h"

/*
 * Fill run->res.xcheck for the trial that just ended: after the workers
 * returned and the streams were collected. This function can't fail.
 */
void wr_xcheck_run(struct wr_run *run);

#endif /* WR_XCHECK_RUN_H */
