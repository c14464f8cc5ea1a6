/* SPDX-License-Identifier: BSD-3-Clause */
/* The options of a connection run, one at a time (opts_conn.h). */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "optab.h"
#include "opts_conn.h"
#include "opts_values.h"
#include "opts_connload.h"
#include "base/units.h"
#include "tcp/pool.h"
#include "tcp/table.h"
#include "tcp/wheel.h"

/* Slots of a port's timer wheel, as the memory estimate counts them. */
#define WR_CONN_WHEEL_SLOTS 4096u

void
wr_opts_conn_defaults(struct wr_conn_opts *co)
{
	struct wr_conn_cfg *c = &co->cfg;

	memset(co, 0, sizeof(*co));
	c->app = WR_CONN_APP_HTTP;
	c->server_port = WR_CONN_DEFAULT_PORT;
	co->listen_port = WR_CONN_DEFAULT_PORT;
	c->max_open = WR_CONN_DEFAULT_OPEN;
	c->reqs_per_conn = 1;
	c->resp_body_bytes = WR_CONN_DEFAULT_BODY_BYTES;
	c->lport_first = WR_CONN_DEFAULT_SPORT_FIRST;
	c->lport_last = WR_CONN_DEFAULT_SPORT_LAST;
	c->nb_laddrs = 1;
	c->resp_timeout_us = WR_CONN_DEFAULT_TIMEOUT_US;
	c->time_wait_us = WR_CONN_DEFAULT_TIME_WAIT_US;
	c->rcv_wnd_bytes = WR_CONN_DEFAULT_WINDOW_BYTES;
	c->ttl = WR_CONN_DEFAULT_TTL;
	c->seed = 1;
	strcpy(c->path, "/");
}

/* A word of option id (its table's order) into *out, from 1 as the enums. */
static int
conn_word(int id, const char *name, const char *v, uint8_t *out,
		struct wr_error *err)
{
	int i = wr_optab_value(id, v);
	char words[64];

	if (i < 0) {
		wr_optab_values_list(id, words, sizeof(words));
		return wr_err_usage(err, -EINVAL, "--%s %s: expected %s", name, v,
			words);
	}
	*out = (uint8_t)(i + 1);
	return 0;
}

/* --conn-server A.B.C.D:PORT or [IPv6]:PORT: address, port and family. */
static int
conn_server(const char *v, struct wr_conn_cfg *c, struct wr_error *err)
{
	const char *colon = strrchr(v, ':'), *a = v;
	size_t n = colon != NULL ? (size_t)(colon - v) : 0;
	char addr[64];
	uint64_t port;
	int af = AF_INET;

	if (n >= 2 && v[0] == '[' && v[n - 1] == ']') {
		af = AF_INET6;
		a++;
		n -= 2;
	}
	if (colon == NULL || n == 0 || n >= sizeof(addr))
		return wr_err_usage(err, -EINVAL, "--conn-server %s: expected "
			"ADDR:PORT, e.g. 198.19.0.1:80 or [2001:2:0:1::1]:80", v);
	memcpy(addr, a, n);
	addr[n] = '\0';
	memset(c->server_addr, 0, sizeof(c->server_addr));
	if (inet_pton(af, addr, c->server_addr) != 1)
		return wr_err_usage(err, -EINVAL, "--conn-server %s: %s is not an "
			"IPv%s address%s", v, addr, af == AF_INET ? "4" : "6",
			af == AF_INET && strchr(addr, ':') != NULL ?
			" (write an IPv6 one in brackets: [ADDR]:PORT)" : "");
	if (wr_units_parse_u64(colon + 1, 1, 65535, &port) != 0)
		return wr_err_usage(err, -EINVAL, "--conn-server %s: the port %s is "
			"not 1..65535", v, colon + 1);
	c->server_port = (uint16_t)port;
	c->family = af == AF_INET ? 4 : 6;
	return 0;
}

/* The address's number: IPv4 all 32 bits, IPv6 its last 64. */
static uint64_t
addr_num(const uint8_t *a, uint8_t family)
{
	uint64_t x = 0;
	unsigned int i;

	for (i = family == 4 ? 0 : 8; i < (family == 4 ? 4u : 16u); i++)
		x = x << 8 | a[i];
	return x;
}

/* One address of --conn-src-ip: IPv4 or IPv6 (what has a ':'). */
static int
src_addr(const char *s, uint8_t *family, uint8_t out[16])
{
	*family = strchr(s, ':') != NULL ? 6 : 4;
	memset(out, 0, 16);
	return inet_pton(*family == 4 ? AF_INET : AF_INET6, s, out) == 1 ? 0 :
		-EINVAL;
}

