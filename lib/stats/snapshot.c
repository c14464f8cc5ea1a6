/* SPDX-License-Identifier: BSD-3-Clause */
#include <string.h>

#include <rte_cycles.h>

#include "base/counter.h"
#include "collect.h"
#include "cputrack.h"
#include "snapshot.h"

/* Once the workers returned: percentiles, and what the streams account. */
static void
final_figures(const struct wr_run *run, unsigned int p, struct wr_snap_port *sp)
{
	static struct wr_hist h;   /* large; the stats core is the only caller */
	unsigned int i;

	wr_hist_init(&h);
	wr_collect_lat(run, p, &h);
	wr_stats_lat_figs(&h, run->setup.tsc_hz, &sp->lat);
	sp->lat_sum_ns = wr_stats_tsc_to_ns((double)h.sum_hi * 0x1p64 + (double)h.sum,
		run->setup.tsc_hz);
	sp->gap_pkts = sp->late_pkts = sp->dup_pkts = 0;
	for (i = 0; i < run->res.nb_streams; i++) {
		const struct wr_stream_result *r = &run->res.streams[i];

		if (r->rx_port != sp->port_id)
			continue;
		if (r->lost_pkts > 0)
			sp->lost_pkts += (uint64_t)r->lost_pkts;
		sp->gap_pkts += wr_seq_gaps(&r->view.seq);
		sp->late_pkts += r->view.seq.nb_late_pkts;
		sp->dup_pkts += r->view.seq.nb_dup_pkts;
	}
}

/* Interval figures: rates, sequence counts, latency, CPU cost per frame;
 * without a new interval the previous snapshot's figures stand. */
static void
interval_figures(unsigned int p, const struct wr_interval *iv,
		const struct wr_snap_port *old, struct wr_snap_port *sp)
{
	if (iv != NULL) {
		const struct wr_port_seq *q = &iv->port[p].seq;

		sp->rates = iv->port[p].rates;
		wr_cpu_port_cost(&iv->port[p].cpu, &sp->tsc_per_pkt, &sp->tsc_per_byte);
		sp->gap_pkts = q->gap_pkts;
		sp->late_pkts = q->late_pkts;
		sp->dup_pkts = q->dup_pkts;
		sp->lat = q->lat;
		sp->lat_sum_ns = q->lat_sum_ns;
	} else if (old != NULL) {
		sp->rates = old->rates;
		sp->tsc_per_pkt = old->tsc_per_pkt;
		sp->tsc_per_byte = old->tsc_per_byte;
		sp->gap_pkts = old->gap_pkts;
		sp->late_pkts = old->late_pkts;
		sp->dup_pkts = old->dup_pkts;
		sp->lat = old->lat;
		sp->lat_sum_ns = old->lat_sum_ns;
	}
}

/* Latency means something only on a shared clock (--latency, run.h). */
static bool
latency_valid(const struct wr_run *run, unsigned int p, enum wr_snap_state st)
{
	const struct wr_port *port = &run->setup.ports[p];
	unsigned int peer = wr_run_port_index(run, port->peer);

	if (st == WR_SNAP_DONE)
		return run->res.port_lat_valid[p];
	return wr_run_lat_valid(run, peer < run->setup.nb_ports && run->setup.ports[peer].tx);
}

static void
no_latency(struct wr_snap_port *sp)
{
	memset(&sp->lat, 0, sizeof(sp->lat));
	sp->lat_sum_ns = 0;
}

static void
build_port(struct wr_snap *s, const struct wr_run *run, unsigned int p,
		const struct wr_interval *iv, const struct wr_snap *prev)
{
	struct wr_snap_port *sp = &s->port[p];
	const struct wr_port *port = &run->setup.ports[p];
	unsigned int peer = wr_run_port_index(run, port->peer);

	memset(sp, 0, sizeof(*sp));
	sp->port_id = port->port_id;
	sp->peer_id = port->peer;
	sp->cnt = run->res.total[p];
	if (port->rx && peer < run->setup.nb_ports && run->setup.ports[peer].tx &&
			run->res.total[peer].tx_pkts > sp->cnt.rx_own_pkts)
		sp->missing_pkts = run->res.total[peer].tx_pkts - sp->cnt.rx_own_pkts;
	if (run->live.cpu != NULL)
		sp->cpu = run->live.cpu->port[p];
	interval_figures(p, iv, prev != NULL ? &prev->port[p] : NULL, sp);
	if (s->state == WR_SNAP_DONE) {
		struct wr_port_counters zero;

		memset(&zero, 0, sizeof(zero));
		wr_stats_rates(&zero, &sp->cnt, run->live.tx_stop_tsc - run->live.start_tsc,
			run->setup.tsc_hz, &sp->rates);
		final_figures(run, p, sp);
	}
	if (!latency_valid(run, p, s->state))
		no_latency(sp);
}

static void
build_lcores(struct wr_snap *s, const struct wr_run *run,
		const struct wr_interval *iv, const struct wr_snap *prev)
{
	unsigned int i;

	s->nb_lcores = run->live.cpu != NULL ? run->live.cpu->nb_workers : 0;
	for (i = 0; i < s->nb_lcores; i++) {
		struct wr_snap_lcore *sl = &s->lcore[i];

		sl->lcore = run->setup.plan.w[i].lcore;
		sl->cnt = run->live.cpu->lcore[i];
		if (iv != NULL && iv->lcore != NULL)
			sl->cost = iv->lcore[i];
		else if (prev != NULL)
			sl->cost = prev->lcore[i].cost;
		else
			memset(&sl->cost, 0, sizeof(sl->cost));
	}
}

void
wr_snap_build(struct wr_snap *s, const struct wr_run *run,
		const struct wr_interval *iv, enum wr_snap_state state,
		const struct wr_snap *prev)
{
	uint64_t until = run->live.stopped ? run->live.tx_stop_tsc : rte_rdtsc();
	unsigned int p;

	s->run_id = run->live.start_tsc;
	s->state = state;
	s->stop_reason = run->res.stop_reason;
	s->tsc_hz = run->setup.tsc_hz;
	s->elapsed_ms = (uint64_t)(wr_run_seconds(run, run->live.start_tsc, until) * 1e3);
	s->trial = run->live.nb_trials;
	s->duration_ms = run->live.trial.duration_ms;
	s->count_pkts = run->live.trial.count_pkts;
	s->interval_ms = run->setup.cfg->interval_ms;
	s->nb_intervals = run->live.nb_intervals;
	s->frame_size = run->live.trial.frame_size;
	s->nb_ports = run->setup.nb_ports;
	for (p = 0; p < run->setup.nb_ports; p++)
		build_port(s, run, p, iv, prev);
	build_lcores(s, run, iv, prev);
	s->nb_streams = wr_snap_streams(run, s->stream, RTE_DIM(s->stream));
	wr_snap_conn(s, run, prev);
}
