/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>

#include "collect.h"
#include "counter.h"
#include "cputrack.h"
#include "telemetry.h"
#include "xcheck.h"

static void
add_txq(struct wr_port_counters *c, const struct wr_txq *q)
{
	uint64_t pkts = wr_counter_read(&q->st.nb_pkts);

	/* Fixed-size frames: bytes from the same read, so rates agree. */
	c->tx_pkts += pkts;
	c->tx_bytes += wr_txq_bytes(q, pkts);
	c->tx_full_pkts += wr_counter_read(&q->st.nb_full_pkts);
	c->tx_alloc_fail += wr_counter_read(&q->st.nb_alloc_fail);
	c->tx_unsent_pkts += wr_counter_read(&q->st.nb_unsent_pkts);
}

static void
add_rxq(struct wr_port_counters *c, const struct wr_rxq *q)
{
	c->rx_pkts += wr_counter_read(&q->st.nb_pkts);
	c->rx_bytes += wr_counter_read(&q->st.nb_bytes);
	c->rx_own_pkts += wr_counter_read(&q->st.nb_own_pkts);
	c->rx_foreign_pkts += wr_counter_read(&q->st.nb_foreign_pkts);
	c->rx_malformed_pkts += wr_counter_read(&q->st.nb_malformed_pkts);
	/* Reflected frames leave the port: they are its TX as well. */
	c->rx_reflected_pkts += wr_counter_read(&q->st.nb_reflected_pkts);
	c->rx_unreflected_pkts += wr_counter_read(&q->st.nb_unreflected_pkts);
	c->tx_pkts += wr_counter_read(&q->st.nb_reflected_pkts);
	c->tx_bytes += wr_counter_read(&q->st.nb_reflected_bytes);
}

/* Sum of the xstats a PMD names as drops or discards (vendor counters
 * the basic stats may not cover); 0 when it has none. */
static uint64_t
read_xstats_drops(uint16_t port_id)
{
	struct rte_eth_xstat_name *names = NULL;
	struct rte_eth_xstat *vals = NULL;
	uint64_t sum = 0;
	int i, n = rte_eth_xstats_get_names(port_id, NULL, 0);

	if (n <= 0)
		return 0;
	names = calloc((size_t)n, sizeof(*names));
	vals = calloc((size_t)n, sizeof(*vals));
	if (names != NULL && vals != NULL &&
			rte_eth_xstats_get_names(port_id, names, (unsigned int)n) == n &&
			rte_eth_xstats_get(port_id, vals, (unsigned int)n) == n)
		for (i = 0; i < n; i++)
			if (strstr(names[vals[i].id].name, "drop") != NULL ||
					strstr(names[vals[i].id].name, "discard") != NULL)
				sum += vals[i].value;
	free(names);
	free(vals);
	return sum;
}

/*
 * The PMD's own counts of port index p for the cross-checks: basic
 * counters, per-queue ones when they add up to them, drops.
 */
static void
xcheck_nic(const struct wr_run *run, unsigned int p, struct wr_xcheck_port *x)
{
	struct rte_eth_stats st;
	uint64_t sq_o = 0, sq_i = 0;
	unsigned int q;

	memset(&st, 0, sizeof(st));
	if (rte_eth_stats_get(run->ports[p].port_id, &st) != 0)
		return;
	x->nic_opackets = st.opackets;
	x->nic_ipackets = st.ipackets;
	x->nic_oerrors = st.oerrors;
	x->nic_rx_drops = st.imissed + st.ierrors + st.rx_nombuf +
		read_xstats_drops(run->ports[p].port_id);
	x->nic_counts = st.opackets + st.ipackets + st.oerrors + x->nic_rx_drops > 0 ||
		(x->own_tx == 0 && x->own_rx == 0);
	for (q = 0; q < WR_MAX_QUEUES && q < RTE_ETHDEV_QUEUE_STAT_CNTRS; q++) {
		x->nic_q_opackets[q] = st.q_opackets[q];
		x->nic_q_ipackets[q] = st.q_ipackets[q];
		sq_o += st.q_opackets[q];
		sq_i += st.q_ipackets[q];
	}
	x->nic_q_counts = sq_o + sq_i > 0 && sq_o == st.opackets && sq_i == st.ipackets &&
		run->ports[p].nb_txq <= RTE_ETHDEV_QUEUE_STAT_CNTRS &&
		run->ports[p].nb_rxq <= RTE_ETHDEV_QUEUE_STAT_CNTRS;
}

