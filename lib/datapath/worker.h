/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Worker lcores: the only hot paths. A worker owns TX and RX queues (from
 * the plan), polls them in one loop, and publishes per-queue counters once
 * per burst. Workers never print, lock, allocate, or read NIC counters; the
 * main lcore only flips the stop flags in struct wr_ctl.
 */
#ifndef WR_WORKER_H
#define WR_WORKER_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_mbuf.h>

#include "base/counter.h"
#include "config/config.h"
#include "config/mix.h"
#include "config/pattern.h"
#include "measure/cpu.h"
#include "measure/hist.h"
#include "measure/iat.h"
#include "measure/seq.h"
#include "pace.h"
#include "replay.h"
#include "txvar.h"

struct rte_eth_rxtx_callback;
struct rte_ring;
struct wr_l3svc_port;
struct wr_impair_q;
struct wr_connq;

/* Stream ids are port * WR_MAX_QUEUES + queue of the sender. */
#define WR_MAX_STREAMS (WR_MAX_PORTS * WR_MAX_QUEUES)

/* Streams of one RX queue whose trackers are published live. */
#define WR_PUB_STREAMS 64u

/*
 * Stop flags and the publication request; written only by the main lcore,
 * read by workers (one cache line, read every loop iteration).
 */
struct wr_ctl {
	int tx_stop;   /* TX workers drain and stop sending */
	int rx_stop;   /* everyone returns */
	uint64_t pub_req; /* raised once per interval: publish RX state */
	uint64_t pub_read; /* the last request whose copies the stats core read */
	/* Bit p: the stats core saw run port index p's link go down (and not
	 * yet back up): its TX queues offer nothing (worker.c poll_tx). */
	uint64_t tx_paused;
	/* Bit p: TX of run port index p held by the controller (update with
	 * pause, trial/live.c); the stats core folds it into tx_paused. */
	uint64_t tx_held;
	/* Live rate changes (trial/live.c): odd while the controller writes
	 * the TX queues' pace_live, even once they are whole; a worker that
	 * sees a new even value re-inits its pacers from them. */
	uint64_t pace_gen;
	/* A connection run's end (connworker.h): 1: open no new connection,
	 * let the open ones finish; 2: and release the held ones
	 * (wr_conn_engine_release); 3: and close the held ones at
	 * trial_close_cps (wr_conn_engine_teardown). */
	int conn_drain;
	/* The TSC the stop was given at, written before tx_stop (release),
	 * read once at the end: the pacers settle their budget up to it
	 * (wr_worker_tx_end). Last, so the fields read every loop stay in
	 * the first 64 bytes. */
	uint64_t tx_stop_tsc;
};
_Static_assert(WR_MAX_PORTS <= 64, "wr_ctl.tx_paused holds a bit per port");

/* TX queue counters: written only by the owning lcore. */
struct wr_txq_stats {
	uint64_t nb_pkts;         /* accepted by rte_eth_tx_burst; bytes follow */
	uint64_t nb_full_pkts;    /* offered but not taken (ring full); retried */
	uint64_t nb_alloc_fail;   /* bursts that found the pool empty */
	uint64_t nb_unsent_pkts;  /* built but still pending at stop; freed */
	/* --port-ip service replies from svc_ring: never stream frames. */
	uint64_t nb_service_pkts;      /* taken by rte_eth_tx_burst */
	uint64_t nb_service_drop_pkts; /* not taken by the PMD; freed */
	/* Frames of their own sizes (a connection run's segments, counted
	 * with nb_pkts when seg_bytes is set): their bytes, FCS included. */
	uint64_t nb_seg_bytes;
} __rte_cache_aligned;

