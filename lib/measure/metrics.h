/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The figures of merit of a run, read back from its JSON result: what
 * --repeat summarises, what `wirerate compare` judges and what `wirerate
 * report` tabulates. One table defines them all so the three agree.
 * Pure: jansson only, no EAL, no I/O.
 */
#ifndef WR_METRICS_H
#define WR_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>
#include "base/error.h"

enum wr_metric_id {
	WR_METRIC_TX_MPPS = 0,
	WR_METRIC_RX_MPPS,
	WR_METRIC_TX_GBPS_L1,
	WR_METRIC_TX_GBPS_L2,
	WR_METRIC_RX_GBPS_L1,
	WR_METRIC_RX_GBPS_L2,
	WR_METRIC_LOSS_PCT,
	WR_METRIC_LAT_P50,
	WR_METRIC_LAT_P90,
	WR_METRIC_LAT_P99,
	WR_METRIC_LAT_P99_9,
	WR_METRIC_CYCLES_PER_PKT,
	/* Figures of the test modes (lib/results/kinds.c), absent from a plain run. */
	WR_METRIC_NDR_MPPS,
	WR_METRIC_NDR_GBPS_L1,
	WR_METRIC_PDR_MPPS,
	WR_METRIC_B2B_PKTS,
	/* RFC 2889 5.7 and 5.8 (docs/rfc2889.md). */
	WR_METRIC_ADDR_CAPACITY,
	WR_METRIC_LEARN_RATE,
	/* RFC 2889 5.1, 5.2: forwarding rate in all, throughput per port. */
	WR_METRIC_MESH_FWD_PPS,
	WR_METRIC_MESH_TPUT_PPS,
	/* A port of a mesh run: its forwarding rate, its MFR (5.6). */
	WR_METRIC_MESH_PORT_FWD_PPS,
	WR_METRIC_MESH_MFR_PPS,
	/* 5.6's forward pressure: % above the legal rate, 0 when none. */
	WR_METRIC_MESH_FP_OVER_PCT,
	/* Figures of a connection run (lib/results/conn_read.c). */
	WR_METRIC_CONN_CPS,
	WR_METRIC_CONN_RPS,
	WR_METRIC_CONN_GOODPUT_GBPS,
	WR_METRIC_CONN_FAIL_PCT,
	WR_METRIC_CONN_CONNECT_P99_US,
	/* --mode conn-rate (lib/results/connrate.c). */
	WR_METRIC_CONN_MAX_CPS,
	WR_METRIC_CONN_MAX_CPS_PDR,
	/* --mode conn-capacity (lib/results/conncap_read.c). */
	WR_METRIC_CONN_CAPACITY,
	WR_METRIC_CONN_CAPACITY_ANSWERED,
	WR_METRIC_CONN_CAPACITY_FAILED,
	/* --mode conn-teardown (lib/results/conntear.c). */
	WR_METRIC_CONN_TEARDOWN_CPS,
	WR_METRIC_COUNT,
};

enum wr_metric_dir {
	WR_METRIC_HIGHER_BETTER = 0,
	WR_METRIC_LOWER_BETTER,
};

struct wr_metric_def {
	const char *name;        /* key in summaries, tolerance files, CSV */
	const char *label;       /* column heading */
	const char *group;       /* "throughput", "loss", "latency", "cpu",
	                          * "connections" */
	enum wr_metric_dir dir;
	double tol;              /* default tolerance */
	bool tol_relative;       /* tol is a % change; else absolute, in unit */
};

/* The metric table, indexed by enum wr_metric_id. */
extern const struct wr_metric_def wr_metric_defs[WR_METRIC_COUNT];

/* Values of one run; have[i] false when the run has no such figure. */
struct wr_metric_values {
	bool have[WR_METRIC_COUNT];
	double v[WR_METRIC_COUNT];
};

/* Index of the metric called name, or -1. */
int wr_metrics_find(const char *name);

/*
 * Read the number at path in root. path is dot-separated keys with [i]
 * array indices, e.g. "totals[1].latency.p99_ns". Returns 0, -ENOENT
 * (absent) or -EINVAL (present but not a number), with err naming the path.
 */
int wr_metrics_get_number(const json_t *root, const char *path, double *out,
		struct wr_error *err);

/*
 * Read a count at path: a whole number from 0 to max (a frame size, a
 * number of trials). Returns 0, -ENOENT or -EINVAL (not a number, not
 * whole, out of range), with err naming the path.
 */
int wr_metrics_get_count(const json_t *root, const char *path, uint64_t max,
		uint64_t *out, struct wr_error *err);

/* The JSON value at path (syntax as above), or NULL. */
const json_t *wr_metrics_get(const json_t *root, const char *path);

/*
 * Extract every metric from a run object: a whole result document or one
 * entry of its "trials" array (both have "totals" and "accounting").
 * Throughput sums the ports' totals; latency percentiles take the worst
 * port; loss_pct is accounting lost / sent in %; cycles_per_pkt comes from
 * "cpu" when the run has it. A sender-only run of two ends (--peer: no
 * RX port here, its far counts in the run) has the far end's RX figures
 * and loss (wr_metrics_far). Returns 0, or -EINVAL with err naming the
 * missing or ill-typed field.
 */
int wr_metrics_extract(const json_t *run, struct wr_metric_values *out,
		struct wr_error *err);

/*
 * The far end's counts of a two-ended run object (--peer): a trial
 * record's "far", or the last of a document's "far.trials"; NULL when
 * the run has none. This function can't fail.
 */
const json_t *wr_metrics_far_trial(const json_t *run);

/*
 * The far end's figures of one trial t (an entry of far.trials): RX Mpps
 * and Gb/s summed over its ports' own totals (peer.totals, when its
 * answer had them), loss_pct its lost / the frames sent. Sets only those
 * in m. Returns 0, or -ENOENT when t has no such counts.
 */
int wr_metrics_far(const json_t *t, struct wr_metric_values *m);

/*
 * Whether run's RX figures and loss (wr_metrics_extract) are the far
 * end's: a sender-only run (no receive port here) with far counts.
 */
bool wr_metrics_from_far(const json_t *run);

#endif /* WR_METRICS_H */