/* wirerate's own counts of port index p for the cross-checks. */
static void
xcheck_own(const struct wr_run *run, unsigned int p, struct wr_xcheck_port *x)
{
	unsigned int q, i, k;

	memset(x, 0, sizeof(*x));
	x->port_id = run->ports[p].port_id;
	x->nb_txq = run->ports[p].nb_txq;
	x->nb_rxq = run->ports[p].nb_rxq;
	for (q = 0; q < WR_MAX_QUEUES; q++) {
		const struct wr_txq *tq = run->txq[p][q];
		const struct wr_rxq *rq = run->rxq[p][q];
		const struct wr_impair_q *iq = run->impair[p][q];

		if (tq != NULL)
			x->own_txq[q] += tq->st.nb_pkts;
		if (rq != NULL) {
			x->own_rxq[q] = rq->st.nb_pkts;
			/* A reflector sends on the TX queue paired with q. */
			x->own_txq[q] += rq->st.nb_reflected_pkts;
		}
		if (iq != NULL) {
			x->impair_removed += iq->nb_dropped + iq->nb_policed;
			x->impair_added += iq->nb_duplicated;
		}
		x->own_tx += x->own_txq[q];
		x->own_rx += x->own_rxq[q];
	}
	x->tx = run->ports[p].tx || x->own_tx > 0;
	x->rx = run->ports[p].rx;
	for (i = 0; i < run->nb_streams; i++)
		for (k = 0; k < run->streams[i].nb_rx_ports; k++)
			if (run->streams[i].rx_split[k].port_id == x->port_id)
				x->lost += (uint64_t)run->streams[i].lost_pkts;
}

