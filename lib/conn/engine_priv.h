/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Inside the connection engine (engine.h): the engine's struct, the
 * per-connection application state and the helpers the engine's files
 * share (setup.c: set-up; engine.c: RX and timers; run.c: a TCP call's
 * output; client.c: opening at a rate; app.c, app_http.c: the
 * applications). Not for callers outside lib/conn.
 */
#ifndef WR_CONN_ENGINE_PRIV_H
#define WR_CONN_ENGINE_PRIV_H

#include "conn/engine.h"
#include "tcp/http.h"
#include "tcp/isn.h"
#include "tcp/pool.h"
#include "tcp/sack.h"
#include "tcp/srcport.h"
#include "tcp/table.h"
#include "tcp/tcp.h"
#include "tcp/wheel.h"
#include "tcp/wire.h"

/* Timer wheels: 4096 slots of 1.024 ms (4.2 s a round). */
#define WR_CONN_WHEEL_SLOTS 4096u
#define WR_CONN_WHEEL_SHIFT 10u
/* Timers handled per wheel visit (the rest at the next one). */
#define WR_CONN_FIRED_MAX 64u
/* ACKs a receive burst may leave for its end (then sent at once). */
#define WR_CONN_ACK_DUE_MAX 64u
/* Connections a client starts in one poll, at most. */
#define WR_CONN_START_BURST 64u
/* Source tuples tried for one start before it counts as unstarted (with
 * RSS, as many for each tuple of the queue's share). */
#define WR_CONN_TUPLE_TRIES 64u
/* Room for a request or a response head written at set-up. */
#define WR_CONN_HEAD_MAX_BYTES 384u
/* The pacing clock's fixed point: microseconds times 2^20. */
#define WR_CONN_FX_SHIFT 20u
/* "Until drain": bytes a bulk client has to send (never reached). */
#define WR_CONN_BULK_ENDLESS_BYTES (UINT64_C(1) << 62)
/* Largest MSS the engine takes (its scratch segment). */
#define WR_CONN_MSS_MAX_BYTES 9000u

/* Flags of struct wr_conn_state. */
enum wr_conn_state_flag {
	WR_CONN_S_ENDED = 1 << 0,   /* counted as ended in the books */
	WR_CONN_S_REQ_OUT = 1 << 1, /* a request waits for its answer */
	WR_CONN_S_TTFB = 1 << 2,    /* its first answer byte was seen */
	WR_CONN_S_HTTP_BAD = 1 << 3, /* a non-2xx or malformed answer */
	WR_CONN_S_ESTAB = 1 << 4,   /* reached ESTABLISHED */
	WR_CONN_S_CLOSING = 1 << 5, /* the app closed its side */
	WR_CONN_S_TIME_WAIT = 1 << 6, /* in TIME_WAIT, counted there */
	WR_CONN_S_FREE = 1 << 7,    /* back in the pool */
};

/*
 * One connection's application state, by the pool's index: 48 bytes.
 * Written only by the owning lcore.
 */
struct wr_conn_state {
	union {
		struct wr_http_resp resp;  /* client: the answer parser */
		struct wr_http_req req;    /* server: the request parser */
	};
	uint32_t nb_reqs;          /* client: requests queued; server:
				    * requests answered */
	uint32_t nb_answers;       /* client: answers complete */
	uint8_t flags;             /* enum wr_conn_state_flag */
	uint8_t fail;              /* enum wr_tcp_fail, or an app class */
	uint8_t hold;              /* enum wr_conn_hold (client, cfg.hold) */
	uint8_t cont;              /* server: a 100 Continue lies cont_k
				    * answers before base_off (app_http.c) */
	uint32_t cont_k;
	uint64_t t0_us;            /* SYN sent, then the request sent */
	uint64_t base_off;         /* stream offset of the current request
				    * (client) or answer (server) */
};

/* The memory per connection docs/tcp.md states counts 48 bytes here. */
_Static_assert(sizeof(struct wr_conn_state) == 48,
	"struct wr_conn_state is not 48 bytes");

/* Where a held connection is (hold.c). */
enum wr_conn_hold {
	WR_CONN_HOLD_NONE = 0,
	WR_CONN_HOLD_HELD,     /* idle after its first answer */
	WR_CONN_HOLD_CHECK,    /* released: its check request is out */
	WR_CONN_HOLD_CLOSE,    /* teardown.c: its FIN is out, the close
				* not yet complete */
};

/* App failure classes beyond enum wr_tcp_fail, in wr_conn_state.fail. */
enum wr_conn_fail {
	WR_CONN_FAIL_RESP_TIMEOUT = 16,
	WR_CONN_FAIL_HTTP = 17,
};

