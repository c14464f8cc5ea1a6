/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Crafted books of a connection run, with figures known in advance, for
 * the result writer's unit test (test_conn_doc.c) and the tool that
 * writes whole result files for the results suite (conn_doc_tool.c).
 */
#ifndef WR_TEST_CONN_CRAFT_H
#define WR_TEST_CONN_CRAFT_H

#include <math.h>
#include <string.h>

#include "results/conn_doc.h"

/* The run lasts this long; the HTTP answers carry this many bytes. */
#define CRAFT_DURATION_S 2.0
#define CRAFT_BODY_BYTES 1000u

/* A client (HTTP, 10.0.0.1 to 10.0.0.2:80) or a server's configuration. */
static inline void
craft_cfg(struct wr_conn_cfg *c, uint8_t role, uint8_t app)
{
	memset(c, 0, sizeof(*c));
	c->role = role;
	c->app = app;
	c->family = 4;
	c->server_port = 80;
	memcpy(c->laddr, role == WR_CONN_CLIENT ? "\x0a\x00\x00\x01" :
		"\x0a\x00\x00\x02", 4);
	memcpy(c->server_addr, "\x0a\x00\x00\x02", 4);
	c->nb_laddrs = 4;
	c->lport_first = 1024;
	c->lport_last = 65535;
	c->max_open = 1000;
	c->cps = 5000;
	c->nb_conns = 10000;
	c->reqs_per_conn = 1;
	c->resp_body_bytes = CRAFT_BODY_BYTES;
	c->resp_timeout_us = 1000000;
}

/*
 * A client's books that close, drained: n attempted (n >= 100), 30
 * failed (10 SYN timeouts, 5 refused, 3 reset, 2 retry bounds, 4
 * response timeouts, 6 non-2xx), the rest completed with one answer of
 * CRAFT_BODY_BYTES each; connect latency 1..1000 us once each, TTFB and
 * TTLB 100 and 200 us on every answer.
 */
static inline void
craft_client_books(struct wr_conn_books *b, uint64_t n)
{
	uint64_t i;

	memset(b, 0, sizeof(*b));
	wr_hist_init(&b->lat.connect_us);
	wr_hist_init(&b->lat.ttfb_us);
	wr_hist_init(&b->lat.ttlb_us);
	b->nb_attempted = n;
	b->nb_failed_syn_timeout = 10;
	b->nb_failed_refused = 5;
	b->nb_failed_reset = 3;
	b->nb_failed_rtx_timeout = 2;
	b->nb_failed_resp_timeout = 4;
	b->nb_failed_http = 6;
	b->nb_completed = n - 30;
	b->nb_established = n - 15;
	b->nb_peak_open = 700;
	b->nb_unstarted_pool = 7;
	b->nb_reqs_sent = n - 15;          /* one on each established */
	b->nb_resps = n - 30;
	b->nb_reqs_failed = 15;            /* reset, rtx, timeout, non-2xx */
	b->nb_l7_rx_bytes = b->nb_resps * CRAFT_BODY_BYTES;
	b->nb_l7_tx_bytes = b->nb_reqs_sent * 40;
	b->nb_segs_tx = 5 * n;
	b->nb_segs_rx = 5 * n;
	b->nb_rtx_rto = 11;
	b->nb_rtx_fast = 22;
	b->nb_rtx_probe = 4;
	b->nb_probes = 6;
	for (i = 1; i <= 1000; i++)
		wr_hist_add(&b->lat.connect_us, i);
	for (i = 0; i < b->nb_resps; i++) {
		wr_hist_add(&b->lat.ttfb_us, 100);
		wr_hist_add(&b->lat.ttlb_us, 200);
	}
}

/* A server's books that close: n accepted, 3 still open. */
static inline void
craft_server_books(struct wr_conn_books *b, uint64_t n)
{
	memset(b, 0, sizeof(*b));
	wr_hist_init(&b->lat.connect_us);
	wr_hist_init(&b->lat.ttfb_us);
	wr_hist_init(&b->lat.ttlb_us);
	b->nb_accepted = n;
	b->nb_closed = n - 3;
	b->nb_open = 3;
	b->nb_peak_open = 300;
	b->nb_reqs_served = n - 3;
	b->nb_l7_tx_bytes = (n - 3) * CRAFT_BODY_BYTES;
	b->nb_l7_rx_bytes = (n - 3) * 40;
}

/* Two rows: half of b's counts at 1 s, all of them at 2 s. */
static inline void
craft_intervals(struct wr_conn_interval iv[2], const struct wr_conn_books *b)
{
	memset(iv, 0, 2 * sizeof(iv[0]));
	iv[1].t_s = CRAFT_DURATION_S;
	iv[1].nb_attempted = b->nb_attempted;
	iv[1].nb_completed = b->nb_completed;
	iv[1].nb_failed = 30;
	iv[1].nb_open = b->nb_open;
	iv[1].nb_resps = b->nb_resps;
	iv[1].nb_l7_rx_bytes = b->nb_l7_rx_bytes;
	iv[1].nb_l7_tx_bytes = b->nb_l7_tx_bytes;
	iv[1].nb_rtx = wr_conn_books_rtx(b);
	iv[0].t_s = CRAFT_DURATION_S / 2;
	iv[0].nb_attempted = b->nb_attempted / 2;
	iv[0].nb_completed = b->nb_completed / 2;
	iv[0].nb_resps = b->nb_resps / 2;
	iv[0].nb_l7_rx_bytes = b->nb_l7_rx_bytes / 2;
	iv[0].nb_l7_tx_bytes = b->nb_l7_tx_bytes / 2;
}

/* The result of cfg, b and iv as a run of CRAFT_DURATION_S, drained. */
static inline void
craft_result(struct wr_conn_result *r, const struct wr_conn_cfg *c,
		const struct wr_conn_books *b, const struct wr_conn_interval *iv)
{
	memset(r, 0, sizeof(*r));
	r->cfg = c;
	r->books = b;
	r->iv = iv;
	r->nb_iv = 2;
	r->nb_lcores = 1;
	r->duration_s = CRAFT_DURATION_S;
	r->drained = true;
	r->clock = "tsc";
}

#endif /* WR_TEST_CONN_CRAFT_H */
