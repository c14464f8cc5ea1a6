/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A self-contained picture of a run for readers outside the stats core
 * (the telemetry handlers): state, per-port counters, rates, loss and
 * latency, per-lcore CPU cost. Built by the stats core from what the
 * workers publish (counter.h) and from its own interval; holds no pointer
 * into the run, so a reader never touches a queue or a NIC register.
 */
#ifndef WR_SNAPSHOT_H
#define WR_SNAPSHOT_H

#include <stdbool.h>
#include <stdint.h>

#include "config/conncfg.h"
#include "config/stream.h"
#include "conn/engine.h"
#include "datapath/worker.h"
#include "measure/cpu.h"
#include "measure/stats.h"
#include "setup/plan.h"
#include "setup/run.h"

enum wr_snap_state {
	WR_SNAP_IDLE = 0,      /* no run published yet */
	WR_SNAP_RUNNING = 1,   /* workers launched, traffic flowing */
	WR_SNAP_STOPPING = 2,  /* TX stopped, RX draining (grace) */
	WR_SNAP_DONE = 3,      /* workers returned; totals are exact */
};

struct wr_snap_port {
	uint16_t port_id;
	uint16_t peer_id;
	struct wr_port_counters cnt;    /* cumulative */
	struct wr_port_rates rates;     /* last interval; whole run once done */
	/* Frames the peer port sent that have not arrived here yet: in flight
	 * or lost; the peer must be in the run, else 0. */
	uint64_t missing_pkts;
	uint64_t lost_pkts;             /* sequence accounting; once done */
	/* Sequence accounting of own frames: approximate while running (the
	 * trackers are read as they change), exact once done. */
	uint64_t gap_pkts;
	uint64_t late_pkts;
	uint64_t dup_pkts;
	/* Latency of own frames: over the last interval while running, over
	 * the whole run once done (as the JSON's totals[].latency); samples 0
	 * when nothing is known (none arrived, not valid): no figure then. */
	struct wr_lat_figs lat;
	double lat_sum_ns;              /* cumulative, when lat is known */
	struct wr_cpu_port cpu;         /* share of busy time, cumulative */
	double tsc_per_pkt;             /* last interval */
	double tsc_per_byte;
};

/*
 * A stream of the run: its sender's count read at the snapshot, after its
 * receiver's (so received <= sent while running); the receiver's counts
 * from the copies the workers published for the last tick (every count
 * of one instant), final once done. Counts since the trial started.
 */
struct wr_snap_stream {
	uint16_t stream_id;
	uint16_t tx_port;
	uint16_t tx_queue;
	uint16_t rx_port;               /* first port that received it */
	bool sent_known;                /* its sender is in this run */
	bool rx_known;                  /* a receiver of this run saw it */
	bool lat_valid;                 /* lat_mean_ns known (shared clock) */
	char name[WR_STREAM_NAME_LEN];  /* --stream name=, "" without */
	uint64_t sent_pkts;
	uint64_t rx_pkts;               /* unique frames */
	uint64_t gap_pkts;              /* skipped, not (yet) filled */
	uint64_t late_pkts;
	uint64_t dup_pkts;
	double lat_mean_ns;
};

/*
 * A connection run's books (--conn; known false in a frame run), summed
 * over its engines from the copies published for the last interval
 * (whole false when a worker's copy was missing), exact once done. Rates
 * over the last interval while running, over the whole run once done:
 * cps counts completed connections (a server: closed), requests_per_s
 * answers (a server: requests served), goodput both directions' bytes.
 */
struct wr_snap_conn {
	bool known;
	bool whole;
	uint8_t role;                   /* enum wr_conn_role */
	uint64_t attempted;
	uint64_t established;
	uint64_t completed;
	uint64_t failed;                /* every class */
	uint64_t open;
	uint64_t peak_open;
	uint64_t unstarted;             /* the generator's own limits */
	uint64_t accepted;
	uint64_t closed;
	uint64_t reqs_sent;
	uint64_t resps;
	uint64_t reqs_failed;
	uint64_t reqs_served;
	uint64_t l7_tx_bytes;
	uint64_t l7_rx_bytes;
	uint64_t rtx_segs;
	double cps;
	double requests_per_s;
	double goodput_bps;
};

struct wr_snap_lcore {
	unsigned int lcore;
	struct wr_cpu_counters cnt;     /* cumulative */
	struct wr_cpu_cost cost;        /* last interval */
};

struct wr_snap {
	uint64_t run_id;                /* start TSC of the run */
	uint64_t seq;                   /* snapshots published, this process */
	enum wr_snap_state state;
	enum wr_stop_reason stop_reason;
	uint64_t tsc_hz;
	uint64_t trial;                 /* trials started, 1 for a single run */
	uint64_t elapsed_ms;            /* since traffic started */
	uint64_t duration_ms;           /* this trial's; 0: until count/signal */
	uint64_t count_pkts;            /* this trial's, per TX port */
	uint64_t interval_ms;
	uint64_t nb_intervals;
	uint32_t frame_size;
	unsigned int nb_ports;
	unsigned int nb_lcores;
	struct wr_snap_port port[WR_MAX_PORTS];
	struct wr_snap_lcore lcore[WR_PLAN_MAX_WORKERS];
	unsigned int nb_streams;
	struct wr_snap_stream stream[WR_MAX_STREAMS];
	struct wr_snap_conn conn;
};

/*
 * Fill s from run as the stats core sees it now. iv is the interval just
 * taken (NULL at start and once done); prev the previous snapshot of the
 * same run, for interval figures, or NULL. Stats core only; this function
 * can't fail.
 */
void wr_snap_build(struct wr_snap *s, const struct wr_run *run,
		const struct wr_interval *iv, enum wr_snap_state state,
		const struct wr_snap *prev);

/*
 * Fill out (max entries) with the run's streams, by stream id: each TX
 * queue of the run and each stream its receivers saw (run->res.streams as last
 * collected). Stats core only. Returns the number filled.
 */
unsigned int wr_snap_streams(const struct wr_run *run, struct wr_snap_stream *out,
		unsigned int max);

/*
 * s->conn from run's connection engines (known false in a frame run);
 * prev as for wr_snap_build. Stats core only; can't fail.
 */
void wr_snap_conn(struct wr_snap *s, const struct wr_run *run,
		const struct wr_snap *prev);

/*
 * sum = the books of every connection worker of role (enum
 * wr_conn_role; 0: every worker): exact once the workers returned, else
 * the copies published for the last interval's request (wr_run_tick).
 * Returns false when a worker's copy is missing (sum then holds what was
 * there). Stats core only.
 */
bool wr_run_conn_books(const struct wr_run *run, uint8_t role,
		struct wr_conn_books *sum);

/* "client", "server" or "none" for a wr_snap_conn's role. */
const char *wr_snap_conn_role(uint8_t role);

/* The connection worker i of run, or NULL (another kind of worker). */
const struct wr_connq *wr_run_connq(const struct wr_run *run, unsigned int i);

/*
 * The books of worker i when it is a connection worker: the engine's own
 * once the workers returned (or before launch), else the copy published
 * for the last request (NULL while it is not there). NULL for another
 * worker. Stats core only.
 */
const struct wr_conn_books *wr_run_connq_books(const struct wr_run *run,
		unsigned int i);

/*
 * Whether worker i is a connection worker of role (0: any); then its
 * port, the queue pair it owns and its lcore. This function can't fail.
 */
bool wr_run_connq_pair(const struct wr_run *run, unsigned int i, uint8_t role,
		uint16_t *port, uint16_t *queue, unsigned int *lcore);

#endif /* WR_SNAPSHOT_H */
