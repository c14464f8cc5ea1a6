/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The run's streams as the stats core last saw them, for the live view
 * and telemetry: what each TX queue of the run sent (its counter, read
 * now) joined with what the receivers counted of it (run->res.streams, from
 * the copies the workers published for the last tick, or final once the
 * workers returned).
 */
#include <stdio.h>
#include <string.h>

#include "base/counter.h"
#include "collect.h"
#include "measure/stats.h"
#include "snapshot.h"

/* The receiver's half of stream sid, NULL when no receiver saw it. */
static const struct wr_stream_result *
received(const struct wr_run *run, unsigned int sid)
{
	unsigned int i;

	for (i = 0; i < run->res.nb_streams; i++)
		if (run->res.streams[i].stream_id == sid && run->res.streams[i].view.seq.started)
			return &run->res.streams[i];
	return NULL;
}

/* The sender's half: name, counters read now (after the receivers'). */
static void
sender(const struct wr_run *run, const struct wr_txq *t, struct wr_snap_stream *o)
{
	o->sent_known = true;
	o->tx_port = t->port;
	o->tx_queue = t->queue;
	o->sent_pkts = wr_counter_read(&t->st.nb_pkts);
	if (run->setup.cfg->nb_stream_defs > t->queue)
		snprintf(o->name, sizeof(o->name), "%s", run->setup.cfg->streams[t->queue].name);
}

static void
receiver(const struct wr_run *run, const struct wr_stream_result *r,
		struct wr_snap_stream *o)
{
	o->rx_known = true;
	o->rx_port = r->rx_port;
	o->rx_pkts = r->view.seq.nb_rx_pkts;
	o->gap_pkts = wr_seq_gaps(&r->view.seq);
	o->late_pkts = r->view.seq.nb_late_pkts;
	o->dup_pkts = r->view.seq.nb_dup_pkts;
	if (r->lat_valid && r->view.nb_lat > 0) {
		o->lat_valid = true;
		o->lat_mean_ns = wr_stats_tsc_to_ns(wr_stats_view_lat_mean_tsc(&r->view),
			run->setup.tsc_hz);
	}
}

unsigned int
wr_snap_streams(const struct wr_run *run, struct wr_snap_stream *out,
		unsigned int max)
{
	unsigned int sid, n = 0;

	for (sid = 0; sid < WR_MAX_STREAMS && n < max; sid++) {
		const struct wr_stream_result *r = received(run, sid);
		const struct wr_txq *t = wr_collect_sender_of(run, sid);
		struct wr_snap_stream *o = &out[n];

		if (r == NULL && t == NULL)
			continue;
		memset(o, 0, sizeof(*o));
		o->stream_id = (uint16_t)sid;
		o->tx_port = (uint16_t)(sid / WR_MAX_QUEUES);
		o->tx_queue = (uint16_t)(sid % WR_MAX_QUEUES);
		if (r != NULL)
			receiver(run, r, o);
		if (t != NULL)
			sender(run, t, o);
		n++;
	}
	return n;
}
