/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What a TCP call asks of the engine (engine_priv.h): its segments built
 * and handed to the caller, its timer put on the wheel, its events
 * turned into the books and the application's next step, a connection
 * that ended given back to the pool.
 */
#include "conn/engine_priv.h"

/* Whether slot idx went back to the pool (an app hook may free it). */
static inline bool
is_free(const struct wr_conn_engine *e, uint32_t idx)
{
	return (e->st[idx].flags & WR_CONN_S_FREE) != 0;
}

bool
wr_conn_emit_seg(struct wr_conn_engine *e, uint32_t idx,
	const struct wr_tcp_tuple *tuple, const struct wr_tcp_seg *seg)
{
	struct wr_tcp_tuple t;
	struct wr_tcp_tx tx;
	size_t room = 0;
	uint8_t *buf;
	int n;

	memset(&tx, 0, sizeof(tx));
	if (tuple == NULL) {
		wr_tcp_table_tuple(&e->table, idx, &t);
		tuple = &t;
		tx.pattern_seed = wr_tcp_pool_conn(&e->pool, idx)->iss;
		if (seg->len_bytes > 0)
			tx.payload = wr_conn_app_payload(e, idx,
				seg->stream_off, seg->len_bytes);
	}
	tx.tuple = tuple;
	tx.seg = seg;
	tx.ttl = e->cfg.ttl;
	tx.csum_mode = (enum wr_tcp_csum_mode)e->cfg.csum_offload;
	buf = e->emit.buf(e->emit.ctx, &room);
	if (buf == NULL)
		goto no_buf;
	n = wr_tcp_wire_build(&tx, buf, room);
	if (n < 0)
		goto no_buf;
	e->emit.sent(e->emit.ctx, (size_t)n);
	e->books.nb_segs_tx++;
	return true;
no_buf:
	e->books.nb_tx_no_buf++;
	return false;
}

void
wr_conn_free(struct wr_conn_engine *e, uint32_t idx)
{
	struct wr_tcp_conn *c = wr_tcp_pool_conn(&e->pool, idx);

	wr_tcp_wheel_cancel(&e->wheel, idx);
	wr_tcp_wheel_cancel(&e->app_wheel, idx);
	wr_tcp_table_delete(&e->table, idx);
	c->state = WR_TCP_CLOSED;
	e->st[idx].flags = WR_CONN_S_FREE;
	wr_tcp_sb_give(&e->sb_pool, idx);
	wr_tcp_pool_free(&e->pool, idx);
}

/* Count one failure of class fail in the client's books. */
static void
book_fail(struct wr_conn_books *b, uint8_t fail)
{
	switch (fail) {
	case WR_TCP_FAIL_SYN_TIMEOUT:
		b->nb_failed_syn_timeout++;
		break;
	case WR_TCP_FAIL_REFUSED:
		b->nb_failed_refused++;
		break;
	case WR_TCP_FAIL_RESET:
		b->nb_failed_reset++;
		break;
	case WR_TCP_FAIL_RTX_TIMEOUT:
		b->nb_failed_rtx_timeout++;
		break;
	case WR_CONN_FAIL_RESP_TIMEOUT:
		b->nb_failed_resp_timeout++;
		break;
	default:
		b->nb_failed_http++;
		break;
	}
}

void
wr_conn_end(struct wr_conn_engine *e, uint32_t idx, uint8_t fail)
{
	struct wr_conn_state *st = &e->st[idx];
	struct wr_conn_books *b = &e->books;

	if (st->flags & WR_CONN_S_ENDED)
		return;
	st->flags |= WR_CONN_S_ENDED;
	b->nb_open--;
	if (e->cfg.role == WR_CONN_SERVER) {
		b->nb_closed++;
		return;
	}
	if (st->flags & WR_CONN_S_REQ_OUT) {
		st->flags &= (uint8_t)~WR_CONN_S_REQ_OUT;
		b->nb_reqs_failed++;
	}
	if (fail == 0 && (st->flags & WR_CONN_S_HTTP_BAD))
		fail = WR_CONN_FAIL_HTTP;
	if (fail == 0 && !wr_conn_app_done(e, idx))
		fail = st->fail ? st->fail : WR_CONN_FAIL_HTTP;
	wr_conn_hold_end(e, idx, fail);
	if (fail == 0)
		b->nb_completed++;
	else
		book_fail(b, fail);
}

