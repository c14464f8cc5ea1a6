/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * One run: ports set up from the configuration, a plan, workers launched,
 * snapshots taken by the stats core, a clean stop. The caller (app/) owns the
 * clock between snapshots, the display and the exit code.
 *
 * Errors: -EINVAL means the request cannot be met as asked (bad input, exit
 * 2 in app/); any other negative errno means the run failed (exit 1). A
 * message is always written to err.
 */
#ifndef WR_RUN_H
#define WR_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "config/config.h"
#include "datapath/impair.h"
#include "datapath/worker.h"
#include "measure/clocksync.h"
#include "measure/cpu.h"
#include "measure/link.h"
#include "measure/stats.h"
#include "measure/xcheck.h"
#include "plan.h"
#include "port.h"

struct wr_svc;

/*
 * A sending port that makes no progress: in a trial that ends by its
 * --count (no --duration), no frame sent for WR_RUN_TX_STALL_S while its
 * PMD refused the frames offered (a peer that takes none: a virtio
 * receiver whose buffers are smaller than the frame, a memif ring nobody
 * joined). The stats core looks at each interval (trial/txstall.c); the
 * trial then stops (WR_STOP_ERROR) instead of waiting for ever.
 */
#define WR_RUN_TX_STALL_S 5u

/* The stats core's view of one TX port since its last progress. */
struct wr_tx_watch {
	uint64_t sent;         /* frames sent at the last progress */
	uint64_t refused;      /* frames refused at the last progress */
	uint64_t since_tsc;    /* last progress; 0: the trial's start */
};

/* Why a trial stopped for a stalled TX port (hit false: it did not). */
struct wr_tx_stall {
	bool hit;
	unsigned int pidx;     /* the port's run index */
	uint64_t sent;         /* frames it sent in the trial, at the stop */
	uint64_t asked;        /* frames its --count asked for */
	uint64_t refused;      /* frames its PMD refused in the trial */
	double quiet_s;        /* seconds without a frame sent */
	char reason[384];      /* one sentence: the port, counts, likely cause */
};

enum wr_stop_reason {
	WR_STOP_NONE = 0,
	WR_STOP_DURATION,  /* --duration elapsed */
	WR_STOP_COUNT,     /* every TX queue sent its --count share */
	WR_STOP_SIGNAL,    /* SIGINT / SIGTERM */
	WR_STOP_ERROR,
	WR_STOP_IDLE,      /* --idle-timeout: nothing received for that long */
};

/* What one trial sends: the traffic phase between start and stop. */
struct wr_trial {
	uint32_t frame_size;       /* bytes, FCS included */
	struct wr_rate rate;       /* per TX port; WR_RATE_NONE: unpaced */
	uint64_t count_pkts;       /* per TX port, 0: unlimited */
	uint64_t duration_ms;      /* 0: until the count or a signal */
	/* Frames per second of each --stream for this trial, by stream
	 * index (0: the stream sends nothing); NULL: their own rates. The
	 * array outlives the trial (the method's). */
	const double *stream_pps;
	/* Count only: the TX ports send nothing this trial (the far end's
	 * settle pass for late frames, when it sends too). */
	bool count_only;
	/* A connection client's --conn-count: the trial ends as soon as
	 * every connection asked for has ended (wr_run_conn_done), not at
	 * the next interval's end. */
	bool conn_count_ends;
};

/* One port over one interval. */
struct wr_interval_port {
	struct wr_port_counters cnt;   /* cumulative at the end of the interval */
	struct wr_port_rates rates;
	struct wr_port_seq seq;        /* live snapshot: approximate, see collect.h */
	struct wr_cpu_port cpu;        /* its lcores' busy time, this interval */
};

/*
 * Intervals a trial keeps in memory: the last WR_RUN_KEEP_INTERVALS (two
 * minutes at the default 1 s). A ring, so memory and the checkpoint stay
 * bounded whatever the duration; every interval also goes to the result's
 * companion file (results/series.h, docs/results.md).
 */
#define WR_RUN_KEEP_INTERVALS 120

