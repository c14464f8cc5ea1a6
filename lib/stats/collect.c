/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>

#include "base/counter.h"
#include "collect.h"
#include "cputrack.h"
#include "rxpub.h"
#include "setup/svc.h"
#include "telemetry.h"
#include "xcheck_run.h"

static void
add_txq(struct wr_port_counters *c, const struct wr_txq *q, uint64_t *sent)
{
	uint64_t pkts = wr_counter_read(&q->st.nb_pkts);

	*sent = pkts;
	/* Fixed-size frames: bytes from the same read, so rates agree. */
	c->tx_pkts += pkts;
	c->tx_bytes += wr_txq_bytes(q, pkts);
	c->tx_full_pkts += wr_counter_read(&q->st.nb_full_pkts);
	c->tx_alloc_fail += wr_counter_read(&q->st.nb_alloc_fail);
	c->tx_unsent_pkts += wr_counter_read(&q->st.nb_unsent_pkts);
	c->tx_service_pkts += wr_counter_read(&q->st.nb_service_pkts);
	c->service_drop_pkts += wr_counter_read(&q->st.nb_service_drop_pkts);
}

static void
add_rxq(struct wr_port_counters *c, const struct wr_rxq *q)
{
	c->rx_pkts += wr_counter_read(&q->st.nb_pkts);
	c->rx_bytes += wr_counter_read(&q->st.nb_bytes);
	c->rx_own_pkts += wr_counter_read(&q->st.nb_own_pkts);
	c->rx_foreign_pkts += wr_counter_read(&q->st.nb_foreign_pkts);
	c->rx_malformed_pkts += wr_counter_read(&q->st.nb_malformed_pkts);
	c->rx_service_pkts += wr_counter_read(&q->st.nb_service_pkts);
	c->service_drop_pkts += wr_counter_read(&q->st.nb_service_drop_pkts);
	/* Reflected frames leave the port: they are its TX as well. */
	c->rx_reflected_pkts += wr_counter_read(&q->st.nb_reflected_pkts);
	c->rx_unreflected_pkts += wr_counter_read(&q->st.nb_unreflected_pkts);
	c->tx_pkts += wr_counter_read(&q->st.nb_reflected_pkts);
	c->tx_bytes += wr_counter_read(&q->st.nb_reflected_bytes);
}

static void
read_nic(uint16_t port_id, struct wr_port_counters *c)
{
	struct rte_eth_stats st;

	if (rte_eth_stats_get(port_id, &st) != 0)
		return;
	c->nic_ipackets = st.ipackets;
	c->nic_opackets = st.opackets;
	c->nic_imissed = st.imissed;
	c->nic_ierrors = st.ierrors;
	c->nic_oerrors = st.oerrors;
	c->nic_rx_nombuf = st.rx_nombuf;
}

static void
copy_nic(struct wr_port_counters *dst, const struct wr_port_counters *src)
{
	dst->nic_ipackets = src->nic_ipackets;
	dst->nic_opackets = src->nic_opackets;
	dst->nic_imissed = src->nic_imissed;
	dst->nic_ierrors = src->nic_ierrors;
	dst->nic_oerrors = src->nic_oerrors;
	dst->nic_rx_nombuf = src->nic_rx_nombuf;
}

/* Our own counters of port index p; its TX queues' sent into the run's
 * reading (txq_sent_pkts). */
static void
collect_queues(struct wr_run *run, unsigned int p, struct wr_port_counters *c)
{
	const struct wr_txq *tq;
	const struct wr_rxq *rq;
	unsigned int i;

	memset(c, 0, sizeof(*c));
	WR_RUN_FOREACH_TXQ_OF(run, p, i, tq)
		add_txq(c, tq, &run->live.txq_sent_pkts[i]);
	WR_RUN_FOREACH_RXQ_OF(run, p, i, rq)
		add_rxq(c, rq);
	/* What the main lcore's responder sent or lost itself (svc.h). */
	if (run->setup.svc != NULL) {
		const struct wr_port_counters *r = &run->setup.svc->rx[p];

		c->rx_pkts += r->rx_pkts;
		c->rx_bytes += r->rx_bytes;
		c->rx_service_pkts += r->rx_service_pkts;
		c->rx_foreign_pkts += r->rx_foreign_pkts;
		c->rx_malformed_pkts += r->rx_malformed_pkts;
		c->tx_service_pkts += run->setup.svc->nb_direct_pkts[p];
		c->service_drop_pkts += run->setup.svc->nb_drop_pkts[p];
	}
}

