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

/*
 * Add the flows of ranges r (and --flows nb_flows) for frames of the
 * family to o: "flows" (distinct tuples per cycle), and with ranges
 * "vary" (inc or random:SEED) and "ranges" {field: values}. This function
 * can't fail.
 */
void wr_streamrx_flows_json(json_t *o, const struct wr_ranges *r,
		uint32_t nb_flows, bool ipv6);

/*
 * How the RX queues shared stream_id: queues that received it, and the
 * frames of the busiest and the least busy of them (0 when none did).
 * From the trackers or the published copies, as wr_streamrx_json.
 */
struct wr_streamrx_spread {
	unsigned int nb_queues;
	uint64_t nb_pkts;
	uint64_t max_pkts;
	uint64_t min_pkts;
};
void wr_streamrx_spread(const struct wr_run *run, uint16_t stream_id, bool live,
		struct wr_streamrx_spread *out);

/* Add the definition of what TX queue t sends to o. This function can't fail. */
void wr_streamrx_tx_json(json_t *o, const struct wr_run *run,
		const struct wr_txq *t);

#endif /* WR_STREAMRX_H */