/* One interval of the live view. */
struct wr_interval {
	double t_s;                    /* end of the interval, since start */
	double dt_s;                   /* measured length */
	struct wr_interval_port *port; /* nb_ports entries, in run port order */
	struct wr_cpu_cost *lcore;     /* plan.nb_workers entries, plan order */
};

/* A stream (sender port and queue) as received on one port. */
struct wr_stream_result {
	uint16_t stream_id;
	uint16_t tx_port;              /* decoded from the stream id */
	uint16_t tx_queue;
	uint16_t rx_port;
	bool sender_known;             /* the sender is in this run */
	uint64_t sent_pkts;            /* when sender_known */
	int64_t lost_pkts;             /* sent - received (tail included) or
	                                * gaps; never negative */
	uint64_t excess_pkts;          /* received - sent when that is > 0 */
	unsigned int nb_rx_ports;      /* ports that received it, first rx_port */
	struct {
		uint16_t port_id;
		uint64_t rx_pkts;      /* unique frames merged from this port */
	} rx_split[WR_MAX_PORTS];
	bool lat_valid;                /* TX stamps share this run's clock */
	struct wr_stream_view view;
};

/*
 * The queue registry: every TX and RX queue of the run, one flat array per
 * direction, sorted by run port index, then queue id. Each queue knows its
 * run port index (pidx: run->setup.ports[pidx]), DPDK port id and queue id.
 * Walk them with WR_RUN_FOREACH_TXQ/RXQ (i: the registry index, q: the
 * queue), or WR_RUN_FOREACH_TXQ_OF/RXQ_OF for the queues of one run port.
 */
#define WR_RUN_MAX_QUEUES (WR_MAX_PORTS * WR_MAX_QUEUES)

struct wr_queues {
	unsigned int nb_tx;
	unsigned int nb_rx;
	struct wr_txq *tx[WR_RUN_MAX_QUEUES];
	struct wr_rxq *rx[WR_RUN_MAX_QUEUES];
};

#define WR_RUN_FOREACH_TXQ(run, i, txq) \
	for ((i) = 0; (i) < (run)->setup.q.nb_tx && ((txq) = (run)->setup.q.tx[(i)]) != NULL; (i)++)
#define WR_RUN_FOREACH_RXQ(run, i, rxq) \
	for ((i) = 0; (i) < (run)->setup.q.nb_rx && ((rxq) = (run)->setup.q.rx[(i)]) != NULL; (i)++)
#define WR_RUN_FOREACH_TXQ_OF(run, p, i, txq) \
	WR_RUN_FOREACH_TXQ(run, i, txq) if ((txq)->pidx != (p)) continue; else
#define WR_RUN_FOREACH_RXQ_OF(run, p, i, rxq) \
	WR_RUN_FOREACH_RXQ(run, i, rxq) if ((rxq)->pidx != (p)) continue; else

struct wr_cpu_track;
struct wr_capture;
struct wr_portkeep;
struct wr_replay_set;
struct json_t;

/* What set-up builds (setup/run.c); read-only while trials run. */
struct wr_run_setup {
	const struct wr_config *cfg;
	struct wr_portkeep *keep;      /* ports kept up between runs
	                                * (portkeep.h), NULL: none */
	char cmdline[1024];
	uint64_t tsc_hz;
	unsigned int nb_ports;         /* ports taking part, ascending id */
	struct wr_port ports[WR_MAX_PORTS];
	struct wr_plan plan;
	struct wr_worker *workers[WR_PLAN_MAX_WORKERS];
	struct wr_queues q;            /* every queue of the run: see above */
	struct wr_capture *cap;        /* --capture, NULL: off (capture.h) */
	struct wr_replay_set *replay;  /* --replay, NULL: off (replay_setup.h) */
	struct wr_svc *svc;            /* --port-ip responder, NULL: off (svc.h) */
	struct wr_clocksync clock;     /* --clock-sync as read at set-up */
	struct wr_clock_anchor anchor0; /* TSC and system clock at set-up */
};

