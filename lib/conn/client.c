/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A client's new connections: started at cfg.cps (a fixed-point clock,
 * the interval computed once: no division per start), or as fast as the
 * pool allows with cps 0, up to nb_conns; each from the next free source
 * tuple (srcport.h: a tuple still in TIME_WAIT is in the table, so it is
 * skipped) and a slot of the pool. A start that finds no slot, no tuple
 * or no TX buffer is counted as unstarted, never as attempted.
 */
#include <errno.h>
#include <string.h>

#include "conn/engine_priv.h"

/* How late the pacing clock may fall behind before it skips ahead. */
#define WR_CONN_LATE_MAX_US 1000000u

int
wr_conn_client_init(struct wr_conn_engine *e, struct wr_error *err)
{
	const struct wr_conn_cfg *cfg = &e->cfg;
	struct wr_tcp_srcport_cfg sc;

	memset(&sc, 0, sizeof(sc));
	sc.first.family = cfg->family;
	memcpy(sc.first.laddr, cfg->laddr, sizeof(sc.first.laddr));
	memcpy(sc.first.raddr, cfg->server_addr, sizeof(sc.first.raddr));
	sc.first.rport = cfg->server_port;
	sc.nb_laddrs = cfg->nb_laddrs;
	sc.lport_first = cfg->lport_first;
	sc.lport_last = cfg->lport_last;
	if (cfg->cps > 0)
		e->ivl_fx = (UINT64_C(1000000) << WR_CONN_FX_SHIFT) / cfg->cps;
	return wr_tcp_srcport_init(&e->sp, &sc, err);
}

/* Take a slot and a tuple (into t); the slot's index, or WR_TCP_NIL
 * (counted). */
static uint32_t
take_slot(struct wr_conn_engine *e, struct wr_tcp_tuple *t)
{
	uint32_t idx;

	idx = wr_tcp_pool_alloc(&e->pool);
	if (idx == WR_TCP_NIL) {
		e->books.nb_unstarted_pool++;
		return WR_TCP_NIL;
	}
	if (wr_tcp_srcport_next(&e->sp, &e->table, t, e->tuple_tries) < 0 ||
		wr_tcp_table_insert(&e->table, idx, t) < 0) {
		wr_tcp_pool_free(&e->pool, idx);
		e->books.nb_unstarted_tuples++;
		return WR_TCP_NIL;
	}
	return idx;
}

/* Start one connection: its SYN out, or counted as unstarted. */
static void
start_one(struct wr_conn_engine *e, uint64_t now_us)
{
	struct wr_conn_books *b = &e->books;
	struct wr_tcp_tuple t;
	struct wr_tcp_conn *c;
	uint32_t idx;

	e->nb_starts++;
	idx = take_slot(e, &t);
	if (idx == WR_TCP_NIL)
		return;
	memset(&e->st[idx], 0, sizeof(e->st[idx]));
	e->st[idx].t0_us = now_us;
	if (e->cfg.syn_timeout_us != 0)
		wr_tcp_wheel_arm(&e->app_wheel, idx,
			now_us + e->cfg.syn_timeout_us);
	wr_http_resp_init(&e->st[idx].resp);
	c = wr_tcp_pool_conn(&e->pool, idx);
	e->tcfg.iss = wr_conn_next_iss(e, &t, now_us);
	e->tcfg.app_tx_bytes = wr_conn_app_connect_bytes(e, idx);
	wr_tcp_connect(c, &e->tcfg, now_us, &e->out);
	if (!wr_conn_emit_seg(e, idx, NULL, &e->out.segs[0])) {
		/* nb_tx_no_buf counted it; the start did not happen */
		b->nb_tx_no_buf--;
		b->nb_unstarted_tx++;
		e->st[idx].flags = WR_CONN_S_ENDED;
		wr_conn_free(e, idx);
		return;
	}
	e->out.nb_segs = 0;
	b->nb_attempted++;
	if (++b->nb_open > b->nb_peak_open)
		b->nb_peak_open = b->nb_open;
	wr_conn_run_out(e, idx, 0, false, now_us);
}

/* Whether one more start is due now (the pacing clock or the pool). */
static inline bool
start_due(struct wr_conn_engine *e, uint64_t now_us)
{
	if (e->cfg.nb_conns != 0 && e->nb_starts >= e->cfg.nb_conns)
		return false;
	if (e->cfg.cps == 0)
		return e->pool.nb_free > 0 && e->books.nb_open < e->open_cap;
	return (e->next_fx >> WR_CONN_FX_SHIFT) <= now_us;
}

