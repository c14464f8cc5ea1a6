/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Counters and rates as the stats core sees them. The maths is pure; the
 * collection from worker queues lives in run.c.
 */
#ifndef WR_STATS_H
#define WR_STATS_H

#include <stdint.h>

#include "hist.h"
#include "seq.h"

/* Cumulative counters of one port at one instant. */
struct wr_port_counters {
	/* From our own queues. */
	uint64_t tx_pkts;
	uint64_t tx_bytes;          /* frame bytes, FCS included */
	uint64_t tx_full_pkts;      /* offered, not taken by the PMD (retried) */
	uint64_t tx_alloc_fail;     /* bursts that found the pool empty */
	uint64_t tx_unsent_pkts;    /* pending at stop, freed */
	uint64_t rx_pkts;
	uint64_t rx_bytes;
	uint64_t rx_own_pkts;
	uint64_t rx_foreign_pkts;
	uint64_t rx_malformed_pkts;
	uint64_t rx_reflected_pkts;   /* --reflect: sent back (also in tx_) */
	uint64_t rx_unreflected_pkts; /* --reflect: TX queue full, freed */
	/* From the NIC (rte_eth_stats_get), read at most once a second. */
	uint64_t nic_ipackets;
	uint64_t nic_opackets;
	uint64_t nic_imissed;
	uint64_t nic_ierrors;
	uint64_t nic_oerrors;
	uint64_t nic_rx_nombuf;
	/* --port-ip service frames (setup/svc.h): in rx_pkts, never in tx_pkts. */
	uint64_t rx_service_pkts;   /* ARP, NS, echo requests for the port */
	uint64_t tx_service_pkts;   /* replies and announcements sent */
	uint64_t service_drop_pkts; /* either way, lost on a full ring or PMD */
};

/*
 * Latency of a set of own frames, every figure defined as in the JSON's
 * totals[].latency: percentiles by nearest rank over the histogram
 * (hist.h, within 1/64), min, max and mean exact. samples == 0: nothing
 * is known and no figure may be shown (never a 0 meaning unknown).
 */
struct wr_lat_figs {
	uint64_t samples;
	double min_ns;
	double mean_ns;
	double p50_ns;
	double p90_ns;
	double p99_ns;
	double p999_ns;
	double max_ns;
};

/* The figures of h (TSC cycles) in ns. This function can't fail. */
void wr_stats_lat_figs(const struct wr_hist *h, uint64_t tsc_hz,
		struct wr_lat_figs *out);

/*
 * Sequence and latency figures of one port's own frames: the sequence
 * counts cumulative, the latency over the interval (lat.samples 0 when
 * none arrived in it or no stable copy could be read), lat_sum_ns
 * cumulative.
 */
struct wr_port_seq {
	uint64_t gap_pkts;      /* provable loss so far (in flight included) */
	uint64_t late_pkts;
	uint64_t dup_pkts;
	bool known;             /* a stable copy was read for this interval */
	double lat_sum_ns;      /* cumulative, own frames */
	struct wr_lat_figs lat; /* this interval */
	struct wr_lat_figs lat_run; /* the run so far */
};

/* Rates of one port over one interval. */
struct wr_port_rates {
	double tx_pps;
	double rx_pps;
	double tx_l1_bps;   /* with 20 B preamble/SFD/IFG per frame */
	double tx_l2_bps;   /* frame bytes */
	double rx_l1_bps;
	double rx_l2_bps;
};

/*
 * Rates between two snapshots taken delta_tsc apart on a tsc_hz clock.
 * All zero when delta_tsc is 0. This function can't fail.
 */
void wr_stats_rates(const struct wr_port_counters *prev,
		const struct wr_port_counters *cur, uint64_t delta_tsc,
		uint64_t tsc_hz, struct wr_port_rates *out);

/* One sender stream as received on one port, merged over its RX queues. */
struct wr_stream_view {
	struct wr_seq seq;          /* merged with wr_seq_merge */
	uint64_t nb_lat;
	uint64_t lat_min_tsc;
	uint64_t lat_max_tsc;
	uint64_t lat_sum_tsc;       /* modulo 2^64 ... */
	uint64_t lat_sum_hi;        /* ... and its carries */
	double jitter_tsc;          /* largest of the queues' RFC 3550 jitter */
};

/* Mean latency of a view in TSC cycles (0 without samples). */
static inline double
wr_stats_view_lat_mean_tsc(const struct wr_stream_view *v)
{
	if (v->nb_lat == 0)
		return 0.0;
	return ((double)v->lat_sum_hi * 0x1p64 + (double)v->lat_sum_tsc) /
		(double)v->nb_lat;
}

/* Start an empty view. This function can't fail. */
void wr_stats_view_init(struct wr_stream_view *v);

/* Convert TSC cycles to nanoseconds. */
static inline double
wr_stats_tsc_to_ns(double tsc, uint64_t tsc_hz)
{
	return tsc_hz == 0 ? 0.0 : tsc * 1e9 / (double)tsc_hz;
}

#endif /* WR_STATS_H */