bool
wr_collect_link_up(uint16_t port_id)
{
	struct rte_eth_link link;

	memset(&link, 0, sizeof(link));
	if (rte_eth_link_get_nowait(port_id, &link) != 0)
		return false;
	return link.link_status == RTE_ETH_LINK_UP;
}

/*
 * Stop TX on the ports whose link a reading found down after it had been
 * up (a link that never came up is left to the PMD), resume it once a
 * reading finds it up again: wr_ctl.tx_paused, read by the workers. The
 * ports the controller holds (wr_ctl.tx_held) stay paused.
 */
static void
pause_tx(struct wr_run *run)
{
	uint64_t paused = __atomic_load_n(&run->live.ctl.tx_held, __ATOMIC_RELAXED);
	unsigned int p;

	for (p = 0; p < run->setup.nb_ports; p++)
		if (!run->live.link[p].up && run->live.link[p].nb_down != 0)
			paused |= UINT64_C(1) << p;
	if (paused != run->live.ctl.tx_paused)
		__atomic_store_n(&run->live.ctl.tx_paused, paused, __ATOMIC_RELAXED);
}

void
wr_collect_ports(struct wr_run *run, struct wr_port_counters *out)
{
	uint64_t now = rte_rdtsc();
	bool nic_due = now - run->live.nic_read_tsc >= run->setup.tsc_hz;
	unsigned int p;

	for (p = 0; p < run->setup.nb_ports; p++) {
		collect_queues(run, p, &out[p]);
		if (nic_due) {
			read_nic(run->setup.ports[p].port_id, &run->live.nic[p]);
			/* Link state with the NIC counters: a vmxnet3 read is a trip. */
			wr_link_watch_update(&run->live.link[p],
				wr_collect_link_up(run->setup.ports[p].port_id), now);
		}
		copy_nic(&out[p], &run->live.nic[p]);
	}
	if (nic_due) {
		run->live.nic_read_tsc = now;
		pause_tx(run);
	}
}

static struct wr_interval *
new_interval(struct wr_run *run)
{
	struct wr_interval *iv;

	if (run->live.intervals == NULL)
		run->live.intervals = calloc(WR_RUN_KEEP_INTERVALS, sizeof(*iv));
	if (run->live.intervals == NULL)
		return NULL;
	/* The ring's slot: its arrays made on first use, then reused. */
	iv = &run->live.intervals[run->live.nb_intervals % WR_RUN_KEEP_INTERVALS];
	if (iv->port == NULL)
		iv->port = calloc(run->setup.nb_ports, sizeof(*iv->port));
	if (iv->port == NULL)
		return NULL;
	memset(iv->port, 0, run->setup.nb_ports * sizeof(*iv->port));
	run->live.nb_intervals++;
	return iv;
}

const struct wr_txq *
wr_collect_sender_of(const struct wr_run *run, unsigned int sid)
{
	const struct wr_txq *tq;
	unsigned int i;

	WR_RUN_FOREACH_TXQ(run, i, tq)
		if (wr_port_stream_id(tq->port, tq->queue) == sid)
			return tq;
	return NULL;
}

uint64_t
wr_collect_txq_sent(const struct wr_run *run, const struct wr_txq *tq)
{
	const struct wr_txq *t;
	unsigned int i;

	WR_RUN_FOREACH_TXQ(run, i, t)
		if (t == tq)
			return run->live.txq_sent_pkts[i];
	return 0;
}

