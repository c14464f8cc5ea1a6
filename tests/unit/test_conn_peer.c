/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The HTTP client of the connection engine (lib/conn) against a scripted
 * peer: the test reads the client's packets and answers them by hand
 * (wire.c builds them), so it can send what wirerate's own server never
 * does: a 404, a malformed answer, a RST once established. The failure
 * classes and the request books must follow.
 */
#include <stdio.h>

#include "conn_pair.h"
#include "wr_test.h"

#define PEER_ISS 5000u

static struct pair_link L;     /* what the client sends */
static void *mem;

/* How the peer answers a request. */
enum script {
	ANSWER_404,
	ANSWER_GARBAGE,
	ANSWER_RST,
};

struct peer {
	struct wr_conn_engine *cli;
	uint64_t now_us;
	uint32_t snd_nxt;     /* the peer's */
	uint32_t rcv_nxt;
	enum script script;
	uint64_t nb_rst_seen; /* RSTs from the client */
	uint64_t nb_fin_seen;
};

/* Send one segment from the peer to the client. */
static void
peer_send(struct peer *p, const struct wr_tcp_tuple *t, uint8_t flags,
	const char *text)
{
	struct wr_tcp_tuple back;
	struct wr_tcp_seg seg;
	struct wr_tcp_tx tx;
	uint8_t pkt[512];
	int n;

	memset(&back, 0, sizeof(back));
	back.family = 4;
	memcpy(back.laddr, t->laddr, 4);
	memcpy(back.raddr, t->raddr, 4);
	back.lport = t->lport;
	back.rport = t->rport;
	memset(&seg, 0, sizeof(seg));
	seg.seq = p->snd_nxt;
	seg.ack = p->rcv_nxt;
	seg.flags = flags;
	seg.wnd_raw = 65535;
	seg.wscale = WR_TCP_WSCALE_NONE;
	seg.len_bytes = text ? (uint32_t)strlen(text) : 0;
	if (flags & WR_TCP_SYN)
		seg.mss_bytes = 1460;
	memset(&tx, 0, sizeof(tx));
	tx.tuple = &back;
	tx.seg = &seg;
	tx.payload = (const uint8_t *)text;
	tx.ttl = 64;
	n = wr_tcp_wire_build(&tx, pkt, sizeof(pkt));
	WR_CHECK(n > 0);
	p->snd_nxt += seg.len_bytes + ((flags & (WR_TCP_SYN | WR_TCP_FIN)) ?
		1 : 0);
	wr_conn_engine_rx(p->cli, pkt, (size_t)n, p->now_us);
}

/* The peer's answer to a request, by script. */
static void
peer_request(struct peer *p, const struct wr_tcp_tuple *t)
{
	switch (p->script) {
	case ANSWER_404:
		peer_send(p, t, WR_TCP_ACK | WR_TCP_PSH,
			"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n");
		break;
	case ANSWER_GARBAGE:
		peer_send(p, t, WR_TCP_ACK | WR_TCP_PSH, "garbage\r\n\r\n");
		break;
	case ANSWER_RST:
		peer_send(p, t, WR_TCP_RST, NULL);
		break;
	}
}

/* One packet from the client; the peer's answer. */
static void
peer_rx(struct peer *p, const uint8_t *pkt, size_t len)
{
	struct wr_tcp_rx rx;
	uint32_t seg_len;

	if (wr_tcp_wire_parse(pkt, len, &rx) < 0)
		return;
	seg_len = rx.seg.len_bytes;
	if (rx.seg.flags & WR_TCP_RST) {
		p->nb_rst_seen++;
		return;
	}
	if (rx.seg.flags & WR_TCP_SYN) {
		p->rcv_nxt = rx.seg.seq + 1;
		p->snd_nxt = PEER_ISS;
		peer_send(p, &rx.tuple, WR_TCP_SYN | WR_TCP_ACK, NULL);
		return;
	}
	if (seg_len > 0 && rx.seg.seq == p->rcv_nxt) {
		p->rcv_nxt += seg_len;
		peer_request(p, &rx.tuple);
	}
	if ((rx.seg.flags & WR_TCP_FIN) && rx.seg.seq + seg_len == p->rcv_nxt) {
		p->nb_fin_seen++;
		p->rcv_nxt++;
		peer_send(p, &rx.tuple, WR_TCP_FIN | WR_TCP_ACK, NULL);
	}
}