static void
cross_checks(struct wr_run *run)
{
	struct wr_xcheck_port x;
	unsigned int p;

	wr_xcheck_init(&run->xcheck);
	for (p = 0; p < run->nb_ports; p++) {
		xcheck_own(run, p, &x);
		xcheck_nic(run, p, &x);
		wr_xcheck_port(&run->xcheck, &x);
	}
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

/* Our own counters of port index p. */
static void
collect_queues(const struct wr_run *run, unsigned int p, struct wr_port_counters *c)
{
	unsigned int q;

	memset(c, 0, sizeof(*c));
	for (q = 0; q < WR_MAX_QUEUES; q++) {
		if (run->txq[p][q] != NULL)
			add_txq(c, run->txq[p][q]);
		if (run->rxq[p][q] != NULL)
			add_rxq(c, run->rxq[p][q]);
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

void
wr_collect_ports(struct wr_run *run, struct wr_port_counters *out)
{
	uint64_t now = rte_rdtsc();
	bool nic_due = now - run->nic_read_tsc >= run->tsc_hz;
	unsigned int p;

	for (p = 0; p < run->nb_ports; p++) {
		collect_queues(run, p, &out[p]);
		if (nic_due) {
			read_nic(run->ports[p].port_id, &run->nic[p]);
			/* Link state with the NIC counters: a vmxnet3 read is a trip. */
			wr_link_watch_update(&run->link[p],
				wr_collect_link_up(run->ports[p].port_id), now);
		}
		copy_nic(&out[p], &run->nic[p]);
	}
	if (nic_due)
		run->nic_read_tsc = now;
}

static struct wr_interval *
new_interval(struct wr_run *run)
{
	struct wr_interval *iv;

	if (run->nb_intervals == run->max_intervals) {
		unsigned int n = run->max_intervals ? 2 * run->max_intervals : 64;
		struct wr_interval *bigger = realloc(run->intervals, n * sizeof(*bigger));

		if (bigger == NULL)
			return NULL;
		run->intervals = bigger;
		run->max_intervals = n;
	}
	iv = &run->intervals[run->nb_intervals];
	iv->port = calloc(run->nb_ports, sizeof(*iv->port));
	iv->lcore = NULL;
	if (iv->port == NULL)
		return NULL;
	run->nb_intervals++;
	return iv;
}

/* The TX queue of this run that sends stream sid, or NULL. */
static const struct wr_txq *
sender_of(const struct wr_run *run, unsigned int sid)
{
	unsigned int port = sid / WR_MAX_QUEUES, q = sid % WR_MAX_QUEUES, p;

	for (p = 0; p < run->nb_ports; p++)
		if (run->ports[p].port_id == port)
			return run->txq[p][q];
	return NULL;
}

/* Longest the stats core waits for the workers' copies (worker.h). */
#define PUB_WAIT_MS 200u

/*
 * Ask every generating worker for a stable copy of its RX state (the
 * publish rule, struct wr_rxq_pub) and wait until each RX queue served
 * the request. Returns false when none can come (not running) or some
 * worker did not answer within PUB_WAIT_MS (a stalled CPU): the copies
 * must not be read then.
 */
static bool
publish_request(struct wr_run *run)
{
	uint64_t req, deadline;
	unsigned int i, j, nap_us = 10;

	if (!run->launched || __atomic_load_n(&run->ctl.rx_stop, __ATOMIC_RELAXED))
		return false;
	req = run->ctl.pub_req + 1;
	__atomic_store_n(&run->ctl.pub_req, req, __ATOMIC_RELEASE);
	deadline = rte_rdtsc() + run->tsc_hz / 1000 * PUB_WAIT_MS;
	for (i = 0; i < run->plan.nb_workers; i++) {
		const struct wr_worker *w = run->workers[i];

		if (w == NULL || w->mode != WR_WORKER_GEN)
			continue;
		for (j = 0; j < w->nb_rx; j++) {
			while (__atomic_load_n(&w->rx[j]->pub_done, __ATOMIC_ACQUIRE) != req) {
				if (rte_rdtsc() > deadline)
					return false;
				/* A worker answers within a loop iteration unless
				 * descheduled: back off rather than spin. */
				rte_delay_us_sleep(nap_us);
				nap_us = RTE_MIN(2 * nap_us, 1000u);
			}
		}
	}
	return true;
}

/* Sequence counts of port index p's published stream copies into out. */
static void
pub_seq(const struct wr_run *run, unsigned int p, struct wr_port_seq *out,
		bool *lat_ok)
{
	unsigned int q, i;

	for (q = 0; q < WR_MAX_QUEUES; q++) {
		const struct wr_rxq *rq = run->rxq[p][q];
		const struct wr_rxq_pub *pb;

		if (rq == NULL)
			continue;
		pb = &rq->pub[run->ctl.pub_req & 1];
		for (i = 0; i < pb->nb_streams; i++) {
			const struct wr_seq *sq = &pb->streams[i].seq;

			if (!wr_run_lat_valid(run, sender_of(run, pb->sid[i]) != NULL))
				*lat_ok = false;
			out->gap_pkts += wr_seq_gaps(sq);
			out->late_pkts += sq->nb_late_pkts;
			out->dup_pkts += sq->nb_dup_pkts;
		}
	}
}

/*
 * Latency of port index p over the interval: its queues' copies merged
 * (cumulative), less the previous copy's counts and sum; min and max the
 * exact extremes the workers kept since their previous copy.
 */
static void
pub_latency(struct wr_run *run, unsigned int p, struct wr_port_seq *out)
{
	static struct wr_hist now, ivl;   /* large; the stats core only */
	struct wr_hist *prev = &run->lat_prev[p];
	uint64_t lo = UINT64_MAX, hi = 0;
	unsigned int q;

	wr_hist_init(&now);
	for (q = 0; q < WR_MAX_QUEUES; q++) {
		const struct wr_rxq *rq = run->rxq[p][q];
		const struct wr_rxq_pub *pb;

		if (rq == NULL)
			continue;
		pb = &rq->pub[run->ctl.pub_req & 1];
		wr_rxq_lat_pub(&now, pb);
		lo = RTE_MIN(lo, pb->ivl_min_tsc);
		hi = RTE_MAX(hi, pb->ivl_max_tsc);
	}
	wr_hist_delta(&now, prev, lo, hi, &ivl);
	ivl.sum = now.sum - prev->sum;
	ivl.sum_hi = now.sum_hi - prev->sum_hi - (now.sum < prev->sum);
	wr_stats_lat_figs(&ivl, run->tsc_hz, &out->lat);
	wr_stats_lat_figs(&now, run->tsc_hz, &out->lat_run);
	out->lat_sum_ns = wr_stats_tsc_to_ns((double)now.sum_hi * 0x1p64 +
		(double)now.sum, run->tsc_hz);
	*prev = now;
}

/*
 * Sequence and latency figures of port index p from the copies its RX
 * queues published for this tick (fresh); without fresh copies the
 * sequence counts of the previous interval stand and latency is unknown.
 */
static void
collect_seq(struct wr_run *run, unsigned int p, bool fresh, struct wr_port_seq *out)
{
	bool lat_ok = true;

	memset(out, 0, sizeof(*out));
	if (!fresh) {
		if (run->nb_intervals >= 2)
			*out = run->intervals[run->nb_intervals - 2].port[p].seq;
		out->known = false;
		memset(&out->lat, 0, sizeof(out->lat));
		memset(&out->lat_run, 0, sizeof(out->lat_run));
		return;
	}
	out->known = true;
	pub_seq(run, p, out, &lat_ok);
	pub_latency(run, p, out);
	if (!lat_ok) {
		memset(&out->lat, 0, sizeof(out->lat));
		memset(&out->lat_run, 0, sizeof(out->lat_run));
		out->lat_sum_ns = 0;
	}
}

/*
 * Stream sid as queue rq saw it, or NULL: its tracker once the workers
 * returned (live false), else its entry in the copy published for the
 * last tick (struct wr_rxq_pub).
 */
static const struct wr_rx_stream *
rxq_stream(const struct wr_run *run, const struct wr_rxq *rq, unsigned int sid,
		bool live)
{
	const struct wr_rxq_pub *pb;
	unsigned int i;

	if (!live)
		return rq->streams[sid].seq.started ? &rq->streams[sid] : NULL;
	pb = &rq->pub[run->ctl.pub_req & 1];
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
	bool seen = false;
	unsigned int q;

	for (q = 0; q < WR_MAX_QUEUES; q++) {
		const struct wr_rx_stream *s;
		double j;

		if (run->rxq[p][q] == NULL)
			continue;
		s = rxq_stream(run, run->rxq[p][q], sid, live);
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
	const struct wr_txq *tq = sender_of(run, sid);

	r->stream_id = (uint16_t)sid;
	r->tx_port = (uint16_t)(sid / WR_MAX_QUEUES);
	r->tx_queue = (uint16_t)(sid % WR_MAX_QUEUES);
	r->rx_port = rx_port;
	r->sender_known = tq != NULL;
	r->lat_valid = wr_run_lat_valid(run, r->sender_known) && r->view.nb_lat > 0;
	if (tq != NULL) {
		r->sent_pkts = wr_counter_read(&tq->st.nb_pkts);
		set_loss(r, wr_seq_lost(&r->view.seq, r->sent_pkts));
	} else {
		set_loss(r, (int64_t)wr_seq_gaps(&r->view.seq));
	}
}

static struct wr_stream_result *
add_result(struct wr_run *run, unsigned int *cap)
{
	if (run->nb_streams == *cap) {
		unsigned int n = *cap ? 2 * *cap : 16;
		struct wr_stream_result *b = realloc(run->streams, n * sizeof(*b));

		if (b == NULL)
			return NULL;
		run->streams = b;
		*cap = n;
	}
	memset(&run->streams[run->nb_streams], 0, sizeof(run->streams[0]));
	return &run->streams[run->nb_streams++];
}

/* Streams this run sent that no RX port saw: all of them lost. */
static void
add_unseen(struct wr_run *run, const bool *seen, bool any_rx, unsigned int *cap)
{
	struct wr_stream_result *r;
	unsigned int p, q;

	if (!any_rx)
		return;
	for (p = 0; p < run->nb_ports; p++) {
		for (q = 0; q < WR_MAX_QUEUES; q++) {
			unsigned int sid = wr_port_stream_id(run->ports[p].port_id, (uint16_t)q);

			if (run->txq[p][q] == NULL || seen[sid])
				continue;
			r = add_result(run, cap);
			if (r == NULL)
				return;
			wr_stats_view_init(&r->view);
			fill_result(run, r, sid, run->ports[p].peer);
		}
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
	for (; p < run->nb_ports; p++) {
		before = r->view.seq.nb_rx_pkts;
		if (!run->ports[p].rx || !merge_stream(run, p, sid, live, &r->view))
			continue;
		r->rx_split[r->nb_rx_ports].port_id = run->ports[p].port_id;
		r->rx_split[r->nb_rx_ports].rx_pkts = r->view.seq.nb_rx_pkts - before;
		r->nb_rx_ports++;
	}
	return r->nb_rx_ports > 0;
}

/*
 * run->streams from the trackers (live false: the workers returned) or
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

	free(run->streams);
	run->streams = NULL;
	run->nb_streams = 0;
	memset(seen, 0, sizeof(seen));
	for (p = 0; p < run->nb_ports; p++) {
		if (!run->ports[p].rx)
			continue;
		any_rx = true;
		for (sid = 0; sid < WR_MAX_STREAMS; sid++) {
			if (seen[sid])
				continue;
			r = add_result(run, &cap);
			if (r == NULL)
				return;
			if (!view_all_ports(run, p, sid, live, r)) {
				run->nb_streams--;
				continue;
			}
			fill_result(run, r, sid, run->ports[p].port_id);
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

	for (p = 0; p < run->nb_ports; p++)
		run->port_lat_valid[p] = run->cfg->lat_mode != WR_LAT_OFF;
	for (i = 0; i < run->nb_streams; i++) {
		const struct wr_stream_result *s = &run->streams[i];

		unsigned int k;

		if (s->view.nb_lat == 0 || wr_run_lat_valid(run, s->sender_known))
			continue;
		for (p = 0; p < run->nb_ports; p++)
			for (k = 0; k < s->nb_rx_ports; k++)
				if (run->ports[p].port_id == s->rx_split[k].port_id)
					run->port_lat_valid[p] = false;
	}
}

void
wr_collect_final(struct wr_run *run)
{
	unsigned int p;

	for (p = 0; p < run->nb_ports; p++) {
		collect_queues(run, p, &run->total[p]);
		read_nic(run->ports[p].port_id, &run->nic[p]);
		copy_nic(&run->total[p], &run->nic[p]);
		wr_link_watch_update(&run->link[p],
			wr_collect_link_up(run->ports[p].port_id), run->end_tsc);
	}
	if (run->cpu != NULL)
		wr_cpu_track_final(run);
	collect_streams(run, false);
	port_lat_validity(run);
	cross_checks(run);
}

bool
wr_run_checkpoint_due(const struct wr_run *run, uint64_t now_tsc)
{
	uint64_t last = RTE_MAX(run->ckpt_tsc, run->start_tsc);
	/* Checkpoints come at ticks, which wander: half an interval of slack. */
	uint64_t slack = run->cfg->interval_ms / 2 * (run->tsc_hz / 1000);

	return run->cfg->json_path[0] != '\0' && run->cfg->checkpoint_ms != 0 &&
		now_tsc + slack - last >= run->cfg->checkpoint_ms * (run->tsc_hz / 1000);
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
	if (run->lat_prev == NULL)
		run->lat_prev = calloc(WR_MAX_PORTS, sizeof(*run->lat_prev));
	fresh = run->lat_prev != NULL && publish_request(run);
	now = rte_rdtsc();
	wr_collect_ports(run, run->total);
	for (p = 0; p < run->nb_ports; p++) {
		iv->port[p].cnt = run->total[p];
		wr_stats_rates(&run->last[p], &run->total[p], now - run->last_tsc,
			run->tsc_hz, &iv->port[p].rates);
		run->last[p] = run->total[p];
		collect_seq(run, p, fresh, &iv->port[p].seq);
	}
	run->ckpt_ready = fresh && wr_run_checkpoint_due(run, now);
	if (run->ckpt_ready) {
		run->ckpt_tsc = now;
		collect_streams(run, true);
	}
	wr_cpu_track_tick(run, iv);
	iv->t_s = wr_run_seconds(run, run->start_tsc, now);
	iv->dt_s = wr_run_seconds(run, run->last_tsc, now);
	run->last_tsc = now;
	wr_telemetry_publish(run, iv, WR_SNAP_RUNNING);
	return iv;
}
