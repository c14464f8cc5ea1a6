/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests for portip.c: --port-ip values, next hops, frame addresses. */
#include <arpa/inet.h>
#include <errno.h>
#include <string.h>

#include "config/config.h"
#include "config/portip.h"
#include "wr_test.h"
#include "wr_test_opts.h"

static struct wr_portip tab[WR_MAX_PORTS];

static int
one(const char *v)
{
	err.msg[0] = '\0';
	return wr_portip_parse(v, tab, WR_MAX_PORTS, &err);
}

static void
test_parse(void)
{
	uint8_t want6[16];

	memset(tab, 0, sizeof(tab));
	WR_CHECK_U64(one("0=198.18.0.1/24,gw=198.18.0.254"), 0);
	WR_CHECK(tab[0].v4.set && tab[0].v4.has_gw && tab[0].v4.prefix_len == 24);
	WR_CHECK(memcmp(tab[0].v4.addr, "\xc6\x12\x00\x01", 4) == 0);
	WR_CHECK(memcmp(tab[0].v4.gw, "\xc6\x12\x00\xfe", 4) == 0);
	WR_CHECK(!tab[0].v6.set && tab[0].vlan_id == 0);
	/* The other family of the same port, with its VLAN. */
	WR_CHECK_U64(one("0=2001:db8::1/64,vlan=100,gw=2001:db8::fe"), 0);
	inet_pton(AF_INET6, "2001:db8::1", want6);
	WR_CHECK(tab[0].v6.set && tab[0].v6.prefix_len == 64);
	WR_CHECK(memcmp(tab[0].v6.addr, want6, 16) == 0);
	WR_CHECK_U64(tab[0].vlan_id, 100);
	WR_CHECK(tab[0].v4.set);
	WR_CHECK_U64(one("31=10.0.0.1/8"), 0);
	WR_CHECK(tab[31].v4.set && !tab[31].v4.has_gw);
}

static void
test_errors(void)
{
	static const struct { const char *v; const char *msg; } bad[] = {
		{ "198.18.0.1/24", "expected PORT=ADDR/PREFIX" },
		{ "32=198.18.0.1/24", "port 32, expected 0..31" },
		{ "x=198.18.0.1/24", "port x" },
		{ "0=198.18.0.1", "has no /PREFIX" },
		{ "0=198.18.0.300/24", "not an IPv4 or IPv6 address" },
		{ "0=198.18.0.1/33", "prefix length 33, expected 0..32" },
		{ "0=2001:db8::1/129", "expected 0..128" },
		{ "0=198.18.0.1/24,gw=198.19.0.1", "not within the port's prefix" },
		{ "0=198.18.0.1/24,gw=198.18.0.1", "the port's own address" },
		{ "0=198.18.0.1/24,gw=2001:db8::1", "not an IPv4 address like" },
		{ "0=198.18.0.1/24,vlan=4095", "expected vlan=1..4094" },
		{ "0=198.18.0.1/24,mtu=9000", "mtu=9000, expected gw=ADDR or vlan=N" },
		{ "0=198.18.0.1/24,gw=198.18.0.2,gw=198.18.0.3", "each at most once" },
	};
	size_t i;

	for (i = 0; i < RTE_DIM(bad); i++) {
		memset(tab, 0, sizeof(tab));
		WR_CHECK_U64(one(bad[i].v), (uint64_t)-EINVAL);
		WR_CHECK_STR(err.msg, bad[i].msg);
		WR_CHECK_STR(err.msg, "--port-ip");
		WR_CHECK(!tab[0].v4.set && !tab[0].v6.set);
	}
	memset(tab, 0, sizeof(tab));
	WR_CHECK_U64(one("1=198.18.0.1/24,vlan=10"), 0);
	WR_CHECK_U64(one("1=198.18.1.1/24"), (uint64_t)-EINVAL);
	WR_CHECK_STR(err.msg, "port 1 already has an IPv4 address");
	WR_CHECK_U64(one("1=2001:db8::1/64,vlan=20"), (uint64_t)-EINVAL);
	WR_CHECK_STR(err.msg, "port 1 is already on VLAN 10");
	WR_CHECK(!tab[1].v6.set);
}

