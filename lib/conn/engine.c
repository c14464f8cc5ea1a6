/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The engine's loop (engine.h): a received packet to its connection
 * (or the listener, or a RST when there is none), the timers due, the
 * client's new connections, drain and idle.
 */
#include <errno.h>
#include <string.h>

#include "conn/engine_priv.h"

/* The wheels run on the caller's clock from its first call on. */
static inline void
clock_start(struct wr_conn_engine *e, uint64_t now_us)
{
	if (__builtin_expect(e->clock_set, 1))
		return;
	e->clock_set = true;
	e->wheel.cur_tick = now_us >> WR_CONN_WHEEL_SHIFT;
	e->app_wheel.cur_tick = now_us >> WR_CONN_WHEEL_SHIFT;
	e->next_fx = now_us << WR_CONN_FX_SHIFT;
	wr_tcp_isn_clock(&e->isn, now_us);
}

/* A big-endian 32-bit read of 4 address bytes. */
static inline uint32_t
be32_at(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
		(uint32_t)p[2] << 8 | p[3];
}

/* Whether addr is one of this engine's addresses. */
static bool
addr_ours(const struct wr_conn_engine *e, const uint8_t *addr)
{
	const uint8_t *first = e->cfg.laddr;
	size_t pre = e->cfg.family == WR_TCP_IPV4 ? 0 : 12;
	uint32_t nb = e->cfg.role == WR_CONN_CLIENT ? e->cfg.nb_laddrs : 1;

	if (pre > 0 && memcmp(addr, first, pre) != 0)
		return false;
	return be32_at(addr + pre) - be32_at(first + pre) < nb;
}

/* RFC 9293 3.10.7.1: a segment for no connection. An incoming RST is
 * dropped; else <SEQ=SEG.ACK><CTL=RST> with an ACK, or <SEQ=0>
 * <ACK=SEG.SEQ+SEG.LEN><CTL=RST,ACK> without. */
static void
rx_no_conn(struct wr_conn_engine *e, const struct wr_tcp_rx *rx)
{
	const struct wr_tcp_seg *in = &rx->seg;
	struct wr_tcp_seg rst;

	e->books.nb_rx_no_conn++;
	if (in->flags & WR_TCP_RST)
		return;
	memset(&rst, 0, sizeof(rst));
	rst.wscale = WR_TCP_WSCALE_NONE;
	if (in->flags & WR_TCP_ACK) {
		rst.seq = in->ack;
		rst.flags = WR_TCP_RST;
	} else {
		rst.ack = in->seq + in->len_bytes +
			((in->flags & WR_TCP_SYN) ? 1 : 0) +
			((in->flags & WR_TCP_FIN) ? 1 : 0);
		rst.flags = WR_TCP_RST | WR_TCP_ACK;
	}
	wr_conn_emit_seg(e, 0, &rx->tuple, &rst);
}

/* A server's listener took a SYN: a new connection (or the SYN is
 * dropped when the pool is full; the client sends it again). */
static void
rx_accept(struct wr_conn_engine *e, const struct wr_tcp_rx *rx,
	uint64_t now_us)
{
	uint32_t idx = wr_tcp_pool_alloc(&e->pool);
	struct wr_conn_books *b = &e->books;

	if (idx == WR_TCP_NIL) {
		b->nb_unstarted_pool++;
		return;
	}
	if (wr_tcp_table_insert(&e->table, idx, &rx->tuple) < 0) {
		wr_tcp_pool_free(&e->pool, idx);
		return;
	}
	memset(&e->st[idx], 0, sizeof(e->st[idx]));
	wr_http_req_init(&e->st[idx].req);
	e->st[idx].t0_us = now_us;
	e->tcfg.iss = wr_conn_next_iss(e, &rx->tuple, now_us);
	e->tcfg.app_tx_bytes = 0;
	b->nb_accepted++;
	if (++b->nb_open > b->nb_peak_open)
		b->nb_peak_open = b->nb_open;
	wr_tcp_accept(wr_tcp_pool_conn(&e->pool, idx), &e->tcfg, &rx->seg,
		now_us, &e->out);
	wr_conn_run_out(e, idx, 0, false, now_us);
}

/* A segment for connection idx: through the state machine, its new
 * bytes (those the segment itself carries) handed to the app. */
static void
rx_conn(struct wr_conn_engine *e, uint32_t idx, const struct wr_tcp_rx *rx,
	const uint8_t *pkt, uint64_t now_us)
{
	struct wr_tcp_conn *c = wr_tcp_pool_conn(&e->pool, idx);
	const struct wr_tcp_seg *seg = &rx->seg;
	uint32_t start = seg->seq + ((seg->flags & WR_TCP_SYN) ? 1 : 0);
	/* In SYN_SENT rcv_nxt is not set yet: a SYN,ACK's text is new. */
	uint32_t skip = c->state == WR_TCP_SYN_SENT ? 0 : c->rcv_nxt - start;
	uint64_t sent0 = c->tx_sent_bytes;

	if (skip < seg->len_bytes) {
		e->rx_p = pkt + rx->payload_off + skip;
		e->rx_known = seg->len_bytes - skip;
	}
	/* one ACK for the burst's segments: sent at the next poll */
	wr_tcp_input_batch(c, seg, now_us, &e->out);
	wr_conn_run_out(e, idx, sent0, false, now_us);
}