struct wr_txq {
	/* Set up before launch, then read-only. */
	uint16_t port;            /* DPDK port id */
	uint16_t queue;
	uint16_t pidx;            /* run port index (setup/run.h registry) */
	uint16_t burst_pkts;
	uint16_t sport_base;      /* first UDP source port, host order */
	uint32_t nb_flows;
	uint32_t frame_size;      /* bytes, FCS included */
	uint32_t data_len;        /* bytes in the mbuf */
	uint32_t sport_off;
	uint32_t th_off;
	enum wr_stamp stamp;      /* test header fields written per frame */
	uint64_t limit_pkts;      /* frames to send; UINT64_MAX: no limit */
	struct rte_mempool *pool; /* pre-filled with this queue's template */
	bool paced;               /* --rate given: pace.conf holds this queue's share */
	struct wr_pace_conf pace_conf;
	const struct wr_txvar *var; /* NULL: fixed-size IPv4, nothing varies */
	const struct wr_mix *mix; /* NULL: every frame has frame_size bytes */
	bool gated;               /* a burst or poisson pattern: gate decides */
	bool seg_bytes;           /* sizes vary per frame: bytes in st.nb_seg_bytes */

	/* Private to the owning lcore. */
	uint64_t next_seq;        /* sequence of the next new frame */
	uint32_t flow;
	uint32_t var_pos;         /* slot of the next new frame in var->seq */
	uint16_t nb_pending;      /* built, not yet taken by the PMD */
	struct rte_mbuf *pending[WR_MAX_BURST];
	struct wr_pace pace;      /* initialised when the worker starts */

	struct wr_txq_stats st;
	uint64_t done;            /* 1 once limit_pkts were sent (owner writes) */
	struct wr_gate gate;      /* gated: owner lcore's once running */
	/* The rate asked for live (pps 0: none this trial). Written by the
	 * controller between two wr_ctl.pace_gen steps, read by the owner. */
	struct wr_pace_conf pace_live;
	/* --replay: this queue's frames of the capture (set-up's; NULL: test
	 * frames). Its lcore runs wr_replay_main. */
	struct wr_replayq *replay;
	/* --port-ip: replies the main lcore built for this port, sent by the
	 * owner before its own burst (svcq.h); NULL: none on this queue. */
	struct rte_ring *svc_ring;
} __rte_cache_aligned;

/* RX queue counters: written only by the owning lcore. */
struct wr_rxq_stats {
	uint64_t nb_pkts;
	uint64_t nb_bytes;         /* frame bytes, FCS included */
	uint64_t nb_own_pkts;      /* carry our test header */
	uint64_t nb_foreign_pkts;  /* no signature */
	uint64_t nb_malformed_pkts;/* signature but truncated or inconsistent */
	/* The RX clock (stats/rxclock.h): bursts with own frames, or any
	 * non-empty burst with clock_any (--rx-clock any, --reflect). */
	uint64_t first_tsc;        /* TSC of the clock's first burst; 0: none */
	uint64_t last_tsc;         /* TSC of the clock's latest burst */
	uint64_t nb_reflected_pkts;   /* --reflect: sent back out */
	uint64_t nb_reflected_bytes;  /* frame bytes, FCS included */
	uint64_t nb_unreflected_pkts; /* --reflect: TX queue full; freed */
	/* --port-ip: ARP, NS, echo requests for the port (svcq.h), handed to
	 * the main lcore; neither own, foreign nor malformed. */
	uint64_t nb_service_pkts;
	uint64_t nb_service_drop_pkts; /* of those: svc_ring full, freed */
} __rte_cache_aligned;

/* What one RX queue knows of one sender stream. Owner lcore writes. */
struct wr_rx_stream {
	struct wr_seq seq;
	struct wr_jitter jitter;  /* TSC cycles */
	uint64_t lat_min_tsc;
	uint64_t lat_max_tsc;
	uint64_t lat_sum_tsc;     /* modulo 2^64 ... */
	uint64_t lat_sum_hi;      /* ... and its carries */
	uint64_t nb_lat;
	struct wr_rx_iat iat;     /* folded once per burst (wr_iat_fold) */
	uint32_t nb_burst_pkts;   /* frames in the burst being classified;
	                           * 0 between bursts */
};

