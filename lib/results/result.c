/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdio.h>
#include <string.h>


#include "base/counter.h"
#include "base/fileio.h"
#include "base/jsonw.h"
#include "base/units.h"
#include "datapath/capture.h"
#include "measure/xcheck.h"
#include "result.h"
#include "result_int.h"
#include "stats/collect.h"
#include "cpujson.h"
#include "streamjson.h"
#include "series.h"
#include "trials.h"


void
wr_result_rates_json(json_t *o, const struct wr_port_rates *r)
{
	wr_json_set(o, "tx_mpps", json_real(r->tx_pps / 1e6));
	wr_json_set(o, "rx_mpps", json_real(r->rx_pps / 1e6));
	wr_json_set(o, "tx_gbps_l1", json_real(r->tx_l1_bps / 1e9));
	wr_json_set(o, "tx_gbps_l2", json_real(r->tx_l2_bps / 1e9));
	wr_json_set(o, "rx_gbps_l1", json_real(r->rx_l1_bps / 1e9));
	wr_json_set(o, "rx_gbps_l2", json_real(r->rx_l2_bps / 1e9));
}

/*
 * Latency figures as an object: the same keys for a run's totals and for
 * each sample's interval (struct wr_lat_figs); NULL when nothing is known.
 */
json_t *
wr_result_lat_figs_json(const struct wr_lat_figs *f)
{
	json_t *o;

	if (f->samples == 0)
		return NULL;
	o = json_object();
	wr_json_set(o, "clock", json_string("tsc"));
	wr_json_set(o, "samples", wr_json_u64(f->samples));
	wr_json_set(o, "min_ns", json_real(f->min_ns));
	wr_json_set(o, "mean_ns", json_real(f->mean_ns));
	wr_json_set(o, "p50_ns", json_real(f->p50_ns));
	wr_json_set(o, "p90_ns", json_real(f->p90_ns));
	wr_json_set(o, "p99_ns", json_real(f->p99_ns));
	wr_json_set(o, "p99_9_ns", json_real(f->p999_ns));
	wr_json_set(o, "max_ns", json_real(f->max_ns));
	return o;
}

static void
seq_json(json_t *o, const struct wr_port_seq *s)
{
	wr_json_set(o, "gap_pkts", wr_json_u64(s->gap_pkts));
	wr_json_set(o, "late_pkts", wr_json_u64(s->late_pkts));
	wr_json_set(o, "dup_pkts", wr_json_u64(s->dup_pkts));
	if (s->lat.samples == 0)
		return;
	/* The interval's own frames, defined as totals[].latency. */
	wr_json_set(o, "latency", wr_result_lat_figs_json(&s->lat));
	wr_json_set(o, "latency_mean_ns", json_real(s->lat.mean_ns));
	wr_json_set(o, "latency_p99_ns", json_real(s->lat.p99_ns));
}

json_t *
wr_result_sample_json(const struct wr_run *run, const struct wr_interval *iv)
{
	json_t *s = json_object(), *ports = json_array();
	unsigned int p;

	wr_json_set(s, "t_s", json_real(iv->t_s));
	wr_json_set(s, "dt_s", json_real(iv->dt_s));
	for (p = 0; p < run->setup.nb_ports; p++) {
		json_t *o = json_object();

		wr_json_set(o, "port_id", wr_json_u64(run->setup.ports[p].port_id));
		wr_result_rates_json(o, &iv->port[p].rates);
		wr_json_set(o, "tx_pkts", wr_json_u64(iv->port[p].cnt.tx_pkts));
		wr_json_set(o, "rx_pkts", wr_json_u64(iv->port[p].cnt.rx_pkts));
		wr_json_set(o, "rx_own_pkts", wr_json_u64(iv->port[p].cnt.rx_own_pkts));
		seq_json(o, &iv->port[p].seq);
		wr_cpu_json_sample_port(o, &iv->port[p].cpu);
		json_array_append_new(ports, o);
	}
	wr_json_set(s, "ports", ports);
	wr_json_set(s, "lcores", wr_cpu_json_sample(run, iv));
	return s;
}

