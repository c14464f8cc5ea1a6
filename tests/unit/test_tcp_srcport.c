/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for lib/tcp/srcport.c: the Toeplitz hash against the
 * verification vectors published with Microsoft's RSS specification
 * ("Verifying the RSS hash calculation"), and the source tuple allocator:
 * it walks every tuple, skips the ones in the table, and with RSS hands
 * out only tuples whose reply a reference hash puts on the asked queue.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>

#include "rss_key.h"
#include "tcp/srcport.h"
#include "wr_test.h"

/* One vector: source and destination as the packet carries them. */
struct ms_vec {
	int af;
	const char *src;
	uint16_t sport;
	const char *dst;
	uint16_t dport;
	uint32_t hash_ip;       /* addresses only */
	uint32_t hash_tcp;      /* addresses and ports */
};

static const struct ms_vec ms_vecs[] = {
	{ AF_INET, "66.9.149.187", 2794, "161.142.100.80", 1766,
		0x323e8fc2, 0x51ccc178 },
	{ AF_INET, "199.92.111.2", 14230, "65.69.140.83", 4739,
		0xd718262a, 0xc626b0ea },
	{ AF_INET, "24.19.198.95", 12898, "12.22.207.184", 38024,
		0xd2d0a5de, 0x5c2b394a },
	{ AF_INET, "38.27.205.30", 48228, "209.142.163.6", 2217,
		0x82989176, 0xafc7327f },
	{ AF_INET, "153.39.163.191", 44251, "202.188.127.2", 1303,
		0x5d1809c5, 0x10e828a2 },
	{ AF_INET6, "3ffe:2501:200:1fff::7", 2794, "3ffe:2501:200:3::1", 1766,
		0x2cc18cd5, 0x40207d3d },
	{ AF_INET6, "3ffe:501:8::260:97ff:fe40:efab", 14230, "ff02::1", 4739,
		0x0f0c461c, 0xdde51bbf },
	{ AF_INET6, "3ffe:1900:4545:3:200:f8ff:fe21:67cf", 44251,
		"fe80::200:f8ff:fe21:67cf", 38024, 0x4b61e985, 0x02d1feef },
};

/* The hash of each vector, from raw bytes and through a tuple. */
static void
test_ms_vectors(void)
{
	size_t i;

	for (i = 0; i < sizeof(ms_vecs) / sizeof(ms_vecs[0]); i++) {
		const struct ms_vec *v = &ms_vecs[i];
		size_t alen = v->af == AF_INET ? 4 : 16;
		struct wr_tcp_tuple t;
		uint8_t in[36];

		WR_CHECK(inet_pton(v->af, v->src, in) == 1);
		WR_CHECK(inet_pton(v->af, v->dst, in + alen) == 1);
		WR_CHECK_U64(wr_tcp_toeplitz(ms_key, 40, in, 2 * alen),
			v->hash_ip);
		/* as the reply to our tuple: we are the destination */
		memset(&t, 0, sizeof(t));
		t.family = v->af == AF_INET ? WR_TCP_IPV4 : WR_TCP_IPV6;
		memcpy(t.raddr, in, alen);
		memcpy(t.laddr, in + alen, alen);
		t.rport = v->sport;
		t.lport = v->dport;
		WR_CHECK_U64(wr_tcp_toeplitz_rx(ms_key, 40, &t), v->hash_tcp);
	}
	WR_CHECK_U64(wr_tcp_toeplitz(ms_key, 8, (const uint8_t *)"abcdefgh",
		8), 0);
}

/* A client config: 3 addresses from 10.0.0.254 (crossing .255), ports. */
static void
client_cfg(struct wr_tcp_srcport_cfg *cfg, uint16_t first, uint16_t last)
{
	memset(cfg, 0, sizeof(*cfg));
	wr_tcp_tuple_set4(&cfg->first, htonl(0x0a0000feu), 0,
		htonl(0x0a000101u), 80);
	cfg->nb_laddrs = 3;
	cfg->lport_first = first;
	cfg->lport_last = last;
}

