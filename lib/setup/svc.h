/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The --port-ip responder while workers run, and between trials
 * (docs/l3.md, docs/architecture.md): the main lcore's side of the
 * service rings (datapath/svcq.h). Workers hand it the ARP requests,
 * neighbour solicitations and echo requests for their ports' addresses;
 * it answers them with base/l3svc and puts each reply on its port's
 * reply ring, which the worker owning that TX queue drains before its own
 * burst. A port no worker sends on (RX only) has its TX queue 0 to
 * itself: the main lcore sends there directly; a port no worker receives
 * on (TX only) has its RX queue 0 to itself: the main lcore polls it and
 * counts what it finds. After the workers returned, and between trials,
 * it sends directly on every port.
 */
#ifndef WR_SVC_H
#define WR_SVC_H

#include <stdbool.h>
#include <stdint.h>

#include "base/error.h"
#include "base/l3svc.h"
#include "config/config.h"
#include "measure/stats.h"

struct rte_mbuf;
struct rte_mempool;
struct rte_ring;
struct wr_run;
struct wr_txq;

/*
 * Bursts (of WR_SVCQ_BURST) one wr_svc_poll reads at most from each port
 * it polls itself: 1024 frames a call, every 10 ms tick of the main lcore
 * (about 100 k frames/s a port). Its clock, signals, intervals and
 * checkpoints come first whatever arrives.
 */
#define WR_SVC_POLL_BURSTS 64u

/* The responder's state; the main lcore's alone once workers run. */
struct wr_svc {
	bool on[WR_MAX_PORTS];                  /* by run port index */
	struct wr_l3svc_port port[WR_MAX_PORTS]; /* what each answers for */
	/* The TX queue a worker sends replies on, and its reply ring;
	 * NULL: none, the main lcore sends on the port's TX queue 0. */
	struct wr_txq *reply_q[WR_MAX_PORTS];
	bool rx_self[WR_MAX_PORTS];   /* no worker RX queue: the main lcore's */
	uint64_t announce_tsc;        /* --announce period; 0: off */
	uint64_t next_announce_tsc;   /* when the next announcement is due */
	/* Counted by the main lcore, reset each trial. */
	struct wr_port_counters rx[WR_MAX_PORTS]; /* rx_self ports: rx_ */
	uint64_t nb_direct_pkts[WR_MAX_PORTS];  /* replies it sent itself */
	uint64_t nb_drop_pkts[WR_MAX_PORTS];    /* replies lost: no mbuf,
	                                         * ring full, PMD refused */
};

/*
 * A frame of len bytes copied into a new mbuf of pool, or NULL when the
 * pool is empty. This function can't fail otherwise.
 */
struct rte_mbuf *wr_svc_mbuf(struct rte_mempool *pool, const uint8_t *frame,
		uint32_t len);

/*
 * Give every RX queue of a port with a --port-ip address a service ring
 * and the port's first worker TX queue a reply ring; nothing without
 * --port-ip, or with --reflect or --replay (their workers do not run the
 * generator's loop: docs/l3.md). After the workers exist, before they
 * launch. Returns 0 or -ENOMEM (environment, in err).
 */
int wr_svc_setup(struct wr_run *run, struct wr_error *err);

/*
 * Answer what the workers handed over, and announce when --announce says
 * it is time; the frames go by the reply rings (direct false: workers may
 * be sending) or straight to the PMD (direct: no worker runs). Main lcore
 * only. This function can't fail.
 */
void wr_svc_poll(struct wr_run *run, bool direct);

/*
 * Once the workers returned: answer what is left and send what waits on
 * the reply rings. Main lcore only. This function can't fail.
 */
void wr_svc_stopped(struct wr_run *run);

/*
 * Answer m, received by run port index p while no worker runs (it stays
 * the caller's to free); returns whether it was a service frame of p.
 * Main lcore only.
 */
bool wr_svc_take(struct wr_run *run, unsigned int p, const struct rte_mbuf *m);

/* Zero the main lcore's counters for a new trial. Can't fail. */
void wr_svc_reset(struct wr_run *run);

/* Free the rings and what they hold; safe on partial state. */
void wr_svc_teardown(struct wr_run *run);

#endif /* WR_SVC_H */
