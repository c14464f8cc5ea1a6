/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Live metrics through DPDK telemetry (the dpdk_telemetry.v2 socket that
 * dpdk-telemetry.py and Telegraf's dpdk input read). Commands:
 *
 *   /wirerate/state          run state, elapsed time, configuration
 *   /wirerate/ports          ids of the run's ports
 *   /wirerate/port,<id>      one port: totals, rates, loss, latency, CPU
 *   /wirerate/lcores         ids of the worker lcores
 *   /wirerate/lcore,<id>     one worker lcore: CPU cost, bursts histogram
 *   /wirerate/streams        ids of the run's streams
 *   /wirerate/stream,<id>    one stream: sent, received, gaps, latency
 *   /wirerate/progress       a test mode's or --repeat's size, trial,
 *                            elapsed time and bound of the time left
 *
 * Every reply is a flat dictionary of integers (DPDK 22.11 telemetry has no
 * floating point), units in the key names, but for the names of
 * /wirerate/progress; docs/metrics.md lists them.
 *
 * The stats core publishes a snapshot (snapshot.h) after every interval
 * and on state changes; the handlers, on telemetry's own threads, copy the
 * part they need under a mutex and format it. They never see the run.
 */
#ifndef WR_TELEMETRY_H
#define WR_TELEMETRY_H

#include "measure/progress.h"
#include "setup/run.h"
#include "snapshot.h"

/*
 * Register the /wirerate/ commands with rte_telemetry. Call once, after
 * rte_eal_init. Returns 0 or the negative errno of the first registration
 * that failed.
 */
int wr_telemetry_register(void);

/*
 * Publish run's state: a new snapshot replaces the previous one. iv is the
 * interval just taken, or NULL. Stats core only (not thread-safe against
 * itself); handlers may read concurrently. This function can't fail.
 */
void wr_telemetry_publish(const struct wr_run *run, const struct wr_interval *iv,
		enum wr_snap_state state);

/*
 * Copy the published snapshot into out (for tests and in-process readers).
 * This function can't fail.
 */
void wr_telemetry_read(struct wr_snap *out);

/*
 * Publish p (copied) for /wirerate/progress. Main lcore only; handlers may
 * read concurrently. This function can't fail.
 */
void wr_telemetry_progress(const struct wr_progress *p);

#endif /* WR_TELEMETRY_H */
