/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The tear-down pass (RFC 9693 "connection tear-down rate", --mode
 * conn-teardown): a client that holds its connections (hold.c) closes
 * them at a paced rate, each by a FIN from the client (RFC 9293 3.10.4
 * CLOSE), with the client's fixed-point clock of client.c: the interval
 * is computed once, no division per close. A close completes when the
 * client reaches TIME_WAIT: its FIN was acknowledged and the peer's FIN
 * received (RFC 9293 3.10.7.4, FIN-WAIT-2 or CLOSING). It fails on a
 * RST, when the FIN is not acknowledged within the retry bound, or when
 * the close is not complete within cfg.close_timeout_us (else
 * resp_timeout_us; its deadline on the answers' wheel; the connection is
 * then aborted with a RST). The
 * books close: nb_close_attempted = nb_close_done + nb_close_failed +
 * nb_closing.
 */
#include "conn/engine_priv.h"

/* How far the pass may fall behind before it skips ahead (the closes
 * come later: every held connection is closed once). */
#define WR_CONN_TEAR_LATE_MAX_US 1000000u

void
wr_conn_engine_teardown(struct wr_conn_engine *e, uint64_t cps)
{
	e->draining = true;
	if (!e->cfg.hold || cps == 0 || e->tearing || e->release_asked)
		return;
	e->tearing = true;
	e->tear_clock_set = false;
	e->tear_next = 0;
	e->tear_ivl_fx = (UINT64_C(1000000) << WR_CONN_FX_SHIFT) / cps;
}

/* The next held connection from e->tear_next on, or WR_TCP_NIL. */
static uint32_t
next_held(struct wr_conn_engine *e)
{
	const struct wr_conn_state *st;
	uint32_t idx;

	for (idx = e->tear_next; idx < e->cfg.max_open; idx++) {
		st = &e->st[idx];
		if (!(st->flags & (WR_CONN_S_FREE | WR_CONN_S_ENDED |
				WR_CONN_S_CLOSING)) &&
			st->hold == WR_CONN_HOLD_HELD)
			break;
	}
	e->tear_next = idx;
	return idx < e->cfg.max_open ? idx : WR_TCP_NIL;
}

/* Close held connection idx: its FIN out, its deadline armed. */
static void
close_one(struct wr_conn_engine *e, uint32_t idx, uint64_t now_us)
{
	struct wr_conn_books *b = &e->books;
	uint64_t limit_us = e->cfg.close_timeout_us != 0 ?
		e->cfg.close_timeout_us : e->cfg.resp_timeout_us;

	e->st[idx].hold = WR_CONN_HOLD_CLOSE;
	b->nb_held--;
	b->nb_close_attempted++;
	b->nb_closing++;
	e->st[idx].t0_us = now_us;
	if (limit_us != 0)
		wr_tcp_wheel_arm(&e->app_wheel, idx, now_us + limit_us);
	wr_conn_close(e, idx, now_us);
}

void
wr_conn_tear_poll(struct wr_conn_engine *e, uint64_t now_us)
{
	uint32_t n, idx;

	/* Frames the port refused wait (wr_conn_engine_tx_busy): not now. */
	if (e->tx_busy)
		return;
	if (!e->tear_clock_set) {
		e->tear_clock_set = true;
		e->tear_next_fx = now_us << WR_CONN_FX_SHIFT;
	}
	if (now_us > WR_CONN_TEAR_LATE_MAX_US +
			(e->tear_next_fx >> WR_CONN_FX_SHIFT))
		e->tear_next_fx = (now_us - WR_CONN_TEAR_LATE_MAX_US) <<
			WR_CONN_FX_SHIFT;
	for (n = 0; n < WR_CONN_START_BURST &&
			(e->tear_next_fx >> WR_CONN_FX_SHIFT) <= now_us; n++) {
		idx = next_held(e);
		if (idx == WR_TCP_NIL) {
			e->tearing = false;
			return;
		}
		e->tear_next_fx += e->tear_ivl_fx;
		close_one(e, idx, now_us);
	}
}

void
wr_conn_tear_end(struct wr_conn_engine *e, uint32_t idx, uint8_t fail)
{
	struct wr_conn_books *b = &e->books;

	b->nb_closing--;
	if (fail == 0)
		b->nb_close_done++;
	else
		b->nb_close_failed++;
	(void)idx;
}

bool
wr_conn_tear_timeout(struct wr_conn_engine *e, uint32_t idx, uint64_t now_us)
{
	const struct wr_conn_state *st = &e->st[idx];

	if (st->hold != WR_CONN_HOLD_CLOSE || (st->flags & WR_CONN_S_ENDED))
		return false;
	e->books.nb_close_timeout++;
	wr_conn_abort(e, idx, WR_TCP_FAIL_RTX_TIMEOUT, now_us);
	return true;
}
