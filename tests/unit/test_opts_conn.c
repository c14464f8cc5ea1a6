/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for the options of a connection run (opts_conn.c,
 * opts_conn_check.c): every field of struct wr_conn_cfg they decide,
 * the defaults, the per-port configuration and each refusal's message.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>

#include "config/optab.h"
#include "config/optjson.h"
#include "config/opts.h"
#include "config/opts_conn.h"
#include "wr_test.h"
#include "wr_test_opts.h"

/* A client on port 0 (IPv4) towards 198.19.0.1:8080. */
#define CLIENT4 "--conn", "client", "--port-ip", "0=198.18.0.2/15", \
	"--conn-server", "198.19.0.1:8080"

static void
test_client_fields(void)
{
	static struct wr_config c;
	const struct wr_conn_cfg *k = &c.conn.cfg;
	struct wr_conn_cfg p;
	uint8_t a[16] = { 0 };

	WR_CHECK_U64(PARSE(&c, CLIENT4, "--conn-rate", "50k",
		"--conn-concurrency", "1000", "--conn-count", "1M",
		"--conn-requests", "4", "--conn-path", "/index.html",
		"--conn-host", "example.test", "--conn-sport", "2000-2999",
		"--conn-timeout", "250ms", "--conn-time-wait", "2s",
		"--conn-mss", "1400", "--conn-window", "1M"), WR_OPTS_RUN);
	WR_CHECK_U64(k->role, WR_CONN_CLIENT);
	WR_CHECK_U64(k->app, WR_CONN_APP_HTTP);
	WR_CHECK_U64(k->family, 4);
	inet_pton(AF_INET, "198.19.0.1", a);
	WR_CHECK(memcmp(k->server_addr, a, 16) == 0);
	WR_CHECK_U64(k->server_port, 8080);
	WR_CHECK_U64(k->cps, 50000);
	WR_CHECK_U64(k->max_open, 1000);
	WR_CHECK_U64(k->nb_conns, 1000000);
	WR_CHECK_U64(k->reqs_per_conn, 4);
	WR_CHECK_STR(k->path, "/index.html");
	WR_CHECK_STR(k->host, "example.test");
	WR_CHECK_U64(k->lport_first, 2000);
	WR_CHECK_U64(k->lport_last, 2999);
	WR_CHECK_U64(k->resp_timeout_us, 250000);
	WR_CHECK_U64(k->time_wait_us, 2000000);
	WR_CHECK_U64(k->mss_bytes, 1400);
	WR_CHECK_U64(k->rcv_wnd_bytes, 1000000);
	/* 1000000 >> 4 = 62500 <= 65535 (RFC 7323 2.2), >> 3 is not. */
	WR_CHECK_U64(k->wscale, 4);
	WR_CHECK_U64(k->ttl, 64);
	/* A count of connections ends the run: no default duration. */
	WR_CHECK_U64(c.duration_ms, 0);
	/* The port's own address is the source. */
	WR_CHECK_U64(wr_opts_conn_port_cfg(&c, 0, &p, &err), 0);
	inet_pton(AF_INET, "198.18.0.2", a);
	WR_CHECK(memcmp(p.laddr, a, 16) == 0);
	WR_CHECK_U64(p.nb_laddrs, 1);
	WR_CHECK_U64(p.server_port, 8080);
	WR_CHECK(wr_opts_conn_port_cfg(&c, 1, &p, &err) == -EINVAL);
	WR_CHECK_STR(err.msg, "--conn: port 1 has no IPv4 address");
}

static void
test_defaults(void)
{
	static struct wr_config c;
	const struct wr_conn_cfg *k = &c.conn.cfg;

	WR_CHECK_U64(PARSE(&c, "--quiet"), WR_OPTS_RUN);
	WR_CHECK_U64(k->role, 0);
	WR_CHECK_U64(PARSE(&c, CLIENT4), WR_OPTS_RUN);
	WR_CHECK_U64(k->cps, 0);
	WR_CHECK_U64(k->max_open, 10000);
	WR_CHECK_U64(k->nb_conns, 0);
	WR_CHECK_U64(k->reqs_per_conn, 1);
	WR_CHECK_U64(k->req_body_bytes, 0);
	WR_CHECK_STR(k->path, "/");
	WR_CHECK_STR(k->host, "198.19.0.1");
	WR_CHECK_U64(k->lport_first, 1024);
	WR_CHECK_U64(k->lport_last, 65535);
	WR_CHECK_U64(k->resp_timeout_us, 5000000);
	WR_CHECK_U64(k->time_wait_us, 60000000);
	WR_CHECK_U64(k->mss_bytes, 1460);
	WR_CHECK_U64(k->rcv_wnd_bytes, 262144);
	WR_CHECK_U64(k->wscale, 3);
	WR_CHECK_U64(c.duration_ms, 10000);
	WR_CHECK_U64(PARSE(&c, CLIENT4, "--conn-req-body", "1G"), WR_OPTS_RUN);
	WR_CHECK_U64(k->req_body_bytes, 1000000000);
}

