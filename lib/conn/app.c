/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The application hooks run.c calls (engine_priv.h), by app: HTTP in
 * app_http.c, bulk here. Bulk: the client sends bulk_bytes of pattern
 * (wr_tcp_pattern_byte, seeded by the connection's ISS, so the receiver
 * can check every byte from its IRS) and closes; with bulk_bytes 0 it
 * sends until the engine is drained. The server only counts what is
 * delivered (nb_l7_rx_bytes). Either end closes when its peer does.
 */
#include "conn/engine_priv.h"

/* Bulk: the client's bytes queued, its FIN after them unless endless. */
static void
bulk_established(struct wr_conn_engine *e, uint32_t idx,
	uint64_t now_us)
{
	struct wr_tcp_conn *c = wr_tcp_pool_conn(&e->pool, idx);

	if (e->cfg.role != WR_CONN_CLIENT)
		return;
	if (e->cfg.bulk_bytes == 0) {
		c->app_tx_left_bytes = e->draining ? 0 :
			WR_CONN_BULK_ENDLESS_BYTES;
		if (c->app_tx_left_bytes > 0) {
			wr_conn_push(e, idx, now_us);
			return;
		}
	} else {
		c->app_tx_left_bytes = e->cfg.bulk_bytes;
	}
	wr_conn_close(e, idx, now_us);
}

void
wr_conn_bulk_drain(struct wr_conn_engine *e, uint64_t now_us)
{
	struct wr_tcp_conn *c;
	uint32_t idx;

	if (e->cfg.bulk_bytes != 0)
		return;
	for (idx = 0; idx < e->cfg.max_open; idx++) {
		c = wr_tcp_pool_conn(&e->pool, idx);
		if ((e->st[idx].flags & (WR_CONN_S_FREE | WR_CONN_S_CLOSING)) ||
			c->state != WR_TCP_ESTABLISHED)
			continue;
		c->app_tx_left_bytes = 0;
		wr_conn_close(e, idx, now_us);
	}
}

uint64_t
wr_conn_app_connect_bytes(struct wr_conn_engine *e, uint32_t idx)
{
	if (e->cfg.app != WR_CONN_APP_HTTP)
		return 0;
	return wr_conn_http_connect_bytes(e, idx);
}

const uint8_t *
wr_conn_app_payload(struct wr_conn_engine *e, uint32_t idx, uint64_t off,
	uint32_t len)
{
	if (e->cfg.app != WR_CONN_APP_HTTP)
		return NULL;    /* the pattern */
	return wr_conn_http_payload(e, idx, off, len);
}

void
wr_conn_app_established(struct wr_conn_engine *e, uint32_t idx,
	uint64_t now_us)
{
	if (e->cfg.app == WR_CONN_APP_BULK)
		bulk_established(e, idx, now_us);
	else
		wr_conn_http_established(e, idx, now_us);
}

void
wr_conn_app_rx(struct wr_conn_engine *e, uint32_t idx, const uint8_t *p,
	uint64_t known, uint64_t nb_bytes, uint64_t now_us)
{
	if (e->cfg.app == WR_CONN_APP_HTTP)
		wr_conn_http_rx(e, idx, p, known, nb_bytes, now_us);
}

void
wr_conn_app_peer_fin(struct wr_conn_engine *e, uint32_t idx,
	uint64_t now_us)
{
	if (e->cfg.app == WR_CONN_APP_HTTP) {
		wr_conn_http_peer_fin(e, idx, now_us);
		if (e->st[idx].flags & WR_CONN_S_FREE)
			return;
	}
	if (!(e->st[idx].flags & WR_CONN_S_CLOSING))
		wr_conn_close(e, idx, now_us);
}

void
wr_conn_app_resp_timeout(struct wr_conn_engine *e, uint32_t idx,
	uint64_t now_us)
{
	if (wr_conn_hold_syn_timeout(e, idx) ||
			wr_conn_tear_timeout(e, idx, now_us))
		return;
	if (e->st[idx].flags & WR_CONN_S_REQ_OUT)
		wr_conn_abort(e, idx, WR_CONN_FAIL_RESP_TIMEOUT, now_us);
}

bool
wr_conn_app_done(const struct wr_conn_engine *e, uint32_t idx)
{
	if (e->cfg.app == WR_CONN_APP_BULK)
		return true;    /* ended cleanly: its FIN acked its bytes */
	if (e->st[idx].hold == WR_CONN_HOLD_CLOSE)
		return true;    /* held, then closed by the tear-down pass */
	if (e->cfg.drain_cut && e->draining && e->cfg.role == WR_CONN_CLIENT &&
			e->st[idx].nb_answers == e->st[idx].nb_reqs)
		return true;    /* cut at the drain with no answer owed */
	return e->st[idx].nb_answers >= e->cfg.reqs_per_conn;
}
