/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Trials: one traffic phase of a run. Ports stay set up between trials; a
 * trial picks the frame size (TX pools per size), the rate (pacers), the
 * count, and starts from fresh counters.
 */
#include <errno.h>
#include <math.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>

#include "base/error.h"
#include "datapath/capture.h"
#include "results/result.h"
#include "results/series.h"
#include "stats/cputrack.h"
#include "setup/svc.h"
#include "stats/rxclock.h"
#include "connrun.h"
#include "trial.h"
#include "txstall.h"

#define TICK_US 10000u
#define DRAIN_IDLE_POLLS 100u
#define DRAIN_MIN_MS 10u

void
wr_trial_from_config(const struct wr_config *cfg, struct wr_trial *t)
{
	memset(t, 0, sizeof(*t));
	t->frame_size = cfg->frame_size;
	t->rate = cfg->rate;
	t->count_pkts = cfg->count_pkts;
	t->duration_ms = cfg->duration_ms;
}

/*
 * The link speed a percentage rate is taken of: --link-speed, else the
 * reported speed of a physical NIC. Sets *bps and p->rate_link_bps.
 */
static int
rate_link_bps(struct wr_port *p, const struct wr_config *cfg,
		const struct wr_rate *rate, struct wr_error *err)
{
	if (cfg->link_speed_bps != 0) {
		p->rate_link_bps = cfg->link_speed_bps;
		return 0;
	}
	if (rate->unit != WR_RATE_PCT) {
		p->rate_link_bps = (uint64_t)p->link_speed_mbps * 1000000;
		return 0;
	}
	if (wr_run_speed_is_label(p) || p->link_speed_mbps == 0)
		return wr_err_usage(err, -EINVAL, "--rate %g%%: port %u (%s) reports %u "
			"Mb/s, a label on a virtual NIC: give the nominal speed with "
			"--link-speed (e.g. 10G)", rate->value, p->port_id,
			p->driver, p->link_speed_mbps);
	p->rate_link_bps = (uint64_t)p->link_speed_mbps * 1000000;
	return 0;
}

/*
 * Budget a stalled worker may catch up on: 10 ms of traffic, at least four
 * bursts, at most WR_RUN_PACE_MAX_BACKLOG frames. It leaves in bursts of at
 * most --burst; anything above the cap is dropped from the budget and
 * reported as clamped (the rate was not reached).
 */
uint32_t
wr_run_pace_backlog(double pps, uint16_t burst)
{
	double b = pps * WR_RUN_PACE_CATCHUP_S;

	if (b < 4.0 * burst)
		b = 4.0 * burst;
	if (b > WR_RUN_PACE_MAX_BACKLOG)
		b = WR_RUN_PACE_MAX_BACKLOG;
	return (uint32_t)b;
}

/* The --stream TX queue q carries, or NULL without --stream. */
static const struct wr_stream_def *
queue_stream(const struct wr_config *cfg, uint16_t queue)
{
	return cfg->nb_stream_defs != 0 ? &cfg->streams[queue] : NULL;
}

/*
 * Frames per second of TX queue q of port p: its stream's rate, else its
 * share of --rate (for a mix, from the mix's exact mean size).
 */
static int
queue_pps(struct wr_run *run, struct wr_port *p, const struct wr_txq *q,
		double *pps, struct wr_error *err)
{
	const struct wr_config *cfg = run->setup.cfg;
	const struct wr_stream_def *d = queue_stream(cfg, q->queue);
	const struct wr_rate *r = d != NULL && d->rate.unit != WR_RATE_NONE ?
		&d->rate : &run->live.trial.rate;
	double total;
	int rc = rate_link_bps(p, cfg, r, err);

	if (rc != 0)
		return rc;
	if (d != NULL && run->live.trial.stream_pps != NULL) {
		*pps = run->live.trial.stream_pps[q->queue];
		return 0;
	}
	if (d != NULL)
		rc = wr_stream_pps(d, &run->live.trial.rate, p->rate_link_bps, pps);
	else if (cfg->mix.nb_sizes != 0)
		rc = wr_mix_to_pps(&run->live.trial.rate, &cfg->mix, p->rate_link_bps, &total);
	else
		rc = wr_rate_to_pps(&run->live.trial.rate, run->live.trial.frame_size,
			p->rate_link_bps, &total);
	if (rc != 0)
		return wr_err_usage(err, -EINVAL, "--rate: cannot convert to frames per "
			"second for port %u", p->port_id);
	if (d == NULL)
		*pps = wr_pace_split(total, p->nb_txq, q->queue);
	return 0;
}