/*
 * Rare path: more than WR_CONN_LATE_MAX_US behind the rate (the lcore was
 * held up): skip ahead. Without a count the starts skipped are never
 * made: counted as unstarted (late); with one they come later.
 */
static __attribute__((noinline)) void
client_late(struct wr_conn_engine *e, uint64_t now_us)
{
	uint64_t to = (now_us - WR_CONN_LATE_MAX_US) << WR_CONN_FX_SHIFT;

	if (e->cfg.nb_conns == 0)
		e->books.nb_unstarted_late += (to - e->next_fx) / e->ivl_fx;
	e->next_fx = to;
}

void
wr_conn_client_poll(struct wr_conn_engine *e, uint64_t now_us)
{
	uint32_t n;

	if (e->draining || e->tx_busy)
		return;
	if (e->cfg.cps != 0 && now_us > WR_CONN_LATE_MAX_US +
		(e->next_fx >> WR_CONN_FX_SHIFT))
		client_late(e, now_us);
	for (n = 0; n < WR_CONN_START_BURST && start_due(e, now_us); n++) {
		e->next_fx += e->ivl_fx;
		start_one(e, now_us);
	}
}

void
wr_conn_engine_tx_busy(struct wr_conn_engine *e, bool busy)
{
	e->tx_busy = busy;
}

void
wr_conn_engine_set_open_cap(struct wr_conn_engine *e, uint32_t cap)
{
	e->open_cap = cap == 0 || cap > e->cfg.max_open ? e->cfg.max_open : cap;
}

int
wr_conn_engine_set_rss(struct wr_conn_engine *e,
	const struct wr_conn_rss *rss, struct wr_error *err)
{
	struct wr_tcp_srcport_cfg sc = e->sp.cfg;
	uint32_t i, mine = 0;
	int rc;

	if (e->cfg.role != WR_CONN_CLIENT)
		return wr_err_usage(err, -EINVAL,
			"conn: RSS source tuples: for a client only");
	if (rss == NULL || rss->key == NULL || rss->reta == NULL)
		return wr_err_usage(err, -EINVAL, "conn: RSS: no key or table");
	for (i = 0; i < rss->reta_size; i++)
		mine += rss->reta[i] == rss->queue;
	if (mine == 0)
		return wr_err_usage(err, -EINVAL, "conn: RSS: the redirection "
			"table sends nothing to queue %u", rss->queue);
	sc.rss_key = rss->key;
	sc.rss_key_bytes = rss->key_bytes;
	sc.reta = rss->reta;
	sc.reta_size = rss->reta_size;
	sc.queue = rss->queue;
	rc = wr_tcp_srcport_init(&e->sp, &sc, err);
	if (rc == 0)
		e->tuple_tries = WR_CONN_TUPLE_TRIES *
			((rss->reta_size + mine - 1) / mine);
	return rc;
}

/* Whether connection idx is open: taken, not ended, not in TIME_WAIT. */
static bool
conn_open(const struct wr_conn_engine *e, uint32_t idx)
{
	return wr_tcp_pool_conn(&e->pool, idx)->state != WR_TCP_CLOSED &&
		!(e->st[idx].flags & (WR_CONN_S_ENDED | WR_CONN_S_FREE));
}

void
wr_conn_engine_reopen(struct wr_conn_engine *e, uint64_t cps, uint64_t now_us)
{
	uint32_t idx;

	for (idx = 0; idx < e->pool.nb_conns && e->books.nb_open > 0; idx++) {
		if (!conn_open(e, idx))
			continue;
		/* RFC 9293 3.10.5 ABORT: in SYN-SENT the TCB goes, no RST. */
		if (wr_tcp_pool_conn(&e->pool, idx)->state != WR_TCP_SYN_SENT) {
			wr_conn_abort(e, idx, (e->st[idx].flags & WR_CONN_S_ESTAB) ?
				WR_TCP_FAIL_RTX_TIMEOUT : WR_TCP_FAIL_SYN_TIMEOUT, now_us);
			continue;
		}
		wr_conn_end(e, idx, WR_TCP_FAIL_SYN_TIMEOUT);
		wr_conn_free(e, idx);
	}
	e->draining = false;
	e->drain_bulk = false;
	e->tearing = false;
	e->nb_starts = 0;
	if (e->cfg.role != WR_CONN_CLIENT || cps == 0)
		return;
	e->cfg.cps = cps;
	e->ivl_fx = (UINT64_C(1000000) << WR_CONN_FX_SHIFT) / cps;
	/* The first start now; the wheels keep their clock. */
	e->next_fx = now_us << WR_CONN_FX_SHIFT;
}
