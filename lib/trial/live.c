/* SPDX-License-Identifier: BSD-3-Clause */
/* Live rate and TX hold of a running trial (live.h). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "base/jsonw.h"
#include "datapath/pace.h"
#include "live.h"
#include "trial.h"

/* Whether TX queue q is one the request names. */
static bool
targeted(const struct wr_txq *q, int port, int stream)
{
	if (stream >= 0)
		return wr_port_stream_id(q->port, q->queue) == stream;
	return port < 0 || q->port == port;
}

/* The pace configuration of q at rate; 0 or -EINVAL with a message. */
static int
queue_conf(const struct wr_run *run, const struct wr_txq *q, bool alone,
		const struct wr_rate *rate, struct wr_pace_conf *conf,
		struct wr_error *err)
{
	const struct wr_port *p = &run->setup.ports[q->pidx];
	struct wr_pace probe;
	double pps;

	if (q->gated || q->mix != NULL)
		return wr_err_usage(err, -EINVAL, "port %u queue %u: a live rate "
			"needs a constant pattern and one frame size (no --pattern "
			"burst/poisson, no --mix)", q->port, q->queue);
	if (wr_rate_to_pps(rate, q->frame_size, p->rate_link_bps, &pps) != 0)
		return wr_err_usage(err, -EINVAL, "rate: port %u reports no link "
			"speed to take a %% of (give --link-speed at start)", q->port);
	if (!alone)
		pps = wr_pace_split(pps, p->nb_txq, q->queue);
	conf->pps = pps;
	conf->tsc_hz = run->setup.tsc_hz;
	conf->max_burst = q->burst_pkts;
	conf->max_backlog_pkts = isinf(pps) ? 0 : wr_run_pace_backlog(pps, q->burst_pkts);
	if (pps <= 0.0 || wr_pace_init(&probe, conf, 0) != 0)
		return wr_err_usage(err, -EINVAL, "rate: %.6g pps for port %u queue "
			"%u is outside what the pacer can hold", pps, q->port, q->queue);
	return 0;
}

/*
 * Whether a trial is sending now (the main lcore launched its workers and
 * did not stop them): between trials (the drain, the next trial's set-up)
 * and after the last, what the controller wrote would be erased by the
 * next trial's set-up (trial.c) or reach no worker, so it is refused.
 */
static int
trial_live(const struct wr_run *run, struct wr_error *err)
{
	if (__atomic_load_n(&run->live.launched, __ATOMIC_ACQUIRE) &&
			!__atomic_load_n(&run->live.stopped, __ATOMIC_ACQUIRE))
		return 0;
	return wr_err_fail(err, -EAGAIN, "no trial is sending now (between two "
		"trials, or after the last): each trial starts at the rate its "
		"options or its method give; update once it runs");
}

int
wr_live_rate(struct wr_run *run, int port, int stream,
		const struct wr_rate *rate, struct wr_error *err)
{
	struct wr_pace_conf conf[WR_RUN_MAX_QUEUES];
	uint64_t gen = run->live.ctl.pace_gen;
	struct wr_txq *q;
	unsigned int i, n = 0;
	int rc;

	if (run->setup.replay != NULL)
		return wr_err_usage(err, -EINVAL, "rate: a --replay run keeps the "
			"rate it started with (its workers take no live rate)");
	rc = trial_live(run, err);
	if (rc != 0)
		return rc;

	WR_RUN_FOREACH_TXQ(run, i, q) {
		if (!targeted(q, port, stream))
			continue;
		rc = queue_conf(run, q, stream >= 0, rate, &conf[i], err);
		if (rc != 0)
			return rc;
		n++;
	}
	if (n == 0)
		return wr_err_usage(err, -EINVAL, stream >= 0 ? "stream %d: no TX "
			"queue of the run sends it" : "port %d: not a TX port of the run",
			stream >= 0 ? stream : port);
	/* Seqlock writer: odd, the configurations, even again. */
	__atomic_store_n(&run->live.ctl.pace_gen, gen + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	WR_RUN_FOREACH_TXQ(run, i, q)
		if (targeted(q, port, stream))
			q->pace_live = conf[i];
	__atomic_store_n(&run->live.ctl.pace_gen, gen + 2, __ATOMIC_RELEASE);
	return 0;
}

int
wr_live_hold(struct wr_run *run, int port, bool hold, struct wr_error *err)
{
	uint64_t mask = 0, held;
	unsigned int p;
	int rc = trial_live(run, err);

	if (rc != 0)
		return rc;
	for (p = 0; p < run->setup.nb_ports; p++)
		if (run->setup.ports[p].tx && (port < 0 ||
				run->setup.ports[p].port_id == port))
			mask |= UINT64_C(1) << p;
	if (mask == 0)
		return wr_err_usage(err, -EINVAL, "port %d: not a TX port of the run",
			port);
	held = __atomic_load_n(&run->live.ctl.tx_held, __ATOMIC_RELAXED);
	held = hold ? held | mask : held & ~mask;
	__atomic_store_n(&run->live.ctl.tx_held, held, __ATOMIC_RELAXED);
	/* At once; the stats core keeps it so at its next reading. */
	if (hold)
		__atomic_fetch_or(&run->live.ctl.tx_paused, mask, __ATOMIC_RELAXED);
	else
		__atomic_fetch_and(&run->live.ctl.tx_paused, ~mask, __ATOMIC_RELAXED);
	return 0;
}

json_t *
wr_live_rates_json(const struct wr_run *run)
{
	json_t *a = json_array(), *pps;
	const struct wr_txq *q;
	unsigned int i;
	double v;

	WR_RUN_FOREACH_TXQ(run, i, q) {
		v = q->pace_live.pps > 0.0 ? q->pace_live.pps : q->pace_conf.pps;
		pps = v > 0.0 && !isinf(v) ? json_real(v) : json_null();
		json_array_append_new(a, json_pack("{s:i, s:i, s:i, s:o}",
			"port_id", q->port, "queue", q->queue,
			"stream", wr_port_stream_id(q->port, q->queue), "pps", pps));
	}
	return a;
}
