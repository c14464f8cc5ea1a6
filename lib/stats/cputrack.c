/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/counter.h"
#include "cputrack.h"

static void
read_bins(uint64_t *dst, const uint64_t *src)
{
	unsigned int b;

	for (b = 0; b < WR_CPU_BURST_BINS; b++)
		dst[b] = wr_counter_read(&src[b]);
}

void
wr_cpu_read_worker(const struct wr_worker *w, struct wr_cpu_counters *out)
{
	unsigned int i;

	memset(out, 0, sizeof(*out));
	out->busy_tsc = wr_counter_read(&w->st.busy_tsc);
	out->idle_tsc = wr_counter_read(&w->st.idle_tsc);
	out->nb_busy_polls = wr_counter_read(&w->st.nb_busy_polls);
	out->nb_idle_polls = wr_counter_read(&w->st.nb_idle_polls);
	read_bins(out->tx_bursts, w->st.tx_bursts);
	read_bins(out->rx_bursts, w->st.rx_bursts);
	/* TX frames of a trial all have the queue's size (as collect.c). */
	for (i = 0; i < w->nb_tx; i++) {
		uint64_t pkts = wr_counter_read(&w->tx[i]->st.nb_pkts);

		out->tx_pkts += pkts;
		out->tx_bytes += wr_txq_bytes(w->tx[i], pkts);
	}
	for (i = 0; i < w->nb_rx; i++) {
		out->rx_pkts += wr_counter_read(&w->rx[i]->st.nb_pkts);
		out->rx_bytes += wr_counter_read(&w->rx[i]->st.nb_bytes);
	}
}

/* Frames and bytes of each queue of w, TX first, as the tracker orders them. */
static void
read_queues(const struct wr_worker *w, uint64_t *pkts, uint64_t *bytes)
{
	unsigned int i, k = 0;

	for (i = 0; i < w->nb_tx; i++, k++) {
		pkts[k] = wr_counter_read(&w->tx[i]->st.nb_pkts);
		bytes[k] = wr_txq_bytes(w->tx[i], pkts[k]);
	}
	for (i = 0; i < w->nb_rx; i++, k++) {
		pkts[k] = wr_counter_read(&w->rx[i]->st.nb_pkts);
		bytes[k] = wr_counter_read(&w->rx[i]->st.nb_bytes);
	}
}

static void
map_queues(const struct wr_worker *w, uint8_t *q_port)
{
	unsigned int i, k = 0;

	for (i = 0; i < w->nb_tx; i++)
		q_port[k++] = (uint8_t)w->tx[i]->pidx;
	for (i = 0; i < w->nb_rx; i++)
		q_port[k++] = (uint8_t)w->rx[i]->pidx;
}

struct wr_cpu_track *
wr_cpu_track_create(const struct wr_run *run)
{
	struct wr_cpu_track *t = calloc(1, sizeof(*t));
	unsigned int n = run->setup.plan.nb_workers, i;

	if (t == NULL)
		return NULL;
	t->nb_workers = n;
	t->nb_ports = run->setup.nb_ports;
	t->lcore = calloc(n ? n : 1, sizeof(*t->lcore));
	t->q_pkts = calloc(n ? n : 1, sizeof(*t->q_pkts));
	t->q_bytes = calloc(n ? n : 1, sizeof(*t->q_bytes));
	t->q_port = calloc(n ? n : 1, sizeof(*t->q_port));
	t->port = calloc(run->setup.nb_ports ? run->setup.nb_ports : 1, sizeof(*t->port));
	if (t->lcore == NULL || t->q_pkts == NULL || t->q_bytes == NULL ||
			t->q_port == NULL || t->port == NULL) {
		wr_cpu_track_free(t);
		return NULL;
	}
	for (i = 0; i < n; i++)
		map_queues(run->setup.workers[i], t->q_port[i]);
	return t;
}

void
wr_cpu_track_reset(struct wr_cpu_track *t)
{
	unsigned int n;

	if (t == NULL)
		return;
	n = t->nb_workers ? t->nb_workers : 1;
	memset(t->lcore, 0, n * sizeof(*t->lcore));
	memset(t->q_pkts, 0, n * sizeof(*t->q_pkts));
	memset(t->q_bytes, 0, n * sizeof(*t->q_bytes));
	memset(t->port, 0, (t->nb_ports ? t->nb_ports : 1) * sizeof(*t->port));
}

void
wr_cpu_track_free(struct wr_cpu_track *t)
{
	if (t == NULL)
		return;
	free(t->lcore);
	free(t->q_pkts);
	free(t->q_bytes);
	free(t->q_port);
	free(t->port);
	free(t);
}

/*
 * Charge the busy cycles worker i spent since the last reading to the
 * ports of its queues, by frames; add to iv_port (may be NULL) and totals.
 */
static void
charge_ports(struct wr_cpu_track *t, unsigned int i, const struct wr_worker *w,
		uint64_t busy_tsc, struct wr_interval_port *iv_port)
{
	uint64_t pkts[WR_CPU_MAX_WQ], bytes[WR_CPU_MAX_WQ], all = 0;
	unsigned int k, nb_q = (unsigned int)w->nb_tx + w->nb_rx;

	read_queues(w, pkts, bytes);
	for (k = 0; k < nb_q; k++) {
		pkts[k] -= t->q_pkts[i][k];
		bytes[k] -= t->q_bytes[i][k];
		t->q_pkts[i][k] += pkts[k];
		t->q_bytes[i][k] += bytes[k];
		all += pkts[k];
	}
	for (k = 0; k < nb_q; k++) {
		struct wr_cpu_port share = {
			.busy_tsc = wr_cpu_share(busy_tsc, pkts[k], all),
			.pkts = pkts[k],
			.bytes = bytes[k],
		};
		struct wr_cpu_port *tot = &t->port[t->q_port[i][k]];

		tot->busy_tsc += share.busy_tsc;
		tot->pkts += share.pkts;
		tot->bytes += share.bytes;
		if (iv_port == NULL)
			continue;
		iv_port[t->q_port[i][k]].cpu.busy_tsc += share.busy_tsc;
		iv_port[t->q_port[i][k]].cpu.pkts += share.pkts;
		iv_port[t->q_port[i][k]].cpu.bytes += share.bytes;
	}
}

/* One reading of every worker; costs into cost[] when not NULL. */
static void
reading(struct wr_run *run, struct wr_cpu_cost *cost,
		struct wr_interval_port *iv_port)
{
	struct wr_cpu_track *t = run->live.cpu;
	struct wr_cpu_counters cur, delta;
	unsigned int i;

	for (i = 0; i < t->nb_workers; i++) {
		wr_cpu_read_worker(run->setup.workers[i], &cur);
		wr_cpu_sub(&cur, &t->lcore[i], &delta);
		if (cost != NULL)
			wr_cpu_cost(&delta, &cost[i]);
		charge_ports(t, i, run->setup.workers[i], delta.busy_tsc, iv_port);
		t->lcore[i] = cur;
	}
}

int
wr_cpu_track_tick(struct wr_run *run, struct wr_interval *iv)
{
	unsigned int n = run->live.cpu->nb_workers;

	/* A slot of the interval ring keeps its array (collect.c). */
	if (iv->lcore == NULL)
		iv->lcore = calloc(n ? n : 1, sizeof(*iv->lcore));
	reading(run, iv->lcore, iv->port);
	return iv->lcore == NULL ? -ENOMEM : 0;
}

void
wr_cpu_track_final(struct wr_run *run)
{
	reading(run, NULL, NULL);
}
