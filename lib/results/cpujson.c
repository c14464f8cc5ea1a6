/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * CPU cost in the JSON result (docs/results.md, "cpu" and samples[]):
 * per worker lcore and per port, over the run and over each interval.
 */
#include <stdio.h>
#include <string.h>

#include "base/jsonw.h"
#include "cpujson.h"
#include "stats/cputrack.h"


static void
cost_json(json_t *o, const struct wr_cpu_cost *c)
{
	wr_json_set(o, "busy_ratio", json_real(c->busy_ratio));
	wr_json_set(o, "tsc_per_pkt", json_real(c->tsc_per_pkt));
	wr_json_set(o, "tsc_per_byte", json_real(c->tsc_per_byte));
	wr_json_set(o, "tx_pkts_per_burst", json_real(c->tx_pkts_per_burst));
	wr_json_set(o, "rx_pkts_per_burst", json_real(c->rx_pkts_per_burst));
}

void
wr_cpu_json_sample_port(json_t *o, const struct wr_cpu_port *cp)
{
	double per_pkt, per_byte;

	wr_cpu_port_cost(cp, &per_pkt, &per_byte);
	wr_json_set(o, "tsc_per_pkt", json_real(per_pkt));
	wr_json_set(o, "tsc_per_byte", json_real(per_byte));
}

json_t *
wr_cpu_json_sample(const struct wr_run *run, const struct wr_interval *iv)
{
	json_t *a = json_array();
	unsigned int i;

	for (i = 0; iv->lcore != NULL && i < run->setup.plan.nb_workers; i++) {
		json_t *o = json_object();

		wr_json_set(o, "lcore", wr_json_u64(run->setup.plan.w[i].lcore));
		cost_json(o, &iv->lcore[i]);
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *
bins_json(const uint64_t *bins)
{
	json_t *a = json_array();
	unsigned int b;

	for (b = 0; b < WR_CPU_BURST_BINS; b++)
		json_array_append_new(a, wr_json_u64(bins[b]));
	return a;
}

static json_t *
lcore_json(unsigned int lcore, const struct wr_cpu_counters *c)
{
	json_t *o = json_object();
	struct wr_cpu_cost cost;

	wr_cpu_cost(c, &cost);
	wr_json_set(o, "lcore", wr_json_u64(lcore));
	wr_json_set(o, "busy_tsc", wr_json_u64(c->busy_tsc));
	wr_json_set(o, "idle_tsc", wr_json_u64(c->idle_tsc));
	wr_json_set(o, "busy_polls", wr_json_u64(c->nb_busy_polls));
	wr_json_set(o, "idle_polls", wr_json_u64(c->nb_idle_polls));
	wr_json_set(o, "tx_pkts", wr_json_u64(c->tx_pkts));
	wr_json_set(o, "rx_pkts", wr_json_u64(c->rx_pkts));
	wr_json_set(o, "tx_bytes", wr_json_u64(c->tx_bytes));
	wr_json_set(o, "rx_bytes", wr_json_u64(c->rx_bytes));
	cost_json(o, &cost);
	wr_json_set(o, "tx_bursts", bins_json(c->tx_bursts));
	wr_json_set(o, "rx_bursts", bins_json(c->rx_bursts));
	return o;
}

/* Each port's share of the busy cycles of the lcores that serve it. */
static json_t *
ports_json(const struct wr_run *run)
{
	json_t *ports = json_array();
	unsigned int i;

	for (i = 0; i < run->setup.nb_ports; i++) {
		const struct wr_cpu_port *cp = &run->live.cpu->port[i];
		json_t *po = json_object();
		double per_pkt, per_byte;

		wr_cpu_port_cost(cp, &per_pkt, &per_byte);
		wr_json_set(po, "port_id", wr_json_u64(run->setup.ports[i].port_id));
		wr_json_set(po, "busy_tsc", json_real(cp->busy_tsc));
		wr_json_set(po, "pkts", wr_json_u64(cp->pkts));
		wr_json_set(po, "bytes", wr_json_u64(cp->bytes));
		wr_json_set(po, "tsc_per_pkt", json_real(per_pkt));
		wr_json_set(po, "tsc_per_byte", json_real(per_byte));
		json_array_append_new(ports, po);
	}
	return ports;
}

static json_t *
bin_names(void)
{
	json_t *bins = json_array();
	unsigned int i, lo, hi;
	char buf[16];

	for (i = 0; i < WR_CPU_BURST_BINS; i++) {
		wr_cpu_bin_range(i, &lo, &hi);
		if (lo == hi)
			snprintf(buf, sizeof(buf), "%u", lo);
		else
			snprintf(buf, sizeof(buf), "%u-%u", lo, hi);
		json_array_append_new(bins, json_string(buf));
	}
	return bins;
}

json_t *
wr_cpu_json(const struct wr_run *run)
{
	json_t *o, *lcores;
	struct wr_cpu_counters all;
	struct wr_cpu_cost cost;
	unsigned int i;

	if (run->live.cpu == NULL)
		return NULL;
	o = json_object();
	lcores = json_array();
	memset(&all, 0, sizeof(all));
	for (i = 0; i < run->live.cpu->nb_workers; i++) {
		json_array_append_new(lcores, lcore_json(run->setup.plan.w[i].lcore,
			&run->live.cpu->lcore[i]));
		wr_cpu_add(&all, &run->live.cpu->lcore[i]);
	}
	/* Every worker together: the run's figures (lib/measure/metrics.c reads them). */
	wr_cpu_cost(&all, &cost);
	wr_json_set(o, "cycles_per_pkt", json_real(cost.tsc_per_pkt));
	wr_json_set(o, "cycles_per_byte", json_real(cost.tsc_per_byte));
	wr_json_set(o, "busy_ratio", json_real(cost.busy_ratio));
	wr_json_set(o, "burst_bins", bin_names());
	wr_json_set(o, "lcores", lcores);
	wr_json_set(o, "ports", ports_json(run));
	return o;
}
