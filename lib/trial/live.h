/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Live control of a running trial (the control socket's update method,
 * docs/api.md): a new rate per port or per stream, TX held and resumed
 * per port. Nothing here locks or waits on the workers: a new pace
 * configuration is published with a generation counter (wr_ctl.pace_gen,
 * odd while it is written) that each worker compares once per loop, and
 * a hold is a bit in wr_ctl.tx_held that the stats core keeps in
 * tx_paused. The caller serialises the calls (one controller at a time)
 * and keeps the run alive during them. A new trial starts from its own
 * configured rate, nothing held.
 */
#ifndef WR_LIVE_H
#define WR_LIVE_H

#include <stdbool.h>

#include <jansson.h>

#include "config/rate.h"
#include "setup/run.h"

/*
 * Pace at rate from now on: every TX queue of DPDK port port (-1: of every
 * TX port), the port's rate split over its queues as --rate is; or only
 * the TX queue of stream id stream (>= 0; port then -1), at rate for that
 * queue alone. Queues under --pattern burst/poisson or with a --mix are
 * refused. Returns 0, or -EINVAL (usage: no such TX port or stream, a
 * rate the pacer cannot hold, a % rate without a link speed) with a
 * message in err.
 */
int wr_live_rate(struct wr_run *run, int port, int stream,
		const struct wr_rate *rate, struct wr_error *err);

/*
 * Hold (hold true) or resume TX of DPDK port port (-1: every TX port).
 * While held, the port offers nothing; its pacer keeps earning up to its
 * backlog, so the budget beyond that counts as clamped. Returns 0, or
 * -EINVAL (usage: not a TX port of the run) with a message in err.
 */
int wr_live_hold(struct wr_run *run, int port, bool hold,
		struct wr_error *err);

/*
 * The rate asked of each TX queue now: [{"port_id", "queue", "stream",
 * "pps"}], pps null when unpaced. NULL without memory.
 */
json_t *wr_live_rates_json(const struct wr_run *run);

#endif /* WR_LIVE_H */
