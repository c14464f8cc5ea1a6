/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Two connection engines back to back in memory (lib/conn/engine.h): each
 * one's emitted packets queue on a link (a ring with a one-way delay and
 * seeded random drops) and reach the other's rx, on a simulated clock.
 * The links also look at what crosses them (SYNs, RSTs, requests and
 * answers, bulk payload against the pattern): figures the engines did
 * not make. Shared by the conn unit tests and tests/bench_conn.c.
 */
#ifndef WR_TEST_CONN_PAIR_H
#define WR_TEST_CONN_PAIR_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "conn/engine.h"
#include "tcp/srcport.h"
#include "tcp/wire.h"

#define PAIR_RING 16384u          /* packets in flight per direction */
#define PAIR_PKT_BYTES 1600u      /* one IP packet, at most */
#define PAIR_PORTS 65536u

struct pair_pkt {
	uint64_t at_us;           /* arrival at the far end */
	uint32_t len;
	uint8_t data[PAIR_PKT_BYTES];
};

/* What crossed one direction, seen by the link (not by the engines). */
struct pair_seen {
	uint64_t nb_pkts;
	uint64_t nb_drops;
	uint64_t nb_syn;          /* SYN without ACK */
	uint64_t nb_rst;
	uint64_t nb_get;          /* payload starting with "GET " */
	uint64_t nb_post;         /* payload starting with "POST " */
	uint64_t nb_body_bytes;   /* check_body: request body bytes seen */
	uint64_t nb_200;          /* payload starting with "HTTP/1.1 200" */
	uint64_t nb_pattern_bad;  /* bulk bytes not the sender's pattern */
	uint64_t nb_bulk_bytes;   /* bulk: highest byte seen, summed */
	uint64_t nb_rss_bad;      /* SYNs whose reply hashes elsewhere */
	uint64_t nb_data;         /* segments with payload */
	uint64_t nb_pure_acks;    /* ACK alone: no payload, no other flag */
	uint64_t nb_runs;         /* data segments in a row of one client
				   * port within one delivery: each run may
				   * earn one ACK of a receiver in bursts */
	uint64_t min_reuse_us;    /* shortest time from a port's last packet
				   * to its next SYN (c2s; 0 while none) */
};

struct pair_link {
	struct pair_pkt *ring;
	uint32_t head, tail;
	uint64_t delay_us;
	uint64_t drop_ppm;        /* random drops, parts per million */
	uint64_t rng;
	bool cut;                 /* drop everything */
	bool check_bulk;          /* payload is the pattern of the ISS */
	bool check_body;          /* so are requests' bodies, after a
				   * head that starts a segment */
	bool blind;               /* look at nothing (the benchmark) */
	const struct wr_conn_rss *rss; /* SYNs' replies must reach its queue */
	const uint64_t *now_us;
	struct pair_seen seen;
	uint32_t iss[PAIR_PORTS]; /* by the client's port: its ISS */
	uint64_t end[PAIR_PORTS]; /* by the client's port: bulk end seen */
	uint64_t last_us[PAIR_PORTS]; /* by the client's port: last packet */
	int32_t run_port;         /* the data run's client port, or -1 */
};

struct pair {
	struct pair_link c2s, s2c;
	struct wr_conn_engine *cli, *srv;
	void *cli_mem, *srv_mem;
	uint64_t now_us;
};

static inline uint64_t
pair_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static inline uint8_t *
pair_buf(void *ctx, size_t *room)
{
	struct pair_link *l = ctx;

	if (l->tail - l->head >= PAIR_RING)
		return NULL;
	*room = PAIR_PKT_BYTES;
	return l->ring[l->tail % PAIR_RING].data;
}

/* A SYN seen at the server (tuple: the server's view): its reply, from
 * the server to the client, must hash to the client's queue. */
static inline void
pair_rss_check(struct pair_link *l, const struct wr_tcp_tuple *srv)
{
	struct wr_tcp_tuple cli = *srv;
	uint32_t h;

	memcpy(cli.laddr, srv->raddr, sizeof(cli.laddr));
	memcpy(cli.raddr, srv->laddr, sizeof(cli.raddr));
	cli.lport = srv->rport;
	cli.rport = srv->lport;
	h = wr_tcp_toeplitz_rx(l->rss->key, l->rss->key_bytes, &cli);
	if (l->rss->reta[h & (l->rss->reta_size - 1)] != l->rss->queue)
		l->seen.nb_rss_bad++;
}

/* check_body: the payload's bytes past a request head (one starting the
 * segment) must be the client's pattern at their stream offsets. */
