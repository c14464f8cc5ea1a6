/* SPDX-License-Identifier: BSD-3-Clause */
#include <string.h>

#include "collect.h"
#include "streamrx.h"

void
wr_streamrx_spread(const struct wr_run *run, uint16_t stream_id, bool live,
		struct wr_streamrx_spread *out)
{
	const struct wr_rxq *r;
	unsigned int i;

	memset(out, 0, sizeof(*out));
	WR_RUN_FOREACH_RXQ(run, i, r) {
		const struct wr_rx_stream *s = wr_collect_rxq_stream(run, r, stream_id, live);
		uint64_t n = s != NULL ? s->seq.nb_rx_pkts : 0;

		if (n == 0)
			continue;
		out->min_pkts = out->nb_queues == 0 ? n : RTE_MIN(out->min_pkts, n);
		out->max_pkts = RTE_MAX(out->max_pkts, n);
		out->nb_pkts += n;
		out->nb_queues++;
	}
}