static void
test_ipv6_and_sources(void)
{
	static struct wr_config c;
	const struct wr_conn_cfg *k = &c.conn.cfg;
	struct wr_conn_cfg p;
	uint8_t a[16];

	WR_CHECK_U64(PARSE(&c, "--conn", "client", "--port-ip", "0=2001:2::2/48",
		"--conn-server", "[2001:2:0:1::1]:80", "--conn-src-ip",
		"2001:2::100-2001:2::1ff"), WR_OPTS_RUN);
	WR_CHECK_U64(k->family, 6);
	WR_CHECK_U64(k->mss_bytes, 1440);
	WR_CHECK_U64(k->nb_laddrs, 256);
	WR_CHECK_STR(k->host, "[2001:2:0:1::1]");
	inet_pton(AF_INET6, "2001:2:0:1::1", a);
	WR_CHECK(memcmp(k->server_addr, a, 16) == 0);
	/* --conn-src-ip wins over the port's address. */
	WR_CHECK_U64(wr_opts_conn_port_cfg(&c, 0, &p, &err), 0);
	inet_pton(AF_INET6, "2001:2::100", a);
	WR_CHECK(memcmp(p.laddr, a, 16) == 0);
	WR_CHECK_U64(p.nb_laddrs, 256);
	/* An IPv4 range across a byte boundary: .250 to .1.5 is 12. */
	WR_CHECK_U64(PARSE(&c, CLIENT4, "--conn-src-ip", "10.0.0.250-10.0.1.5"),
		WR_OPTS_RUN);
	WR_CHECK_U64(k->nb_laddrs, 12);
	inet_pton(AF_INET, "10.0.0.250", a);
	WR_CHECK(memcmp(k->laddr, a, 4) == 0);
}

static void
test_server(void)
{
	static struct wr_config c;
	const struct wr_conn_cfg *k = &c.conn.cfg;
	struct wr_conn_cfg p;

	WR_CHECK_U64(PARSE(&c, "--conn", "server", "--port-ip", "1=2001:2::9/64",
		"--tx-ports", "1", "--conn-listen", "8080", "--conn-body", "2M",
		"--conn-concurrency", "1M"), WR_OPTS_RUN);
	WR_CHECK_U64(k->role, WR_CONN_SERVER);
	WR_CHECK_U64(k->family, 6);
	WR_CHECK_U64(k->server_port, 8080);
	WR_CHECK_U64(k->resp_body_bytes, 2000000);
	WR_CHECK_U64(k->max_open, 1000000);
	WR_CHECK_U64(wr_opts_conn_port_cfg(&c, 1, &p, &err), 0);
	WR_CHECK_U64(p.laddr[15], 9);
	/* Bulk: bytes per connection. */
	WR_CHECK_U64(PARSE(&c, CLIENT4, "--conn-app", "bulk", "--conn-bulk", "10M"),
		WR_OPTS_RUN);
	WR_CHECK_U64(k->app, WR_CONN_APP_BULK);
	WR_CHECK_U64(k->bulk_bytes, 10000000);
}

/* PARSE must refuse with a message that holds want. */
#define REFUSED(want, ...) do { \
	WR_CHECK(PARSE(&c, __VA_ARGS__) == -EINVAL); \
	WR_CHECK_STR(err.msg, want); \
} while (0)