/* --conn-src-ip A or A-B: the first address and how many. */
static int
conn_src_ip(const char *v, struct wr_conn_opts *co, struct wr_error *err)
{
	char a[64], b[64];
	const char *dash = strchr(v, '-');
	size_t n = dash != NULL ? (size_t)(dash - v) : strlen(v);
	uint8_t fa, fb, first[16], last[16];
	uint64_t lo, hi;

	if (n >= sizeof(a) || (dash != NULL && strlen(dash + 1) >= sizeof(b)))
		return wr_err_usage(err, -EINVAL, "--conn-src-ip %s: too long", v);
	memcpy(a, v, n);
	a[n] = '\0';
	snprintf(b, sizeof(b), "%s", dash != NULL ? dash + 1 : a);
	if (src_addr(a, &fa, first) != 0 || src_addr(b, &fb, last) != 0 || fa != fb)
		return wr_err_usage(err, -EINVAL, "--conn-src-ip %s: expected an "
			"address or a range A-B of one family, e.g. 198.18.0.1-"
			"198.18.0.255 or 2001:2::1-2001:2::ff", v);
	if (fa == 6 && memcmp(first, last, 8) != 0)
		return wr_err_usage(err, -EINVAL, "--conn-src-ip %s: the addresses "
			"differ in their first 64 bits; only the last 64 vary", v);
	lo = addr_num(first, fa);
	hi = addr_num(last, fa);
	if (hi < lo)
		return wr_err_usage(err, -EINVAL, "--conn-src-ip %s: the range runs "
			"backwards (its last address is below its first)", v);
	if (hi - lo >= WR_CONN_MAX_LADDRS)
		return wr_err_usage(err, -EINVAL, "--conn-src-ip %s: %" PRIu64
			" addresses, more than %u", v, hi - lo + 1, WR_CONN_MAX_LADDRS);
	memcpy(co->cfg.laddr, first, 16);
	co->cfg.nb_laddrs = (uint32_t)(hi - lo + 1);
	co->src_family = fa;
	co->src_set = true;
	return 0;
}

/* --conn-sport N or N-M, 1..65535, not backwards. */
static int
conn_sport(const char *v, struct wr_conn_cfg *c, struct wr_error *err)
{
	char a[16];
	const char *dash = strchr(v, '-');
	size_t n = dash != NULL ? (size_t)(dash - v) : strlen(v);
	uint64_t lo, hi;

	if (n >= sizeof(a))
		return wr_err_usage(err, -EINVAL, "--conn-sport %s: expected N or N-M, "
			"each 1..65535", v);
	memcpy(a, v, n);
	a[n] = '\0';
	if (wr_units_parse_u64(a, 1, 65535, &lo) != 0 ||
			wr_units_parse_u64(dash != NULL ? dash + 1 : a, 1, 65535, &hi) != 0)
		return wr_err_usage(err, -EINVAL, "--conn-sport %s: expected N or N-M, "
			"each 1..65535", v);
	if (hi < lo)
		return wr_err_usage(err, -EINVAL, "--conn-sport %s: the range runs "
			"backwards (an empty range of ports)", v);
	c->lport_first = (uint16_t)lo;
	c->lport_last = (uint16_t)hi;
	return 0;
}

/* Text for the GET line or the Host header: printable, no space. */
static int
conn_text(const char *name, const char *v, char *dst, size_t size,
		struct wr_error *err)
{
	size_t i, n = strlen(v);

	if (n == 0 || n >= size)
		return wr_err_usage(err, -EINVAL, "--%s %s: empty or longer than %zu "
			"characters", name, v, size - 1);
	for (i = 0; i < n; i++)
		if (v[i] <= ' ' || v[i] >= 0x7f)
			return wr_err_usage(err, -EINVAL, "--%s %s: character %zu is a "
				"space or not printable ASCII (HTTP/1.1 sends it as is)",
				name, v, i + 1);
	if (strcmp(name, "conn-path") == 0 && v[0] != '/')
		return wr_err_usage(err, -EINVAL, "--conn-path %s: a path starts "
			"with /", v);
	memcpy(dst, v, n + 1);
	return 0;
}

/* A duration option into microseconds, at least 1 ms. */
static int
conn_time(const char *name, const char *v, uint64_t *us, struct wr_error *err)
{
	uint64_t ms;
	int rc = wr_optv_duration(name, v, 1, &ms, err);

	if (rc == 0)
		*us = ms * 1000;
	return rc;
}

