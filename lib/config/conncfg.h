/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A connection engine's configuration (lib/conn/engine.h), plain values:
 * the options fill it (config), the engine copies it (conn).
 */
#ifndef WR_CONFIG_CONNCFG_H
#define WR_CONFIG_CONNCFG_H

#include <stdint.h>

/* Which end this engine plays. */
enum wr_conn_role {
	WR_CONN_CLIENT = 1,   /* opens connections */
	WR_CONN_SERVER = 2,   /* listens and answers */
};

/* What the connections carry. */
enum wr_conn_app {
	WR_CONN_APP_HTTP = 1, /* HTTP/1.1 GET and response */
	WR_CONN_APP_BULK = 2, /* one way, as fast as the windows allow */
};

/* An engine's configuration, copied by wr_conn_engine_init. */
struct wr_conn_cfg {
	uint8_t role;                /* enum wr_conn_role */
	uint8_t app;                 /* enum wr_conn_app */
	uint8_t family;              /* 4 (IPv4) or 6 (IPv6), as tcp/tuple.h */
	uint8_t wscale;              /* our window shift, <= 14 */
	uint16_t mss_bytes;          /* MSS we announce */
	uint16_t server_port;        /* client: the port it connects to;
				      * server: the port it listens on */
	uint8_t laddr[16];           /* our first address (network order) */
	uint32_t nb_laddrs;          /* client: addresses laddr + i */
	uint8_t server_addr[16];     /* client: the server's address */
	uint16_t lport_first;        /* client: source ports [first, last] */
	uint16_t lport_last;
	uint32_t rcv_wnd_bytes;      /* receive window we advertise */
	uint32_t max_open;           /* connections open at once, at most
				      * (the pool's size) */
	uint64_t cps;                /* client: connections opened per s,
				      * 0 = as fast as max_open allows */
	uint64_t nb_conns;           /* client: connections to open in all,
				      * 0 = until wr_conn_engine_drain */
	uint32_t reqs_per_conn;      /* HTTP client: requests on one
				      * connection (keep-alive), >= 1 */
	uint64_t resp_body_bytes;    /* HTTP server: body of each answer */
	uint64_t req_body_bytes;     /* HTTP client: body of each request
				      * (a POST), 0 = none (a GET) */
	uint64_t bulk_bytes;         /* bulk: bytes the client sends on each
				      * connection, 0 = until drain */
	uint64_t resp_timeout_us;    /* HTTP client: a response not complete
				      * this long after its request fails */
	uint64_t time_wait_us;       /* TIME_WAIT length (2 MSL by default) */
	uint32_t seed;               /* ISS and payload pattern seed */
	uint8_t csum_offload;        /* checksums left to the NIC: enum
				      * wr_tcp_csum_mode (tcp/wire.h), 0:
				      * none */
	uint8_t ttl;                 /* IPv4 TTL / IPv6 hop limit */
	uint8_t hold;                /* HTTP client: hold each connection
				      * idle after its first answer until
				      * the drain (conn/hold.c) */
	uint8_t drain_cut;           /* HTTP client: at the drain, a
				      * keep-alive connection closes after
				      * the answer in flight (conn-load) */
	uint64_t syn_timeout_us;     /* client: a SYN not answered this long
				      * fails the connection (once, with no
				      * RST), 0 = TCP's retry bound */
	uint64_t close_timeout_us;   /* client: a close of the tear-down
				      * pass not complete this long fails
				      * (conn/teardown.c), 0 = resp_timeout_us */
	char path[64];               /* HTTP client: the GET path */
	char host[64];               /* HTTP client: the Host header */
};

#endif /* WR_CONFIG_CONNCFG_H */