struct wr_capq;

/*
 * The publishing rule for what an RX queue's worker writes besides its
 * counters (counter.h): the sequence trackers, per-stream latency and the
 * latency histogram are plain single-writer state, never read by another
 * lcore while the worker runs. Once per interval the stats core raises
 * wr_ctl.pub_req; the worker, between two bursts, copies that state into
 * pub[req & 1] and then stores pub_done = req (release). The stats core
 * reads pub[req & 1] only after loading pub_done == req (acquire), and
 * raises the next request (which writes the other copy) only after it is
 * done reading, so every copy it reads is stable and from one instant.
 * After the workers returned the state itself is read (exact, final).
 */
struct wr_rxq_pub {
	uint64_t ivl_min_tsc;     /* latency extremes since the copy the stats */
	uint64_t ivl_max_tsc;     /* core last read (wr_ctl.pub_read); min
	                           * UINT64_MAX when none */
	struct wr_hist lat;       /* counts only (wr_hist_count) */
	uint16_t nb_streams;      /* entries of sid[] and streams[] */
	uint16_t nb_unpublished;  /* streams beyond WR_PUB_STREAMS */
	uint16_t sid[WR_PUB_STREAMS];
	struct wr_rx_stream streams[WR_PUB_STREAMS];
};

struct wr_rxq {
	uint16_t port;            /* DPDK port id */
	uint16_t queue;
	uint16_t pidx;            /* run port index (setup/run.h registry) */
	uint16_t burst_pkts;
	/* Whether own frames' latency is counted: false when no stream can
	 * report it (set-up's, wr_run_lat_possible), saving the work. */
	bool count_lat;
	/* --rx-clock any: every non-empty burst stamps the RX clock; false:
	 * only a burst with own frames does (set-up's, read-only). */
	bool clock_any;
	/* The --impair fixture in front of this queue (set-up's; NULL: none). */
	struct wr_impair_q *impair;
	const struct rte_eth_rxtx_callback *impair_cb;
	struct wr_capq *cap;      /* --capture state, NULL: off (capture.h) */
	struct wr_rxq_stats st;
	/* Written only by the owning lcore; read as wr_rxq_pub says. */
	struct wr_hist_pub lat_pub; /* extremes, and what the copies lack */
	struct wr_hist lat;       /* latency of own frames, TSC cycles: counts
	                           * only; moments from the streams */
	uint16_t nb_active;       /* streams seen, in active[] */
	uint16_t active[WR_MAX_STREAMS];
	struct wr_rx_stream streams[WR_MAX_STREAMS];
	uint64_t pub_done;        /* last request copied (release) */
	struct wr_rxq_pub pub[2];
	/* --port-ip (set-up's, read-only; NULL: off): what the port answers
	 * for, and the ring its service frames go to the main lcore by. */
	const struct wr_l3svc_port *svc;
	struct rte_ring *svc_ring;
} __rte_cache_aligned;

/* Per-worker CPU cost; written only by the owning lcore. */
struct wr_worker_stats {
	uint64_t busy_tsc;        /* loop iterations that moved frames */
	uint64_t idle_tsc;        /* iterations that found nothing to do */
	uint64_t nb_busy_polls;
	uint64_t nb_idle_polls;
	/* Polls of each queue by frames moved (cpu.h bins), one bump each. */
	uint64_t tx_bursts[WR_CPU_BURST_BINS];
	uint64_t rx_bursts[WR_CPU_BURST_BINS];
	/* Over the TX loop, written once as it ends: its TSC span, the
	 * CPU time the kernel gave the thread (CLOCK_THREAD_CPUTIME_ID) and,
	 * of that, the time the thread spent in the kernel (getrusage
	 * RUSAGE_THREAD ru_stime: page faults, and interrupts the kernel
	 * charges to the task it interrupted; sampled at the tick). */
	uint64_t loop_tsc;
	uint64_t loop_cpu_ns;
	uint64_t loop_sys_ns;
	/* Voluntary context switches over the TX loop (ru_nvcsw): a polling
	 * worker never sleeps on its own, so each is a call that blocked,
	 * mostly a port holding back TX (a kernel qdisc's back-pressure),
	 * though a page fault can sleep too: the time tells them apart. */
	uint64_t loop_nvcsw;
	/* Of the loop's span, the time the thread was runnable but waited
	 * for a CPU (schedstat's run-queue wait; all time off the CPU when
	 * the kernel has no schedstat): the rest of the time off the CPU it
	 * slept in a call. */
	uint64_t loop_runq_ns;
} __rte_cache_aligned;