struct wr_conn_engine {
	struct wr_conn_cfg cfg;
	struct wr_conn_emit emit;
	struct wr_tcp_pool pool;
	struct wr_tcp_sb_pool sb_pool; /* SACK scoreboards (e->out.sb_pool) */
	struct wr_tcp_table table;
	struct wr_tcp_wheel wheel;     /* the TCP timer of each connection */
	struct wr_tcp_wheel app_wheel; /* client: each answer's deadline */
	struct wr_tcp_srcport sp;
	uint32_t tuple_tries;          /* client: tuples tried for one start
					* (more with RSS: most reach another
					* queue) */
	struct wr_conn_state *st;      /* max_open, by the pool's index */
	uint8_t *scratch;              /* one segment's payload */
	struct wr_tcp_cfg tcfg;        /* how connections start */
	struct wr_http_counts http;
	struct wr_tcp_out out;
	const uint8_t *rx_p;           /* the segment being received: its new
					* bytes, rx_known of them */
	uint32_t rx_known;
	uint64_t next_fx;              /* next start, us << FX_SHIFT */
	uint64_t ivl_fx;               /* 1e6 / cps, us << FX_SHIFT */
	uint64_t nb_starts;            /* starts due so far (all kinds) */
	uint32_t open_cap;             /* client at cps 0: open at once, at
					* most (<= max_open; conn-load) */
	uint64_t resp_bytes;           /* server: head + body of an answer */
	struct wr_tcp_isn isn;         /* ISS key and clock (tcp/isn.h) */
	uint32_t req_ka_len;           /* client: keep-alive request head */
	uint32_t req_close_len;        /* client: the last request's head */
	uint64_t req_ka_bytes;         /* client: a keep-alive request, head
					* and body (cfg.req_body_bytes) */
	uint32_t head_len;             /* server: answer head bytes */
	bool draining;
	bool tx_busy;                  /* frames refused wait: no start */
	bool drain_bulk;               /* bulk senders to stop at the next
					* poll (drain has no clock) */
	bool release_asked;            /* hold: wr_conn_engine_release was
					* called: no connection is held now */
	bool releasing;                /* hold: releasing the held ones,
					* from release_next on */
	uint32_t release_next;
	bool tearing;                  /* teardown.c: the close pass runs,
					* from tear_next on */
	bool tear_clock_set;           /* its clock started (first poll) */
	uint32_t tear_next;
	uint64_t tear_next_fx;         /* next close, us << FX_SHIFT */
	uint64_t tear_ivl_fx;          /* 1e6 / the close rate, same unit */
	bool clock_set;                /* the wheels run on the caller's
					* clock since its first call */
	uint8_t req_ka[WR_CONN_HEAD_MAX_BYTES];
	uint8_t req_close[WR_CONN_HEAD_MAX_BYTES];
	uint8_t head[WR_CONN_HEAD_MAX_BYTES];
	uint32_t fired[WR_CONN_FIRED_MAX];
	struct wr_conn_books books;
	/* connections whose ACK waits for the end of the receive burst
	 * (WR_TCP_EV_ACK_DUE): sent at the next poll */
	uint32_t nb_ack_due;
	uint32_t ack_due[WR_CONN_ACK_DUE_MAX];
};

/* run.c: act on e->out, the output of a TCP call on connection idx
 * (sent0: its tx_sent_bytes before the call, rto: from a timeout). */
void wr_conn_run_out(struct wr_conn_engine *e, uint32_t idx,
	uint64_t sent0, bool rto, uint64_t now_us);

/* run.c: the ACKs left for the end of the receive burst go now. */
void wr_conn_ack_due_flush(struct wr_conn_engine *e, uint64_t now_us);

/* run.c: send a RST for an abort and free connection idx. */
void wr_conn_abort(struct wr_conn_engine *e, uint32_t idx, uint8_t fail,
	uint64_t now_us);

/* run.c: emit one segment of connection idx (its tuple from the table,
 * or tuple when not NULL). */
bool wr_conn_emit_seg(struct wr_conn_engine *e, uint32_t idx,
	const struct wr_tcp_tuple *tuple, const struct wr_tcp_seg *seg);

/* run.c: give connection idx back (timers, table entry, pool slot). */
void wr_conn_free(struct wr_conn_engine *e, uint32_t idx);

/* run.c: book the end of connection idx (once) with failure class fail
 * (0: completed when its work is done). */
void wr_conn_end(struct wr_conn_engine *e, uint32_t idx, uint8_t fail);

/* client.c: open the connections due at now_us. */
void wr_conn_client_poll(struct wr_conn_engine *e, uint64_t now_us);

/* client.c: the pacing and the source tuples; 0 or -EINVAL. */
int wr_conn_client_init(struct wr_conn_engine *e, struct wr_error *err);

/* app_http.c: requests and answer heads written at set-up. */
int wr_conn_http_init(struct wr_conn_engine *e, struct wr_error *err);
/* app_http.c: the HTTP side of app.c's hooks below. */
uint64_t wr_conn_http_connect_bytes(struct wr_conn_engine *e, uint32_t idx);
const uint8_t *wr_conn_http_payload(struct wr_conn_engine *e, uint32_t idx,
	uint64_t off, uint32_t len);
void wr_conn_http_established(struct wr_conn_engine *e, uint32_t idx,
	uint64_t now_us);