/*
 * What the stats core keeps to read the workers' published copies
 * (stats/rxpub.c): each port's latency histogram at the last copy read,
 * and one port's merged copy and interval (large: 12 KB each).
 */
struct wr_run_pubread {
	struct wr_hist prev[WR_MAX_PORTS];
	struct wr_hist now;
	struct wr_hist ivl;
};

/*
 * What a trial changes (trial/, and the stats core in stats/): the
 * trial's clock and control, the interval series and the stats core's
 * previous readings. Reset by wr_run_trial.
 */
struct wr_run_live {
	struct wr_trial trial;         /* the trial in progress or last run */
	unsigned int nb_trials;        /* trials run so far */
	uint64_t nb_flushed_pkts;      /* frames drained between trials */
	bool seq_tagged;               /* two ends: frames carry seq_tag */
	uint16_t seq_tag;              /* the next trial's tag (seq.h) */
	struct wr_ctl ctl;
	bool launched;
	bool stopped;
	bool rx_clock_started;         /* --start-on-rx: first frame seen */
	uint64_t start_tsc;
	uint64_t tx_stop_tsc;
	uint64_t end_tsc;
	uint64_t last_tsc;             /* last snapshot */
	uint64_t nic_read_tsc;         /* last NIC counter read */
	/* The stats core's reading of the workers' copies (stats/rxpub.c),
	 * NULL until the first tick; freed and reset with each trial. */
	struct wr_run_pubread *pubread;
	/* --json rewritten during the run (--checkpoint): when it last was
	 * flushed to disk (each --checkpoint T at most; one as a trial ends
	 * may skip the fsync, wr_result_checkpoint_keep),
	 * whether this tick's copies are ready for one, and how many were
	 * written or failed (stats core only). */
	uint64_t ckpt_tsc;
	bool ckpt_ready;
	uint64_t nb_ckpt_written;
	uint64_t nb_ckpt_failed;
	/* What finished before the trial in progress (a method's points and
	 * trials, --repeat's trials): a JSON object whose keys each checkpoint
	 * carries; borrowed from its owner (results/result.h), NULL: none. */
	struct json_t *ckpt_done;
	/* Most streams an RX queue left out of its published copies this
	 * trial (beyond WR_PUB_STREAMS), by registry index (rxpub.c). */
	uint16_t rx_unpub[WR_RUN_MAX_QUEUES];
	/* Each TX queue's sent frames (registry order) as of the last
	 * reading of the ports, the one totals[] come from: streams[] and
	 * tx_streams[] take theirs from it, so that a checkpoint's figures
	 * are of one instant (stats core only). */
	uint64_t txq_sent_pkts[WR_RUN_MAX_QUEUES];
	struct wr_port_counters *last; /* nb_ports: previous snapshot */
	struct wr_port_counters *nic;  /* nb_ports: last NIC reading */
	struct wr_cpu_track *cpu;      /* CPU cost per lcore and port */
	/* The interval series: a ring of WR_RUN_KEEP_INTERVALS slots (their
	 * port and lcore arrays made once, kept across trials); nb_intervals
	 * counts every interval of the trial (stats core only). */
	unsigned int nb_intervals;
	struct wr_interval *intervals;
	/* The companion file of every interval (results/series.c), NULL
	 * when not written; lines written, and whether a write failed. */
	FILE *series;
	uint64_t nb_series_lines;
	bool series_failed;
	struct wr_link_watch link[WR_MAX_PORTS]; /* by run port index, stats core */
	struct wr_tx_watch txw[WR_MAX_PORTS];    /* by run port index, stats core */
};

/* What results read: final once the trial stopped (and the ports closed). */
struct wr_run_res {
	enum wr_stop_reason stop_reason;
	struct wr_port_counters *total;   /* nb_ports, exact, after stop */
	unsigned int nb_streams;
	struct wr_stream_result *streams;
	bool port_lat_valid[WR_MAX_PORTS]; /* every stream on the port qualifies */
	struct wr_xcheck xcheck;       /* cross-checks of the last trial (and
	                                * mbufs, once the ports closed) */
	bool closed;
	uint64_t mbufs_missing;
	uint64_t nb_stranded_pkts;     /* left in ring pairs, freed at close */
	struct wr_tx_stall tx_stall;   /* the trial stopped: a TX port stalled */
};

