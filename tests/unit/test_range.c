/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Field ranges: the options and stream keys that take them (bad input
 * named with what and where), the flow order (a permutation), and the TX
 * flow table's incremental checksums against a full recompute.
 */
#include <errno.h>
#include <stdlib.h>

#include <rte_ip.h>

#include "base/frame.h"
#include "datapath/txflow.h"
#include "wr_test.h"
#include "wr_test_opts.h"

static uint8_t buf[WR_FRAME_MAX_SIZE];

static void
test_options(void)
{
	struct wr_config c;

	WR_CHECK_U64(PARSE(&c, "--src-ip", "10.0.0.1-10.0.0.32", "--dport",
		"1000-1999", "--vlan", "5-6", "--dscp", "7", "--size", "68"), 0);
	WR_CHECK_U64(c.src_ip, 0x0a000001);
	WR_CHECK_U64(c.ranges.nb[WR_RANGE_SRC_IP], 32);
	WR_CHECK_U64(c.dst_udp, 1000);
	WR_CHECK_U64(c.ranges.nb[WR_RANGE_DPORT], 1000);
	WR_CHECK_U64(c.vlan_id, 5);
	WR_CHECK_U64(c.ranges.nb[WR_RANGE_VLAN], 2);
	WR_CHECK_U64(c.dscp, 7);
	WR_CHECK_U64(c.ranges.nb[WR_RANGE_DSCP], 1);
	WR_CHECK_U64(wr_range_flows(&c.ranges, false), 32 * 1000 * 2);
	/* 65536 flows at most, the product of the ranges' sizes. */
	WR_CHECK_U64(PARSE(&c, "--src-ip", "10.0.0.1-10.0.0.64", "--dport", "1-1024"), 0);
	WR_CHECK_U64(PARSE(&c, "--src-ip", "10.0.0.1-10.0.0.65", "--dport", "1-1024"),
		(uint64_t)-EINVAL);
	WR_CHECK_STR(err.msg, "the ranges make more than 65536 flows");
	/* --flows alone is as before; with a range it becomes a sport range. */
	WR_CHECK_U64(PARSE(&c, "--flows", "16"), 0);
	WR_CHECK_U64(c.nb_flows, 16);
	WR_CHECK_U64(wr_range_flows(&c.ranges, false), 1);
	WR_CHECK_U64(PARSE(&c, "--flows", "16", "--dport", "1-4", "--vary", "random:9"), 0);
	WR_CHECK_U64(c.nb_flows, 1);
	WR_CHECK_U64(c.ranges.nb[WR_RANGE_SPORT], 16);
	WR_CHECK(c.ranges.random && c.ranges.seed == 9);
	WR_CHECK_U64(wr_range_flows(&c.ranges, false), 64);
	WR_CHECK_U64(PARSE(&c, "--src-mac", "02:00:00:00:00:ff-02:00:00:00:01:02",
		"--ipv6", "--size", "84", "--dst-ip6", "2001:2::1-2001:2::4000"), 0);
	WR_CHECK(c.src_mac_set && c.src_mac.addr_bytes[5] == 0xff);
	WR_CHECK_U64(wr_range_flows(&c.ranges, true), 4 * 16384);
}