void wr_conn_http_rx(struct wr_conn_engine *e, uint32_t idx,
	const uint8_t *p, uint64_t known, uint64_t nb_bytes, uint64_t now_us);
void wr_conn_http_peer_fin(struct wr_conn_engine *e, uint32_t idx,
	uint64_t now_us);

/* app_http.c: queue and send the last request of connection idx. */
void wr_conn_http_send_last(struct wr_conn_engine *e, uint32_t idx,
	uint64_t now_us);

/* hold.c: after an answer that leaves requests to send: true when
 * connection idx is now held (counted), false to send the next one. */
bool wr_conn_hold_take(struct wr_conn_engine *e, uint32_t idx);
/* hold.c: the answer of connection idx's request ended (good: 2xx). */
void wr_conn_hold_answer(struct wr_conn_engine *e, uint32_t idx, bool good);
/* hold.c: connection idx ends with failure class fail (0: completed);
 * a held one leaves the books' count, a closing one ends its close. */
void wr_conn_hold_end(struct wr_conn_engine *e, uint32_t idx, uint8_t fail);
/* hold.c: release up to WR_CONN_START_BURST held connections. */
void wr_conn_hold_release(struct wr_conn_engine *e, uint64_t now_us);
/* hold.c: connection idx's deadline fired before ESTABLISHED: with
 * cfg.syn_timeout_us it fails as a SYN timeout, freed with no RST.
 * Returns true when it did. */
bool wr_conn_hold_syn_timeout(struct wr_conn_engine *e, uint32_t idx);

/* teardown.c: close the held connections due at now_us. */
void wr_conn_tear_poll(struct wr_conn_engine *e, uint64_t now_us);
/* teardown.c: the close of connection idx ended (fail 0: complete). */
void wr_conn_tear_end(struct wr_conn_engine *e, uint32_t idx, uint8_t fail);
/* teardown.c: connection idx's deadline fired while it closes: aborted,
 * a failed close (timed out). Returns true when it did. */
bool wr_conn_tear_timeout(struct wr_conn_engine *e, uint32_t idx,
	uint64_t now_us);

/* app.c: the hooks by which run.c reaches the application. */
/* Client: bytes queued at the connect (HTTP: the first request). */
uint64_t wr_conn_app_connect_bytes(struct wr_conn_engine *e, uint32_t idx);
/* Payload of a segment: a pointer to its len bytes, or NULL for the
 * pattern. */
const uint8_t *wr_conn_app_payload(struct wr_conn_engine *e, uint32_t idx,
	uint64_t off, uint32_t len);
void wr_conn_app_established(struct wr_conn_engine *e, uint32_t idx,
	uint64_t now_us);
/* nb_bytes delivered in order, the first known of them at p. */
void wr_conn_app_rx(struct wr_conn_engine *e, uint32_t idx,
	const uint8_t *p, uint64_t known, uint64_t nb_bytes, uint64_t now_us);
/* The peer closed its side: ours follows. */
void wr_conn_app_peer_fin(struct wr_conn_engine *e, uint32_t idx,
	uint64_t now_us);
void wr_conn_app_resp_timeout(struct wr_conn_engine *e, uint32_t idx,
	uint64_t now_us);
/* Whether a client connection did all its work (completed if so). */
bool wr_conn_app_done(const struct wr_conn_engine *e, uint32_t idx);
/* Bulk clients sending until drain: their FIN now. */
void wr_conn_bulk_drain(struct wr_conn_engine *e, uint64_t now_us);

/* The ISS of a new connection on tuple t at now_us: RFC 6528
 * (tcp/isn.h), above the ISS of an earlier one on the same tuple, also
 * of an earlier run. */
static inline uint32_t
wr_conn_next_iss(const struct wr_conn_engine *e, const struct wr_tcp_tuple *t,
	uint64_t now_us)
{
	return wr_tcp_isn_of(&e->isn, t, now_us);
}

/* Close our side of connection idx (the FIN after the data). */
static inline void
wr_conn_close(struct wr_conn_engine *e, uint32_t idx, uint64_t now_us)
{
	struct wr_tcp_conn *c = wr_tcp_pool_conn(&e->pool, idx);
	uint64_t sent0 = c->tx_sent_bytes;

	e->st[idx].flags |= WR_CONN_S_CLOSING;
	wr_tcp_close(c, now_us, &e->out);
	wr_conn_run_out(e, idx, sent0, false, now_us);
}

/* Send what connection idx may after its app queued bytes. */
static inline void
wr_conn_push(struct wr_conn_engine *e, uint32_t idx, uint64_t now_us)
{
	struct wr_tcp_conn *c = wr_tcp_pool_conn(&e->pool, idx);
	uint64_t sent0 = c->tx_sent_bytes;

	wr_tcp_output(c, now_us, &e->out);
	wr_conn_run_out(e, idx, sent0, false, now_us);
}

#endif /* WR_CONN_ENGINE_PRIV_H */