/* Every tuple once per round, then round again; busy ones skipped. */
static void
test_walk(void)
{
	struct wr_tcp_srcport_cfg cfg;
	struct wr_tcp_srcport sp;
	struct wr_tcp_table t;
	struct wr_tcp_tuple k;
	struct wr_error err;
	void *mem = malloc(wr_tcp_table_mem_bytes(WR_TCP_IPV4, 64));
	uint32_t i;

	client_cfg(&cfg, 5000, 5009);
	WR_CHECK(wr_tcp_srcport_init(&sp, &cfg, &err) == 0);
	WR_CHECK_U64(sp.nb_tuples, 30);
	WR_CHECK(wr_tcp_table_init(&t, mem, WR_TCP_IPV4, 64, 3, &err) == 0);
	for (i = 0; i < 30; i++) {
		WR_CHECK(wr_tcp_srcport_next(&sp, &t, &k, 1) == 0);
		WR_CHECK_U64(k.lport, 5000 + i % 10);
		WR_CHECK_U64(k.laddr[2], i < 20 ? 0 : 1);  /* .254 .255 1.0 */
		WR_CHECK_U64(k.laddr[3], (0xfe + i / 10) & 0xff);
		WR_CHECK(wr_tcp_table_insert(&t, i, &k) == 0);
	}
	/* all 30 in use (TIME_WAIT included: still in the table) */
	WR_CHECK(wr_tcp_srcport_next(&sp, &t, &k, 100) == -EAGAIN);
	WR_CHECK_U64(sp.nb_skipped_busy, 100);
	/* one freed: found, wherever the cursor is */
	WR_CHECK(wr_tcp_table_delete(&t, 17) == 0);
	WR_CHECK(wr_tcp_srcport_next(&sp, &t, &k, 30) == 0);
	WR_CHECK_U64(k.lport, 5007);
	WR_CHECK_U64(k.laddr[3], 0xff);
	free(mem);
}

/* With RSS: only tuples whose reply the reference puts on queue 2. */
static void
test_rss_queue(void)
{
	struct wr_tcp_srcport_cfg cfg;
	struct wr_tcp_srcport sp;
	struct wr_tcp_tuple k;
	struct wr_error err;
	uint16_t reta[128];
	uint8_t in[12];
	uint32_t i, h, nb_got = 0;

	for (i = 0; i < 128; i++)
		reta[i] = (uint16_t)(i % 4);
	client_cfg(&cfg, 1024, 65535);
	cfg.rss_key = ms_key;
	cfg.rss_key_bytes = 40;
	cfg.reta = reta;
	cfg.reta_size = 128;
	cfg.queue = 2;
	WR_CHECK(wr_tcp_srcport_init(&sp, &cfg, &err) == 0);
	for (i = 0; i < 1000; i++) {
		if (wr_tcp_srcport_next(&sp, NULL, &k, 64) != 0)
			continue;
		nb_got++;
		/* reference: the reply's bytes laid out by hand */
		memcpy(in, k.raddr, 4);
		memcpy(in + 4, k.laddr, 4);
		in[8] = 0;
		in[9] = 80;
		in[10] = (uint8_t)(k.lport >> 8);
		in[11] = (uint8_t)k.lport;
		h = wr_tcp_toeplitz(ms_key, 40, in, 12);
		WR_CHECK_U64(h % 128 % 4, 2);
	}
	WR_CHECK_U64(nb_got, 1000);
	/* about three in four skipped */
	WR_CHECK(sp.nb_skipped_queue > 2000 && sp.nb_skipped_queue < 4000);
}

/* Bad configurations are refused, naming what is wrong. */
static void
test_cfg_errors(void)
{
	struct wr_tcp_srcport_cfg cfg;
	struct wr_tcp_srcport sp;
	struct wr_error err;
	uint16_t reta[3] = { 0, 1, 2 };

	client_cfg(&cfg, 2000, 1999);
	WR_CHECK(wr_tcp_srcport_init(&sp, &cfg, &err) == -EINVAL);
	WR_CHECK_STR(err.msg, "empty range");
	client_cfg(&cfg, 1, 2);
	wr_tcp_tuple_set4(&cfg.first, 0xffffffffu, 0, 0, 80);
	WR_CHECK(wr_tcp_srcport_init(&sp, &cfg, &err) == -EINVAL);
	WR_CHECK_STR(err.msg, "wrap");
	client_cfg(&cfg, 1, 2);
	cfg.rss_key = ms_key;
	cfg.rss_key_bytes = 12;
	WR_CHECK(wr_tcp_srcport_init(&sp, &cfg, &err) == -EINVAL);
	WR_CHECK_STR(err.msg, "RSS key of 12 bytes");
	cfg.rss_key_bytes = 40;
	cfg.reta = reta;
	cfg.reta_size = 3;
	WR_CHECK(wr_tcp_srcport_init(&sp, &cfg, &err) == -EINVAL);
	WR_CHECK_STR(err.msg, "power of two");
}

int
main(void)
{
	WR_TEST_RUN(test_ms_vectors);
	WR_TEST_RUN(test_walk);
	WR_TEST_RUN(test_rss_queue);
	WR_TEST_RUN(test_cfg_errors);
	return wr_test_summary();
}
