/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the performance history (`wirerate history`, docs/history.md) keeps
 * of one result: its set-up, the attributes that split series (the kind,
 * every key of alike.h as compare reads it, the DPDK version, the CPU
 * model, each port's driver and device), and its facts, one figure per
 * point and metric (kinds.h: every kind's points and judged metrics, plus
 * cycles per frame of each lcore). A series is one metric at one point of
 * results of one set-up. Pure: jansson only, no EAL, never prints.
 */
#ifndef WR_HISTPOINTS_H
#define WR_HISTPOINTS_H

#include <jansson.h>

#include "base/error.h"

#define WR_HIST_MAX_FACTS 1024u
#define WR_HIST_NAME_LEN 64u

/* One figure of a result. */
struct wr_hist_fact {
	char point[WR_HIST_NAME_LEN];    /* "64 B", "64 B at 90% load" */
	char metric[WR_HIST_NAME_LEN];   /* "rx_mpps", "cycles_per_pkt.lcore1" */
	int lower_better;                /* 1: lower is better (loss, latency,
	                                  * cycles), 0: higher */
	double value;                    /* median over the trials */
	unsigned int n;                  /* trials behind it */
};

struct wr_hist_facts {
	const char *kind;                /* "run", "repeat", "sweep", ... */
	unsigned int nb;
	struct wr_hist_fact f[WR_HIST_MAX_FACTS];
};

/*
 * The set-up of doc (named name in messages) as a JSON object (a new
 * reference into *setup), whose keys are those listed above. Returns 0,
 * or -EINVAL naming the field, or -ENOMEM.
 */
int wr_hist_setup(const json_t *doc, const char *name, json_t **setup,
		struct wr_error *err);

/*
 * The facts of doc into out. Returns 0, or -EINVAL with err naming the
 * missing or ill-typed field (not prefixed with the file).
 */
int wr_hist_facts(const json_t *doc, struct wr_hist_facts *out,
		struct wr_error *err);

/*
 * Add fact (point, metric, value) to out: for figures the caller reads
 * itself (a two-ended run's DUT). Returns 0, or -EINVAL when out is full.
 */
int wr_hist_fact_add(struct wr_hist_facts *out, const char *point,
		const char *metric, int lower_better, double value,
		struct wr_error *err);

#endif /* WR_HISTPOINTS_H */
