/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The engine's set-up (engine.h): the configuration checked field by
 * field, the memory carved out of the caller's block (the engine, the
 * pool, the lookup table, two timer wheels, the connections' application
 * state and a segment's scratch), every part initialised.
 */
#include <errno.h>
#include <string.h>

#include "conn/engine_priv.h"

#define ALIGN64(x) (((x) + 63) & ~(size_t)63)

/* The regions of an engine's memory, offsets from its start. */
struct layout {
	size_t pool, table, wheel, app_wheel, st, scratch, sb, total;
};

/* Whether cfg's fields allow a layout at all (size-bearing ones). */
static bool
cfg_sized(const struct wr_conn_cfg *cfg)
{
	return cfg->max_open > 0 && cfg->max_open < (UINT32_C(1) << 31) &&
		(cfg->family == WR_TCP_IPV4 || cfg->family == WR_TCP_IPV6) &&
		cfg->mss_bytes >= 64 && cfg->mss_bytes <= WR_CONN_MSS_MAX_BYTES;
}

/* SACK scoreboards an engine keeps: at most one a connection. */
static uint32_t
sb_count(const struct wr_conn_cfg *cfg)
{
	return cfg->max_open < WR_TCP_SB_DEFAULT ? cfg->max_open :
		WR_TCP_SB_DEFAULT;
}

static void
layout_of(const struct wr_conn_cfg *cfg, struct layout *l)
{
	size_t wheel = wr_tcp_wheel_mem_bytes(WR_CONN_WHEEL_SLOTS,
		cfg->max_open);

	l->pool = ALIGN64(sizeof(struct wr_conn_engine));
	l->table = l->pool + ALIGN64(wr_tcp_pool_mem_bytes(cfg->max_open));
	l->wheel = l->table + ALIGN64(wr_tcp_table_mem_bytes(cfg->family,
		cfg->max_open));
	l->app_wheel = l->wheel + ALIGN64(wheel);
	l->st = l->app_wheel + ALIGN64(wheel);
	l->scratch = l->st + ALIGN64((size_t)cfg->max_open *
		sizeof(struct wr_conn_state));
	l->sb = l->scratch + ALIGN64(cfg->mss_bytes);
	l->total = l->sb + ALIGN64(wr_tcp_sb_mem_bytes(sb_count(cfg),
		cfg->max_open));
}

size_t
wr_conn_engine_mem_bytes(const struct wr_conn_cfg *cfg)
{
	struct layout l;

	if (cfg == NULL || !cfg_sized(cfg))
		return 0;
	layout_of(cfg, &l);
	return l.total;
}

/* The fields every engine needs; 0 or -EINVAL naming the field. */
static int
check_common(const struct wr_conn_cfg *cfg, struct wr_error *err)
{
	if (cfg->role != WR_CONN_CLIENT && cfg->role != WR_CONN_SERVER)
		return wr_err_usage(err, -EINVAL,
			"conn: role %u: expected client (1) or server (2)",
			cfg->role);
	if (cfg->app != WR_CONN_APP_HTTP && cfg->app != WR_CONN_APP_BULK)
		return wr_err_usage(err, -EINVAL,
			"conn: app %u: expected http (1) or bulk (2)", cfg->app);
	if (cfg->family != WR_TCP_IPV4 && cfg->family != WR_TCP_IPV6)
		return wr_err_usage(err, -EINVAL,
			"conn: family %u: expected 4 or 6", cfg->family);
	if (cfg->mss_bytes < 64 || cfg->mss_bytes > WR_CONN_MSS_MAX_BYTES)
		return wr_err_usage(err, -EINVAL,
			"conn: mss_bytes %u: expected 64 to %u", cfg->mss_bytes,
			WR_CONN_MSS_MAX_BYTES);
	if (cfg->max_open == 0 || cfg->max_open >= (UINT32_C(1) << 31))
		return wr_err_usage(err, -EINVAL,
			"conn: max_open %u: expected 1 to 2^31 - 1",
			cfg->max_open);
	if (cfg->wscale > WR_TCP_WSCALE_MAX)
		return wr_err_usage(err, -EINVAL,
			"conn: wscale %u: expected at most %u", cfg->wscale,
			WR_TCP_WSCALE_MAX);
	if (cfg->rcv_wnd_bytes == 0 ||
		cfg->rcv_wnd_bytes > (UINT32_C(65535) << cfg->wscale))
		return wr_err_usage(err, -EINVAL,
			"conn: rcv_wnd_bytes %u: expected 1 to 65535 << wscale",
			cfg->rcv_wnd_bytes);
	if (cfg->server_port == 0)
		return wr_err_usage(err, -EINVAL, "conn: server_port 0");
	return 0;
}

/* The fields of a client; 0 or -EINVAL naming the field. */
static int
check_client(const struct wr_conn_cfg *cfg, struct wr_error *err)
{
	if (cfg->lport_first == 0 || cfg->lport_last < cfg->lport_first)
		return wr_err_usage(err, -EINVAL,
			"conn: source ports %u-%u: expected 1 <= first <= last",
			cfg->lport_first, cfg->lport_last);
	if (cfg->nb_laddrs == 0)
		return wr_err_usage(err, -EINVAL, "conn: nb_laddrs 0");
	if (cfg->cps > 1000000000u)
		return wr_err_usage(err, -EINVAL,
			"conn: cps %llu: expected at most 10^9",
			(unsigned long long)cfg->cps);
	if (cfg->app != WR_CONN_APP_HTTP)
		return 0;
	if (cfg->reqs_per_conn == 0)
		return wr_err_usage(err, -EINVAL,
			"conn: reqs_per_conn 0: expected 1 or more");
	if (memchr(cfg->path, 0, sizeof(cfg->path)) == NULL ||
		cfg->path[0] != '/')
		return wr_err_usage(err, -EINVAL,
			"conn: path: expected a string starting with '/'");
	if (memchr(cfg->host, 0, sizeof(cfg->host)) == NULL ||
		cfg->host[0] == 0)
		return wr_err_usage(err, -EINVAL,
			"conn: host: expected a name");
	return 0;
}

