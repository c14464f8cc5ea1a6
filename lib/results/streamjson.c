/* SPDX-License-Identifier: BSD-3-Clause */
/* Per-stream keys of a result: RX queues, spread, gaps, the TX definition. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/jsonw.h"
#include "stats/collect.h"
#include "measure/stats.h"
#include "stats/streamrx.h"
#include "streamjson.h"

/*
 * Frames of stream id on each RX queue that saw it, from the trackers or,
 * live, from the published copies (collect.h): never the worker's state.
 */
static json_t *
rx_queues_json(const struct wr_run *run, uint16_t id, bool live,
		struct wr_rx_iat *sum)
{
	json_t *a = json_array();
	const struct wr_rxq *r;
	unsigned int i, k;

	WR_RUN_FOREACH_RXQ(run, i, r) {
		const struct wr_rx_stream *s = wr_collect_rxq_stream(run, r, id, live);

		if (s == NULL || s->seq.nb_rx_pkts == 0)
			continue;
		json_array_append_new(a, json_pack("{s:I, s:I, s:I}", "port_id",
			(json_int_t)r->port, "queue", (json_int_t)r->queue,
			"rx_pkts", (json_int_t)s->seq.nb_rx_pkts));
		sum->nb += s->iat.nb;
		sum->sum_tsc += s->iat.sum_tsc;
		sum->sumsq_tsc += s->iat.sumsq_tsc;
		for (k = 0; k < WR_IAT_BINS; k++)
			sum->bins[k] += s->iat.bins[k];
	}
	return a;
}

/*
 * Gaps between arrivals: count, mean, coefficient of variation (standard
 * deviation / mean: 1 for Poisson arrivals, 0 for a constant rate) and the
 * log2 bins, each with its upper bound in ns.
 */
static json_t *
iat_json(const struct wr_run *run, const struct wr_rx_iat *a)
{
	json_t *o = json_object(), *bins = json_array();
	double mean = a->nb ? (double)a->sum_tsc / a->nb : 0.0;
	double var = a->nb ? a->sumsq_tsc / a->nb - mean * mean : 0.0;
	unsigned int k;

	wr_json_set(o, "nb", wr_json_u64(a->nb));
	wr_json_set(o, "mean_ns", json_real(wr_stats_tsc_to_ns(mean, run->setup.tsc_hz)));
	wr_json_set(o, "cv", json_real(mean > 0.0 ? sqrt(var > 0.0 ? var : 0.0) / mean : 0.0));
	wr_json_set(o, "zero_gaps", wr_json_u64(a->bins[0]));
	for (k = 1; k < WR_IAT_BINS; k++)
		if (a->bins[k] != 0)
			json_array_append_new(bins, json_pack("{s:f, s:I}", "below_ns",
				wr_stats_tsc_to_ns(ldexp(1.0, (int)k), run->setup.tsc_hz),
				"count", (json_int_t)a->bins[k]));
	wr_json_set(o, "bins", bins);
	return o;
}

/*
 * RSS made visible: queues that received the stream, and the busiest
 * one's share of its frames (1 on one queue, 1/N when spread evenly).
 */
static json_t *
spread_json(const struct wr_run *run, uint16_t stream_id, bool live)
{
	struct wr_streamrx_spread sp;

	wr_streamrx_spread(run, stream_id, live, &sp);
	return json_pack("{s:I, s:f, s:f}", "queues", (json_int_t)sp.nb_queues,
		"max_share", sp.nb_pkts ? (double)sp.max_pkts / sp.nb_pkts : 0.0,
		"min_share", sp.nb_pkts ? (double)sp.min_pkts / sp.nb_pkts : 0.0);
}

void
wr_result_flows_json(json_t *o, const struct wr_ranges *r, uint32_t nb_flows,
		bool ipv6)
{
	uint64_t nb = wr_range_flows(r, ipv6);
	char vary[40];
	json_t *f;
	unsigned int i;

	wr_json_set(o, "flows", wr_json_u64(nb > 1 ? nb : nb_flows));
	if (nb <= 1)
		return;
	f = json_object();
	for (i = 0; i < WR_RANGE_NB_FIELDS; i++)
		if (r->nb[i] > 1)
			wr_json_set(f, wr_range_name(i), wr_json_u64(r->nb[i]));
	wr_json_set(o, "ranges", f);
	snprintf(vary, sizeof(vary), "random:%" PRIu64, r->seed);
	wr_json_set(o, "vary", json_string(r->random ? vary : "inc"));
}

json_t *
wr_result_stream_rx_json(const struct wr_run *run, uint16_t stream_id, bool live)
{
	struct wr_rx_iat sum = { 0 };
	json_t *o = json_object();

	wr_json_set(o, "rx_queues", rx_queues_json(run, stream_id, live, &sum));
	wr_json_set(o, "rx_spread", spread_json(run, stream_id, live));
	wr_json_set(o, "interarrival", iat_json(run, &sum));
	return o;
}

void
wr_result_stream_tx_json(json_t *o, const struct wr_run *run, const struct wr_txq *t)
{
	const struct wr_config *cfg = run->setup.cfg;
	const struct wr_stream_def *d = cfg->nb_stream_defs ? &cfg->streams[t->queue] : NULL;
	const struct wr_pattern *pat = d != NULL ? &d->pattern : &cfg->pattern;
	char buf[64];

	if (d != NULL) {
		wr_json_set(o, "name", json_string(d->name));
		wr_json_set(o, "l3", json_string(d->ipv6 ? "ipv6" : "ipv4"));
		wr_json_set(o, "dscp", wr_json_u64(d->dscp));
		wr_json_set(o, "vlan", wr_json_u64(d->vlan_id));
		if (d->rate.unit != WR_RATE_NONE && wr_rate_format(&d->rate, buf, sizeof(buf)) > 0)
			wr_json_set(o, "rate", json_string(buf));
		if (d->share_pct > 0.0)
			wr_json_set(o, "share_pct", json_real(d->share_pct));
	}
	if ((d != NULL ? &d->stack : &cfg->stack)->nb_layers != 0)
		wr_json_set(o, "stack", json_string((d != NULL ? &d->stack : &cfg->stack)->text));
	wr_result_flows_json(o, d != NULL ? &d->ranges : &cfg->ranges,
		d != NULL ? d->nb_flows : cfg->nb_flows, d != NULL ? d->ipv6 : cfg->ipv6);
	wr_json_set(o, "frame_size", wr_json_u64(t->frame_size));
	if (t->mix != NULL)
		wr_json_set(o, "mix", json_string(t->mix->text));
	if (wr_pattern_format(pat, buf, sizeof(buf)) > 0)
		wr_json_set(o, "pattern", json_string(buf));
	if (t->paced || t->gated)
		wr_json_set(o, "requested_pps", json_real(t->paced ?
			wr_pace_rate_pps(&t->pace) : t->gate.pps));
}
