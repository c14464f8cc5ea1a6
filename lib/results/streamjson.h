/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Per-stream keys of a result: how the receiver's RX queues shared it,
 * the gaps between its frames (the pattern as measured), and for TX
 * queues the stream's definition (docs/results.md).
 */
#ifndef WR_STREAMJSON_H
#define WR_STREAMJSON_H

#include <jansson.h>

#include "setup/run.h"

/*
 * {"rx_queues": [{port_id, queue, rx_pkts}...], "interarrival": {...}} of
 * stream_id over every RX queue of run: from the trackers once the workers
 * returned (live false), else from the copies published for the last tick
 * (live, as collect_streams reads them). Returns a new object.
 */
json_t *wr_result_stream_rx_json(const struct wr_run *run, uint16_t stream_id, bool live);

/*
 * Add the flows of ranges r (and --flows nb_flows) for frames of the
 * family to o: "flows" (distinct tuples per cycle), and with ranges
 * "vary" (inc or random:SEED) and "ranges" {field: values}. This function
 * can't fail.
 */
void wr_result_flows_json(json_t *o, const struct wr_ranges *r,
		uint32_t nb_flows, bool ipv6);

/* Add the definition of what TX queue t sends to o. This function can't fail. */
void wr_result_stream_tx_json(json_t *o, const struct wr_run *run,
		const struct wr_txq *t);

#endif /* WR_STREAMJSON_H */