void
wr_conn_abort(struct wr_conn_engine *e, uint32_t idx, uint8_t fail,
	uint64_t now_us)
{
	struct wr_tcp_conn *c = wr_tcp_pool_conn(&e->pool, idx);
	struct wr_tcp_seg rst;

	/* RFC 9293 3.10.5 ABORT: <SEQ=SND.NXT><CTL=RST>, the ACK added as
	 * Linux does. */
	memset(&rst, 0, sizeof(rst));
	rst.seq = c->snd_nxt;
	rst.ack = c->rcv_nxt;
	rst.flags = WR_TCP_RST | WR_TCP_ACK;
	rst.wscale = WR_TCP_WSCALE_NONE;
	wr_conn_emit_seg(e, idx, NULL, &rst);
	(void)now_us;
	wr_conn_end(e, idx, fail);
	wr_conn_free(e, idx);
}

/* Put the timer e->out asks for on the wheel. */
static void
set_timer(struct wr_conn_engine *e, uint32_t idx, uint64_t now_us)
{
	const struct wr_tcp_out *out = &e->out;

	switch (out->timer) {
	case WR_TCP_TIMER_KEEP:
		break;
	case WR_TCP_TIMER_CANCEL:
		wr_tcp_wheel_cancel(&e->wheel, idx);
		break;
	case WR_TCP_TIMER_TIME_WAIT:
		wr_tcp_wheel_arm(&e->wheel, idx, e->cfg.time_wait_us ?
			now_us + e->cfg.time_wait_us : out->timer_us);
		break;
	default:
		wr_tcp_wheel_arm(&e->wheel, idx, out->timer_us);
		break;
	}
}

/* Emit e->out's segments and count what the call sent. */
static void
send_out(struct wr_conn_engine *e, uint32_t idx, uint64_t sent0, bool rto)
{
	const struct wr_tcp_conn *c = wr_tcp_pool_conn(&e->pool, idx);
	const struct wr_tcp_out *out = &e->out;
	uint32_t i;

	for (i = 0; i < out->nb_segs; i++)
		wr_conn_emit_seg(e, idx, NULL, &out->segs[i]);
	if (out->probe) {
		e->books.nb_probes++;
		e->books.nb_rtx_probe += out->nb_rtx_segs;
	} else if (rto) {
		e->books.nb_rtx_rto += out->nb_rtx_segs;
	} else if (out->nb_rtx_segs != 0) {
		e->books.nb_rtx_fast += out->nb_rtx_segs;
		/* A recovery begins with a fast retransmit: the pool's
		 * counts of it, into the books the stats core reads. */
		e->books.nb_sack_recoveries = e->sb_pool.nb_taken;
		e->books.nb_sack_refused = e->sb_pool.nb_refused;
	}
	e->books.nb_l7_tx_bytes += c->tx_sent_bytes - sent0;
}

/* The connection reached ESTABLISHED. */
static void
on_established(struct wr_conn_engine *e, uint32_t idx, uint64_t now_us)
{
	struct wr_conn_state *st = &e->st[idx];

	e->books.nb_established++;
	st->flags |= WR_CONN_S_ESTAB;
	if (e->cfg.syn_timeout_us != 0)
		wr_tcp_wheel_cancel(&e->app_wheel, idx);
	if (e->cfg.role == WR_CONN_CLIENT)
		wr_hist_add(&e->books.lat.connect_us, now_us - st->t0_us);
	wr_conn_app_established(e, idx, now_us);
}

