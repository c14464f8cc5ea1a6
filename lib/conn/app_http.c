/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * HTTP/1.1 on the engine's connections (RFC 9112), reached through the
 * application hooks of app.c.
 *
 * Client: on ESTABLISHED the GET goes out (keep-alive while more follow
 * on the connection, "Connection: close" on the last), or a POST and its
 * req_body_bytes of pattern body (the pattern at the client's stream
 * offsets, seeded by its ISS, as a bulk sender's); the answer is
 * parsed as it arrives (wr_http_resp_feed), timed (first and last byte),
 * bounded by resp_timeout_us; after the last answer the client closes
 * first (TIME_WAIT on its side, docs/tcp.md).
 *
 * Server: requests are counted as they end, their bodies too
 * (wr_http_req_feed), each answered by a head and resp_body_bytes of
 * pattern body; a request that expects a 100 (Continue) gets one before
 * its body comes, where every byte sent before it has been acked (else
 * the client's own wait decides); it closes when the client does.
 *
 * A segment's payload is named by its stream offset (conn.h): the
 * client's current request starts at base_off, the ones before it
 * keep-alive requests of req_ka_bytes each; the server's stream is
 * answers of resp_bytes each back to back, base_off the start of the one
 * a segment falls in (moved by whole answers: no division). A 100
 * Continue is sent only when all before it is acked, so none is sent
 * again but the latest: it lies cont_k answers before base_off while
 * st->cont is set, and the answers follow it back to back.
 */
#include <errno.h>
#include <string.h>

#include "conn/engine_priv.h"

/* Zeros for answer bytes the engine never saw (app_rx). */
static const uint8_t zeros[256];

/* The interim answer (RFC 9110 15.2.1). */
static const char cont[] = "HTTP/1.1 100 Continue\r\n\r\n";
#define CONT_BYTES (sizeof(cont) - 1)

int
wr_conn_http_init(struct wr_conn_engine *e, struct wr_error *err)
{
	const struct wr_conn_cfg *cfg = &e->cfg;
	int n;

	if (cfg->role == WR_CONN_SERVER) {
		n = wr_http_resp_head_write((char *)e->head, sizeof(e->head),
			cfg->resp_body_bytes, 1);
		if (n < 0)
			return wr_err_usage(err, -EINVAL,
				"conn: resp_body_bytes %llu: no room for the head",
				(unsigned long long)cfg->resp_body_bytes);
		e->head_len = (uint32_t)n;
		e->resp_bytes = (uint64_t)n + cfg->resp_body_bytes;
		return 0;
	}
	n = wr_http_req_write((char *)e->req_ka, sizeof(e->req_ka),
		cfg->path, cfg->host, 1, cfg->req_body_bytes);
	if (n > 0)
		e->req_ka_len = (uint32_t)n;
	e->req_ka_bytes = e->req_ka_len + cfg->req_body_bytes;
	n = n < 0 ? n : wr_http_req_write((char *)e->req_close,
		sizeof(e->req_close), cfg->path, cfg->host, 0,
		cfg->req_body_bytes);
	if (n < 0)
		return wr_err_usage(err, -EINVAL,
			"conn: path and host: a request over %u bytes",
			WR_CONN_HEAD_MAX_BYTES);
	e->req_close_len = (uint32_t)n;
	return 0;
}

/* Client: the request queued last is on its way; time it. */
static void
request_out(struct wr_conn_engine *e, uint32_t idx, uint64_t now_us)
{
	struct wr_conn_state *st = &e->st[idx];

	st->flags = (uint8_t)((st->flags | WR_CONN_S_REQ_OUT) &
		~WR_CONN_S_TTFB);
	st->t0_us = now_us;
	e->books.nb_reqs_sent++;
	if (e->cfg.resp_timeout_us)
		wr_tcp_wheel_arm(&e->app_wheel, idx,
			now_us + e->cfg.resp_timeout_us);
}

/* Client: queue the next request of connection idx and send it. */
static void
send_request(struct wr_conn_engine *e, uint32_t idx, uint64_t now_us)
{
	struct wr_tcp_conn *c = wr_tcp_pool_conn(&e->pool, idx);
	struct wr_conn_state *st = &e->st[idx];
	bool last = st->nb_reqs + 1 >= e->cfg.reqs_per_conn;

	st->base_off = c->tx_sent_bytes + c->app_tx_left_bytes;
	st->nb_reqs++;
	c->app_tx_left_bytes += (last ? e->req_close_len : e->req_ka_len) +
		e->cfg.req_body_bytes;
	request_out(e, idx, now_us);
	wr_conn_push(e, idx, now_us);
}

void
wr_conn_http_send_last(struct wr_conn_engine *e, uint32_t idx,
	uint64_t now_us)
{
	e->st[idx].nb_reqs = e->cfg.reqs_per_conn - 1;
	send_request(e, idx, now_us);
}

uint64_t
wr_conn_http_connect_bytes(struct wr_conn_engine *e, uint32_t idx)
{
	/* The first request leaves with the handshake's last ACK. */
	e->st[idx].nb_reqs = 1;
	e->st[idx].base_off = 0;
	return (e->cfg.reqs_per_conn == 1 ? e->req_close_len : e->req_ka_len) +
		e->cfg.req_body_bytes;
}

/* Client: an answer ended (good: 2xx); the next request or the close. */
static void
answer_done(struct wr_conn_engine *e, uint32_t idx, bool good,
	uint64_t now_us)
{
	struct wr_conn_state *st = &e->st[idx];

	wr_tcp_wheel_cancel(&e->app_wheel, idx);
	wr_hist_add(&e->books.lat.ttlb_us, now_us - st->t0_us);
	st->flags &= (uint8_t)~WR_CONN_S_REQ_OUT;
	st->nb_answers++;
	wr_conn_hold_answer(e, idx, good);
	if (good) {
		e->books.nb_resps++;
	} else {
		e->books.nb_reqs_failed++;
		st->flags |= WR_CONN_S_HTTP_BAD;
	}
	if (st->nb_reqs < e->cfg.reqs_per_conn &&
			!(e->draining && e->cfg.drain_cut)) {
		if (!wr_conn_hold_take(e, idx))
			send_request(e, idx, now_us);
	}
	else if (!(st->flags & WR_CONN_S_CLOSING))
		wr_conn_close(e, idx, now_us);
}

/* Client: feed len answer bytes (p NULL: bytes never seen, as zeros).
 * Returns 1 when an answer ended in them, 0 if not, -EBADMSG. */
static int
feed(struct wr_conn_engine *e, struct wr_conn_state *st, const uint8_t *p,
	uint64_t len, bool *good)
{
	uint64_t resps0 = e->http.nb_responses, failed0 = e->http.nb_failed;
	size_t n;
	int rc = 0;

	while (len > 0 && rc == 0) {
		n = p != NULL ? len : (len < sizeof(zeros) ? len : sizeof(zeros));
		rc = wr_http_resp_feed(&st->resp, p != NULL ? p : zeros, n,
			&e->http);
		len -= n;
	}
	*good = e->http.nb_failed == failed0;
	return rc < 0 ? rc : e->http.nb_responses != resps0;
}

/*
 * Client: nb bytes delivered in order, the first known of them at p. The
 * others came out of order and were not kept (conn.h): fed as zeros,
 * which holds while a head fits in an answer's first segment (the bytes
 * past it are body, skipped by length).
 */
static void
http_client_rx(struct wr_conn_engine *e, uint32_t idx, const uint8_t *p,
	uint64_t known, uint64_t nb, uint64_t now_us)
{
	struct wr_conn_state *st = &e->st[idx];
	bool good = true, good2 = true;
	int rc;

	if ((st->flags & (WR_CONN_S_REQ_OUT | WR_CONN_S_TTFB)) ==
		WR_CONN_S_REQ_OUT) {
		st->flags |= WR_CONN_S_TTFB;
		wr_hist_add(&e->books.lat.ttfb_us, now_us - st->t0_us);
	}
	rc = feed(e, st, p, known, &good);
	if (rc == 0 && nb > known)
		rc = feed(e, st, NULL, nb - known, &good2);
	if (rc < 0) {
		st->flags |= WR_CONN_S_HTTP_BAD;
		wr_conn_abort(e, idx, WR_CONN_FAIL_HTTP, now_us);
		return;
	}
	if (rc > 0)
		answer_done(e, idx, good && good2, now_us);
}

/*
 * Server: queue a 100 Continue, where nothing sent before it waits for
 * its ACK (then no earlier byte is ever sent again) and no answer or FIN
 * is queued: the interim at the stream's end, the answers after it.
 */
static bool
continue_out(struct wr_conn_engine *e, struct wr_conn_state *st,
	struct wr_tcp_conn *c)
{
	if (c->app_tx_left_bytes != 0 || c->snd_una != c->snd_max ||
		(c->flags & (WR_TCP_F_FIN_QUEUED | WR_TCP_F_FIN_SENT)))
		return false;
	st->cont = 1;
	st->cont_k = 0;
	st->base_off = c->tx_sent_bytes + CONT_BYTES;
	c->app_tx_left_bytes = CONT_BYTES;
	e->books.nb_continues++;
	return true;
}

/*
 * Server: count the requests that ended in nb bytes, the first known of
 * them at p (the others, not kept, are body: wr_http_req_skip), queue an
 * answer for each.
 */
static void
http_server_rx(struct wr_conn_engine *e, uint32_t idx, const uint8_t *p,
	uint64_t known, uint64_t nb, uint64_t now_us)
{
	struct wr_conn_state *st = &e->st[idx];
	struct wr_tcp_conn *c = wr_tcp_pool_conn(&e->pool, idx);
	uint64_t nb_done = 0;
	bool queued;

	if ((known > 0 && wr_http_req_feed(&st->req, p, known, &nb_done) < 0) ||
		(nb > known &&
		wr_http_req_skip(&st->req, nb - known, &nb_done) < 0))
		return;
	st->nb_reqs += (uint32_t)nb_done;
	e->books.nb_reqs_served += nb_done;
	c->app_tx_left_bytes += nb_done * e->resp_bytes;
	queued = nb_done > 0;
	if (wr_http_req_continue_due(&st->req))
		queued |= continue_out(e, st, c);
	if (queued)
		wr_conn_push(e, idx, now_us);
}

/*
 * Server: base_off to the start of the answer off falls in; or, for an
 * offset in the latest 100 Continue, to the first answer after it.
 * Returns the interim's bytes from off to base_off (0: in an answer).
 * cont_k cannot pass UINT32_MAX answers: the interim is acked long
 * before (a window is under 2^31 bytes), its place no longer needed.
 */
static uint64_t
server_seek(struct wr_conn_state *st, uint64_t r, uint64_t off)
{
	while (off < st->base_off && !(st->cont && st->cont_k == 0)) {
		st->base_off -= r;
		st->cont_k -= st->cont;
	}
	if (off < st->base_off)
		return st->base_off - off;
	while (off - st->base_off >= r) {
		st->base_off += r;
		if (st->cont && ++st->cont_k == UINT32_MAX)
			st->cont = 0;
	}
	return 0;
}

/* Server: the payload of [off, off + len) of the answers' stream. */
static const uint8_t *
server_payload(struct wr_conn_engine *e, struct wr_conn_state *st,
	uint32_t seed, uint64_t off, uint32_t len)
{
	uint64_t r = e->resp_bytes, pos, take, done = 0, b;
	uint64_t in_cont = server_seek(st, r, off);

	pos = off - st->base_off;
	if (in_cont == 0 && pos >= e->head_len && pos + len <= r)
		return NULL;    /* body only: the pattern itself */
	if (in_cont > 0) {
		done = in_cont < len ? in_cont : len;
		memcpy(e->scratch, cont + CONT_BYTES - in_cont, done);
		pos = 0;
	}
	for (b = st->base_off; done < len; b += r, pos = 0) {
		if (pos < e->head_len) {
			take = e->head_len - pos;
			take = take < len - done ? take : len - done;
			memcpy(e->scratch + done, e->head + pos, take);
			done += take;
			pos += take;
		}
		take = r - pos < len - done ? r - pos : len - done;
		wr_tcp_pattern_fill(e->scratch + done, seed, b + pos, take);
		done += take;
	}
	return e->scratch;
}

/*
 * Client: the payload of [off, off + len) of the requests' stream built
 * in scratch, where it reaches past a head or starts before the current
 * request (one whose answer came before its whole body was sent).
 */
static const uint8_t *
client_payload(struct wr_conn_engine *e, struct wr_conn_state *st,
	uint32_t seed, uint64_t off, uint32_t len, bool last)
{
	uint64_t b = st->base_off, pos, take, done = 0;
	const uint8_t *head;
	uint32_t hl;

	while (off < b)
		b -= e->req_ka_bytes;
	for (pos = off - b; done < len; b += hl + e->cfg.req_body_bytes,
			pos = 0) {
		head = b == st->base_off && last ? e->req_close : e->req_ka;
		hl = b == st->base_off && last ? e->req_close_len :
			e->req_ka_len;
		if (pos < hl) {
			take = hl - pos < len - done ? hl - pos : len - done;
			memcpy(e->scratch + done, head + pos, take);
			done += take;
			pos += take;
		}
		take = hl + e->cfg.req_body_bytes - pos;
		take = take < len - done ? take : len - done;
		wr_tcp_pattern_fill(e->scratch + done, seed, b + pos, take);
		done += take;
	}
	return e->scratch;
}

const uint8_t *
wr_conn_http_payload(struct wr_conn_engine *e, uint32_t idx, uint64_t off,
	uint32_t len)
{
	struct wr_conn_state *st = &e->st[idx];
	uint32_t seed = wr_tcp_pool_conn(&e->pool, idx)->iss;
	uint64_t pos = off - st->base_off;
	uint32_t hl;
	bool last;

	if (e->cfg.role == WR_CONN_SERVER)
		return server_payload(e, st, seed, off, len);
	last = st->nb_reqs >= e->cfg.reqs_per_conn;
	hl = last ? e->req_close_len : e->req_ka_len;
	/* The current request's head, or its body (nothing follows it). */
	if (off >= st->base_off && pos >= hl)
		return NULL;
	if (off >= st->base_off && pos + len <= hl)
		return (last ? e->req_close : e->req_ka) + pos;
	return client_payload(e, st, seed, off, len, last);
}

void
wr_conn_http_established(struct wr_conn_engine *e, uint32_t idx,
	uint64_t now_us)
{
	if (e->cfg.role == WR_CONN_CLIENT)
		request_out(e, idx, now_us);    /* queued at the connect */
}

void
wr_conn_http_rx(struct wr_conn_engine *e, uint32_t idx, const uint8_t *p,
	uint64_t known, uint64_t nb_bytes, uint64_t now_us)
{
	if (e->cfg.role == WR_CONN_CLIENT)
		http_client_rx(e, idx, p, known, nb_bytes, now_us);
	else
		http_server_rx(e, idx, p, known, nb_bytes, now_us);
}

void
wr_conn_http_peer_fin(struct wr_conn_engine *e, uint32_t idx,
	uint64_t now_us)
{
	struct wr_conn_state *st = &e->st[idx];
	uint64_t resps0 = e->http.nb_responses;
	uint64_t failed0 = e->http.nb_failed;

	if (e->cfg.role != WR_CONN_CLIENT || !(st->flags & WR_CONN_S_REQ_OUT))
		return;
	/* An answer may end with the connection (RFC 9112 6.3). */
	if (wr_http_resp_eof(&st->resp, &e->http) == 0 &&
		e->http.nb_responses != resps0)
		answer_done(e, idx, e->http.nb_failed == failed0, now_us);
	else
		st->fail = WR_CONN_FAIL_HTTP;
}