/* Options that set one number. */
static int
conn_number(int id, const char *v, struct wr_conn_cfg *c, struct wr_error *err)
{
	switch (id) {
	case WR_OPT_CONN_RATE:
		return wr_optv_u64("conn-rate", v, 1, 1000000000, &c->cps, err);
	case WR_OPT_CONN_COUNT:
		return wr_optv_u64("conn-count", v, 1, UINT64_MAX, &c->nb_conns, err);
	case WR_OPT_CONN_REQUESTS:
		return WR_OPTV_UINT("conn-requests", v, 1, 1000000, &c->reqs_per_conn,
			err);
	case WR_OPT_CONN_BODY:
		return wr_optv_u64("conn-body", v, 1, WR_CONN_MAX_BODY_BYTES,
			&c->resp_body_bytes, err);
	case WR_OPT_CONN_REQ_BODY:
		return wr_optv_u64("conn-req-body", v, 1, WR_CONN_MAX_BODY_BYTES,
			&c->req_body_bytes, err);
	case WR_OPT_CONN_BULK:
		return wr_optv_u64("conn-bulk", v, 1, WR_CONN_MAX_BULK_BYTES,
			&c->bulk_bytes, err);
	case WR_OPT_CONN_MSS:
		return WR_OPTV_UINT("conn-mss", v, 536, 8960, &c->mss_bytes, err);
	case WR_OPT_CONN_WINDOW:
		return WR_OPTV_UINT("conn-window", v, 1024, WR_CONN_MAX_WINDOW_BYTES,
			&c->rcv_wnd_bytes, err);
	default:
		return 1;
	}
}

/* Every other option of a connection run. */
static int
conn_other(int id, const char *v, struct wr_conn_opts *co, struct wr_error *err)
{
	struct wr_conn_cfg *c = &co->cfg;

	switch (id) {
	case WR_OPT_CONN:
		if (strchr(v, '=') != NULL)
			return wr_opts_conn_roles(v, co, err);
		co->role_ports = co->server_ports = 0;
		return conn_word(id, "conn", v, &c->role, err);
	case WR_OPT_CONN_LISTEN:
		co->listen_set = true;
		return WR_OPTV_UINT("conn-listen", v, 1, 65535, &co->listen_port,
			err);
	case WR_OPT_CONN_APP: return conn_word(id, "conn-app", v, &c->app, err);
	case WR_OPT_CONN_CSUM: return conn_word(id, "conn-csum", v, &co->csum, err);
	case WR_OPT_CONN_SERVER: return conn_server(v, c, err);
	case WR_OPT_CONN_CONCURRENCY: return wr_opts_connload_conc(v, co, err);
	case WR_OPT_CONN_PATH:
		return conn_text("conn-path", v, c->path, sizeof(c->path), err);
	case WR_OPT_CONN_HOST:
		co->host_set = true;
		return conn_text("conn-host", v, c->host, sizeof(c->host), err);
	case WR_OPT_CONN_SRC_IP: return conn_src_ip(v, co, err);
	case WR_OPT_CONN_SPORT: return conn_sport(v, c, err);
	case WR_OPT_CONN_TIMEOUT:
		return conn_time("conn-timeout", v, &c->resp_timeout_us, err);
	case WR_OPT_CONN_TIME_WAIT:
		return conn_time("conn-time-wait", v, &c->time_wait_us, err);
	default:
		return 1;
	}
}

int
wr_opts_conn(int id, const char *v, struct wr_config *cfg, struct wr_error *err)
{
	struct wr_conn_opts *co = &cfg->conn;
	int rc;

	if (id < WR_OPT_CONN || id > WR_OPT_CONN_LAST)
		return 1;
	rc = conn_number(id, v, &co->cfg, err);
	if (rc > 0)
		rc = conn_other(id, v, co, err);
	if (rc == 0 && id == WR_OPT_CONN_MSS)
		co->mss_set = true;
	if (rc == 0)
		co->given |= 1ULL << (id - WR_OPT_CONN);
	return rc;
}

uint64_t
wr_opts_conn_mem_bytes(const struct wr_conn_cfg *cfg)
{
	return (uint64_t)wr_tcp_pool_mem_bytes(cfg->max_open) +
		wr_tcp_table_mem_bytes(cfg->family != 0 ?
		cfg->family : 6, cfg->max_open) +
		wr_tcp_wheel_mem_bytes(WR_CONN_WHEEL_SLOTS, cfg->max_open);
}

int
wr_opts_conn_mem_check(const struct wr_config *cfg, unsigned int nb_ports,
		uint64_t avail_bytes, struct wr_error *err)
{
	const struct wr_conn_cfg *c = &cfg->conn.cfg;
	uint64_t one = wr_opts_conn_mem_bytes(c);
	uint64_t need = one * (nb_ports > 0 ? nb_ports : 1);

	if (c->role == 0 || need <= avail_bytes)
		return 0;
	return wr_err_usage(err, -ENOMEM, "--conn-concurrency %" PRIu32 ": %u "
		"port(s) x %" PRIu64 " bytes (%" PRIu64 " bytes a connection, pool, "
		"tuple table and timers) = %" PRIu64 " bytes, more than the %" PRIu64
		" bytes of memory EAL may take (hugepages); lower it or add "
		"hugepages", c->max_open, nb_ports > 0 ? nb_ports : 1, one,
		one / c->max_open, need, avail_bytes);
}