/* A burst or poisson pattern on TX queue q: its gate instead of the pacer. */
static int
setup_gate(struct wr_run *run, struct wr_port *p, struct wr_txq *q,
		const struct wr_pattern *pat, struct wr_error *err)
{
	double pps = wr_pattern_burst_pps(pat);
	int rc = 0;

	if (pat->kind == WR_PATTERN_POISSON)
		rc = queue_pps(run, p, q, &pps, err);
	if (rc != 0)
		return rc;
	if (wr_gate_init(&q->gate, pat, pps, run->setup.tsc_hz, q->burst_pkts,
			rte_rdtsc()) != 0)
		return wr_err_usage(err, -EINVAL, "--pattern: port %u queue %u: %.6g pps "
			"is outside what the gate can hold at a TSC of %" PRIu64 " Hz",
			p->port_id, q->queue, pps, run->setup.tsc_hz);
	q->gated = true;
	p->rate_pps += pps;
	return 0;
}

/* Pacing of TX queue q of port p: its stream's rate or its --rate share. */
static int
setup_pace(struct wr_run *run, struct wr_port *p, struct wr_txq *q,
		struct wr_error *err)
{
	const struct wr_stream_def *d = queue_stream(run->setup.cfg, q->queue);
	const struct wr_pattern *pat = d != NULL ? &d->pattern : &run->setup.cfg->pattern;
	double share;
	int rc;

	q->gated = false;
	if (run->live.trial.count_only)
		return 0;
	if (pat->kind != WR_PATTERN_CONSTANT)
		return setup_gate(run, p, q, pat, err);
	if (d == NULL && run->live.trial.rate.unit == WR_RATE_NONE)
		return 0;
	/* A stream this trial leaves out sends nothing (txq_configure). */
	if (d != NULL && run->live.trial.stream_pps != NULL &&
			run->live.trial.stream_pps[q->queue] <= 0.0)
		return 0;
	rc = queue_pps(run, p, q, &share, err);
	if (rc != 0 || isinf(share))
		return rc;
	q->pace_conf.pps = share;
	q->pace_conf.tsc_hz = run->setup.tsc_hz;
	q->pace_conf.max_burst = q->burst_pkts;
	q->pace_conf.max_backlog_pkts = wr_run_pace_backlog(share, q->burst_pkts);
	if (share <= 0.0 || wr_pace_init(&q->pace, &q->pace_conf, rte_rdtsc()) != 0)
		return wr_err_usage(err, -EINVAL, "--rate: %.6g pps per queue on port %u "
			"(%u queues) is outside what the pacer can hold at a TSC of "
			"%" PRIu64 " Hz", share, p->port_id, p->nb_txq, run->setup.tsc_hz);
	q->paced = true;
	p->rate_pps += wr_pace_rate_pps(&q->pace);
	return 0;
}

/* Frames TX queue q of n sends: an exact split of --count. */
static uint64_t
queue_limit(uint64_t count, uint16_t q, uint16_t n)
{
	if (count == 0)
		return UINT64_MAX;
	return count / n + (q < count % n ? 1 : 0);
}

/*
 * Frames replay TX queue q sends (a plain run: --count is refused with
 * --replay): its frames --replay-loop times over, without end for 0. A
 * queue with none of the file's frames (more queues than frames) sends
 * none, whatever the loop: it has no copies to send (replay_setup.c).
 */
static uint64_t
replay_limit(const struct wr_run *run, const struct wr_txq *q)
{
	uint32_t loops = run->setup.cfg->replay.nb_loops;

	if (q->replay->nb == 0)
		return 0;
	return loops != 0 ? (uint64_t)q->replay->nb * loops : UINT64_MAX;
}

/* Size, limit and pool of TX queue q for the trial. */
static void
txq_configure(struct wr_run *run, struct wr_txq *q, const struct wr_port *p)
{
	const struct wr_frame_layout *lay = &p->cur->qlay[q->queue];
	const struct wr_stream_def *d = queue_stream(run->setup.cfg, q->queue);

	q->frame_size = d != NULL ? d->frame_size : run->live.trial.frame_size;
	q->data_len = lay->data_len;
	q->sport_off = lay->udp_sport_off;
	q->th_off = lay->th_off;
	q->pool = p->cur->pool[q->queue];
	q->var = p->cur->var[q->queue];
	q->mix = run->setup.cfg->mix.nb_sizes != 0 ? &run->setup.cfg->mix : NULL;
	if (d != NULL) {
		q->mix = d->mix.nb_sizes != 0 ? &d->mix : NULL;
		q->sport_base = d->src_udp;
		q->nb_flows = d->nb_flows;
	}
	q->limit_pkts = q->replay != NULL ? replay_limit(run, q) :
		queue_limit(run->live.trial.count_pkts, q->queue, p->nb_txq);
	if (d != NULL && run->live.trial.stream_pps != NULL &&
			run->live.trial.stream_pps[q->queue] <= 0.0)
		q->limit_pkts = 0;
	if (run->live.trial.count_only)
		q->limit_pkts = 0;
	q->paced = false;
	q->pace_live.pps = 0.0;   /* no live rate yet (trial/live.c) */
	wr_txq_reset(q);
	/* Two ends: the trial's tag in the sequence's high bits (seq.h). */
	if (run->live.seq_tagged) {
		q->next_seq = wr_seq_make(run->live.seq_tag, 0);
		if (q->limit_pkts != UINT64_MAX)
			q->limit_pkts += q->next_seq;
	}
}

