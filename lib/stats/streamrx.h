/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * How the receiver's RX queues shared a stream (RSS steering made
 * visible), for the result (results/streamjson.c) and the summary. Live
 * figures come from the published copies (worker.h).
 */
#ifndef WR_STREAMRX_H
#define WR_STREAMRX_H

#include "setup/run.h"

/*
 * How the RX queues shared stream_id: queues that received it, and the
 * frames of the busiest and the least busy of them (0 when none did).
 * From the trackers once the workers returned (live false), else from the
 * copies published for the last tick.
 */
struct wr_streamrx_spread {
	unsigned int nb_queues;
	uint64_t nb_pkts;
	uint64_t max_pkts;
	uint64_t min_pkts;
};
void wr_streamrx_spread(const struct wr_run *run, uint16_t stream_id, bool live,
		struct wr_streamrx_spread *out);

#endif /* WR_STREAMRX_H */
