/* SPDX-License-Identifier: BSD-3-Clause */
/* CPU cost of a run as JSON, for result.c. */
#ifndef WR_CPUJSON_H
#define WR_CPUJSON_H

#include <jansson.h>

#include "setup/run.h"

/*
 * The "cpu" object: burst bins, per-lcore counters and cost, per-port
 * shares, over the whole run. NULL when the run has no CPU tracker or
 * memory ran out.
 */
json_t *wr_cpu_json(const struct wr_run *run);

/* samples[].lcores: each worker's cost over interval iv (empty if unknown). */
json_t *wr_cpu_json_sample(const struct wr_run *run, const struct wr_interval *iv);

/* Add a port's CPU cost over one interval (tsc_per_pkt, tsc_per_byte) to o. */
void wr_cpu_json_sample_port(json_t *o, const struct wr_cpu_port *cp);

#endif /* WR_CPUJSON_H */
