/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The stats core's side of the publishing rule for what workers write
 * besides their counters (lib/datapath/worker.h, struct wr_rxq_pub).
 */
#ifndef WR_RXPUB_H
#define WR_RXPUB_H

#include <stdbool.h>

#include "setup/run.h"

/*
 * Ask every generating worker for a stable copy of its RX state and wait
 * until each RX queue served the request. Returns false when none can
 * come (not running) or some worker did not answer within 200 ms (a
 * stalled CPU): the copies must not be read then. Stats core only.
 */
bool wr_rxpub_request(struct wr_run *run);

/*
 * Sequence and latency figures of port index p from the copies its RX
 * queues published for this tick (fresh): sequence counts cumulative,
 * latency of the interval (the copy's counts less those of the copy
 * read before, run->live.pubread->prev[p], which it then replaces) and of
 * the run so far. Without fresh copies the previous interval's sequence
 * counts stand and latency is unknown; the next fresh interval covers both
 * (counts and extremes). run->live.pubread must be allocated. Stats core
 * only.
 */
void wr_rxpub_port_seq(struct wr_run *run, unsigned int p, bool fresh,
		struct wr_port_seq *out);

/*
 * Append to x a live_unpublished warning (xcheck.h) for each RX queue
 * whose published copies this trial left streams out. Stats core only.
 * This function can't fail.
 */
void wr_rxpub_warnings(const struct wr_run *run, struct wr_xcheck *x);

#endif /* WR_RXPUB_H */