static inline void
pair_look_body(struct pair_link *l, const uint8_t *pl,
	const struct wr_tcp_rx *rx, uint16_t cport)
{
	uint64_t off = (uint32_t)(rx->seg.seq - l->iss[cport] - 1), j = 0;
	const uint8_t *end;

	if (rx->seg.len_bytes >= 5 && (memcmp(pl, "POST ", 5) == 0 ||
		memcmp(pl, "GET ", 4) == 0)) {
		end = memmem(pl, rx->seg.len_bytes, "\r\n\r\n", 4);
		j = end == NULL ? rx->seg.len_bytes : (uint64_t)(end - pl) + 4;
	}
	l->seen.nb_body_bytes += rx->seg.len_bytes - j;
	for (; j < rx->seg.len_bytes; j++)
		if (pl[j] != wr_tcp_pattern_byte(l->iss[cport], off + j))
			l->seen.nb_pattern_bad++;
}

/* The link's own look at a packet (c2s: from the client). */
static inline void
pair_look(struct pair_link *l, const uint8_t *p, size_t len, bool c2s)
{
	struct wr_tcp_rx rx;
	const uint8_t *pl;
	uint16_t cport;
	uint64_t off, j;

	if (wr_tcp_wire_parse(p, len, &rx) < 0)
		return;
	l->seen.nb_pkts++;
	pl = p + rx.payload_off;
	cport = c2s ? rx.tuple.rport : rx.tuple.lport;
	if ((rx.seg.flags & (WR_TCP_SYN | WR_TCP_ACK)) == WR_TCP_SYN) {
		l->seen.nb_syn++;
		l->iss[cport] = rx.seg.seq;
		l->end[cport] = 0;
		if (l->rss != NULL)
			pair_rss_check(l, &rx.tuple);
		if (c2s && l->last_us[cport] != 0 && (l->seen.min_reuse_us == 0 ||
			*l->now_us - l->last_us[cport] < l->seen.min_reuse_us))
			l->seen.min_reuse_us = *l->now_us - l->last_us[cport];
	}
	l->last_us[cport] = *l->now_us;
	if (rx.seg.len_bytes > 0) {
		l->seen.nb_data++;
		if (l->run_port != cport)
			l->seen.nb_runs++;
		l->run_port = cport;
	} else if (rx.seg.flags == WR_TCP_ACK) {
		l->seen.nb_pure_acks++;
	}
	if (rx.seg.flags & WR_TCP_RST)
		l->seen.nb_rst++;
	if (rx.seg.len_bytes >= 4 && memcmp(pl, "GET ", 4) == 0)
		l->seen.nb_get++;
	if (rx.seg.len_bytes >= 5 && memcmp(pl, "POST ", 5) == 0)
		l->seen.nb_post++;
	if (rx.seg.len_bytes >= 12 && memcmp(pl, "HTTP/1.1 200", 12) == 0)
		l->seen.nb_200++;
	if (l->check_body && rx.seg.len_bytes > 0)
		pair_look_body(l, pl, &rx, cport);
	if (!l->check_bulk || rx.seg.len_bytes == 0)
		return;
	off = (uint32_t)(rx.seg.seq - l->iss[cport] - 1);
	for (j = 0; j < rx.seg.len_bytes; j++)
		if (pl[j] != wr_tcp_pattern_byte(l->iss[cport], off + j))
			l->seen.nb_pattern_bad++;
	if (off + rx.seg.len_bytes > l->end[cport]) {
		l->seen.nb_bulk_bytes += off + rx.seg.len_bytes - l->end[cport];
		l->end[cport] = off + rx.seg.len_bytes;
	}
}

static inline void
pair_sent(void *ctx, size_t len)
{
	struct pair_link *l = ctx;
	struct pair_pkt *pk = &l->ring[l->tail % PAIR_RING];

	if (l->cut || (l->drop_ppm &&
		pair_rand(&l->rng) % 1000000 < l->drop_ppm)) {
		l->seen.nb_drops++;
		return;
	}
	pk->len = (uint32_t)len;
	pk->at_us = *l->now_us + l->delay_us;
	l->tail++;
}

/* Deliver what is due on l to e (looked at as it arrives). */
static inline void
pair_deliver(struct pair_link *l, struct wr_conn_engine *e, uint64_t now,
	bool c2s)
{
	struct pair_pkt *pk;

	l->run_port = -1;
	while (l->head != l->tail) {
		pk = &l->ring[l->head % PAIR_RING];
		if (pk->at_us > now)
			break;
		l->head++;
		if (l->cut)
			continue;
		if (!l->blind)
			pair_look(l, pk->data, pk->len, c2s);
		wr_conn_engine_rx(e, pk->data, pk->len, now);
	}
}