/* One connection of the client against the peer, run to its end. */
static const struct wr_conn_books *
run_peer(struct peer *p)
{
	struct wr_conn_emit em = { pair_buf, pair_sent, &L };
	struct wr_conn_cfg cc;
	struct wr_error err;
	struct pair_pkt *pk;
	int i;

	pair_cfg(&cc, WR_CONN_CLIENT, WR_CONN_APP_HTTP);
	cc.nb_conns = 1;
	cc.max_open = 16;
	free(mem);
	mem = aligned_alloc(64, (wr_conn_engine_mem_bytes(&cc) + 63) &
		~(size_t)63);
	p->cli = wr_conn_engine_init(mem, &cc, &em, &err);
	WR_CHECK(p->cli != NULL);
	if (p->cli == NULL)
		return NULL;
	memset(&L.seen, 0, sizeof(L.seen));
	L.head = L.tail = 0;
	L.now_us = &p->now_us;
	p->now_us = 1000000;
	for (i = 0; i < 100000 && !wr_conn_engine_idle(p->cli); i++) {
		wr_conn_engine_poll(p->cli, p->now_us);
		while (L.head != L.tail) {
			pk = &L.ring[L.head++ % PAIR_RING];
			peer_rx(p, pk->data, pk->len);
		}
		p->now_us += 100;
	}
	WR_CHECK(wr_conn_engine_idle(p->cli));
	return wr_conn_engine_books(p->cli);
}

/* A 404: the request failed, the connection too (class http). */
static void
test_404(void)
{
	struct peer p = { .script = ANSWER_404 };
	const struct wr_conn_books *b = run_peer(&p);

	if (b == NULL)
		return;
	WR_CHECK_U64(b->nb_attempted, 1);
	WR_CHECK_U64(b->nb_reqs_sent, 1);
	WR_CHECK_U64(b->nb_resps, 0);
	WR_CHECK_U64(b->nb_reqs_failed, 1);
	WR_CHECK_U64(b->nb_failed_http, 1);
	WR_CHECK_U64(b->nb_completed, 0);
	WR_CHECK_U64(b->nb_open, 0);
	WR_CHECK_U64(b->lat.ttlb_us.nb, 1);
	/* the client closed after its answer, not by RST */
	WR_CHECK_U64(p.nb_fin_seen, 1);
	WR_CHECK_U64(p.nb_rst_seen, 0);
}

/* Not HTTP: the client aborts (RST), class http. */
static void
test_garbage(void)
{
	struct peer p = { .script = ANSWER_GARBAGE };
	const struct wr_conn_books *b = run_peer(&p);

	if (b == NULL)
		return;
	WR_CHECK_U64(b->nb_reqs_failed, 1);
	WR_CHECK_U64(b->nb_failed_http, 1);
	WR_CHECK_U64(b->nb_completed, 0);
	WR_CHECK_U64(b->nb_open, 0);
	WR_CHECK_U64(p.nb_rst_seen, 1);
}

/* A RST once established: class reset, the request failed. */
static void
test_reset(void)
{
	struct peer p = { .script = ANSWER_RST };
	const struct wr_conn_books *b = run_peer(&p);

	if (b == NULL)
		return;
	WR_CHECK_U64(b->nb_reqs_sent, 1);
	WR_CHECK_U64(b->nb_reqs_failed, 1);
	WR_CHECK_U64(b->nb_failed_reset, 1);
	WR_CHECK_U64(b->nb_completed, 0);
	WR_CHECK_U64(b->nb_open, 0);
	WR_CHECK_U64(b->nb_attempted, b->nb_completed + pair_failed(b));
}

int
main(void)
{
	L.ring = calloc(PAIR_RING, sizeof(struct pair_pkt));
	if (L.ring == NULL)
		return 1;
	WR_TEST_RUN(test_404);
	WR_TEST_RUN(test_garbage);
	WR_TEST_RUN(test_reset);
	free(mem);
	free(L.ring);
	return wr_test_summary();
}