static void
test_refused_values(void)
{
	static struct wr_config c;

	REFUSED("--conn peer: expected client or server", "--conn", "peer");
	REFUSED("--conn-app ftp: expected http or bulk", "--conn-app", "ftp");
	REFUSED("--conn-body 0: out of range", "--conn-body", "0");
	REFUSED("--conn-body 2G: out of range", "--conn-body", "2G");
	REFUSED("--conn-rate 0: out of range", "--conn-rate", "0");
	REFUSED("--conn-concurrency 0: out of range", "--conn-concurrency", "0");
	REFUSED("--conn-concurrency 17M: out of range", "--conn-concurrency", "17M");
	REFUSED("--conn-requests 0: out of range", "--conn-requests", "0");
	REFUSED("--conn-bulk 0: out of range", "--conn-bulk", "0");
	REFUSED("--conn-count 0: out of range", "--conn-count", "0");
	REFUSED("--conn-sport 2000-1000: the range runs backwards", "--conn-sport",
		"2000-1000");
	REFUSED("--conn-sport 0-10: expected N or N-M", "--conn-sport", "0-10");
	REFUSED("--conn-sport 1-70000: expected N or N-M", "--conn-sport", "1-70000");
	REFUSED("--conn-src-ip 10.0.0.9-10.0.0.1: the range runs backwards",
		"--conn-src-ip", "10.0.0.9-10.0.0.1");
	REFUSED("--conn-src-ip 10.0.0.1-2001::1: expected an address",
		"--conn-src-ip", "10.0.0.1-2001::1");
	REFUSED("--conn-server 10.0.0.1: expected ADDR:PORT", "--conn-server",
		"10.0.0.1");
	REFUSED("--conn-server 10.0.0.1:0: the port 0 is not 1..65535",
		"--conn-server", "10.0.0.1:0");
	REFUSED("is not an IPv4 address (write an IPv6 one in brackets",
		"--conn-server", "2001::1:80");
	REFUSED("--conn-path index.html: a path starts with /", "--conn-path",
		"index.html");
	REFUSED("--conn-host a b: character 2 is a space", "--conn-host", "a b");
	REFUSED("--conn-timeout 0: too short, at least 1 ms", "--conn-timeout", "0");
	REFUSED("--conn-mss 100: out of range", "--conn-mss", "100");
	REFUSED("--conn-window 1023: out of range", "--conn-window", "1023");
	REFUSED("--conn-listen 65536: out of range", "--conn-listen", "65536");
}

static void
test_refused_together(void)
{
	static struct wr_config c;

	REFUSED("--conn-rate needs --conn client or --conn server", "--conn-rate",
		"10");
	REFUSED("--conn-body needs --conn client", "--conn-body", "1k");
	REFUSED("--conn client needs --conn-server ADDR:PORT", "--conn", "client",
		"--port-ip", "0=198.18.0.2/15");
	REFUSED("--conn: port 0 has no IPv4 address; give it one with --port-ip 0=",
		"--conn", "client", "--conn-server", "198.19.0.1:80");
	REFUSED("--conn: port 2 has no IPv6 address", "--conn", "client",
		"--port-ip", "2=198.18.0.2/15", "--tx-ports", "2", "--conn-server",
		"[2001:2::1]:80");
	REFUSED("--conn-src-ip: IPv6 addresses towards the IPv4 --conn-server",
		CLIENT4, "--conn-src-ip", "2001:2::1");
	REFUSED("--conn-body with --conn client: it is an option of a server",
		CLIENT4, "--conn-body", "1k");
	REFUSED("--conn-rate with --conn server: it is an option of a client",
		"--conn", "server", "--port-ip", "0=198.18.0.2/15", "--conn-rate", "5");
	REFUSED("--conn-bulk with --conn-app http", CLIENT4, "--conn-bulk", "1M");
	REFUSED("--conn-requests with --conn-app bulk", CLIENT4, "--conn-app", "bulk",
		"--conn-requests", "3");
	REFUSED("--conn with --size: a connection run sends TCP segments", CLIENT4,
		"--size", "128");
	REFUSED("--conn with --rate (--conn-rate", CLIENT4, "--rate", "1Mpps");
	REFUSED("--mode throughput with --conn", CLIENT4, "--mode", "throughput");
	REFUSED("--conn with --rx-ports", CLIENT4, "--rx-ports", "1");
	REFUSED("--conn with --src-ip", CLIENT4, "--src-ip", "10.0.0.1");
	REFUSED("--conn-concurrency 70000: more than the 64512 source 4-tuples",
		CLIENT4, "--conn-concurrency", "70000");
	REFUSED("--conn-concurrency 200: more than the 101 source 4-tuples", CLIENT4,
		"--conn-sport", "100-200", "--conn-concurrency", "200");
	REFUSED("--conn-src-ip with 2 ports", CLIENT4, "--port-ip", "1=198.18.0.3/15",
		"--tx-ports", "0,1", "--conn-src-ip", "198.18.1.0-198.18.1.9");
	REFUSED("--conn-mss 8960: over 8940, the most an IPv6 frame", "--conn",
		"client", "--port-ip", "0=2001:2::2/48", "--conn-server",
		"[2001:2:0:1::1]:80", "--conn-mss", "8960");
	REFUSED("--conn with --tx-ports none", CLIENT4, "--tx-ports", "none");
}