/* Refused, exit 2 (class usage), the message naming option, value and why. */
static void
test_bad(void)
{
	static const char *const bad[][3] = {
		{ "--dport", "2000-1000", "--dport 2000-1000: the range runs backwards" },
		{ "--sport", "5-70000", "--sport 5-70000: expected N or N-M with each in 0..65535" },
		{ "--sport", "5-", "--sport 5-: expected N or N-M" },
		{ "--vlan", "0-4", "--vlan 0-4: expected N or N-M with each in 1..4094" },
		{ "--dscp", "1-2-3", "--dscp 1-2-3: expected N or N-M" },
		{ "--src-ip", "10.0.0.1-10.0.0", "--src-ip 10.0.0.1-10.0.0: not an IPv4" },
		{ "--dst-ip", "10.0.0.0-10.1.0.0", "--dst-ip 10.0.0.0-10.1.0.0: 65537 values, "
			"more than the 65536" },
		{ "--src-ip6", "2001::1-2002::1", "differ in their first 64 bits" },
		{ "--dst-mac", "02:00:00:00:00:01-zz", "--dst-mac 02:00:00:00:00:01-zz: not a MAC" },
		{ "--vary", "shuffle", "--vary shuffle: expected inc, random or random:SEED" },
		{ "--vary", "random:x", "--vary random:x: expected" },
	};
	struct wr_config c;
	unsigned int i;

	for (i = 0; i < RTE_DIM(bad); i++) {
		WR_CHECK_U64(PARSE(&c, bad[i][0], bad[i][1]), (uint64_t)-EINVAL);
		WR_CHECK_STR(err.msg, bad[i][2]);
		WR_CHECK(err.cls == WR_ERR_USAGE);
	}
	WR_CHECK_U64(PARSE(&c, "--sport", "1-4", "--flows", "3"), (uint64_t)-EINVAL);
	WR_CHECK_STR(err.msg, "--flows: flows and a sport range both vary");
	WR_CHECK_U64(PARSE(&c, "--ipv6", "--size", "84", "--src-ip", "10.0.0.1-10.0.0.2"), (uint64_t)-EINVAL);
	WR_CHECK_STR(err.msg, "a src-ip range on IPv6 frames: give the range on --src-ip6");
	WR_CHECK_U64(PARSE(&c, "--src-ip", "10.0.0.1-10.0.0.2", "--stream", "l3=ipv6;size=84"),
		(uint64_t)-EINVAL);
	WR_CHECK_STR(err.msg, "--stream 1 (stream0): a src-ip range on IPv6 frames");
	WR_CHECK_U64(PARSE(&c, "--stream", "dport=9-3"), (uint64_t)-EINVAL);
	WR_CHECK_STR(err.msg, "--stream 1: dport=9-3: the range runs backwards");
	WR_CHECK_U64(PARSE(&c, "--stream", "dport=1-3", "--stream", "dport=3-4"),
		(uint64_t)-EINVAL);
	WR_CHECK_STR(err.msg, "--stream 2 (stream1) overlaps --stream 1");
	WR_CHECK_U64(PARSE(&c, "--stream", "dport=1-3", "--stream", "dport=4-5"), 0);
}

/* Increment order is the identity; random is a permutation and seeded. */
static void
test_order(void)
{
	struct wr_ranges r = { .random = true, .seed = 5 };
	uint32_t a[1000], b[1000], seen[1000] = { 0 };
	unsigned int i, moved = 0;

	wr_range_order(&r, 1000, a);
	wr_range_order(&r, 1000, b);
	for (i = 0; i < 1000; i++) {
		WR_CHECK(a[i] < 1000);
		seen[a[i] % 1000]++;
		moved += a[i] != i;
	}
	for (i = 0; i < 1000; i++)
		WR_CHECK_U64(seen[i], 1);
	WR_CHECK(memcmp(a, b, sizeof(a)) == 0);
	WR_CHECK(moved > 900);
	r.seed = 6;
	wr_range_order(&r, 1000, b);
	WR_CHECK(memcmp(a, b, sizeof(a)) != 0);
	r.random = false;
	wr_range_order(&r, 1000, a);
	for (i = 0; i < 1000; i++)
		WR_CHECK_U64(a[i], i);
}

static void
spec_of(struct wr_frame_spec *s, bool ipv6, uint16_t vlan)
{
	static const uint8_t src[16] = { 0x20, 0x01, 0, 2, [14] = 0xff, [15] = 0xf0 };

	memset(s, 0, sizeof(*s));
	s->size = 1500;
	s->vlan_id = vlan;
	s->src_ip = 0x0a0000f0;
	s->dst_ip = 0xc6130001;
	s->src_udp = 65500;
	s->dst_udp = 1024;
	s->stream_id = 3;
	s->ipv6 = ipv6;
	s->dscp = 60;
	memcpy(s->src_ip6, src, 16);
	memcpy(s->dst_ip6, src, 16);
	s->src_mac.addr_bytes[5] = 0xfe;
}