/* Between trials the main lcore answers --port-ip requests itself. */
static void
answer_all(struct wr_run *run, unsigned int p, struct rte_mbuf **pkts, uint16_t n)
{
	uint16_t i;

	for (i = 0; i < n; i++)
		wr_svc_take(run, p, pkts[i]);
}

/*
 * Frames that arrived since the last trial must not count in this one:
 * poll each RX queue until it stays empty, for at most the grace period
 * (at least DRAIN_MIN_MS) in all. A source that never runs dry (net_null,
 * a peer still sending) would otherwise hold the run here for ever.
 */
static void
drain_rx(struct wr_run *run)
{
	struct rte_mbuf *pkts[WR_MAX_BURST];
	uint64_t ms = RTE_MAX(run->setup.cfg->grace_ms, (uint64_t)DRAIN_MIN_MS);
	uint64_t end = rte_rdtsc() + ms * (run->setup.tsc_hz / 1000);
	const struct wr_rxq *rq;
	unsigned int i, idle;
	uint16_t n;

	wr_svc_poll(run, true);  /* and the ports no worker receives on */
	WR_RUN_FOREACH_RXQ(run, i, rq) {
		for (idle = 0; idle < DRAIN_IDLE_POLLS && rte_rdtsc() < end; idle++) {
			n = rte_eth_rx_burst(rq->port, rq->queue, pkts,
				RTE_DIM(pkts) / 2);
			if (n == 0)
				continue;
			answer_all(run, rq->pidx, pkts, n);
			rte_pktmbuf_free_bulk(pkts, n);
			run->live.nb_flushed_pkts += n;
			idle = 0;
		}
	}
}

/* Whether a port of the run was up before it (a server's kept port). */
static bool
reused_ports(const struct wr_run *run)
{
	unsigned int p;

	for (p = 0; p < run->setup.nb_ports; p++)
		if (run->setup.ports[p].reused)
			return true;
	return false;
}

static void
free_series(struct wr_run *run)
{
	/* The ring's slots stay for the next trial (wr_collect_free_series). */
	run->live.nb_intervals = 0;
	free(run->res.streams);
	run->res.streams = NULL;
	run->res.nb_streams = 0;
	free(run->live.pubread);
	run->live.pubread = NULL;
	memset(run->live.rx_unpub, 0, sizeof(run->live.rx_unpub));
}

/* Fresh counters, trackers and state for the next trial. */
static void
reset_state(struct wr_run *run)
{
	struct wr_rxq *rq;
	unsigned int p;

	free_series(run);
	wr_svc_reset(run);
	for (p = 0; p < run->setup.nb_ports; p++) {
		run->setup.ports[p].rate_pps = 0;
		rte_eth_stats_reset(run->setup.ports[p].port_id);
	}
	WR_RUN_FOREACH_RXQ(run, p, rq) {
		wr_rxq_reset(rq);
		if (run->live.seq_tagged)
			wr_rxq_tag(rq, run->live.seq_tag);
		if (rq->impair != NULL)
			wr_impair_reset_counts(rq->impair);
	}
	memset(run->live.last, 0, run->setup.nb_ports * sizeof(*run->live.last));
	memset(run->live.nic, 0, run->setup.nb_ports * sizeof(*run->live.nic));
	memset(run->res.total, 0, run->setup.nb_ports * sizeof(*run->res.total));
	memset(run->live.txw, 0, sizeof(run->live.txw));
	memset(&run->res.tx_stall, 0, sizeof(run->res.tx_stall));
	for (p = 0; p < run->setup.plan.nb_workers; p++) {
		memset(&run->setup.workers[p]->st, 0, sizeof(run->setup.workers[p]->st));
		/* The trial's ctl.pace_gen starts at 0 (below): a live rate
		 * given once the workers launched is applied, even before a
		 * worker's first loop (worker.c). */
		run->setup.workers[p]->pace_gen = 0;
	}
	wr_cpu_track_reset(run->live.cpu);
	memset(&run->live.ctl, 0, sizeof(run->live.ctl));
	__atomic_store_n(&run->live.launched, false, __ATOMIC_RELEASE);
	__atomic_store_n(&run->live.stopped, false, __ATOMIC_RELEASE);
	run->live.rx_clock_started = false;
	run->res.stop_reason = WR_STOP_NONE;
	run->res.mbufs_missing = 0;
}