static bool
engine_rx(struct wr_conn_engine *e, const uint8_t *pkt, size_t len,
	uint64_t now_us, bool csum_checked)
{
	struct wr_tcp_rx rx;
	uint32_t idx;
	int rc;

	clock_start(e, now_us);
	rc = wr_tcp_wire_parse(pkt, len, &rx);
	if (rc == -EPROTONOSUPPORT ||
		(rc == 0 && (rx.tuple.family != e->cfg.family ||
			!addr_ours(e, rx.tuple.laddr))))
		return false;
	if (rc < 0 || (!csum_checked && !wr_tcp_wire_csum_ok_rx(pkt, &rx))) {
		e->books.nb_rx_bad++;
		goto done;
	}
	e->books.nb_segs_rx++;
	idx = wr_tcp_table_lookup(&e->table, &rx.tuple);
	if (idx != WR_TCP_NIL)
		rx_conn(e, idx, &rx, pkt, now_us);
	else if (e->cfg.role == WR_CONN_SERVER && !e->draining &&
		rx.tuple.lport == e->cfg.server_port &&
		(rx.seg.flags & (WR_TCP_SYN | WR_TCP_ACK | WR_TCP_RST)) ==
			WR_TCP_SYN)
		rx_accept(e, &rx, now_us);
	else
		rx_no_conn(e, &rx);
done:
	e->books.nb_gen++;
	return true;
}

bool
wr_conn_engine_rx(struct wr_conn_engine *e, const uint8_t *pkt, size_t len,
	uint64_t now_us)
{
	return engine_rx(e, pkt, len, now_us,
		e->cfg.csum_offload == WR_TCP_CSUM_OFFLOAD);
}

bool
wr_conn_engine_rx_csum(struct wr_conn_engine *e, const uint8_t *pkt,
	size_t len, uint64_t now_us, bool csum_checked)
{
	return engine_rx(e, pkt, len, now_us, csum_checked);
}

/* The TCP timers due: RTO, persist, delayed ACK, end of TIME_WAIT. */
static void
poll_tcp_timers(struct wr_conn_engine *e, uint64_t now_us)
{
	struct wr_tcp_conn *c;
	uint64_t sent0;
	uint32_t i, n;

	do {
		n = wr_tcp_wheel_advance(&e->wheel, now_us, e->fired,
			WR_CONN_FIRED_MAX);
		for (i = 0; i < n; i++) {
			c = wr_tcp_pool_conn(&e->pool, e->fired[i]);
			sent0 = c->tx_sent_bytes;
			wr_tcp_timeout(c, now_us, &e->out);
			wr_conn_run_out(e, e->fired[i], sent0, true, now_us);
		}
	} while (n == WR_CONN_FIRED_MAX);
}

/* The answers' deadlines due (client). */
static void
poll_app_timers(struct wr_conn_engine *e, uint64_t now_us)
{
	uint32_t i, n;

	do {
		n = wr_tcp_wheel_advance(&e->app_wheel, now_us, e->fired,
			WR_CONN_FIRED_MAX);
		for (i = 0; i < n; i++)
			wr_conn_app_resp_timeout(e, e->fired[i], now_us);
	} while (n == WR_CONN_FIRED_MAX);
}

void
wr_conn_engine_poll(struct wr_conn_engine *e, uint64_t now_us)
{
	clock_start(e, now_us);
	if (__builtin_expect(e->nb_ack_due != 0, 0))
		wr_conn_ack_due_flush(e, now_us);
	poll_tcp_timers(e, now_us);
	poll_app_timers(e, now_us);
	if (__builtin_expect(e->drain_bulk, 0)) {
		e->drain_bulk = false;
		wr_conn_bulk_drain(e, now_us);
	}
	if (e->cfg.role == WR_CONN_CLIENT)
		wr_conn_client_poll(e, now_us);
	if (__builtin_expect(e->releasing, 0))
		wr_conn_hold_release(e, now_us);
	if (__builtin_expect(e->tearing, 0))
		wr_conn_tear_poll(e, now_us);
	e->books.nb_gen++;
}

void
wr_conn_engine_drain(struct wr_conn_engine *e)
{
	e->draining = true;
	if (e->cfg.role == WR_CONN_CLIENT && e->cfg.app == WR_CONN_APP_BULK)
		e->drain_bulk = true;
}

void
wr_conn_engine_release(struct wr_conn_engine *e)
{
	e->draining = true;
	if (e->cfg.hold && !e->release_asked) {
		e->release_asked = true;
		e->releasing = true;
	}
}

bool
wr_conn_engine_idle(const struct wr_conn_engine *e)
{
	bool starts_left = e->cfg.role == WR_CONN_CLIENT && !e->draining &&
		(e->cfg.nb_conns == 0 || e->nb_starts < e->cfg.nb_conns);

	return e->books.nb_open == 0 && !e->drain_bulk && !starts_left;
}
