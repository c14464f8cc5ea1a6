/* SPDX-License-Identifier: BSD-3-Clause */
#include <string.h>

#include "base/units.h"
#include "stats.h"

void
wr_stats_rates(const struct wr_port_counters *prev,
		const struct wr_port_counters *cur, uint64_t delta_tsc,
		uint64_t tsc_hz, struct wr_port_rates *out)
{
	uint64_t tx_p = cur->tx_pkts - prev->tx_pkts;
	uint64_t rx_p = cur->rx_pkts - prev->rx_pkts;
	uint64_t tx_b = cur->tx_bytes - prev->tx_bytes;
	uint64_t rx_b = cur->rx_bytes - prev->rx_bytes;
	const uint64_t l1 = WR_UNITS_L1_OVERHEAD_BYTES;

	out->tx_pps = wr_units_rate(tx_p, delta_tsc, tsc_hz);
	out->rx_pps = wr_units_rate(rx_p, delta_tsc, tsc_hz);
	out->tx_l2_bps = 8.0 * wr_units_rate(tx_b, delta_tsc, tsc_hz);
	out->rx_l2_bps = 8.0 * wr_units_rate(rx_b, delta_tsc, tsc_hz);
	out->tx_l1_bps = 8.0 * wr_units_rate(tx_b + l1 * tx_p, delta_tsc, tsc_hz);
	out->rx_l1_bps = 8.0 * wr_units_rate(rx_b + l1 * rx_p, delta_tsc, tsc_hz);
}

void
wr_stats_view_init(struct wr_stream_view *v)
{
	memset(v, 0, sizeof(*v));
	wr_seq_init(&v->seq);
	v->lat_min_tsc = UINT64_MAX;
}

void
wr_stats_lat_figs(const struct wr_hist *h, uint64_t tsc_hz, struct wr_lat_figs *out)
{
	memset(out, 0, sizeof(*out));
	if (h->nb == 0)
		return;
	out->samples = h->nb;
	out->min_ns = wr_stats_tsc_to_ns((double)h->min, tsc_hz);
	out->mean_ns = wr_stats_tsc_to_ns(wr_hist_mean(h), tsc_hz);
	out->p50_ns = wr_stats_tsc_to_ns((double)wr_hist_percentile(h, 50), tsc_hz);
	out->p90_ns = wr_stats_tsc_to_ns((double)wr_hist_percentile(h, 90), tsc_hz);
	out->p99_ns = wr_stats_tsc_to_ns((double)wr_hist_percentile(h, 99), tsc_hz);
	out->p999_ns = wr_stats_tsc_to_ns((double)wr_hist_percentile(h, 99.9), tsc_hz);
	out->max_ns = wr_stats_tsc_to_ns((double)h->max, tsc_hz);
}