/* The spec of flow i of check_table's ranges in increment order. */
static void
flow_of(const struct wr_frame_spec *s, uint32_t i, struct wr_frame_spec *f)
{
	*f = *s;
	f->src_udp = (uint16_t)(s->src_udp + i % 36);
	i /= 36;
	if (s->ipv6)
		wr_range_ip6_at(s->src_ip6, i % 40, f->src_ip6);
	else
		f->src_ip = s->src_ip + i % 40;
	i /= 40;
	f->src_mac.addr_bytes[5] = (uint8_t)(0xfe + i % 3);
	f->src_mac.addr_bytes[4] = i % 3 == 2 ? 1 : 0;
	i /= 3;
	if (s->vlan_id != 0) {
		f->vlan_id = (uint16_t)(s->vlan_id + i % 2);
		i /= 2;
	}
	f->dscp = (uint8_t)(s->dscp + i % 4);
}

/* A table of check_table's ranges over spec s. */
static struct wr_txflows *
table_of(const struct wr_frame_spec *s, bool random)
{
	struct wr_ranges r = { .random = random, .seed = 11 };
	struct wr_frame_layout lay;
	struct wr_txflows *t;
	uint32_t nb;

	r.nb[WR_RANGE_SPORT] = 36;      /* 65500..65535 */
	r.nb[s->ipv6 ? WR_RANGE_SRC_IP6 : WR_RANGE_SRC_IP] = 40;  /* crosses a byte */
	r.nb[WR_RANGE_SRC_MAC] = 3;     /* ..:00:fe to ..:01:00 */
	r.nb[WR_RANGE_VLAN] = s->vlan_id ? 2 : 0;
	r.nb[WR_RANGE_DSCP] = 4;        /* 60..63 */
	nb = (uint32_t)wr_range_flows(&r, s->ipv6);
	WR_CHECK_U64(nb, 36 * 40 * 4 * 3 * (s->vlan_id ? 2 : 1));
	/* The rows are 64-byte aligned (one cache line each). */
	t = aligned_alloc(64, RTE_ALIGN_CEIL(wr_txflow_size(nb), 64));
	WR_CHECK(t != NULL);
	memset(t, 0, wr_txflow_size(nb));
	WR_CHECK(wr_txflow_build(s, &r, t) == 0);
	WR_CHECK(wr_frame_build(s, buf, sizeof(buf), &lay) == 0);
	wr_txflow_seal(t, s->ipv6, lay.var_val[1]);
	return t;
}

/* Write row i of t into buf (holding another flow's fields); 1 if its
 * checksum does not verify. */
static unsigned int
apply_row(const struct wr_txflows *t, uint32_t i, const struct wr_frame_layout *lay)
{
	const uint8_t *ip = buf + t->at.l3_off;

	if (t->ipv6)   /* the stamps wrote the template's UDP checksum */
		memcpy(buf + lay->udp_ck_off, &lay->var_val[2], 2);
	wr_txflow_frame(t->at, &t->row[i], buf, t->ipv6, t->tagged, t->ck_fresh);
	if (t->ipv6)
		return rte_ipv6_udptcp_cksum_verify((const void *)ip, ip + 40) != 0;
	return rte_ipv4_cksum((const void *)ip) != 0;
}

static int
row_cmp(const void *a, const void *b)
{
	return memcmp(a, b, sizeof(struct wr_txflow));
}

/*
 * Every flow of a table written into a frame that held another flow's
 * fields (an mbuf back from the PMD): the checksum verifies; in increment
 * order the frame equals, byte for byte, one built for the flow in full;
 * the random order holds the same flows, each once, in another order;
 * the images of plain IPv4 frames write the same bytes. IPv4 and IPv6,
 * tagged and not.
 */
