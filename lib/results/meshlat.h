/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The latency of a --mode mesh trial's frames at each receiving port
 * (RFC 2889 5.10 asks it of broadcast frames; every pattern has it): the
 * sender's TSC stamp in the frame to the receiving burst's TSC, both on
 * this host. Written as the "latency" object of a port of a trial
 * (docs/results.md). Pure: no EAL.
 */
#ifndef WR_MESHLAT_H
#define WR_MESHLAT_H

#include <jansson.h>

#include "measure/hist.h"

/* How the latency is clocked, as the result's "latency_clock" says it. */
#define WR_MESH_LAT_CLOCK "TSC (rdtsc): TX stamp to RX burst, same host"

/*
 * The latency object of h (TSC cycles at tsc_hz): count, then min_ns,
 * mean_ns, p50_ns, p99_ns, max_ns when it holds a value. NULL without
 * memory. This function can't fail otherwise.
 */
json_t *wr_mesh_lat_json(const struct wr_hist *h, double tsc_hz);

#endif /* WR_MESHLAT_H */