void
wr_result_add_samples(json_t *o, const struct wr_run *run)
{
	json_t *a = json_array();
	unsigned int i;

	for (i = wr_run_first_interval(run); i < run->live.nb_intervals; i++)
		json_array_append_new(a, wr_result_sample_json(run, wr_run_interval(run, i)));
	wr_json_set(o, "samples", a);
	wr_json_set(o, "series", wr_series_json(run));
}

json_t *
wr_result_drops_json(const struct wr_port_counters *c)
{
	json_t *o = json_object();

	wr_json_set(o, "tx_full_pkts", wr_json_u64(c->tx_full_pkts));
	wr_json_set(o, "tx_alloc_fail", wr_json_u64(c->tx_alloc_fail));
	wr_json_set(o, "tx_unsent_pkts", wr_json_u64(c->tx_unsent_pkts));
	wr_json_set(o, "rx_missed_pkts", wr_json_u64(c->nic_imissed));
	wr_json_set(o, "rx_errors", wr_json_u64(c->nic_ierrors));
	wr_json_set(o, "tx_errors", wr_json_u64(c->nic_oerrors));
	wr_json_set(o, "rx_nombuf", wr_json_u64(c->nic_rx_nombuf));
	return o;
}

/* Latency of own frames received on port index p, merged over queues. */
static json_t *
latency_json(const struct wr_run *run, unsigned int p)
{
	static struct wr_hist h;
	struct wr_lat_figs f;

	wr_hist_init(&h);
	wr_collect_lat(run, p, &h);
	wr_stats_lat_figs(&h, run->setup.tsc_hz, &f);
	return wr_result_lat_figs_json(&f);
}

/* What the --impair fixture did on port index p, NULL when off. */
static json_t *
impair_json(const struct wr_run *run, unsigned int p)
{
	uint64_t drop = 0, dup = 0, reorder = 0, delayed = 0, policed = 0;
	const struct wr_rxq *rq;
	bool any = false;
	unsigned int i;
	json_t *o;

	WR_RUN_FOREACH_RXQ_OF(run, p, i, rq) {
		const struct wr_impair_q *iq = rq->impair;

		if (iq == NULL)
			continue;
		any = true;
		drop += iq->nb_dropped;
		dup += iq->nb_duplicated;
		reorder += iq->nb_reordered;
		delayed += iq->nb_delayed_polls;
		policed += iq->nb_policed;
	}
	if (!any)
		return NULL;
	o = json_object();
	wr_json_set(o, "dropped_pkts", wr_json_u64(drop));
	wr_json_set(o, "duplicated_pkts", wr_json_u64(dup));
	wr_json_set(o, "reordered_pkts", wr_json_u64(reorder));
	wr_json_set(o, "delayed_polls", wr_json_u64(delayed));
	wr_json_set(o, "policed_pkts", wr_json_u64(policed));
	return o;
}

/* Clamps that came after the worker was off its CPU (datapath/pace.h). */
static json_t *
stalls_json(const struct wr_rate_check *rc)
{
	json_t *o = json_object();

	wr_json_set(o, "count", wr_json_u64(rc->nb_stalls));
	wr_json_set(o, "clamped_pkts", wr_json_u64(rc->stall_clamped_pkts));
	wr_json_set(o, "longest_ms", json_real(rc->longest_stall_s * 1e3));
	wr_json_set(o, "stalled_ms", json_real(rc->stalled_s * 1e3));
	wr_json_set(o, "catchup_ms", json_real(rc->catchup_s * 1e3));
	wr_json_set(o, "off_cpu_ms", json_real(rc->off_cpu_s * 1e3));
	wr_json_set(o, "in_kernel_ms", json_real(rc->in_kernel_s * 1e3));
	return o;
}

