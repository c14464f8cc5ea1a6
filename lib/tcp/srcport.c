/* SPDX-License-Identifier: BSD-3-Clause */
/* A client's source tuple allocator and the Toeplitz hash (srcport.h). */
#include <errno.h>

#include "tcp/srcport.h"

uint32_t
wr_tcp_toeplitz(const uint8_t *key, size_t key_bytes, const uint8_t *in,
	size_t len)
{
	uint32_t window, hash = 0;
	size_t i;
	int b;

	if (key_bytes < len + 4)
		return 0;
	/* the 32 key bits that line up with the current input bit */
	window = (uint32_t)key[0] << 24 | (uint32_t)key[1] << 16 |
		(uint32_t)key[2] << 8 | key[3];
	for (i = 0; i < len; i++) {
		for (b = 7; b >= 0; b--) {
			if (in[i] & (1u << b))
				hash ^= window;
			window = window << 1 | ((key[i + 4] >> b) & 1u);
		}
	}
	return hash;
}

uint32_t
wr_tcp_toeplitz_rx(const uint8_t *key, size_t key_bytes,
	const struct wr_tcp_tuple *tuple)
{
	size_t alen = tuple->family == WR_TCP_IPV4 ? 4 : 16;
	uint8_t in[36];

	memcpy(in, tuple->raddr, alen);
	memcpy(in + alen, tuple->laddr, alen);
	in[2 * alen] = (uint8_t)(tuple->rport >> 8);
	in[2 * alen + 1] = (uint8_t)tuple->rport;
	in[2 * alen + 2] = (uint8_t)(tuple->lport >> 8);
	in[2 * alen + 3] = (uint8_t)tuple->lport;
	return wr_tcp_toeplitz(key, key_bytes, in, 2 * alen + 4);
}

/* The last 32 bits of an address, network order, as a number. */
static uint32_t
addr_tail(const struct wr_tcp_tuple *t)
{
	const uint8_t *a = t->laddr + (t->family == WR_TCP_IPV4 ? 0 : 12);

	return (uint32_t)a[0] << 24 | (uint32_t)a[1] << 16 |
		(uint32_t)a[2] << 8 | a[3];
}

static void
addr_tail_set(struct wr_tcp_tuple *t, uint32_t v)
{
	uint8_t *a = t->laddr + (t->family == WR_TCP_IPV4 ? 0 : 12);

	a[0] = (uint8_t)(v >> 24);
	a[1] = (uint8_t)(v >> 16);
	a[2] = (uint8_t)(v >> 8);
	a[3] = (uint8_t)v;
}

/* The part of init that checks the RSS settings. */
static int
check_rss(const struct wr_tcp_srcport_cfg *cfg, struct wr_error *err)
{
	size_t in_bytes = cfg->first.family == WR_TCP_IPV4 ? 12 : 36;

	if (cfg->rss_key == NULL)
		return 0;
	if (cfg->rss_key_bytes < in_bytes + 4)
		return wr_err_usage(err, -EINVAL,
			"tcp source ports: RSS key of %u bytes, want %zu at least",
			cfg->rss_key_bytes, in_bytes + 4);
	if (cfg->reta == NULL || cfg->reta_size == 0 ||
		(cfg->reta_size & (cfg->reta_size - 1)) != 0)
		return wr_err_usage(err, -EINVAL,
			"tcp source ports: redirection table of %u entries, want a power of two",
			cfg->reta_size);
	return 0;
}

int
wr_tcp_srcport_init(struct wr_tcp_srcport *sp,
	const struct wr_tcp_srcport_cfg *cfg, struct wr_error *err)
{
	uint8_t fam = cfg->first.family;

	if (fam != WR_TCP_IPV4 && fam != WR_TCP_IPV6)
		return wr_err_usage(err, -EINVAL,
			"tcp source ports: address family %u, want 4 or 6", fam);
	if (cfg->nb_laddrs == 0 || cfg->lport_first == 0 ||
		cfg->lport_last < cfg->lport_first)
		return wr_err_usage(err, -EINVAL,
			"tcp source ports: %u addresses, ports %u-%u: empty range",
			cfg->nb_laddrs, cfg->lport_first, cfg->lport_last);
	if ((uint64_t)addr_tail(&cfg->first) + cfg->nb_laddrs - 1 > UINT32_MAX)
		return wr_err_usage(err, -EINVAL,
			"tcp source ports: %u addresses from the first wrap around",
			cfg->nb_laddrs);
	if (check_rss(cfg, err) != 0)
		return -EINVAL;
	sp->cfg = *cfg;
	sp->laddr_idx = 0;
	sp->lport = cfg->lport_first;
	sp->nb_tuples = (uint64_t)cfg->nb_laddrs *
		(uint32_t)(cfg->lport_last - cfg->lport_first + 1);
	sp->nb_skipped_busy = 0;
	sp->nb_skipped_queue = 0;
	return 0;
}

/* Write the cursor's tuple to out and move the cursor on. */
static void
cursor_take(struct wr_tcp_srcport *sp, struct wr_tcp_tuple *out)
{
	*out = sp->cfg.first;
	addr_tail_set(out, addr_tail(&sp->cfg.first) + sp->laddr_idx);
	out->lport = sp->lport;
	if (sp->lport != sp->cfg.lport_last) {
		sp->lport++;
		return;
	}
	sp->lport = sp->cfg.lport_first;
	if (++sp->laddr_idx == sp->cfg.nb_laddrs)
		sp->laddr_idx = 0;
}

/* Whether the reply to tuple reaches the configured queue. */
static bool
reaches_queue(const struct wr_tcp_srcport_cfg *cfg,
	const struct wr_tcp_tuple *tuple)
{
	uint32_t h;

	if (cfg->rss_key == NULL)
		return true;
	h = wr_tcp_toeplitz_rx(cfg->rss_key, cfg->rss_key_bytes, tuple);
	return cfg->reta[h & (cfg->reta_size - 1)] == cfg->queue;
}

int
wr_tcp_srcport_next(struct wr_tcp_srcport *sp,
	const struct wr_tcp_table *t, struct wr_tcp_tuple *out,
	uint32_t max_tries)
{
	uint32_t i;

	for (i = 0; i < max_tries; i++) {
		cursor_take(sp, out);
		if (!reaches_queue(&sp->cfg, out)) {
			sp->nb_skipped_queue++;
			continue;
		}
		if (t != NULL && wr_tcp_table_lookup(t, out) != WR_TCP_NIL) {
			sp->nb_skipped_busy++;
			continue;
		}
		return 0;
	}
	return -EAGAIN;
}