static void
test_next_hop(void)
{
	uint8_t nh[16], dst[16];

	memset(tab, 0, sizeof(tab));
	WR_CHECK_U64(one("0=198.18.0.1/23,gw=198.18.1.254"), 0);
	memcpy(dst, "\xc6\x12\x01\x07", 4);     /* on the /23 */
	WR_CHECK_U64(wr_portip_next_hop(&tab[0].v4, false, dst, nh), 0);
	WR_CHECK(memcmp(nh, dst, 4) == 0);
	memcpy(dst, "\xc6\x13\x00\x01", 4);     /* off-link: the gateway */
	WR_CHECK_U64(wr_portip_next_hop(&tab[0].v4, false, dst, nh), 0);
	WR_CHECK(memcmp(nh, "\xc6\x12\x01\xfe", 4) == 0);
	WR_CHECK_U64(one("1=2001:db8::1/64"), 0);
	inet_pton(AF_INET6, "2001:db8::ffff:1", dst);
	WR_CHECK_U64(wr_portip_next_hop(&tab[1].v6, true, dst, nh), 0);
	WR_CHECK(memcmp(nh, dst, 16) == 0);
	inet_pton(AF_INET6, "2001:db9::1", dst);
	WR_CHECK_U64(wr_portip_next_hop(&tab[1].v6, true, dst, nh),
		(uint64_t)-ENETUNREACH);
}

/* Through the option parser: frames of port 0 go from it to port 1. */
static void
test_frame(void)
{
	struct wr_config c;
	struct wr_frame_spec s;

	WR_CHECK_U64(PARSE(&c, "--port-ip", "0=198.18.0.1/24,gw=198.18.0.254,vlan=7",
		"--port-ip", "1=198.19.0.1/24", "--port-ip", "1=2001:db8:1::1/64",
		"--dst-ip6", "2001:db8:2::1"), WR_OPTS_RUN);
	memset(&s, 0, sizeof(s));
	wr_portip_frame(&c.port_ip[0], &c.port_ip[1], c.addr_set, &s);
	WR_CHECK_U64(s.src_ip, 0xc6120001);
	WR_CHECK_U64(s.dst_ip, 0xc6130001);
	WR_CHECK_U64(s.vlan_id, 7);
	WR_CHECK_U64(s.src_ip6[0], 0);           /* port 0 has no IPv6 */
	WR_CHECK_U64(s.dst_ip6[0], 0);           /* --dst-ip6 was given */
	memset(&s, 0, sizeof(s));
	wr_portip_frame(&c.port_ip[1], &c.port_ip[0], c.addr_set, &s);
	WR_CHECK_U64(s.src_ip, 0xc6130001);
	WR_CHECK_U64(s.dst_ip, 0xc6120001);
	WR_CHECK_U64(s.src_ip6[5], 1);
	WR_CHECK_U64(s.vlan_id, 0);
	WR_CHECK_U64(PARSE(&c, "--port-ip", "0=198.18.0.1/24", "--src-ip", "10.0.0.1",
		"--port-ip", "1=198.19.0.1/24", "--stream", "dst-ip=10.9.9.9"), WR_OPTS_RUN);
	memset(&s, 0, sizeof(s));
	wr_portip_frame(&c.port_ip[0], &c.port_ip[1], c.addr_set |
		c.streams[0].addr_set, &s);
	WR_CHECK_U64(s.src_ip, 0);               /* --src-ip wins */
	WR_CHECK_U64(s.dst_ip, 0);               /* so does the stream's dst-ip */
	WR_CHECK_U64(PARSE(&c, "--port-ip", "0=198.18.0.1"), (uint64_t)-EINVAL);
	WR_CHECK_STR(err.msg, "--port-ip 0=198.18.0.1: 198.18.0.1 has no /PREFIX");
}

int
main(void)
{
	WR_TEST_RUN(test_parse);
	WR_TEST_RUN(test_errors);
	WR_TEST_RUN(test_next_hop);
	WR_TEST_RUN(test_frame);
	return wr_test_summary();
}