/* What a worker's loop does; decided once, before launch. */
enum wr_worker_mode {
	WR_WORKER_GEN = 0,     /* generate on TX queues, count on RX queues */
	WR_WORKER_REFLECT = 1, /* send each RX queue's frames back (reflect.c) */
	WR_WORKER_REPLAY = 2,  /* TX queues replay a capture (replay.c) */
	WR_WORKER_CONN = 3,    /* a connection engine on one port's TX and
	                        * RX queue (connworker.c) */
};

struct wr_worker {
	unsigned int lcore;
	enum wr_worker_mode mode;
	uint16_t nb_tx;
	uint16_t nb_rx;
	struct wr_txq *tx[WR_MAX_QPW];
	struct wr_rxq *rx[WR_MAX_QPW];
	const struct wr_ctl *ctl;
	uint64_t pub_seen;        /* last ctl->pub_req served; own lcore only */
	struct wr_worker_stats st;
	uint64_t pace_gen;        /* last ctl->pace_gen applied; own lcore only */
	bool svc_tx;              /* a TX queue has a svc_ring (set-up's) */
	/* WR_WORKER_CONN: its engine and queues (set-up's). */
	struct wr_connq *conn;
} __rte_cache_aligned;

/*
 * Publish the TSC of an RX burst of the clock's frames (first_tsc): the
 * first one once, the latest every time. Only the queue's owning lcore
 * may call this.
 */
static inline void
wr_rxq_stamp(struct wr_rxq_stats *st, uint64_t now_tsc)
{
	if (unlikely(st->first_tsc == 0))
		wr_counter_set(&st->first_tsc, now_tsc);
	wr_counter_set(&st->last_tsc, now_tsc);
}

/*
 * Add one loop iteration of delta_tsc cycles to the busy (work != 0) or
 * idle side. Only the worker's own lcore may call this.
 */
static inline void
wr_worker_account(struct wr_worker_stats *st, unsigned int work, uint64_t delta_tsc)
{
	if (work != 0) {
		wr_counter_add(&st->busy_tsc, delta_tsc);
		wr_counter_add(&st->nb_busy_polls, 1);
	} else {
		wr_counter_add(&st->idle_tsc, delta_tsc);
		wr_counter_add(&st->nb_idle_polls, 1);
	}
}

/*
 * Bytes (FCS included) of the first pkts frames of TX queue q: frames
 * leave in sequence order, so a mix gives them exactly. Not for the hot
 * path. This function can't fail.
 */
static inline uint64_t
wr_txq_bytes(const struct wr_txq *q, uint64_t pkts)
{
	if (q->replay != NULL)
		return wr_replayq_bytes(q->replay, pkts);
	if (q->mix != NULL)
		return wr_mix_bytes(q->mix, pkts);
	if (q->seg_bytes)
		return wr_counter_read(&q->st.nb_seg_bytes);
	return pkts * q->frame_size;
}

/*
 * Frames with a test header among the first pkts frames of TX queue q:
 * its stream's sent count (a replay queue stamps only some, or none).
 * Not for the hot path. This function can't fail.
 */
