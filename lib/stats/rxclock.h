/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The receiver's clock in two-ended runs, where the sender is another
 * process or host and nothing tells this one when traffic starts or ends:
 * --start-on-rx starts the run's clock with the first received frame, and
 * --idle-timeout ends the run once nothing has arrived for that long. Both
 * read the TSC stamps RX workers publish per non-empty burst (worker.h),
 * so the clock starts at the frame's arrival, not at the next check.
 * Called by the stats core only.
 */
#ifndef WR_RXCLOCK_H
#define WR_RXCLOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "setup/run.h"

/* TSC of the run's first non-empty RX burst over all queues; 0: none yet. */
uint64_t wr_rxclock_first_tsc(const struct wr_run *run);

/* TSC of the run's latest non-empty RX burst over all queues; 0: none. */
uint64_t wr_rxclock_last_tsc(const struct wr_run *run);

/*
 * Whether the run's clock runs. Always true without --start-on-rx. With it,
 * false until a frame arrived; the first call that sees one moves
 * start_tsc (and the interval base last_tsc) to that frame's arrival and
 * returns true from then on.
 */
bool wr_rxclock_started(struct wr_run *run);

/*
 * Sleep (10 ms at a time) until wr_rxclock_started() is true. Returns true
 * then, or false as soon as *signals (when not NULL) turns non-zero.
 */
bool wr_rxclock_wait(struct wr_run *run, const volatile int *signals);

/*
 * True when --idle-timeout is set, a frame was received, and none has
 * arrived for the timeout by now_tsc. This function can't fail.
 */
bool wr_rxclock_idle(const struct wr_run *run, uint64_t now_tsc);

#endif /* WR_RXCLOCK_H */