/*
 * A run, in three parts by who writes them: set-up, the trial in progress,
 * and what results read. lib/ reads the parts it needs; app/ goes through
 * the accessors below.
 */
struct wr_run {
	struct wr_run_setup setup;
	struct wr_run_live live;
	struct wr_run_res res;
};

/*
 * Accessors: how code outside lib/ (app/) reads a run. Read-only views of
 * the set-up, the trial in progress and the results.
 */
static inline const struct wr_config *
wr_run_cfg(const struct wr_run *run) { return run->setup.cfg; }

static inline unsigned int
wr_run_nb_ports(const struct wr_run *run) { return run->setup.nb_ports; }

/* Run port index p (0 .. wr_run_nb_ports - 1). */
static inline const struct wr_port *
wr_run_port(const struct wr_run *run, unsigned int p) { return &run->setup.ports[p]; }

static inline const struct wr_plan *
wr_run_plan(const struct wr_run *run) { return &run->setup.plan; }

static inline uint64_t
wr_run_tsc_hz(const struct wr_run *run) { return run->setup.tsc_hz; }

static inline struct wr_capture *
wr_run_capture(const struct wr_run *run) { return run->setup.cap; }

/* The trial in progress, or the last one. */
static inline const struct wr_trial *
wr_run_trial_spec(const struct wr_run *run) { return &run->live.trial; }

static inline unsigned int
wr_run_nb_trials(const struct wr_run *run) { return run->live.nb_trials; }

/* TSC cycles from the start to the end of TX (the measured window). */
static inline uint64_t
wr_run_tx_tsc(const struct wr_run *run)
{
	return run->live.tx_stop_tsc - run->live.start_tsc;
}

static inline const struct wr_link_watch *
wr_run_link(const struct wr_run *run, unsigned int p) { return &run->live.link[p]; }

static inline const struct wr_cpu_track *
wr_run_cpu(const struct wr_run *run) { return run->live.cpu; }

/* Intervals of the trial so far, kept or not. */
static inline unsigned int
wr_run_nb_intervals(const struct wr_run *run) { return run->live.nb_intervals; }

/* The first interval still kept (the ring holds the last ones). */
static inline unsigned int
wr_run_first_interval(const struct wr_run *run)
{
	unsigned int n = run->live.nb_intervals;

	return n > WR_RUN_KEEP_INTERVALS ? n - WR_RUN_KEEP_INTERVALS : 0;
}

/* Interval i of the trial's series (wr_run_first_interval ..
 * nb_intervals - 1: older ones are overwritten). */
static inline const struct wr_interval *
wr_run_interval(const struct wr_run *run, unsigned int i)
{
	return &run->live.intervals[i % WR_RUN_KEEP_INTERVALS];
}

/* What results read: exact once the trial stopped. */
static inline const struct wr_run_res *
wr_run_res(const struct wr_run *run) { return &run->res; }

/*
 * Set-up only (trial/trial.h's wr_run_create adds the stats core's
 * state): make ring pairs if asked, choose the ports and their roles, probe
 * them, plan lcores, set up and start the ports and wait for their links,
 * make the queues, the workers, --capture and the --impair fixture. With
 * keep (not NULL), ports and ring pairs a run before left up are taken
 * when they fit, and this run's are left up at close (portkeep.h). On
 * success *out is the run; on error *out is NULL and everything made was
 * undone.
 */
int wr_setup_create(const struct wr_config *cfg, const char *cmdline,
		struct wr_portkeep *keep, struct wr_run **out, struct wr_error *err);

/*
 * Remove the fixture, stop and close the ports (kept ones stay up:
 * portkeep.h), and count the mbufs not back in their pools
 * (run->res.mbufs_missing). The workers must have
 * returned. This function can't fail; idempotent.
 */
void wr_setup_close(struct wr_run *run);

