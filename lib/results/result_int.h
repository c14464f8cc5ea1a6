/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The parts of a result document, shared by result.c (a finished run or
 * trial) and result_live.c (a run still going, cross-check warnings).
 * Internal to lib/.
 */
#ifndef WR_RESULT_INT_H
#define WR_RESULT_INT_H

#include <jansson.h>

#include "measure/xcheck.h"
#include "setup/run.h"

/* env{}: versions, CPU, host, command line, date (result_setup.c). */
json_t *wr_result_env_json(const struct wr_run *run);

/* config{}: the merged configuration (profile, then command line). */
json_t *wr_result_config_json(const struct wr_config *c);

/* --replay: the file's frames and schedule (docs/replay.md); NULL without. */
json_t *wr_result_replay_json(const struct wr_run *run);

/* plan{}: the lcore plan. */
json_t *wr_result_plan_json(const struct wr_plan *plan);

/* One ports[] entry: driver, link, device fingerprint, role. */
json_t *wr_result_port_json(const struct wr_port *p);

/* One samples[] entry: interval iv of run. */
json_t *wr_result_sample_json(const struct wr_run *run, const struct wr_interval *iv);

/*
 * samples[] (the intervals run keeps, the last WR_RUN_KEEP_INTERVALS) and
 * series{} (how many there were, where all of them are) into o.
 */
void wr_result_add_samples(json_t *o, const struct wr_run *run);

/* Rates of one port into o (tx_mpps ... rx_gbps_l2). */
void wr_result_rates_json(json_t *o, const struct wr_port_rates *r);

/* A port's drop counters. */
json_t *wr_result_drops_json(const struct wr_port_counters *c);

/*
 * A port's counters as the result writes them (port_id, frames and bytes,
 * own/foreign/malformed, the NIC's counts, rates over dt_tsc, drops):
 * shared by the final totals and the live checkpoint. Returns a new object.
 */
json_t *wr_result_port_counters_json(const struct wr_run *run, unsigned int p,
		const struct wr_port_counters *c, uint64_t dt_tsc);

/* Latency figures keyed as totals[].latency; NULL when none is known. */
json_t *wr_result_lat_figs_json(const struct wr_lat_figs *f);

/* One streams[] entry; live: during the run (wr_result_stream_rx_json). */
json_t *wr_result_stream_json(const struct wr_run *run,
		const struct wr_stream_result *s, bool live);

/* tx_streams[]: what each TX queue of run sent (counters read safely). */
json_t *wr_result_tx_streams_json(const struct wr_run *run);

/* The accounting object over run->res.streams. */
json_t *wr_result_accounting_json(const struct wr_run *run);

/* warnings[]: the cross-checks that disagreed, [{check, port_id (null for
 * the run), queue (null for the whole port), wirerate, pmd, what}]. */
json_t *wr_result_warnings_json(const struct wr_xcheck *x);

#endif /* WR_RESULT_INT_H */