const struct wr_rx_stream *
wr_collect_rxq_stream(const struct wr_run *run, const struct wr_rxq *rq, unsigned int sid,
		bool live)
{
	const struct wr_rxq_pub *pb;
	unsigned int i;

	if (!live)
		return rq->streams[sid].seq.started ? &rq->streams[sid] : NULL;
	pb = &rq->pub[run->live.ctl.pub_req & 1];
	for (i = 0; i < pb->nb_streams; i++)
		if (pb->sid[i] == sid)
			return &pb->streams[i];
	return NULL;
}

/*
 * Add what the RX queues of port index p saw of stream sid to v (RSS
 * spreads a stream over queues; a LAG or ECMP over ports). Returns whether
 * any queue of p saw it.
 */
static bool
merge_stream(const struct wr_run *run, unsigned int p, unsigned int sid,
		bool live, struct wr_stream_view *v)
{
	const struct wr_rxq *rq;
	bool seen = false;
	unsigned int q;

	WR_RUN_FOREACH_RXQ_OF(run, p, q, rq) {
		const struct wr_rx_stream *s = wr_collect_rxq_stream(run, rq, sid, live);
		double j;

		if (s == NULL)
			continue;
		wr_seq_merge(&v->seq, &s->seq);
		v->nb_lat += s->nb_lat;
		v->lat_sum_tsc += s->lat_sum_tsc;
		v->lat_sum_hi += s->lat_sum_hi + (v->lat_sum_tsc < s->lat_sum_tsc);
		v->lat_min_tsc = RTE_MIN(v->lat_min_tsc, s->lat_min_tsc);
		v->lat_max_tsc = RTE_MAX(v->lat_max_tsc, s->lat_max_tsc);
		j = wr_jitter_value(&s->jitter);
		if (j > v->jitter_tsc)
			v->jitter_tsc = j;
		seen = true;
	}
	return seen;
}

/*
 * Loss of a stream, clamped at zero, and its excess: unique frames counted
 * beyond what was sent (duplicates older than the sequence window, a
 * duplicate of sequence 0, another sender on the same stream id). A
 * negative loss never cancels another stream's real loss.
 */
static void
set_loss(struct wr_stream_result *r, int64_t signed_lost)
{
	r->lost_pkts = signed_lost > 0 ? signed_lost : 0;
	r->excess_pkts = signed_lost < 0 ? (uint64_t)-signed_lost : 0;
}

static void
fill_result(const struct wr_run *run, struct wr_stream_result *r,
		unsigned int sid, uint16_t rx_port)
{
	const struct wr_txq *tq = wr_collect_sender_of(run, sid);

	r->stream_id = (uint16_t)sid;
	r->tx_port = (uint16_t)(sid / WR_MAX_QUEUES);
	r->tx_queue = (uint16_t)(sid % WR_MAX_QUEUES);
	r->rx_port = rx_port;
	r->sender_known = tq != NULL;
	r->lat_valid = wr_run_lat_valid(run, r->sender_known) && r->view.nb_lat > 0;
	if (tq != NULL) {
		r->sent_pkts = wr_txq_stream_pkts(tq, wr_collect_txq_sent(run, tq));
		set_loss(r, wr_seq_lost(&r->view.seq, r->sent_pkts));
	} else {
		set_loss(r, (int64_t)wr_seq_gaps(&r->view.seq));
	}
}

static struct wr_stream_result *
add_result(struct wr_run *run, unsigned int *cap)
{
	if (run->res.nb_streams == *cap) {
		unsigned int n = *cap ? 2 * *cap : 16;
		struct wr_stream_result *b = realloc(run->res.streams, n * sizeof(*b));

		if (b == NULL)
			return NULL;
		run->res.streams = b;
		*cap = n;
	}
	memset(&run->res.streams[run->res.nb_streams], 0, sizeof(run->res.streams[0]));
	return &run->res.streams[run->res.nb_streams++];
}

