/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Held connections, for a connection table's capacity (RFC 9693 7): with
 * cfg.hold, an HTTP client's connection sends its first request
 * (keep-alive), reads the answer, and then stays idle, holding its place
 * in every stateful device on the path, until wr_conn_engine_release
 * (the drain alone only stops the opening, so that the handshakes under
 * way end held or failed). The release frees the held ones,
 * WR_CONN_START_BURST a poll: each sends its last
 * request (Connection: close), and a 2xx answer proves it still carried
 * traffic (nb_hold_checks_ok); the client closes after it.
 *
 * cfg.syn_timeout_us bounds the handshake: a SYN (with its retries) not
 * answered so long fails its connection once, as a SYN timeout, and the
 * connection is freed with no RST (RFC 9293 3.10.8: a user timeout
 * deletes the TCB), so nothing more crosses the device for it.
 */
#include "conn/engine_priv.h"

bool
wr_conn_hold_take(struct wr_conn_engine *e, uint32_t idx)
{
	struct wr_conn_books *b = &e->books;

	if (!e->cfg.hold || e->release_asked || e->tearing)
		return false;
	e->st[idx].hold = WR_CONN_HOLD_HELD;
	if (++b->nb_held > b->nb_held_peak)
		b->nb_held_peak = b->nb_held;
	return true;
}

void
wr_conn_hold_answer(struct wr_conn_engine *e, uint32_t idx, bool good)
{
	if (e->st[idx].hold == WR_CONN_HOLD_CHECK && good)
		e->books.nb_hold_checks_ok++;
}

void
wr_conn_hold_end(struct wr_conn_engine *e, uint32_t idx, uint8_t fail)
{
	if (e->st[idx].hold == WR_CONN_HOLD_HELD)
		e->books.nb_held--;
	else if (e->st[idx].hold == WR_CONN_HOLD_CLOSE)
		wr_conn_tear_end(e, idx, fail);
	e->st[idx].hold = WR_CONN_HOLD_NONE;
}

void
wr_conn_hold_release(struct wr_conn_engine *e, uint64_t now_us)
{
	struct wr_conn_state *st;
	uint32_t n = 0, idx;

	/* Frames the port refused wait (wr_conn_engine_tx_busy): not now. */
	if (e->tx_busy)
		return;
	for (idx = e->release_next; idx < e->cfg.max_open &&
			n < WR_CONN_START_BURST; idx++) {
		st = &e->st[idx];
		if ((st->flags & (WR_CONN_S_FREE | WR_CONN_S_ENDED |
				WR_CONN_S_CLOSING)) ||
			st->hold != WR_CONN_HOLD_HELD)
			continue;
		st->hold = WR_CONN_HOLD_CHECK;
		e->books.nb_held--;
		wr_conn_http_send_last(e, idx, now_us);
		n++;
	}
	e->release_next = idx;
	if (idx >= e->cfg.max_open)
		e->releasing = false;
}

bool
wr_conn_hold_syn_timeout(struct wr_conn_engine *e, uint32_t idx)
{
	if (e->cfg.syn_timeout_us == 0 ||
		(e->st[idx].flags & WR_CONN_S_ESTAB))
		return false;
	wr_conn_end(e, idx, WR_TCP_FAIL_SYN_TIMEOUT);
	wr_conn_free(e, idx);
	return true;
}
