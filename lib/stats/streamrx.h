/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Per-stream figures the result adds to each stream: how the receiver's RX
 * queues shared it (RSS steering made visible), the gaps between its
 * frames (the pattern as measured), and for TX queues the stream's
 * definition. Live figures come from the published copies (worker.h).
 */
#ifndef WR_STREAMRX_H
#define WR_STREAMRX_H

#include <jansson.h>

#include "setup/run.h"

/*
 * {"rx_queues": [{port_id, queue, rx_pkts}...], "interarrival": {...}} of
 * stream_id over every RX queue of run: from the trackers once the workers
 * returned (live false), else from the copies published for the last tick
 * (live, as collect_streams reads them). Returns a new object.
 */
json_t *wr_streamrx_json(const struct wr_run *run, uint16_t stream_id, bool live);

/* Add the definition of what TX queue t sends to o. This function can't fail. */
void wr_streamrx_tx_json(json_t *o, const struct wr_run *run,
		const struct wr_txq *t);

#endif /* WR_STREAMRX_H */