static void
test_memory(void)
{
	static struct wr_config c;
	uint64_t one;

	WR_CHECK_U64(PARSE(&c, CLIENT4, "--conn-concurrency", "1M",
		"--conn-src-ip", "198.18.1.0-198.18.1.99"), WR_OPTS_RUN);
	one = wr_opts_conn_mem_bytes(&c.conn.cfg);
	/* At least the 128-byte state and a 16-byte tuple entry each. */
	WR_CHECK(one >= 1000000ULL * (128 + 16));
	WR_CHECK_U64(wr_opts_conn_mem_check(&c, 2, 2 * one, &err), 0);
	WR_CHECK(wr_opts_conn_mem_check(&c, 2, 2 * one - 1, &err) == -ENOMEM);
	WR_CHECK_STR(err.msg, "--conn-concurrency 1000000: 2 port(s) x");
	WR_CHECK_STR(err.msg, "more than the");
	WR_CHECK(err.cls == WR_ERR_USAGE);
}

/* The same options through the control socket's JSON (optjson.c). */
static void
test_json(void)
{
	static struct wr_config c;
	json_t *o = json_pack("{s:s,s:[s],s:s,s:s}", "conn", "client", "port-ip",
		"0=198.18.0.2/15", "conn-server", "198.19.0.1:80", "conn-rate", "1k");

	wr_config_defaults(&c);
	WR_CHECK_U64(wr_opts_from_json(o, &c, &err), 0);
	WR_CHECK_U64(c.conn.cfg.role, WR_CONN_CLIENT);
	WR_CHECK_U64(c.conn.cfg.cps, 1000);
	json_decref(o);
	o = json_pack("{s:s,s:s}", "conn", "client", "conn-rate", "0");
	wr_config_defaults(&c);
	WR_CHECK(wr_opts_from_json(o, &c, &err) == -EINVAL);
	WR_CHECK_STR(err.msg, "--conn-rate 0: out of range");
	json_decref(o);
}

/* Both roles by port: each port's role and configuration. */
static void
test_both_roles(void)
{
	static struct wr_config c;
	struct wr_conn_cfg p;
	uint8_t a[16] = { 0 };

	WR_CHECK_U64(PARSE(&c, "--conn", "0=client,1=server", "--port-ip",
		"0=198.18.0.2/15", "--port-ip", "1=198.19.0.1/15",
		"--conn-server", "198.19.0.1:8080", "--conn-rate", "1k",
		"--conn-body", "500", "--conn-src-ip", "198.18.1.1-198.18.1.4"),
		WR_OPTS_RUN);
	WR_CHECK(wr_opts_conn_both(&c.conn));
	WR_CHECK_U64(c.tx_port_mask, 3);
	WR_CHECK_U64(wr_opts_conn_port_role(&c, 0), WR_CONN_CLIENT);
	WR_CHECK_U64(wr_opts_conn_port_role(&c, 1), WR_CONN_SERVER);
	WR_CHECK_U64(wr_opts_conn_port_role(&c, 2), 0);
	WR_CHECK_U64(wr_opts_conn_port_cfg(&c, 0, &p, &err), 0);
	WR_CHECK_U64(p.role, WR_CONN_CLIENT);
	WR_CHECK_U64(p.server_port, 8080);
	WR_CHECK_U64(p.nb_laddrs, 4);
	WR_CHECK_U64(wr_opts_conn_port_cfg(&c, 1, &p, &err), 0);
	WR_CHECK_U64(p.role, WR_CONN_SERVER);
	/* The server listens where the client connects, from its address. */
	WR_CHECK_U64(p.server_port, 8080);
	WR_CHECK_U64(p.nb_laddrs, 1);
	WR_CHECK_U64(p.resp_body_bytes, 500);
	inet_pton(AF_INET, "198.19.0.1", a);
	WR_CHECK(memcmp(p.laddr, a, 16) == 0);
	WR_CHECK(wr_opts_conn_port_cfg(&c, 2, &p, &err) == -EINVAL);
	/* --conn client again: every port alike. */
	WR_CHECK_U64(PARSE(&c, "--conn", "0=server", "--conn", "server",
		"--port-ip", "0=198.19.0.1/15", "--conn-listen", "81"), WR_OPTS_RUN);
	WR_CHECK(!wr_opts_conn_both(&c.conn));
	WR_CHECK_U64(c.conn.role_ports, 0);
	WR_CHECK_U64(c.conn.cfg.server_port, 81);
}

int
main(void)
{
	WR_TEST_RUN(test_client_fields);
	WR_TEST_RUN(test_defaults);
	WR_TEST_RUN(test_ipv6_and_sources);
	WR_TEST_RUN(test_server);
	WR_TEST_RUN(test_refused_values);
	WR_TEST_RUN(test_refused_together);
	WR_TEST_RUN(test_memory);
	WR_TEST_RUN(test_json);
	WR_TEST_RUN(test_both_roles);
	return wr_test_summary();
}