/* Free what set-up made; safe on NULL. */
void wr_setup_destroy(struct wr_run *run);

/* True once every TX queue has sent its share of --count. */
bool wr_run_tx_done(const struct wr_run *run);

/* True for drivers whose reported link speed is a label (virtual NICs). */
bool wr_run_speed_is_label(const struct wr_port *p);
/*
 * True for drivers with no wire at all (ring, null, memif, vhost,
 * virtio_user): their Gb/s is bytes handed over in memory (a ring passes
 * pointers), never a line rate to set beside a NIC's.
 */
bool wr_run_port_no_wire(const struct wr_port *p);

/* Index among the run's ports of port_id (nb_ports when absent). */
unsigned int wr_run_port_index(const struct wr_run *run, uint16_t port_id);

/* Seconds between two TSC values of this run. */
static inline double
wr_run_seconds(const struct wr_run *run, uint64_t from_tsc, uint64_t to_tsc)
{
	return run->setup.tsc_hz == 0 ? 0.0 :
		(double)(to_tsc - from_tsc) / (double)run->setup.tsc_hz;
}

/*
 * Whether this run may report latency at all: --latency is not off and TX
 * writes a timestamp into every frame (--stamp full; with seq or none the
 * stamp stays 0 and "latency" would be the receive clock).
 */
bool wr_run_lat_on(const struct wr_run *run);

/*
 * Whether latency of a stream may be reported: wr_run_lat_on(), and its
 * sender is in this process or --latency tsc says the sender shares this
 * host's TSC.
 */
bool wr_run_lat_valid(const struct wr_run *run, bool sender_in_run);
/*
 * Whether any stream of the run can have a valid latency: latency on, and
 * --latency tsc or a sender in this run. When not, the RX queues do not
 * count it (wr_rxq.count_lat) and no port reports it.
 */
bool wr_run_lat_possible(const struct wr_run *run);

/* Whether a paced port reached its --rate, and if not, why. */
struct wr_rate_check {
	double requested_pps;      /* what the pacers were set to */
	double achieved_pps;       /* frames accepted by the PMD / duration */
	double shortfall_pct;      /* (requested - achieved) / requested, >= 0 */
	uint64_t clamped_pkts;     /* budget the worker could not spend in time */
	uint64_t backlog_pkts;     /* budget earned but unspent at stop */
	uint64_t stall_clamped_pkts; /* of clamped_pkts, after a stall */
	uint64_t nb_stalls;        /* clamping grants after a stall */
	double longest_stall_s;    /* longest of those gaps */
	double stalled_s;          /* those gaps added up (longest queue) */
	double off_cpu_s;          /* kernel: TX loop time a worker of the
	                            * port was not given, and ... */
	double in_kernel_s;        /* ... of the time given, spent in the
	                            * kernel (faults, interrupts): the worker
	                            * the kernel took the most from */
	double catchup_s;          /* shortest backlog window of the queues */
	uint64_t nb_blocked;       /* times a worker of the port blocked in a
	                            * call (voluntary context switches) */
	double slept_s;            /* longest a worker of the port slept in
	                            * calls (off its CPU, not waiting for one) */
	bool port_blocked;         /* not reached, and those sleeps account
	                            * for at least half the frames missing */
	bool reached;              /* within WR_RUN_RATE_TOLERANCE_PCT, no clamp */
	const char *reason;        /* when not reached */
};

#define WR_RUN_RATE_TOLERANCE_PCT 0.5
#define WR_RUN_PACE_CATCHUP_S 0.010     /* backlog a stalled worker keeps */
#define WR_RUN_PACE_MAX_BACKLOG 16384u

/*
 * Compare the paced rate of port index p with what it sent over the run.
 * Returns false when the port was not paced. Call after wr_run_stop.
 */
bool wr_run_rate_check(const struct wr_run *run, unsigned int p,
		struct wr_rate_check *out);

/* Name of a stop reason for reports. */
const char *wr_run_stop_name(enum wr_stop_reason why);

#endif /* WR_RUN_H */