/* Pool, table and wheels in their regions. */
static int
init_parts(struct wr_conn_engine *e, uint8_t *mem, const struct layout *l,
	struct wr_error *err)
{
	uint32_t n = e->cfg.max_open;
	uint32_t i;
	int rc;

	rc = wr_tcp_pool_init(&e->pool, mem + l->pool, n, err);
	if (rc == 0)
		rc = wr_tcp_table_init(&e->table, mem + l->table,
			e->cfg.family, n, e->cfg.seed, err);
	if (rc == 0)
		rc = wr_tcp_wheel_init(&e->wheel, mem + l->wheel,
			WR_CONN_WHEEL_SLOTS, n, WR_CONN_WHEEL_SHIFT, 0, err);
	if (rc == 0)
		rc = wr_tcp_wheel_init(&e->app_wheel, mem + l->app_wheel,
			WR_CONN_WHEEL_SLOTS, n, WR_CONN_WHEEL_SHIFT, 0, err);
	if (rc == 0)
		rc = wr_tcp_sb_pool_init(&e->sb_pool, mem + l->sb,
			sb_count(&e->cfg), e->pool.conns, n, err);
	if (rc < 0)
		return rc;
	/* SACK recovery (RFC 6675) for every connection whose peer agreed
	 * to SACK, while a scoreboard is free; NewReno otherwise. */
	e->out.sb_pool = &e->sb_pool;
	e->tcfg.sb_use = 1;
	e->st = (struct wr_conn_state *)(void *)(mem + l->st);
	for (i = 0; i < n; i++) {
		memset(&e->st[i], 0, sizeof(e->st[i]));
		e->st[i].flags = WR_CONN_S_FREE;
	}
	e->scratch = mem + l->scratch;
	e->open_cap = n;
	e->tuple_tries = WR_CONN_TUPLE_TRIES;
	return 0;
}

/* The books start empty, their histograms too. */
static void
books_init(struct wr_conn_books *b)
{
	memset(b, 0, sizeof(*b));
	wr_hist_init(&b->lat.connect_us);
	wr_hist_init(&b->lat.ttfb_us);
	wr_hist_init(&b->lat.ttlb_us);
}

struct wr_conn_engine *
wr_conn_engine_init(void *mem, const struct wr_conn_cfg *cfg,
	const struct wr_conn_emit *emit, struct wr_error *err)
{
	struct wr_conn_engine *e = mem;
	struct layout l;

	if (mem == NULL || cfg == NULL || emit == NULL || emit->buf == NULL ||
		emit->sent == NULL) {
		wr_err_usage(err, -EINVAL, "conn: no memory, cfg or emit");
		return NULL;
	}
	if (((uintptr_t)mem & 63) != 0) {
		wr_err_usage(err, -EINVAL, "conn: memory not 64-byte aligned");
		return NULL;
	}
	if (check_common(cfg, err) < 0 ||
		(cfg->role == WR_CONN_CLIENT && check_client(cfg, err) < 0))
		return NULL;
	layout_of(cfg, &l);
	memset(e, 0, sizeof(*e));
	e->cfg = *cfg;
	if (e->cfg.ttl == 0)
		e->cfg.ttl = 64;
	e->emit = *emit;
	books_init(&e->books);
	e->tcfg.rcv_wnd_bytes = cfg->rcv_wnd_bytes;
	e->tcfg.mss_bytes = cfg->mss_bytes;
	e->tcfg.wscale = cfg->wscale;
	wr_tcp_isn_key_init(&e->isn, WR_TCP_ISN_BOOT_ID);
	if (init_parts(e, mem, &l, err) < 0)
		return NULL;
	if (cfg->app == WR_CONN_APP_HTTP && wr_conn_http_init(e, err) < 0)
		return NULL;
	if (cfg->role == WR_CONN_CLIENT && wr_conn_client_init(e, err) < 0)
		return NULL;
	return e;
}

const struct wr_conn_books *
wr_conn_engine_books(const struct wr_conn_engine *e)
{
	return &e->books;
}

void
wr_conn_books_sum(struct wr_conn_books *sum, const struct wr_conn_books *b)
{
	/* Every field before lat is a uint64_t count, added as one. */
	uint64_t *d = (uint64_t *)(void *)sum;
	const uint64_t *s = (const uint64_t *)(const void *)b;
	size_t i, n = offsetof(struct wr_conn_books, lat) / sizeof(uint64_t);

	for (i = 0; i < n; i++)
		d[i] += s[i];
	wr_hist_merge(&sum->lat.connect_us, &b->lat.connect_us);
	wr_hist_merge(&sum->lat.ttfb_us, &b->lat.ttfb_us);
	wr_hist_merge(&sum->lat.ttlb_us, &b->lat.ttlb_us);
	sum->nb_gen += b->nb_gen;
}