/* The connection ended its life in TCP (CLOSED) or entered TIME_WAIT. */
static void
on_end(struct wr_conn_engine *e, uint32_t idx, uint16_t ev, uint8_t fail)
{
	struct wr_conn_state *st = &e->st[idx];

	if (ev & WR_TCP_EV_TIME_WAIT) {
		wr_conn_end(e, idx, 0);
		if (!(st->flags & WR_CONN_S_TIME_WAIT)) {
			st->flags |= WR_CONN_S_TIME_WAIT;
			e->books.nb_time_wait++;
		}
	}
	if (ev & WR_TCP_EV_CLOSED) {
		wr_conn_end(e, idx, (ev & WR_TCP_EV_FAILED) ? fail : 0);
		if (st->flags & WR_CONN_S_TIME_WAIT)
			e->books.nb_time_wait--;
		wr_conn_free(e, idx);
	}
}

void
wr_conn_ack_due_flush(struct wr_conn_engine *e, uint64_t now_us)
{
	uint32_t i, idx, n = e->nb_ack_due;
	struct wr_tcp_conn *c;
	uint64_t sent0;

	e->nb_ack_due = 0;
	for (i = 0; i < n; i++) {
		idx = e->ack_due[i];
		c = wr_tcp_pool_conn(&e->pool, idx);
		if (!(c->flags & WR_TCP_F_ACK_DELAYED))
			continue;   /* data carried it, or another entry */
		sent0 = c->tx_sent_bytes;
		wr_tcp_ack_due(c, now_us, &e->out);
		wr_conn_run_out(e, idx, sent0, false, now_us);
	}
}

/* The ACK of connection idx waits for the end of the receive burst;
 * a full list goes first. Out of line: wr_conn_run_out stays small. */
static __attribute__((noinline)) void
ack_due_add(struct wr_conn_engine *e, uint32_t idx, uint64_t now_us)
{
	if (e->nb_ack_due != 0 && e->ack_due[e->nb_ack_due - 1] == idx)
		return;
	if (e->nb_ack_due == WR_CONN_ACK_DUE_MAX)
		wr_conn_ack_due_flush(e, now_us);
	e->ack_due[e->nb_ack_due++] = idx;
}

void
wr_conn_run_out(struct wr_conn_engine *e, uint32_t idx, uint64_t sent0,
	bool rto, uint64_t now_us)
{
	struct wr_tcp_conn *c = wr_tcp_pool_conn(&e->pool, idx);
	const uint8_t *p = e->rx_p;
	uint32_t known = e->rx_known;
	uint64_t delivered = 0;
	uint16_t ev = 0;
	uint8_t fail = 0;

	e->rx_p = NULL;
	e->rx_known = 0;
	/* Hooks below make TCP calls of their own, which reuse e->out:
	 * what this call said is kept in locals first. */
	for (;;) {
		send_out(e, idx, sent0, rto);
		set_timer(e, idx, now_us);
		ev |= e->out.events;
		delivered += e->out.nb_delivered_bytes;
		if (e->out.fail)
			fail = e->out.fail;
		if (!e->out.more)
			break;
		sent0 = c->tx_sent_bytes;
		wr_tcp_output(c, now_us, &e->out);
		rto = false;
	}
	if (__builtin_expect(ev & WR_TCP_EV_ACK_DUE, 0))
		ack_due_add(e, idx, now_us);
	if (ev & WR_TCP_EV_ESTABLISHED) {
		on_established(e, idx, now_us);
		if (is_free(e, idx))
			return;
	}
	if ((ev & WR_TCP_EV_DELIVERED) && delivered > 0) {
		e->books.nb_l7_rx_bytes += delivered;
		wr_conn_app_rx(e, idx, p, known < delivered ? known : delivered,
			delivered, now_us);
		if (is_free(e, idx))
			return;
	}
	if (ev & WR_TCP_EV_PEER_FIN) {
		wr_conn_app_peer_fin(e, idx, now_us);
		if (is_free(e, idx))
			return;
	}
	if (ev & (WR_TCP_EV_TIME_WAIT | WR_TCP_EV_CLOSED))
		on_end(e, idx, ev, fail);
}