static json_t *
rate_json(const struct wr_run *run, unsigned int p)
{
	struct wr_rate_check rc;
	json_t *o;

	if (!wr_run_rate_check(run, p, &rc))
		return NULL;
	o = json_object();
	wr_json_set(o, "requested_pps", json_real(rc.requested_pps));
	wr_json_set(o, "achieved_pps", json_real(rc.achieved_pps));
	wr_json_set(o, "shortfall_pct", json_real(rc.shortfall_pct));
	wr_json_set(o, "clamped_pkts", wr_json_u64(rc.clamped_pkts));
	wr_json_set(o, "backlog_pkts", wr_json_u64(rc.backlog_pkts));
	wr_json_set(o, "blocked", wr_json_u64(rc.nb_blocked));
	wr_json_set(o, "slept_ms", json_real(rc.slept_s * 1e3));
	wr_json_set(o, "stalls", stalls_json(&rc));
	wr_json_set(o, "link_bps", wr_json_u64(run->setup.ports[p].rate_link_bps));
	wr_json_set(o, "reached", json_boolean(rc.reached));
	if (!rc.reached)
		wr_json_set(o, "reason", json_string(rc.reason));
	return o;
}

/* The link over the trial: up at the end, times it went down, time down. */
static json_t *
link_json(const struct wr_run *run, unsigned int p)
{
	const struct wr_link_watch *w = &run->live.link[p];
	json_t *o = json_object();

	wr_json_set(o, "up", json_boolean(w->up));
	wr_json_set(o, "down_events", wr_json_u64(w->nb_down));
	wr_json_set(o, "down_s", json_real(wr_run_seconds(run, 0, w->down_tsc)));
	return o;
}

json_t *
wr_result_port_counters_json(const struct wr_run *run, unsigned int p,
		const struct wr_port_counters *c, uint64_t dt_tsc)
{
	struct wr_port_counters zero;
	struct wr_port_rates r;
	json_t *o = json_object();

	memset(&zero, 0, sizeof(zero));
	wr_stats_rates(&zero, c, dt_tsc, run->setup.tsc_hz, &r);
	wr_json_set(o, "port_id", wr_json_u64(run->setup.ports[p].port_id));
	wr_json_set(o, "tx_pkts", wr_json_u64(c->tx_pkts));
	wr_json_set(o, "tx_bytes", wr_json_u64(c->tx_bytes));
	wr_json_set(o, "rx_pkts", wr_json_u64(c->rx_pkts));
	wr_json_set(o, "rx_bytes", wr_json_u64(c->rx_bytes));
	wr_json_set(o, "rx_own_pkts", wr_json_u64(c->rx_own_pkts));
	wr_json_set(o, "rx_foreign_pkts", wr_json_u64(c->rx_foreign_pkts));
	wr_json_set(o, "rx_malformed_pkts", wr_json_u64(c->rx_malformed_pkts));
	wr_json_set(o, "rx_service_pkts", wr_json_u64(c->rx_service_pkts));
	wr_json_set(o, "tx_service_pkts", wr_json_u64(c->tx_service_pkts));
	wr_json_set(o, "service_drop_pkts", wr_json_u64(c->service_drop_pkts));
	wr_json_set(o, "nic_ipackets", wr_json_u64(c->nic_ipackets));
	wr_json_set(o, "nic_opackets", wr_json_u64(c->nic_opackets));
	wr_result_rates_json(o, &r);
	wr_json_set(o, "drops", wr_result_drops_json(c));
	return o;
}

static json_t *
total_port_json(const struct wr_run *run, unsigned int p)
{
	const struct wr_port_counters *c = &run->res.total[p];
	json_t *o = wr_result_port_counters_json(run, p, c,
		run->live.tx_stop_tsc - run->live.start_tsc);

	wr_json_set(o, "reflected_pkts", wr_json_u64(c->rx_reflected_pkts));
	wr_json_set(o, "unreflected_pkts", wr_json_u64(c->rx_unreflected_pkts));
	if (run->res.port_lat_valid[p])
		wr_json_set(o, "latency", latency_json(run, p));
	wr_json_set(o, "impair", impair_json(run, p));
	wr_json_set(o, "rate", rate_json(run, p));
	wr_json_set(o, "link", link_json(run, p));
	return o;
}