/* Streams this run sent that no RX port saw: all of them lost. */
static void
add_unseen(struct wr_run *run, const bool *seen, bool any_rx, unsigned int *cap)
{
	const struct wr_txq *tq;
	struct wr_stream_result *r;
	unsigned int i;

	if (!any_rx)
		return;
	WR_RUN_FOREACH_TXQ(run, i, tq) {
		unsigned int sid = wr_port_stream_id(tq->port, tq->queue);

		/* Replayed frames carry no test header (but with
		 * --replay-stamp): not a stream. */
		if (seen[sid] || (tq->replay != NULL && tq->replay->stamp == NULL))
			continue;
		r = add_result(run, cap);
		if (r == NULL)
			return;
		wr_stats_view_init(&r->view);
		fill_result(run, r, sid, run->setup.ports[tq->pidx].peer);
	}
}

/*
 * Stream sid as received by every RX port from index p on, accounted once:
 * received is the sum over the ports (a DUT may spread one stream over a
 * LAG), lost is sent - that sum; each port's share is kept in rx_split.
 * Returns false when no port saw it.
 */
static bool
view_all_ports(const struct wr_run *run, unsigned int p, unsigned int sid,
		bool live, struct wr_stream_result *r)
{
	uint64_t before;

	wr_stats_view_init(&r->view);
	r->nb_rx_ports = 0;
	for (; p < run->setup.nb_ports; p++) {
		before = r->view.seq.nb_rx_pkts;
		if (!run->setup.ports[p].rx || !merge_stream(run, p, sid, live, &r->view))
			continue;
		r->rx_split[r->nb_rx_ports].port_id = run->setup.ports[p].port_id;
		r->rx_split[r->nb_rx_ports].rx_pkts = r->view.seq.nb_rx_pkts - before;
		r->nb_rx_ports++;
	}
	return r->nb_rx_ports > 0;
}

/*
 * run->res.streams from the trackers (live false: the workers returned) or
 * from the copies published for the last tick (live), replacing what it
 * held.
 */
static void
collect_streams(struct wr_run *run, bool live)
{
	static bool seen[WR_MAX_STREAMS];
	struct wr_stream_result *r;
	unsigned int p, sid, cap = 0;
	bool any_rx = false;

	free(run->res.streams);
	run->res.streams = NULL;
	run->res.nb_streams = 0;
	memset(seen, 0, sizeof(seen));
	for (p = 0; p < run->setup.nb_ports; p++) {
		if (!run->setup.ports[p].rx)
			continue;
		any_rx = true;
		for (sid = 0; sid < WR_MAX_STREAMS; sid++) {
			if (seen[sid])
				continue;
			r = add_result(run, &cap);
			if (r == NULL)
				return;
			if (!view_all_ports(run, p, sid, live, r)) {
				run->res.nb_streams--;
				continue;
			}
			/* The first port that received it, not the first searched. */
			fill_result(run, r, sid, r->rx_split[0].port_id);
			seen[sid] = true;
		}
	}
	add_unseen(run, seen, any_rx, &cap);
}

/* A port's latency is reported when every stream it saw qualifies. */
static void
port_lat_validity(struct wr_run *run)
{
	unsigned int p, i;

	for (p = 0; p < run->setup.nb_ports; p++)
		run->res.port_lat_valid[p] = wr_run_lat_possible(run);
	for (i = 0; i < run->res.nb_streams; i++) {
		const struct wr_stream_result *s = &run->res.streams[i];

		unsigned int k;

		if (s->view.nb_lat == 0 || wr_run_lat_valid(run, s->sender_known))
			continue;
		for (p = 0; p < run->setup.nb_ports; p++)
			for (k = 0; k < s->nb_rx_ports; k++)
				if (run->setup.ports[p].port_id == s->rx_split[k].port_id)
					run->res.port_lat_valid[p] = false;
	}
}

void
wr_collect_final(struct wr_run *run)
{
	unsigned int p;

	for (p = 0; p < run->setup.nb_ports; p++) {
		collect_queues(run, p, &run->res.total[p]);
		read_nic(run->setup.ports[p].port_id, &run->live.nic[p]);
		copy_nic(&run->res.total[p], &run->live.nic[p]);
		wr_link_watch_update(&run->live.link[p],
			wr_collect_link_up(run->setup.ports[p].port_id), run->live.end_tsc);
	}
	if (run->live.cpu != NULL)
		wr_cpu_track_final(run);
	collect_streams(run, false);
	port_lat_validity(run);
	wr_xcheck_run(run);
	wr_rxpub_warnings(run, &run->res.xcheck);
}

