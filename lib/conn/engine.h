/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The connection engine of one lcore, pure: the TCP core's connections
 * (lib/tcp) driven by an application (HTTP/1.1 client or server, bulk),
 * with the books and the latency histograms. IP packets in and out as
 * byte buffers, time as an argument: the worker on mbufs (lib/datapath)
 * owns the port, the L2 header and ARP/ND; unit tests run two engines
 * back to back with no EAL.
 *
 * One engine per lcore, one writer: every connection of the engine is
 * owned by the lcore that calls it. Memory is passed in by the caller
 * (wr_conn_engine_mem_bytes, allocated at set-up on the port's socket);
 * nothing is allocated after wr_conn_engine_init.
 */
#ifndef WR_CONN_ENGINE_H
#define WR_CONN_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "config/conncfg.h"
#include "measure/hist.h"
#include "tcp/tuple.h"

/* Latency histograms, microseconds, client side. */
struct wr_conn_lat {
	struct wr_hist connect_us;  /* SYN sent to SYN,ACK received */
	struct wr_hist ttfb_us;     /* request sent to first response byte */
	struct wr_hist ttlb_us;     /* request sent to last response byte */
};

/*
 * The books of one engine, written by its lcore only, read by the stats
 * core (copy and check nb_gen as counter.h does elsewhere). They close:
 *   client: nb_attempted = nb_completed + nb_failed_* (sum) + nb_open
 *   client: nb_reqs_sent = nb_resps + nb_reqs_failed + requests in flight
 *   server: nb_accepted = nb_closed + nb_open
 *   tear-down: nb_close_attempted = nb_close_done + nb_close_failed +
 *              nb_closing
 * Connections the client could not start (its pool, its source tuples,
 * its TX buffers, its lcore held up) are in nb_unstarted_*, never among
 * the attempted.
 */
struct wr_conn_books {
	uint64_t nb_attempted;          /* SYNs of new connections sent */
	uint64_t nb_established;
	uint64_t nb_completed;          /* closed after all their work */
	uint64_t nb_failed_syn_timeout; /* no answer to the SYN */
	uint64_t nb_failed_refused;     /* RST in answer to the SYN */
	uint64_t nb_failed_reset;       /* RST once established */
	uint64_t nb_failed_rtx_timeout; /* retry bound once established */
	uint64_t nb_failed_resp_timeout;/* HTTP response too late */
	uint64_t nb_failed_http;        /* a non-2xx or malformed answer */
	uint64_t nb_open;               /* open now (SYN sent, not ended) */
	uint64_t nb_peak_open;
	uint64_t nb_unstarted_pool;     /* pool full when a start was due */
	uint64_t nb_unstarted_tuples;   /* no free source tuple */
	uint64_t nb_unstarted_tx;       /* no TX buffer for the SYN */
	uint64_t nb_unstarted_late;     /* starts skipped: the lcore fell
					 * more than 1 s behind the rate
					 * (without a count: never made) */
	uint64_t nb_accepted;           /* server: SYNs taken */
	uint64_t nb_closed;             /* server: ended, any way */
	uint64_t nb_reqs_sent;
	uint64_t nb_resps;              /* complete 2xx answers */
	uint64_t nb_reqs_failed;        /* requests with no good answer */
	uint64_t nb_reqs_served;        /* server: requests answered */
	uint64_t nb_continues;          /* server: 100 (Continue) answers
					 * sent (in nb_l7_tx_bytes too) */
	uint64_t nb_l7_tx_bytes;        /* application bytes sent (first
					 * transmissions only) */
	uint64_t nb_l7_rx_bytes;        /* application bytes delivered */
	uint64_t nb_segs_tx;
	uint64_t nb_segs_rx;
	uint64_t nb_rtx_rto;            /* segments resent after an RTO */
	uint64_t nb_rtx_fast;           /* segments resent by fast rtx */
	uint64_t nb_rtx_probe;          /* segments resent as a tail loss
					 * probe (RFC 8985 7.3) */
	uint64_t nb_probes;             /* tail loss probes sent (new data
					 * or a resend) */
	uint64_t nb_sack_recoveries;    /* recoveries with a SACK scoreboard
					 * (RFC 6675) */
	uint64_t nb_sack_refused;       /* recoveries SACK agreed on that
					 * found no free scoreboard (NewReno) */
	uint64_t nb_tx_no_buf;          /* segments the caller had no room
					 * for (lost; TCP resends them) */
	uint64_t nb_rx_no_conn;         /* segments for no connection
					 * (answered by RST as RFC 9293) */
	uint64_t nb_rx_bad;             /* malformed or bad checksum */
	uint64_t nb_time_wait;          /* connections in TIME_WAIT now */
	uint64_t nb_held;               /* hold: idle after their first
					 * answer, held now */
	uint64_t nb_held_peak;          /* hold: the most held at once */
	uint64_t nb_hold_checks_ok;     /* hold: held ones whose check
					 * request (sent at the drain) got
					 * a 2xx answer */
	uint64_t nb_close_attempted;    /* tear-down: held ones whose FIN
					 * the close pass sent */
	uint64_t nb_close_done;         /* of them: FIN acked and the
					 * peer's FIN received */
	uint64_t nb_close_failed;       /* of them: RST, FIN not acked, or
					 * not complete in time */
	uint64_t nb_close_timeout;      /* of the failed: not complete in
					 * close_timeout_us */
	uint64_t nb_closing;            /* of them: not ended yet */
	struct wr_conn_lat lat;
	uint64_t nb_gen;                /* bumped after each update */
};

/*
 * Where the engine writes a packet it sends: buf(ctx, &room) gives a
 * buffer for one IP packet (room bytes at most) or NULL when there is
 * none (the segment is lost and counted, nb_tx_no_buf); sent(ctx, len)
 * hands the packet written in the last buffer to the caller, which adds
 * the L2 header and queues it.
 */
struct wr_conn_emit {
	uint8_t *(*buf)(void *ctx, size_t *room);
	void (*sent)(void *ctx, size_t len);
	void *ctx;
};

struct wr_conn_engine; /* private; lives in the caller's memory */

/* Bytes of memory an engine of cfg needs (0 for a bad cfg). */
size_t wr_conn_engine_mem_bytes(const struct wr_conn_cfg *cfg);

/*
 * Set an engine up in mem (wr_conn_engine_mem_bytes(cfg) bytes, 64-byte
 * aligned). Returns the engine, or NULL with err filled (-EINVAL) for a
 * cfg that can't run, naming the field.
 */
struct wr_conn_engine *wr_conn_engine_init(void *mem,
	const struct wr_conn_cfg *cfg, const struct wr_conn_emit *emit,
	struct wr_error *err);

/* The NIC's receive side scaling, for a client's source tuples. */
struct wr_conn_rss {
	const uint8_t *key;      /* Toeplitz key, lives as long as the engine */
	uint32_t key_bytes;
	const uint16_t *reta;    /* redirection table: queue by hash */
	uint32_t reta_size;      /* a power of two */
	uint16_t queue;          /* the queue this engine's lcore reads */
};

/*
 * Client: while busy, start no new connection and release no held one
 * (the caller's TX waits on frames the port refused); its pacing clock
 * keeps running. Others: no effect. This function can't fail.
 */
void wr_conn_engine_tx_busy(struct wr_conn_engine *e, bool busy);

/*
 * Client: from now on take only source tuples whose replies rss sends to
 * rss->queue (tcp/srcport.h), so every connection's packets reach the
 * lcore that owns it. Call after wr_conn_engine_init, before the first
 * poll. Returns 0, or -EINVAL with err filled (a server, a key too short,
 * a table that is not a power of two).
 */
int wr_conn_engine_set_rss(struct wr_conn_engine *e,
	const struct wr_conn_rss *rss, struct wr_error *err);

/*
 * One received IP packet (IPv4 or IPv6 header first). Returns true when
 * it was TCP for this engine's address (consumed, counted), false when
 * the caller should treat it elsewhere. Its answers go out through emit;
 * the ACK of data in order may wait for the next wr_conn_engine_poll, one
 * for all the segments of the caller's burst (a receiver in bursts).
 */
bool wr_conn_engine_rx(struct wr_conn_engine *e, const uint8_t *pkt,
	size_t len, uint64_t now_us);

/*
 * wr_conn_engine_rx for a caller that knows per packet whether the NIC
 * checked the TCP and IP checksums (csum_checked: the engine skips its
 * own check; false: checked in software). wr_conn_engine_rx takes
 * cfg.csum_offload == WR_TCP_CSUM_OFFLOAD (both sums left to the NIC) as
 * that answer for every packet.
 */
bool wr_conn_engine_rx_csum(struct wr_conn_engine *e, const uint8_t *pkt,
	size_t len, uint64_t now_us, bool csum_checked);

/*
 * Work due at now_us: the ACKs the packets since the last poll left due,
 * expired timers, new connections the rate allows, output left over.
 * Call once per poll loop turn, after its receive burst.
 */
void wr_conn_engine_poll(struct wr_conn_engine *e, uint64_t now_us);

/*
 * Open no new connection from now on; the open ones run to their end
 * (with cfg.hold, the held ones stay held until wr_conn_engine_release).
 */
void wr_conn_engine_drain(struct wr_conn_engine *e);

/*
 * A new trial of a rate search (docs/tcp.md "Connection modes"), on the
 * owning lcore before its first poll of the trial: every connection still
 * open is reset and ends as failed (SYN timeout before its handshake,
 * retransmission timeout after); a drained engine opens again; a client
 * opens at cps a second from now_us on (its first start at once), its
 * start count from 0. Connections in TIME_WAIT keep their tuples. The
 * books go on (a trial's figures are differences). This function can't
 * fail.
 */
void wr_conn_engine_reopen(struct wr_conn_engine *e, uint64_t cps,
	uint64_t now_us);

/*
 * A client opening as fast as it may (cps 0) keeps at most cap
 * connections open from now on (--mode conn-load's concurrency of a
 * trial); 0 or more than cfg.max_open: max_open. On the owning lcore.
 * This function can't fail.
 */
void wr_conn_engine_set_open_cap(struct wr_conn_engine *e, uint32_t cap);

/*
 * The drain, and with cfg.hold the release: no connection is held from
 * now on; each held one sends its check request (Connection: close),
 * WR_CONN_START_BURST of them per poll, and closes after the answer.
 */
void wr_conn_engine_release(struct wr_conn_engine *e);

/*
 * Client with cfg.hold (--mode conn-teardown, RFC 9693's tear-down
 * rate): the drain, then from the next poll the held connections closed
 * at cps a second (a FIN each, lib/conn/teardown.c), each close complete
 * when the FIN is acknowledged and the peer's FIN received, failed on a
 * RST, on the retry bound, or when not complete within close_timeout_us
 * (0: resp_timeout_us).
 * The closes are in the books' nb_close_*; a closed connection ends as
 * completed or failed in the connection books too. No effect without
 * hold, with cps 0, or after wr_conn_engine_release. Can't fail.
 */
void wr_conn_engine_teardown(struct wr_conn_engine *e, uint64_t cps);

/* Whether a drained engine has nothing open (TIME_WAIT not counted). */
bool wr_conn_engine_idle(const struct wr_conn_engine *e);

/* The books (updated in place by the owning lcore). */
const struct wr_conn_books *wr_conn_engine_books(
	const struct wr_conn_engine *e);

/* Segments resent, every kind: after an RTO, by fast retransmit and
 * recovery, as a tail loss probe. */
static inline uint64_t
wr_conn_books_rtx(const struct wr_conn_books *b)
{
	return b->nb_rtx_rto + b->nb_rtx_fast + b->nb_rtx_probe;
}

/* A client's starts of its count (nb_conns): each attempted, or not
 * started for want of a slot, a source tuple or a TX buffer. */
static inline uint64_t
wr_conn_books_starts(const struct wr_conn_books *b)
{
	return b->nb_attempted + b->nb_unstarted_pool +
		b->nb_unstarted_tuples + b->nb_unstarted_tx;
}

/* sum += b, histograms merged (the stats core adds up its lcores). */
void wr_conn_books_sum(struct wr_conn_books *sum,
	const struct wr_conn_books *b);

#endif /* WR_CONN_ENGINE_H */