/* Each RX port's share of a stream: [{port_id, rx_pkts}], information only. */
static json_t *
rx_split_json(const struct wr_stream_result *s)
{
	json_t *a = json_array();
	unsigned int k;

	for (k = 0; k < s->nb_rx_ports; k++)
		json_array_append_new(a, json_pack("{s:I, s:I}", "port_id",
			(json_int_t)s->rx_split[k].port_id, "rx_pkts",
			(json_int_t)s->rx_split[k].rx_pkts));
	return a;
}

json_t *
wr_result_stream_json(const struct wr_run *run, const struct wr_stream_result *s,
		bool live)
{
	const struct wr_stream_view *v = &s->view;
	json_t *o = json_object();

	wr_json_set(o, "stream_id", wr_json_u64(s->stream_id));
	wr_json_set(o, "tx_port", wr_json_u64(s->tx_port));
	wr_json_set(o, "tx_queue", wr_json_u64(s->tx_queue));
	wr_json_set(o, "rx_port", wr_json_u64(s->rx_port));
	wr_json_set(o, "rx_ports", rx_split_json(s));
	wr_json_set(o, "rx", wr_result_stream_rx_json(run, s->stream_id, live));
	wr_json_set(o, "sender_in_run", json_boolean(s->sender_known));
	if (s->sender_known)
		wr_json_set(o, "sent_pkts", wr_json_u64(s->sent_pkts));
	wr_json_set(o, "rx_pkts", wr_json_u64(v->seq.nb_rx_pkts));
	wr_json_set(o, "lost_pkts", json_integer(s->lost_pkts));
	wr_json_set(o, "excess_pkts", wr_json_u64(s->excess_pkts));
	wr_json_set(o, "gap_pkts", wr_json_u64(wr_seq_gaps(&v->seq)));
	wr_json_set(o, "late_pkts", wr_json_u64(v->seq.nb_late_pkts));
	wr_json_set(o, "dup_pkts", wr_json_u64(v->seq.nb_dup_pkts));
	wr_json_set(o, "old_pkts", wr_json_u64(v->seq.nb_old_pkts));
	wr_json_set(o, "restarts", wr_json_u64(v->seq.nb_restarts));
	wr_json_set(o, "first_seq", wr_json_u64(v->seq.started ? v->seq.first_seq : 0));
	wr_json_set(o, "next_seq", wr_json_u64(v->seq.started ? v->seq.next_seq : 0));
	if (s->lat_valid) {
		wr_json_set(o, "latency_min_ns", json_real(wr_stats_tsc_to_ns((double)v->lat_min_tsc, run->setup.tsc_hz)));
		wr_json_set(o, "latency_mean_ns", json_real(wr_stats_tsc_to_ns(
			wr_stats_view_lat_mean_tsc(v), run->setup.tsc_hz)));
		wr_json_set(o, "latency_max_ns", json_real(wr_stats_tsc_to_ns((double)v->lat_max_tsc, run->setup.tsc_hz)));
		wr_json_set(o, "jitter_ns", json_real(wr_stats_tsc_to_ns(v->jitter_tsc, run->setup.tsc_hz)));
	}
	return o;
}

/*
 * What each TX queue of this run sent: the sender's half of a two-ended
 * balance (wirerate merge pairs it with a receiver's streams).
 */
json_t *
wr_result_tx_streams_json(const struct wr_run *run)
{
	json_t *a = json_array();
	const struct wr_txq *t;
	unsigned int i;

	WR_RUN_FOREACH_TXQ(run, i, t) {
		/* As of the ports' reading: during the run (--checkpoint) the
		 * instant of totals[], not a moment later. */
		uint64_t sent = wr_collect_txq_sent(run, t);
		json_t *o = json_object();

		wr_json_set(o, "stream_id", wr_json_u64(wr_port_stream_id(t->port, t->queue)));
		wr_json_set(o, "port", wr_json_u64(t->port));
		wr_json_set(o, "queue", wr_json_u64(t->queue));
		wr_json_set(o, "sent_pkts", wr_json_u64(sent));
		wr_json_set(o, "sent_bytes", wr_json_u64(wr_txq_bytes(t, sent)));
		wr_result_stream_tx_json(o, run, t);
		wr_json_set(o, "unsent_pkts", wr_json_u64(wr_counter_read(
			&t->st.nb_unsent_pkts)));
		json_array_append_new(a, o);
	}
	return a;
}

