/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The stats core's side of CPU cost: read each worker's published counters
 * and its queues' frame counters, derive the cost of every interval, and
 * charge each port its share of the busy time of the lcores that serve it.
 * Reads only what workers publish through counter.h; never a queue.
 */
#ifndef WR_CPUTRACK_H
#define WR_CPUTRACK_H

#include "measure/cpu.h"
#include "setup/run.h"

/* Queues one worker owns, TX first then RX. */
#define WR_CPU_MAX_WQ (2 * WR_MAX_QPW)

struct wr_cpu_track {
	unsigned int nb_workers;          /* run->setup.plan.nb_workers */
	unsigned int nb_ports;            /* run->setup.nb_ports */
	struct wr_cpu_counters *lcore;    /* per worker, at the last reading */
	uint64_t (*q_pkts)[WR_CPU_MAX_WQ];  /* per worker and queue, likewise */
	uint64_t (*q_bytes)[WR_CPU_MAX_WQ];
	uint8_t (*q_port)[WR_CPU_MAX_WQ];   /* run port index of each queue */
	struct wr_cpu_port *port;         /* per run port, since the start */
};

/*
 * Make the tracker of run (plan, workers and ports set up). Returns it, or
 * NULL when memory ran out.
 */
struct wr_cpu_track *wr_cpu_track_create(const struct wr_run *run);

/* Forget every reading: a new trial starts from zeroed worker counters.
 * Safe on NULL. This function can't fail. */
void wr_cpu_track_reset(struct wr_cpu_track *t);

/* Free t; safe on NULL. */
void wr_cpu_track_free(struct wr_cpu_track *t);

/*
 * Read the cumulative counters of one worker: its own stats and the frames
 * and bytes of its queues. This function can't fail.
 */
void wr_cpu_read_worker(const struct wr_worker *w, struct wr_cpu_counters *out);

/*
 * Take a reading for interval iv: fill iv->lcore (allocated here, freed with
 * the interval) with each worker's cost since the last reading and
 * iv->port[].cpu with each port's share, and add the shares to the totals.
 * Returns 0, or -ENOMEM (iv->lcore stays NULL; totals still advance).
 */
int wr_cpu_track_tick(struct wr_run *run, struct wr_interval *iv);

/*
 * The last reading, after the workers returned: totals then cover the
 * whole run. This function can't fail.
 */
void wr_cpu_track_final(struct wr_run *run);

#endif /* WR_CPUTRACK_H */
