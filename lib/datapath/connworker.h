/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The connection worker (docs/tcp.md): one worker lcore runs one
 * connection engine (conn/engine.h) on one port's TX and RX queue. Per
 * loop turn: one RX burst; each frame's IP packet goes to the engine,
 * what the engine does not take goes to the --port-ip service path
 * (ARP, NS, echo: svcq.h) or is counted as other and freed; the engine
 * polls its timers and rate; what it emitted leaves in TX bursts. The
 * engine writes IP packets into mbufs this worker takes from its own
 * cache (bulk allocations from the connection pool its socket's workers
 * share: connsetup.h); the worker puts the L2 header in front (the next
 * hop's MAC from set-up's resolution, or, for a server, the MAC of the
 * frame it answers). Time is the TSC turned into microseconds with no
 * division (connclock.h).
 *
 * One queue per port: af_packet, em and vmxnet3 with one queue have no
 * RSS, so one worker owns every connection of its port.
 */
#ifndef WR_CONNWORKER_H
#define WR_CONNWORKER_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_ether.h>
#include <rte_mbuf.h>

#include "conn/engine.h"
#include "connclock.h"

struct wr_txq;
struct wr_rxq;
struct wr_worker;

/* Mbufs one bulk allocation puts in the worker's cache. */
#define WR_CONNQ_CACHE 64u

/* Segments gathered before a TX burst (also sent at each turn's end). */
#define WR_CONNQ_TX_BURST 32u

/*
 * Frames the PMD refused that wait in out[] for the next turn's burst (a
 * full ring: the peer's lcore was late) instead of being freed at once;
 * only those past this many are freed and counted as refused. A frame
 * freed costs its connection an RTO (1 s for a SYN, RFC 6298 2.1); one
 * kept costs a turn. While any wait the client starts no connection.
 */
#define WR_CONNQ_KEEP 1024u
#define WR_CONNQ_OUT (WR_CONNQ_KEEP + WR_CONNQ_TX_BURST)

/*
 * Port-level counts of a connection worker, written only by its lcore
 * (counter.h). The engine's books count segments; these count frames.
 * A frame the PMD refused is kept for the next burst (WR_CONNQ_KEEP);
 * past that, or still waiting at the run's end, it is freed here and
 * counted in nb_tx_refused_pkts only: the engine believes it sent, so TCP
 * resends it as for a loss on the wire (its nb_tx_no_buf counts only
 * segments it had no buffer for).
 */
struct wr_connq_stats {
	uint64_t nb_rx_tcp_pkts;     /* frames the engine took */
	uint64_t nb_rx_other_pkts;   /* neither the engine's nor a service
	                              * frame: freed */
	uint64_t nb_tx_pkts;         /* frames the PMD took */
	uint64_t nb_tx_bytes;        /* their bytes, FCS included */
	uint64_t nb_tx_refused_pkts; /* built, not taken by the PMD: freed */
	uint64_t nb_tx_kept_pkts;    /* refused once, kept for the next burst */
	uint64_t nb_alloc_fail;      /* bulk allocations the pool refused */
	uint64_t idle;               /* 1: drained and nothing open (after
	                              * wr_ctl.conn_drain), else 0 */
} __rte_cache_aligned;

/*
 * A connection worker's state: set-up fills the first part, the worker
 * lcore alone writes the rest while it runs.
 */
struct wr_connq {
	/* Set-up's, read-only while the worker runs. */
	struct wr_txq *txq;           /* the port's TX queue (registry) */
	struct wr_rxq *rxq;           /* the port's RX queue (registry) */
	struct rte_mempool *pool;     /* mbufs for the segments (shared) */
	struct wr_conn_engine *eng;   /* in eng_mem, on the port's socket */
	void *eng_mem;
	struct wr_connclock clock;    /* started at the first launch; later
	                               * launches (a search's trials) keep it,
	                               * so the engine's time never goes back */
	struct rte_ether_addr src_mac;
	struct rte_ether_addr dst_mac; /* the next hop (client) */
	bool learn_dst;               /* server: answer the MAC it heard */
	uint8_t role;                 /* enum wr_conn_role of this port */
	bool drain_late;              /* a server in a run with clients of
	                               * its own: it never refuses a SYN at
	                               * the end (connq_turn_end) */
	bool tx_csum;                 /* the PMD computes TCP checksums */
	uint64_t ol_ipv4, ol_ipv6;    /* then: an IPv4, IPv6 segment's
	                               * offload flags */
	uint16_t ip_room;             /* IP packet bytes at most (MTU) */
	/*
	 * A rate search's next trial: written by the stats core while the
	 * worker is stopped; > 0: at its next launch the worker reopens its
	 * engine at this many connections a second (wr_conn_engine_reopen)
	 * and clears it.
	 */
	uint64_t trial_cps;
	/* The same for --mode conn-load: > 0: reopen at trial_cps (0: the
	 * engine's) with this many open at once (set_open_cap). */
	uint32_t trial_conc;
	/* --mode conn-teardown: the trial's close rate (closes/s), written
	 * as trial_cps is; read when the controller asks the close pass. */
	uint64_t trial_close_cps;

	/* Private to the worker lcore. */
	bool drained;                 /* wr_conn_engine_drain called */
	bool released;                /* wr_conn_engine_release called */
	bool torn;                    /* wr_conn_engine_teardown called
	                               * (this trial) */
	uint16_t nb_cache;            /* mbufs left in cache[] (from the top) */
	uint16_t nb_out;              /* segments waiting in out[]: those
	                               * refused first, in their order */
	uint32_t turn_sent;           /* segments the PMD took this turn */
	struct rte_mbuf *cur;         /* the buffer the engine writes into */
	struct rte_mbuf *cache[WR_CONNQ_CACHE];
	struct rte_mbuf *out[WR_CONNQ_OUT];

	struct wr_connq_stats st;
	/*
	 * The engine's books for the stats core, the rule of struct
	 * wr_rxq_pub: on a request (wr_ctl.pub_req) the worker copies the
	 * books into pub[req & 1], then stores pub_done = req (release);
	 * the reader reads pub[req & 1] once it loads pub_done == req.
	 */
	uint64_t pub_done;
	struct wr_conn_books pub[2];
	/* Set-up's, read by the stats core only (wr_run_conn_done): after
	 * the worker's fields, which keep their places. */
	uint64_t nb_conns;            /* client: its part of --conn-count
	                               * (0: until the drain) */
};

/*
 * The emit callbacks of q for wr_conn_engine_init: buffers from q's
 * cache, frames queued for TX. This function can't fail.
 */
void wr_connq_emit(struct wr_connq *q, struct wr_conn_emit *emit);

/*
 * The lcore loop of a connection worker (wr_worker_main for
 * WR_WORKER_CONN): runs q's engine on its queues until ctl->rx_stop;
 * drains the engine (no new connection) once ctl->conn_drain is set (a
 * server with drain_late: never) and says in st.idle when nothing is
 * open. Returns 0.
 */
int wr_connq_main(struct wr_worker *w);

/*
 * The books of q as last published for request req, or NULL when q's
 * worker has not published it yet. Stats core only; after the worker
 * returned, wr_conn_engine_books(q->eng) is exact.
 */
const struct wr_conn_books *wr_connq_pub_read(const struct wr_connq *q,
		uint64_t req);

#endif /* WR_CONNWORKER_H */