static bool
any_rx_port(const struct wr_run *run)
{
	unsigned int p;

	for (p = 0; p < run->setup.nb_ports; p++)
		if (run->setup.ports[p].rx)
			return true;
	return false;
}

/*
 * sent = received + lost - excess for every stream whose sender is in the
 * run; balanced when that holds with no excess. lost is the sum of each
 * stream's loss clamped at zero (a negative one never hides a real one).
 * A run without RX ports states what it sent: its balance needs the
 * receiver's result (wirerate merge).
 */
json_t *
wr_result_accounting_json(const struct wr_run *run)
{
	uint64_t sent = 0, rx = 0, excess = 0;
	int64_t lost = 0;
	bool balanced = true;
	unsigned int i;
	json_t *o = json_object();

	for (i = 0; i < run->res.nb_streams; i++) {
		const struct wr_stream_result *s = &run->res.streams[i];

		if (!s->sender_known)
			continue;
		sent += s->sent_pkts;
		rx += s->view.seq.nb_rx_pkts;
		lost += s->lost_pkts;
		excess += s->excess_pkts;
		if ((int64_t)s->sent_pkts != (int64_t)s->view.seq.nb_rx_pkts + s->lost_pkts -
				(int64_t)s->excess_pkts || s->excess_pkts != 0)
			balanced = false;
	}
	if (!any_rx_port(run)) {
		wr_json_set(o, "sent_pkts", wr_json_u64(wr_collect_tx_sent(run)));
		wr_json_set(o, "balanced", json_null());
		wr_json_set(o, "balance", json_string("needs the receiver's result: "
			"wirerate merge SENDER.json RECEIVER.json"));
	} else {
		wr_json_set(o, "sent_pkts", wr_json_u64(sent));
		wr_json_set(o, "received_pkts", wr_json_u64(rx));
		wr_json_set(o, "lost_pkts", json_integer(lost));
		wr_json_set(o, "excess_pkts", wr_json_u64(excess));
		wr_json_set(o, "balanced", json_boolean(balanced));
	}
	wr_json_set(o, "mbufs_missing", wr_json_u64(run->res.mbufs_missing));
	wr_json_set(o, "stranded_pkts", wr_json_u64(run->res.nb_stranded_pkts));
	return o;
}

json_t *
wr_result_head(const struct wr_run *run)
{
	json_t *doc = json_object(), *ports = json_array();
	unsigned int i;

	wr_json_set(doc, "schema", json_string(WR_RESULT_SCHEMA));
	if (run->setup.cfg->label[0] != '\0')
		wr_json_set(doc, "label", json_string(run->setup.cfg->label));
	wr_json_set(doc, "env", wr_result_env_json(run));
	wr_json_set(doc, "config", wr_result_config_json(run->setup.cfg));
	wr_json_set(doc, "plan", wr_result_plan_json(&run->setup.plan));
	if (run->setup.replay != NULL)
		wr_json_set(doc, "replay", wr_result_replay_json(run));
	for (i = 0; i < run->setup.nb_ports; i++)
		json_array_append_new(ports, wr_result_port_json(&run->setup.ports[i]));
	wr_json_set(doc, "ports", ports);
	return doc;
}