static void
check_table(bool ipv6, uint16_t vlan)
{
	static uint8_t full[WR_FRAME_MAX_SIZE];
	struct wr_txflows *inc, *rnd;
	struct wr_frame_spec s, f;
	struct wr_frame_layout lay, fl;
	uint32_t i, bad = 0;

	spec_of(&s, ipv6, vlan);
	inc = table_of(&s, false);
	rnd = table_of(&s, true);
	WR_CHECK(wr_frame_build(&s, buf, sizeof(buf), &lay) == 0);
	for (i = 0; i < inc->nb; i++) {
		bad += apply_row(inc, i, &lay);
		flow_of(&s, i, &f);
		WR_CHECK(wr_frame_build(&f, full, sizeof(full), &fl) == 0);
		bad += memcmp(buf, full, lay.th_off) != 0;
	}
	for (i = 0; i < rnd->nb; i++)
		bad += apply_row(rnd, i, &lay);
	WR_CHECK_U64(bad, 0);
	/* Plain untagged IPv4: each flow's image gives the same frame. */
	WR_CHECK(inc->img == (!ipv6 && vlan == 0));
	for (i = 0; i < inc->nb && inc->img; i++) {
		wr_txflow_img_frame(&wr_txflow_imgs(inc)[i], buf);
		flow_of(&s, i, &f);
		WR_CHECK(wr_frame_build(&f, full, sizeof(full), &fl) == 0);
		bad += memcmp(buf, full, lay.th_off) != 0;
		bad += rte_ipv4_cksum((const void *)(buf + RTE_ETHER_HDR_LEN)) != 0;
	}
	WR_CHECK_U64(bad, 0);
	WR_CHECK(memcmp(inc->row, rnd->row, inc->nb * sizeof(inc->row[0])) != 0);
	qsort(inc->row, inc->nb, sizeof(inc->row[0]), row_cmp);
	qsort(rnd->row, rnd->nb, sizeof(rnd->row[0]), row_cmp);
	WR_CHECK(memcmp(inc->row, rnd->row, inc->nb * sizeof(inc->row[0])) == 0);
	for (i = 1; i < inc->nb; i++)
		bad += row_cmp(&inc->row[i - 1], &inc->row[i]) == 0;
	WR_CHECK_U64(bad, 0);
	free(inc);
	free(rnd);
}

static void
test_table(void)
{
	check_table(false, 0);
	check_table(false, 100);
	check_table(true, 0);
	check_table(true, 100);
}

/*
 * A next hop's new MAC (the rows kept the old one): after
 * wr_txflow_set_dst_mac every row, and every image, writes the frame built
 * for its flow with the new destination, byte for byte, checksum valid.
 */
static void
check_dst_mac(bool ipv6, uint16_t vlan)
{
	static uint8_t full[WR_FRAME_MAX_SIZE];
	const struct rte_ether_addr mac = {{ 0x02, 0x00, 0x00, 0x00, 0x24, 0x01 }};
	struct wr_frame_layout lay, fl;
	struct wr_frame_spec s, f;
	struct wr_txflows *t;
	uint32_t i, bad = 0;

	spec_of(&s, ipv6, vlan);
	t = table_of(&s, true);
	wr_txflow_set_dst_mac(t, &mac);
	s.dst_mac = mac;
	WR_CHECK(wr_frame_build(&s, buf, sizeof(buf), &lay) == 0);
	for (i = 0; i < t->nb; i++) {
		bad += apply_row(t, i, &lay);
		bad += memcmp(buf, &mac, sizeof(mac)) != 0;
	}
	free(t);
	t = table_of(&s, false);
	spec_of(&s, ipv6, vlan);
	wr_txflow_set_dst_mac(t, &mac);
	for (i = 0; i < t->nb; i++) {
		if (t->img)
			wr_txflow_img_frame(&wr_txflow_imgs(t)[i], buf);
		else
			bad += apply_row(t, i, &lay);
		flow_of(&s, i, &f);
		f.dst_mac = mac;
		WR_CHECK(wr_frame_build(&f, full, sizeof(full), &fl) == 0);
		bad += memcmp(buf, full, lay.th_off) != 0;
	}
	WR_CHECK_U64(bad, 0);
	free(t);
}

static void
test_dst_mac(void)
{
	check_dst_mac(false, 0);
	check_dst_mac(true, 100);
}

int
main(void)
{
	WR_TEST_RUN(test_options);
	WR_TEST_RUN(test_bad);
	WR_TEST_RUN(test_order);
	WR_TEST_RUN(test_table);
	WR_TEST_RUN(test_dst_mac);
	return wr_test_summary();
}
