/* SPDX-License-Identifier: BSD-3-Clause */
#include <string.h>

#include "cpu.h"

static double
ratio(double num, uint64_t den)
{
	return den == 0 ? 0.0 : num / (double)den;
}

void
wr_cpu_sub(const struct wr_cpu_counters *cur,
		const struct wr_cpu_counters *prev, struct wr_cpu_counters *out)
{
	unsigned int b;

	out->busy_tsc = cur->busy_tsc - prev->busy_tsc;
	out->idle_tsc = cur->idle_tsc - prev->idle_tsc;
	out->nb_busy_polls = cur->nb_busy_polls - prev->nb_busy_polls;
	out->nb_idle_polls = cur->nb_idle_polls - prev->nb_idle_polls;
	out->tx_pkts = cur->tx_pkts - prev->tx_pkts;
	out->rx_pkts = cur->rx_pkts - prev->rx_pkts;
	out->tx_bytes = cur->tx_bytes - prev->tx_bytes;
	out->rx_bytes = cur->rx_bytes - prev->rx_bytes;
	for (b = 0; b < WR_CPU_BURST_BINS; b++) {
		out->tx_bursts[b] = cur->tx_bursts[b] - prev->tx_bursts[b];
		out->rx_bursts[b] = cur->rx_bursts[b] - prev->rx_bursts[b];
	}
}

void
wr_cpu_add(struct wr_cpu_counters *acc, const struct wr_cpu_counters *x)
{
	unsigned int b;

	acc->busy_tsc += x->busy_tsc;
	acc->idle_tsc += x->idle_tsc;
	acc->nb_busy_polls += x->nb_busy_polls;
	acc->nb_idle_polls += x->nb_idle_polls;
	acc->tx_pkts += x->tx_pkts;
	acc->rx_pkts += x->rx_pkts;
	acc->tx_bytes += x->tx_bytes;
	acc->rx_bytes += x->rx_bytes;
	for (b = 0; b < WR_CPU_BURST_BINS; b++) {
		acc->tx_bursts[b] += x->tx_bursts[b];
		acc->rx_bursts[b] += x->rx_bursts[b];
	}
}

uint64_t
wr_cpu_bursts(const uint64_t *bins, unsigned int first)
{
	uint64_t n = 0;
	unsigned int b;

	for (b = first; b < WR_CPU_BURST_BINS; b++)
		n += bins[b];
	return n;
}

void
wr_cpu_cost(const struct wr_cpu_counters *c, struct wr_cpu_cost *out)
{
	double busy = (double)c->busy_tsc;

	out->busy_ratio = ratio(busy, c->busy_tsc + c->idle_tsc);
	out->tsc_per_pkt = ratio(busy, c->tx_pkts + c->rx_pkts);
	out->tsc_per_byte = ratio(busy, c->tx_bytes + c->rx_bytes);
	out->tx_pkts_per_burst = ratio((double)c->tx_pkts,
		wr_cpu_bursts(c->tx_bursts, 1));
	out->rx_pkts_per_burst = ratio((double)c->rx_pkts,
		wr_cpu_bursts(c->rx_bursts, 1));
}

void
wr_cpu_port_cost(const struct wr_cpu_port *p, double *tsc_per_pkt,
		double *tsc_per_byte)
{
	*tsc_per_pkt = ratio(p->busy_tsc, p->pkts);
	*tsc_per_byte = ratio(p->busy_tsc, p->bytes);
}

double
wr_cpu_share(uint64_t busy_tsc, uint64_t part_pkts, uint64_t all_pkts)
{
	if (all_pkts == 0)
		return 0.0;
	if (part_pkts == all_pkts)
		return (double)busy_tsc;
	return (double)busy_tsc * ((double)part_pkts / (double)all_pkts);
}

void
wr_cpu_bin_range(unsigned int bin, unsigned int *lo, unsigned int *hi)
{
	if (bin == 0) {
		*lo = 0;
		*hi = 0;
		return;
	}
	*lo = 1u << (bin - 1);
	*hi = (1u << bin) - 1;
	if (*hi > WR_MAX_BURST)
		*hi = WR_MAX_BURST;
}