/* A configuration: IPv4 10.0.0.1 (client) to 10.0.0.2:80. */
static inline void
pair_cfg(struct wr_conn_cfg *c, uint8_t role, uint8_t app)
{
	static const uint8_t a4[2][4] = { { 10, 0, 0, 1 }, { 10, 0, 0, 2 } };

	memset(c, 0, sizeof(*c));
	c->role = role;
	c->app = app;
	c->family = 4;
	c->mss_bytes = 1460;
	c->wscale = 7;
	c->server_port = 80;
	memcpy(c->laddr, a4[role == WR_CONN_CLIENT ? 0 : 1], 4);
	memcpy(c->server_addr, a4[1], 4);
	c->nb_laddrs = 1;
	c->lport_first = 1024;
	c->lport_last = 65535;
	c->rcv_wnd_bytes = 1u << 20;
	c->max_open = 4096;
	c->cps = 0;
	c->reqs_per_conn = 1;
	c->resp_body_bytes = 1000;
	c->resp_timeout_us = 5000000;
	c->time_wait_us = 2000;
	c->seed = role;
	strcpy(c->path, "/index.html");
	strcpy(c->host, "server.test");
}

/* Make both ends IPv6: 2001:db8::1 to 2001:db8::2. */
static inline void
pair_cfg6(struct wr_conn_cfg *c)
{
	uint8_t a[16] = { 0x20, 0x01, 0x0d, 0xb8 };

	c->family = 6;
	a[15] = c->role == WR_CONN_CLIENT ? 1 : 2;
	memcpy(c->laddr, a, 16);
	a[15] = 2;
	memcpy(c->server_addr, a, 16);
}

static inline struct wr_conn_engine *
pair_engine(const struct wr_conn_cfg *cfg, struct pair_link *out,
	void **mem)
{
	struct wr_conn_emit em = { pair_buf, pair_sent, out };
	size_t n = wr_conn_engine_mem_bytes(cfg);
	struct wr_error err;

	*mem = aligned_alloc(64, (n + 63) & ~(size_t)63);
	if (*mem == NULL)
		return NULL;
	return wr_conn_engine_init(*mem, cfg, &em, &err);
}

/* Set both ends up; false on a failure. */
static inline bool
pair_init(struct pair *p, const struct wr_conn_cfg *cc,
	const struct wr_conn_cfg *sc)
{
	memset(p, 0, sizeof(*p));
	p->c2s.ring = calloc(PAIR_RING, sizeof(struct pair_pkt));
	p->s2c.ring = calloc(PAIR_RING, sizeof(struct pair_pkt));
	p->c2s.delay_us = p->s2c.delay_us = 50;
	p->c2s.rng = 0x1234567;
	p->s2c.rng = 0x7654321;
	p->c2s.now_us = p->s2c.now_us = &p->now_us;
	p->now_us = 1000000;
	p->cli = pair_engine(cc, &p->c2s, &p->cli_mem);
	p->srv = pair_engine(sc, &p->s2c, &p->srv_mem);
	return p->c2s.ring && p->s2c.ring && p->cli && p->srv;
}

static inline void
pair_free(struct pair *p)
{
	free(p->c2s.ring);
	free(p->s2c.ring);
	free(p->cli_mem);
	free(p->srv_mem);
}

/* One turn: deliver what is due both ways, poll both, move the clock. */
static inline void
pair_step(struct pair *p)
{
	bool busy;

	pair_deliver(&p->c2s, p->srv, p->now_us, true);
	pair_deliver(&p->s2c, p->cli, p->now_us, false);
	wr_conn_engine_poll(p->srv, p->now_us);
	wr_conn_engine_poll(p->cli, p->now_us);
	busy = p->c2s.head != p->c2s.tail || p->s2c.head != p->s2c.tail;
	p->now_us += busy ? 10 : 1000;
}

/* Run until both ends are idle (the client drained or done) or until
 * limit_us of simulated time passed; whether they became idle. */
static inline bool
pair_run(struct pair *p, uint64_t limit_us)
{
	uint64_t end = p->now_us + limit_us;

	while (p->now_us < end) {
		pair_step(p);
		if (wr_conn_engine_idle(p->cli) && wr_conn_engine_idle(p->srv) &&
			p->c2s.head == p->c2s.tail && p->s2c.head == p->s2c.tail)
			return true;
	}
	return false;
}

/* Step for us of simulated time (TIME_WAIT to end, say). */
static inline void
pair_settle(struct pair *p, uint64_t us)
{
	uint64_t end = p->now_us + us;

	while (p->now_us < end)
		pair_step(p);
}

/* The client's failures, all classes. */
static inline uint64_t
pair_failed(const struct wr_conn_books *b)
{
	return b->nb_failed_syn_timeout + b->nb_failed_refused +
		b->nb_failed_reset + b->nb_failed_rtx_timeout +
		b->nb_failed_resp_timeout + b->nb_failed_http;
}

#endif /* WR_TEST_CONN_PAIR_H */
