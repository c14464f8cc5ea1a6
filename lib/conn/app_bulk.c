/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Bulk on the engine's connections: the client sends bulk_bytes of
 * pattern (wr_tcp_pattern_byte, seeded by the connection's ISS, so the
 * receiver can check every byte from its IRS) and closes; with
 * bulk_bytes 0 it sends until the engine is drained. The server only
 * counts what is delivered (nb_l7_rx_bytes) and closes when the client
 * does (app_http.c's peer FIN hook).
 */
#include "conn/engine_priv.h"

void
wr_conn_bulk_established(struct wr_conn_engine *e, uint32_t idx,
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