bool
wr_run_checkpoint_due(const struct wr_run *run, uint64_t now_tsc)
{
	uint64_t last = RTE_MAX(run->live.ckpt_tsc, run->live.start_tsc);
	/* Checkpoints come at ticks, which wander: half an interval of slack. */
	uint64_t slack = run->setup.cfg->interval_ms / 2 * (run->setup.tsc_hz / 1000);

	return run->setup.cfg->json_path[0] != '\0' && run->setup.cfg->checkpoint_ms != 0 &&
		now_tsc + slack - last >= run->setup.cfg->checkpoint_ms * (run->setup.tsc_hz / 1000);
}

const struct wr_interval *
wr_run_tick(struct wr_run *run)
{
	struct wr_interval *iv = new_interval(run);
	uint64_t now;
	unsigned int p;
	bool fresh;

	if (iv == NULL)
		return NULL;
	if (run->live.pubread == NULL)
		run->live.pubread = calloc(1, sizeof(*run->live.pubread));
	fresh = run->live.pubread != NULL && wr_rxpub_request(run);
	now = rte_rdtsc();
	wr_collect_ports(run, run->res.total);
	for (p = 0; p < run->setup.nb_ports; p++) {
		iv->port[p].cnt = run->res.total[p];
		wr_stats_rates(&run->live.last[p], &run->res.total[p], now - run->live.last_tsc,
			run->setup.tsc_hz, &iv->port[p].rates);
		run->live.last[p] = run->res.total[p];
		wr_rxpub_port_seq(run, p, fresh, &iv->port[p].seq);
	}
	run->live.ckpt_ready = fresh && wr_run_checkpoint_due(run, now);
	if (run->live.ckpt_ready)
		run->live.ckpt_tsc = now;
	/* Per-stream figures live (view, telemetry) when streams are defined. */
	if (run->live.ckpt_ready || (fresh && run->setup.cfg->nb_stream_defs > 0))
		collect_streams(run, true);
	wr_cpu_track_tick(run, iv);
	iv->t_s = wr_run_seconds(run, run->live.start_tsc, now);
	iv->dt_s = wr_run_seconds(run, run->live.last_tsc, now);
	run->live.last_tsc = now;
	wr_telemetry_publish(run, iv, WR_SNAP_RUNNING);
	return iv;
}

void
wr_collect_free_series(struct wr_run *run)
{
	unsigned int i;

	for (i = 0; run->live.intervals != NULL && i < WR_RUN_KEEP_INTERVALS; i++) {
		free(run->live.intervals[i].port);
		free(run->live.intervals[i].lcore);
	}
	free(run->live.intervals);
	run->live.intervals = NULL;
	run->live.nb_intervals = 0;
}

void
wr_collect_lat(const struct wr_run *run, unsigned int p, struct wr_hist *h)
{
	const struct wr_rxq *rq;
	unsigned int i;

	WR_RUN_FOREACH_RXQ(run, i, rq)
		if (p == WR_COLLECT_LAT_VALID ? run->res.port_lat_valid[rq->pidx] :
				rq->pidx == p)
			wr_rxq_lat_final(h, rq);
}

uint64_t
wr_collect_tx_sent(const struct wr_run *run)
{
	const struct wr_txq *tq;
	uint64_t sum = 0;
	unsigned int i;

	WR_RUN_FOREACH_TXQ(run, i, tq)
		sum += wr_counter_read(&tq->st.nb_pkts);
	return sum;
}

void
wr_collect_rx_seen(const struct wr_run *run, uint64_t *all, uint64_t *own)
{
	const struct wr_rxq *rq;
	unsigned int i;

	*all = 0;
	*own = 0;
	WR_RUN_FOREACH_RXQ(run, i, rq) {
		*all += wr_counter_read(&rq->st.nb_pkts);
		*own += wr_counter_read(&rq->st.nb_own_pkts);
	}
}
