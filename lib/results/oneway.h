/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Whether a two-ended result may report one-way latency, and how the
 * receiver's figures become one-way latency across hosts. Pure: jansson
 * only, no EAL, no printing. docs/testbeds.md, "Latency across hosts".
 *
 * A frame's latency is the receiver's TSC minus the TX TSC stamped in it
 * (low 32 bits, docs/accounting.md). That is one-way latency when
 *  - one TSC runs both ends: the receiver's --latency tsc asserts it
 *    (same host); kept as it is, with no bound to carry;
 *  - or, with the receiver's --latency sync, both ends' system clocks are
 *    synchronised (env.clock, measure/clocksync.h): each end's anchors
 *    tie its TSC to its clock, so the receiver's TSC minus the sender's
 *    at one instant is known (off, in the receiver's cycles), and
 *        one-way = ((measured x hz - off) mod 2^32) / hz.
 *    off comes from the pair of anchors nearest in time (set-up, or when
 *    the document was written), each end's TSC rate from its own two
 *    anchors. The bound every one-way figure carries: both ends' clock
 *    bounds, the pair's reads, the carrying of one end's TSC to the
 *    other's instant, and how far the TSCs may drift apart over the run
 *    (their measured rates' difference and uncertainty). Both nominal TSC
 *    rates must agree (the frames carry the sender's cycles, the receiver
 *    counts its own).
 * Otherwise there is no one-way latency: null, with the reason.
 */
#ifndef WR_ONEWAY_H
#define WR_ONEWAY_H

#include <stdbool.h>

#include <jansson.h>

#define WR_ONEWAY_TEXT 224u

struct wr_oneway {
	bool asked;              /* the receiver measured the sender's frames */
	bool available;          /* its figures are one-way latency */
	bool synced_clocks;      /* by --latency sync: shifted, with a bound */
	char clock[8];           /* the receiver's --latency: tsc, sync, ... */
	char source[64];         /* what makes them one-way: "tsc", "chrony + ptp" */
	double bound_ns;         /* synced_clocks: the figures' error bound */
	double shift_cycles;     /* synced_clocks: off, receiver cycles */
	double hz;               /* the receiver's TSC rate */
	char reason[WR_ONEWAY_TEXT]; /* why not available; "" when it is */
};

/*
 * Decide from the sender's and the receiver's result documents (env,
 * config.latency) whether the receiver's latency of the sender's frames
 * is one-way latency, as the header says. This function can't fail:
 * what is missing is ow->reason.
 */
void wr_oneway_judge(const json_t *snd, const json_t *rcv, struct wr_oneway *ow);

/*
 * A latency figure of the receiver (ns, from its cycles) as one-way
 * latency: shifted by off (synced clocks) or as it is (one TSC). Only
 * for ow->available. This function can't fail.
 */
double wr_oneway_fix(const struct wr_oneway *ow, double ns);

/*
 * Whether a stream whose figures span min_ns .. max_ns keeps them whole
 * under the shift: false when it carries them across the 32-bit wrap of
 * the stamps (the stream's one-way figures are then null). This function
 * can't fail.
 */
bool wr_oneway_span_ok(const struct wr_oneway *ow, double min_ns, double max_ns);

/*
 * A stream's latency fields (src: latency_min_ns, latency_mean_ns,
 * latency_max_ns, jitter_ns) written to dst as one-way latency: shifted,
 * with latency_bound_ns when by synchronised clocks; or the three null
 * with latency_null_reason. Jitter (differences of one stream's
 * latencies) is copied as it is. Nothing when src has none of the three.
 * dst may be src. This function can't fail (but on memory exhaustion).
 */
void wr_oneway_latency_json(const struct wr_oneway *ow, json_t *src, json_t *dst);

/* ow as an object: clock, available, source, bound_ns, shift_ns, reason. */
json_t *wr_oneway_json(const struct wr_oneway *ow);

#endif /* WR_ONEWAY_H */
