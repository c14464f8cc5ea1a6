/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * One trial after another on a run: create the run, prepare a trial
 * (frame size, rate, count), start the workers, let the stats core wait
 * and tick, stop, and after the last trial close and destroy. Methods
 * (methods/) and app/ drive a run only through these.
 */
#ifndef WR_TRIAL_H
#define WR_TRIAL_H

#include <stddef.h>

#include "setup/run.h"
#include "stats/collect.h"

/*
 * Set up the run (setup/run.h's wr_setup_create) and the stats core's CPU
 * tracking. cmdline is recorded in results; keep (NULL: none) holds the
 * ports a server keeps up between runs. On success *out is the run; on
 * error *out is NULL and everything made was undone.
 */
int wr_run_create(const struct wr_config *cfg, const char *cmdline,
		struct wr_portkeep *keep, struct wr_run **out, struct wr_error *err);

/* The trial the configuration describes (--size, --rate, --count, ...). */
void wr_trial_from_config(const struct wr_config *cfg, struct wr_trial *t);

/*
 * Prepare the next trial: frame size (TX pools of that size), rate split
 * over each port's TX queues, --count split, fresh counters and trackers,
 * RX queues drained of what arrived since the last trial. The run must be
 * created or stopped. Returns 0, or -EINVAL (the rate cannot be paced, a %
 * rate without a trusted link speed) / -ENOMEM with a message.
 */
int wr_run_trial(struct wr_run *run, const struct wr_trial *t,
		struct wr_error *err);

/*
 * Two ends (docs/twoended.md): number the next trial's frames with trial
 * tag in the sequence's high bits (measure/seq.h), and count on the RX
 * queues only that trial's frames as the trial's own, frames of the trials
 * before as theirs (late); RX is then not drained between trials. Set
 * before wr_run_trial; on false, plain numbering from 0. Can't fail.
 */
void wr_run_seq_tag(struct wr_run *run, bool on, uint16_t tag);

/*
 * Frames a stalled TX queue at pps with bursts of burst may catch up on:
 * 10 ms of traffic, at least four bursts, at most WR_RUN_PACE_MAX_BACKLOG.
 * This function can't fail.
 */
uint32_t wr_run_pace_backlog(double pps, uint16_t burst);

/* Launch the workers. Returns 0 or -EBUSY when an lcore is not free. */
int wr_run_start(struct wr_run *run, struct wr_error *err);

/*
 * Stop the trial: TX first, RX polls up to the grace period, workers
 * return, final exact counters and per-stream results. Ports stay up for
 * the next trial. This function can't fail; idempotent per trial.
 */
void wr_run_stop(struct wr_run *run, enum wr_stop_reason why);

/* Called by wr_run_wait at each interval with the new interval. */
typedef void (*wr_run_interval_cb)(const struct wr_run *run,
		const struct wr_interval *iv, void *arg);

/*
 * The stats core during a trial: sleep between intervals (never spin),
 * tick every --interval, and return why the trial should end: its duration,
 * its count, or *signals turning non-zero. cb may be NULL.
 */
enum wr_stop_reason wr_run_wait(struct wr_run *run,
		const volatile int *signals, wr_run_interval_cb cb, void *arg);

/*
 * --linger: after the last trial (workers returned, nothing polls), keep
 * the ports open until every port's link is down or the linger time is
 * up or *signals turns non-zero, so that a peer still polling a shared
 * ring (memif, vhost) closes its end first. Returns true when every link
 * went down. This function can't fail.
 */
bool wr_run_linger(struct wr_run *run, const volatile int *signals);

/*
 * After the last trial: remove the fixture, stop and close the ports, and
 * count the mbufs not back in their pools (run->res.mbufs_missing).
 * This function can't fail; idempotent.
 */
void wr_run_close(struct wr_run *run);

/* Free everything; safe on NULL and on a run that never started. */
void wr_run_destroy(struct wr_run *run);

#endif /* WR_TRIAL_H */