/* What the traffic phase produced: the same keys in a result and a trial. */
void
wr_result_add_trial(json_t *o, const struct wr_run *run, bool samples)
{
	json_t *totals = json_array(), *streams = json_array();
	unsigned int i;

	wr_json_set(o, "frame_size", wr_json_u64(run->live.trial.frame_size));
	if (samples)
		wr_result_add_samples(o, run);
	wr_json_set(o, "duration_s", json_real(wr_run_seconds(run, run->live.start_tsc, run->live.tx_stop_tsc)));
	wr_json_set(o, "stop_reason", json_string(wr_run_stop_name(run->res.stop_reason)));
	for (i = 0; i < run->setup.nb_ports; i++)
		json_array_append_new(totals, total_port_json(run, i));
	wr_json_set(o, "totals", totals);
	for (i = 0; i < run->res.nb_streams; i++)
		json_array_append_new(streams, wr_result_stream_json(run, &run->res.streams[i], false));
	wr_json_set(o, "streams", streams);
	wr_json_set(o, "tx_streams", wr_result_tx_streams_json(run));
	wr_json_set(o, "accounting", wr_result_accounting_json(run));
	wr_json_set(o, "warnings", wr_result_warnings_json(&run->res.xcheck));
	wr_json_set(o, "cross_checked", json_pack("{s:I, s:I}", "ports",
		(json_int_t)run->res.xcheck.nb_ports_checked, "queues",
		(json_int_t)run->res.xcheck.nb_queues_checked));
	wr_json_set(o, "cpu", wr_cpu_json(run));
	if (run->setup.cfg->json_path[0] != '\0' && run->setup.cfg->checkpoint_ms != 0)
		wr_json_set(o, "checkpoints", json_pack("{s:I, s:I}", "written",
			(json_int_t)run->live.nb_ckpt_written, "failed",
			(json_int_t)run->live.nb_ckpt_failed));
}

json_t *
wr_result_build(const struct wr_run *run)
{
	json_t *doc = wr_result_head(run);

	if (doc != NULL)
		wr_result_add_trial(doc, run, true);
	/* A stalled TX port stopped the run short of its count. */
	if (doc != NULL && run->res.tx_stall.hit)
		wr_json_set(doc, "invalid", json_pack("{s:s, s:s}", "field",
			"stop_reason", "reason", run->res.tx_stall.reason));
	if (doc != NULL && run->setup.cap != NULL)
		wr_json_set(doc, "capture", wr_result_capture_json(run->setup.cap));
	return doc;
}

json_t *
wr_result_trial(const struct wr_run *run, unsigned int trial)
{
	json_t *o = json_object();

	wr_json_set(o, "trial", wr_json_u64(trial));
	wr_result_add_trial(o, run, true);
	/* Known only once the ports close, after the last trial. */
	json_object_del(json_object_get(o, "accounting"), "mbufs_missing");
	json_object_del(json_object_get(o, "accounting"), "stranded_pkts");
	return o;
}

json_t *
wr_result_build_trials(const struct wr_run *run, json_t *trials,
		struct wr_error *err)
{
	json_t *doc = wr_result_build(run), *summary;

	if (doc == NULL) {
		wr_err_env(err, -ENOMEM, "no memory to build the result");
		return NULL;
	}
	if (trials == NULL)
		return doc;
	summary = wr_trials_summarize(trials, run->setup.cfg->nb_warmup, err);
	if (summary == NULL) {
		/* This run's own trials: a field missing there is its failure. */
		if (err != NULL && err->cls == WR_ERR_USAGE)
			err->cls = WR_ERR_FAIL;
		json_decref(doc);
		return NULL;
	}
	wr_json_set(doc, "trials", json_incref(trials));
	wr_json_set(doc, "summary", summary);
	return doc;
}

static int
fill_json(FILE *f, const void *doc)
{
	errno = 0;
	if (json_dumpf((const json_t *)doc, f, JSON_INDENT(1) | JSON_REAL_PRECISION(10)) != 0 ||
			fputc('\n', f) == EOF)
		return errno ? -errno : -EIO;
	return 0;
}

int
wr_result_write_json(json_t *doc, const char *path, struct wr_error *err)
{
	return wr_file_write(path, fill_json, doc, err);
}

int
wr_result_write_json_nosync(json_t *doc, const char *path, struct wr_error *err)
{
	return wr_file_write_nosync(path, fill_json, doc, err);
}

int
wr_result_write(const struct wr_run *run, const char *path, struct wr_error *err)
{
	json_t *doc = wr_result_build(run);
	int rc;

	if (doc == NULL)
		return wr_err_env(err, -ENOMEM, "%s: no memory to build the result",
			path);
	rc = wr_result_write_json(doc, path, err);
	json_decref(doc);
	return rc;
}