static inline uint64_t
wr_txq_stream_pkts(const struct wr_txq *q, uint64_t pkts)
{
	return q->replay != NULL ? wr_replayq_stamped(q->replay, pkts) : pkts;
}

/* Reset a TX queue's private state and counters. This function can't fail. */
void wr_txq_reset(struct wr_txq *q);

/* Reset an RX queue's counters and stream trackers. This function can't fail. */
void wr_rxq_reset(struct wr_rxq *q);

/*
 * After wr_rxq_reset: every stream tracker of q counts only frames of
 * trial tag as its own (seq.h, two-ended runs). This function can't fail.
 */
void wr_rxq_tag(struct wr_rxq *q, uint16_t tag);

/*
 * Add the latency of q's own frames to h (as wr_hist_merge would): bucket
 * counts from q->lat, exact nb, min, max and sum from q's streams. Only
 * once q's worker returned. This function can't fail.
 */
void wr_rxq_lat_final(struct wr_hist *h, const struct wr_rxq *q);

/* The same from a published copy (struct wr_rxq_pub). Can't fail. */
void wr_rxq_lat_pub(struct wr_hist *h, const struct wr_rxq_pub *pb);

/*
 * Serve a publication request (struct wr_rxq_pub) for every RX queue of w:
 * kept out of line, called at most once per interval. Only w's lcore.
 */
void wr_worker_publish(struct wr_worker *w, uint64_t req);

/*
 * Serve a pending publication request, if any: one acquire load of the
 * control line per loop iteration (a plain load on x86): what the worker
 * then writes into the copy comes after the stats core finished reading it. Only w's lcore may call this.
 */
static inline void
wr_worker_poll_publish(struct wr_worker *w)
{
	uint64_t req = __atomic_load_n(&w->ctl->pub_req, __ATOMIC_ACQUIRE);

	if (unlikely(req != w->pub_seen))
		wr_worker_publish(w, req);
}

/*
 * End of one loop iteration of w that moved work frames and began at
 * prev_tsc: serve a publication request (the copy, once per interval),
 * then read clock, then account the iteration's cycles. Returns the TSC
 * read, which stamps the next TX burst: read after the copy, so that no
 * frame's latency includes it. clock is rte_rdtsc in the loop (inlined);
 * tests pass their own. Only w's lcore may call this.
 */
static __rte_always_inline uint64_t
wr_worker_iter_end(struct wr_worker *w, unsigned int work, uint64_t prev_tsc,
		uint64_t (*clock)(void))
{
	uint64_t now;

	wr_worker_poll_publish(w);
	now = clock();
	wr_worker_account(&w->st, work, now - prev_tsc);
	return now;
}

/*
 * One RX burst on q (worker_rx.c) in a poll that began at TSC poll_tsc:
 * receive, classify and count each frame, free the burst (or hand it to
 * --capture, or a service frame to svcq.h), publish q's counters once.
 * Returns frames received. Only q's lcore, from the worker loop
 * (worker.c); internal to datapath.
 */
uint16_t wr_rxq_burst(struct wr_rxq *q, uint64_t poll_tsc);

/*
 * One RX burst on each RX queue of w, as the generator's loop polls them,
 * in a poll that began at TSC poll_tsc; returns frames received. Only
 * w's lcore (replay.c's loop).
 */
unsigned int wr_worker_poll_rx(struct wr_worker *w, uint64_t poll_tsc);

/*
 * The end of a worker's run once TX stopped (ctl->tx_stop) at TSC now:
 * keep receiving until ctl->rx_stop, then flush --capture. Returns 0.
 * Only w's lcore.
 */
int wr_worker_rx_until_stop(struct wr_worker *w, uint64_t now);

/*
 * The lcore function (rte_eal_remote_launch): loop over the worker's queues
 * until ctl->tx_stop, free what is still pending, keep receiving until
 * ctl->rx_stop. Returns 0.
 */
int wr_worker_main(void *arg);

#endif /* WR_WORKER_H */
