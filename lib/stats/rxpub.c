/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The stats core's side of the publishing rule for RX state (lib/datapath/worker.h,
 * struct wr_rxq_pub): ask for a stable copy once per interval, wait for it,
 * and turn the copies into a port's interval figures.
 */
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>

#include "collect.h"
#include "datapath/connworker.h"
#include "rxpub.h"

/* Longest the stats core waits for the workers' copies (worker.h). */
#define PUB_WAIT_MS 200u

bool
wr_rxpub_request(struct wr_run *run)
{
	uint64_t req, deadline;
	unsigned int i, j, nap_us = 10;

	if (!run->live.launched || __atomic_load_n(&run->live.ctl.rx_stop, __ATOMIC_RELAXED))
		return false;
	req = run->live.ctl.pub_req + 1;
	__atomic_store_n(&run->live.ctl.pub_req, req, __ATOMIC_RELEASE);
	deadline = rte_rdtsc() + run->setup.tsc_hz / 1000 * PUB_WAIT_MS;
	for (i = 0; i < run->setup.plan.nb_workers; i++) {
		const struct wr_worker *w = run->setup.workers[i];

		if (w == NULL || (w->mode != WR_WORKER_GEN && w->mode != WR_WORKER_CONN))
			continue;
		/* A connection worker publishes its engine's books instead. */
		for (j = 0; j < (w->mode == WR_WORKER_CONN ? 1u : w->nb_rx); j++) {
			while (__atomic_load_n(w->mode == WR_WORKER_CONN ?
					&w->conn->pub_done : &w->rx[j]->pub_done,
					__ATOMIC_ACQUIRE) != req) {
				if (rte_rdtsc() > deadline)
					return false;
				/* A worker answers within a loop iteration unless
				 * descheduled: back off rather than spin. */
				rte_delay_us_sleep(nap_us);
				nap_us = RTE_MIN(2 * nap_us, 1000u);
			}
		}
	}
	/* These copies are read this tick: the next ones may leave out what
	 * they hold (a copy not read keeps its extremes for the next). */
	__atomic_store_n(&run->live.ctl.pub_read, req, __ATOMIC_RELAXED);
	return true;
}

/* Whether an RX queue of port index p before queue index q published sid. */
static bool
pub_earlier(const struct wr_run *run, unsigned int p, unsigned int q, unsigned int sid)
{
	const struct wr_rxq *rq;
	unsigned int i;

	WR_RUN_FOREACH_RXQ_OF(run, p, i, rq) {
		if (i >= q)
			break;
		if (wr_collect_rxq_stream(run, rq, sid, true) != NULL)
			return true;
	}
	return false;
}

/*
 * Add to out the sequence counts of stream sid, its published views on
 * port index p's RX queues merged first, as the final totals are
 * (collect.c): RSS spreads one stream over the queues, so each queue alone
 * sees the frames of the others as gaps.
 */
static void
pub_stream_seq(const struct wr_run *run, unsigned int p, unsigned int sid,
		struct wr_port_seq *out)
{
	const struct wr_rxq *rq;
	struct wr_seq m;
	unsigned int q;

	wr_seq_init(&m);
	WR_RUN_FOREACH_RXQ_OF(run, p, q, rq) {
		const struct wr_rx_stream *st = wr_collect_rxq_stream(run, rq, sid, true);

		if (st != NULL)
			wr_seq_merge(&m, &st->seq);
	}
	out->gap_pkts += wr_seq_gaps(&m);
	out->late_pkts += m.nb_late_pkts;
	out->dup_pkts += m.nb_dup_pkts;
}

/*
 * Port index p's figures from the copies its RX queues published: sequence
 * counts (cumulative, each stream's queues merged; notes the streams a
 * queue left out in run->live.rx_unpub), latency of the interval (the
 * copies merged, less the previous ones; min and max the exact extremes
 * the workers kept since the copies last read) and of the run so far.
 */
static void
pub_port(struct wr_run *run, unsigned int p, struct wr_port_seq *out,
		bool *lat_ok)
{
	struct wr_run_pubread *rd = run->live.pubread;
	struct wr_hist *now = &rd->now, *prev = &rd->prev[p];
	uint64_t lo = UINT64_MAX, hi = 0;
	const struct wr_rxq *rq;
	unsigned int q, i;

	wr_hist_init(now);
	WR_RUN_FOREACH_RXQ_OF(run, p, q, rq) {
		const struct wr_rxq_pub *pb = &rq->pub[run->live.ctl.pub_req & 1];

		if (pb->nb_unpublished > run->live.rx_unpub[q])
			run->live.rx_unpub[q] = pb->nb_unpublished;
		for (i = 0; i < pb->nb_streams; i++) {
			if (!wr_run_lat_valid(run, wr_collect_sender_of(run, pb->sid[i]) != NULL))
				*lat_ok = false;
			if (!pub_earlier(run, p, q, pb->sid[i]))
				pub_stream_seq(run, p, pb->sid[i], out);
		}
		wr_rxq_lat_pub(now, pb);
		lo = RTE_MIN(lo, pb->ivl_min_tsc);
		hi = RTE_MAX(hi, pb->ivl_max_tsc);
	}
	wr_hist_delta(now, prev, lo, hi, &rd->ivl);
	rd->ivl.sum = now->sum - prev->sum;
	rd->ivl.sum_hi = now->sum_hi - prev->sum_hi - (now->sum < prev->sum);
	wr_stats_lat_figs(&rd->ivl, run->setup.tsc_hz, &out->lat);
	wr_stats_lat_figs(now, run->setup.tsc_hz, &out->lat_run);
	out->lat_sum_ns = wr_stats_tsc_to_ns((double)now->sum_hi * 0x1p64 +
		(double)now->sum, run->setup.tsc_hz);
	*prev = *now;
}

void
wr_rxpub_warnings(const struct wr_run *run, struct wr_xcheck *x)
{
	const struct wr_rxq *rq;
	unsigned int i;

	WR_RUN_FOREACH_RXQ(run, i, rq)
		if (run->live.rx_unpub[i] != 0)
			wr_xcheck_unpublished(x, rq->port, rq->queue,
				run->live.rx_unpub[i], WR_PUB_STREAMS);
}

void
wr_rxpub_port_seq(struct wr_run *run, unsigned int p, bool fresh,
		struct wr_port_seq *out)
{
	bool lat_ok = true;

	memset(out, 0, sizeof(*out));
	if (!fresh) {
		if (run->live.nb_intervals >= 2)
			*out = wr_run_interval(run, run->live.nb_intervals - 2)->port[p].seq;
		out->known = false;
		memset(&out->lat, 0, sizeof(out->lat));
		memset(&out->lat_run, 0, sizeof(out->lat_run));
		return;
	}
	out->known = true;
	pub_port(run, p, out, &lat_ok);
	if (!lat_ok) {
		memset(&out->lat, 0, sizeof(out->lat));
		memset(&out->lat_run, 0, sizeof(out->lat_run));
		out->lat_sum_ns = 0;
	}
}