/* TX pools of the trial's size, then each TX queue's size, limit and pace. */
static int
configure_tx(struct wr_run *run, struct wr_error *err)
{
	struct wr_txq *tq;
	unsigned int p, i;
	int rc;

	for (p = 0; p < run->setup.nb_ports; p++) {
		struct wr_port *port = &run->setup.ports[p];

		if (!port->tx)
			continue;
		rc = wr_port_use_size(port, run->setup.cfg,
			&run->setup.ports[wr_run_port_index(run, port->peer)],
			run->live.trial.frame_size, err);
		if (rc != 0)
			return rc;
		WR_RUN_FOREACH_TXQ_OF(run, p, i, tq) {
			txq_configure(run, tq, port);
			rc = setup_pace(run, port, tq, err);
			if (rc != 0)
				return rc;
		}
	}
	return 0;
}

void
wr_run_seq_tag(struct wr_run *run, bool on, uint16_t tag)
{
	run->live.seq_tagged = on;
	run->live.seq_tag = tag;
}

int
wr_run_trial(struct wr_run *run, const struct wr_trial *t, struct wr_error *err)
{
	if (run->live.launched && !run->live.stopped)
		return wr_err_fail(err, -EBUSY, "a trial is still running");
	if (t->frame_size > run->setup.cfg->frame_size ||
			t->frame_size < WR_FRAME_MIN_SIZE)
		return wr_err_fail(err, -EINVAL, "trial frame size %u outside "
			"64..%u (the ports were set up for %u)", t->frame_size,
			run->setup.cfg->frame_size, run->setup.cfg->frame_size);
	run->live.trial = *t;
	/*
	 * A kept port received while nobody polled it (portkeep.h). With
	 * trial tags the frames of the trials before are not dropped: the
	 * trackers count them as late frames of their trials (seq.h).
	 */
	if ((run->live.nb_trials > 0 && !run->live.seq_tagged) ||
			(run->live.nb_trials == 0 && reused_ports(run)))
		drain_rx(run);
	reset_state(run);
	run->live.nb_trials++;
	return configure_tx(run, err);
}

/* Why the trial should end now, or WR_STOP_NONE. */
static enum wr_stop_reason
should_stop(struct wr_run *run, uint64_t now, const volatile int *signals)
{
	uint64_t dur = run->live.trial.duration_ms;

	if (signals != NULL && *signals != 0)
		return WR_STOP_SIGNAL;
	if (dur != 0 && now - run->live.start_tsc >= dur * (run->setup.tsc_hz / 1000))
		return WR_STOP_DURATION;
	if (wr_run_tx_done(run))
		return WR_STOP_COUNT;
	if (run->live.trial.conn_count_ends && wr_run_conn_done_now(run))
		return WR_STOP_COUNT;
	if (wr_rxclock_idle(run, now))
		return WR_STOP_IDLE;
	return WR_STOP_NONE;
}

enum wr_stop_reason
wr_run_wait(struct wr_run *run, const volatile int *signals,
		wr_run_interval_cb cb, void *arg)
{
	uint64_t step = run->setup.cfg->interval_ms * (run->setup.tsc_hz / 1000);
	uint64_t next, now;
	const struct wr_interval *iv;
	enum wr_stop_reason why;

	if (!wr_rxclock_wait(run, signals))
		return WR_STOP_SIGNAL;
	next = run->live.start_tsc + step;
	for (;;) {
		rte_delay_us_sleep(TICK_US);
		wr_svc_poll(run, false);
		now = rte_rdtsc();
		why = should_stop(run, now, signals);
		if (why != WR_STOP_NONE)
			return why;
		if (now < next)
			continue;
		next += step;
		wr_capture_drain(run->setup.cap);
		wr_capture_checkpoint(run->setup.cap, now, run->setup.cfg->checkpoint_ms *
			(run->setup.tsc_hz / 1000));
		iv = wr_run_tick(run);
		if (iv != NULL)
			wr_series_append(run, iv);
		if (iv != NULL && cb != NULL)
			cb(run, iv, arg);
		if (iv != NULL && run->live.ckpt_ready)
			wr_result_checkpoint(run);
		if (iv != NULL && wr_run_tx_stalled(run, now))
			return WR_STOP_ERROR;
	}
}
