/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The stats core's side of a run: read the workers' published counters and
 * the NICs' counters into per-port snapshots, and merge per-queue stream
 * trackers into per-port stream results. Never touches a queue.
 */
#ifndef WR_COLLECT_H
#define WR_COLLECT_H

#include <limits.h>
#include <stdint.h>

#include "setup/run.h"

/*
 * Snapshot every port of run into out (run->setup.nb_ports entries). NIC counters
 * are read at most once a second (vmxnet3 reads cost a hypervisor trip) and
 * otherwise repeated from the last reading. This function can't fail.
 */
void wr_collect_ports(struct wr_run *run, struct wr_port_counters *out);

/* Whether port_id's link is up now (no wait). This function can't fail. */
bool wr_collect_link_up(uint16_t port_id);

/*
 * After the workers returned: exact totals (with a fresh NIC reading) into
 * run->res.total and the per-stream results into run->res.streams.
 */
void wr_collect_final(struct wr_run *run);

/*
 * Stream sid as RX queue rq saw it, or NULL: its tracker once the workers
 * returned (live false), else its entry in the copy published for the
 * last tick (struct wr_rxq_pub; only after wr_rxpub_request succeeded).
 * Stats core only. This function can't fail.
 */
const struct wr_rx_stream *wr_collect_rxq_stream(const struct wr_run *run,
		const struct wr_rxq *rq, unsigned int sid, bool live);

/* The TX queue of this run that sends stream sid, or NULL. Can't fail. */
const struct wr_txq *wr_collect_sender_of(const struct wr_run *run, unsigned int sid);

/*
 * What TX queue tq of run had sent at the last reading of the ports (each
 * interval, and the final one once the trial stopped): the instant of
 * totals[], so that streams agree with the ports. 0 for a queue not in run.
 */
uint64_t wr_collect_txq_sent(const struct wr_run *run, const struct wr_txq *tq);

/*
 * Take a snapshot now, append an interval (rates since the previous one)
 * and return it. NULL only when memory for the series ran out.
 */
const struct wr_interval *wr_run_tick(struct wr_run *run);

/*
 * Whether --json should be rewritten now (--checkpoint T since the last
 * time, or since the start). This function can't fail.
 */
bool wr_run_checkpoint_due(const struct wr_run *run, uint64_t now_tsc);

/* Port index for wr_collect_lat: every port whose streams all qualify. */
#define WR_COLLECT_LAT_VALID UINT_MAX

/*
 * Add the final latency counts of the RX queues of port index p (or of
 * every port with valid latency, WR_COLLECT_LAT_VALID) to h. Can't fail.
 */
void wr_collect_lat(const struct wr_run *run, unsigned int p, struct wr_hist *h);

/* Frames the run's TX queues sent so far (also while running). */
uint64_t wr_collect_tx_sent(const struct wr_run *run);

/* Frames the run's RX queues received so far, and own frames among them. */
void wr_collect_rx_seen(const struct wr_run *run, uint64_t *all, uint64_t *own);

/* Free the interval series (run->live.intervals). This function can't fail. */
void wr_collect_free_series(struct wr_run *run);

#endif /* WR_COLLECT_H */
