/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for l3svc.c: ARP, neighbour discovery and echo on byte
 * vectors. The requests are frames a Linux 6.1 kernel sent (captured
 * with tcpdump on a veth: 198.18.0.254 / 2001:db8::fe at 02:00:00:00:00:fe
 * asking for 198.18.0.1 / 2001:db8::1); checksums are checked by a sum
 * written here, not by the module's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/frame.h"
#include "base/l3svc.h"
#include "wr_test.h"
#include "wr_testpkt.h"

#define PEER_MAC 0x02, 0, 0, 0, 0, 0xfe
#define OUR_MAC 0x02, 0, 0, 0, 0, 0x01
#define PEER_IP6 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xfe
#define OUR_IP6 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01
#define ECHO_DATA 'w', 'i', 'r', 'e', 'r', 'a', 't', 'e', '-', 'e', 'c', 'h', \
	'o', '-', 'd', 'a', 't', 'a', '!', '!'

/* Linux: who-has 198.18.0.1 tell 198.18.0.254 (42 bytes, unpadded). */
static const uint8_t arp_req[] = {
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, PEER_MAC, 0x08, 0x06,
	0x00, 0x01, 0x08, 0x00, 0x06, 0x04, 0x00, 0x01, PEER_MAC,
	0xc6, 0x12, 0x00, 0xfe, 0, 0, 0, 0, 0, 0, 0xc6, 0x12, 0x00, 0x01,
};

/* Linux: NS for 2001:db8::1 from 2001:db8::fe, with its SLLA. */
static const uint8_t ns_req[] = {
	0x33, 0x33, 0xff, 0x00, 0x00, 0x01, PEER_MAC, 0x86, 0xdd,
	0x60, 0, 0, 0, 0x00, 0x20, 0x3a, 0xff, PEER_IP6,
	0xff, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01, 0xff, 0x00, 0x00, 0x01,
	0x87, 0x00, 0x1a, 0x2f, 0, 0, 0, 0, OUR_IP6, 0x01, 0x01, PEER_MAC,
};

/* Linux: DAD for fe80::ff:fe00:fe (source ::, a nonce option, RFC 7527). */
static const uint8_t ns_dad[] = {
	0x33, 0x33, 0xff, 0x00, 0x00, 0xfe, PEER_MAC, 0x86, 0xdd,
	0x60, 0, 0, 0, 0x00, 0x20, 0x3a, 0xff,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0xff, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01, 0xff, 0x00, 0x00, 0xfe,
	0x87, 0x00, 0xb3, 0x3b, 0, 0, 0, 0,
	0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0x00, 0xff, 0xfe, 0x00, 0x00, 0xfe, 0, 0,
	0x0e, 0x01, 0xba, 0xfe, 0x9b, 0x09, 0x63, 0xde,
};

/* Linux: ICMP echo request to 198.18.0.1, id 0x1234 seq 1, DF set. */
static const uint8_t echo4_req[] = {
	OUR_MAC, PEER_MAC, 0x08, 0x00,
	0x45, 0x00, 0x00, 0x30, 0xaa, 0x34, 0x40, 0x00, 0x40, 0x01, 0x03, 0x75,
	0xc6, 0x12, 0x00, 0xfe, 0xc6, 0x12, 0x00, 0x01,
	0x08, 0x00, 0x1b, 0x56, 0x12, 0x34, 0x00, 0x01, ECHO_DATA,
};

/* Linux: ICMPv6 echo request to 2001:db8::1, id 0x1234 seq 1. */
static const uint8_t echo6_req[] = {
	OUR_MAC, PEER_MAC, 0x86, 0xdd,
	0x60, 0x08, 0xce, 0x40, 0x00, 0x1c, 0x3a, 0x40, PEER_IP6, OUR_IP6,
	0x80, 0x00, 0x46, 0x8e, 0x12, 0x34, 0x00, 0x01, ECHO_DATA,
};

static const uint8_t our_ip6[16] = { OUR_IP6 };
static const uint8_t peer_ip6[16] = { PEER_IP6 };
static const struct rte_ether_addr peer_mac = {{ PEER_MAC }};

static void
port_ours(struct wr_l3svc_port *p)
{
	static const struct rte_ether_addr mac = {{ OUR_MAC }};

	memset(p, 0, sizeof(*p));
	p->mac = mac;
	p->has_ip4 = true;
	p->ip4 = 0xc6120001;
	p->has_ip6 = true;
	memcpy(p->ip6, our_ip6, 16);
}

/* The peer's side, to build what it would send. */
static void
port_peer(struct wr_l3svc_port *p)
{
	port_ours(p);
	p->mac = peer_mac;
	p->ip4 = 0xc61200fe;
	memcpy(p->ip6, peer_ip6, 16);
}

/* RFC 1071 one's-complement sum of len bytes, folded, from sum. */
static uint32_t
ref_sum(const uint8_t *b, uint32_t len, uint32_t sum)
{
	return wr_test_fold(wr_test_sum(b, len, sum));
}

/* Does the ICMPv6 message after the IPv6 header at ip (avail bytes) verify? */
static bool
icmp6_ok(const uint8_t *ip, uint32_t avail)
{
	uint32_t plen = (uint32_t)(ip[4] << 8 | ip[5]);
	uint32_t sum = ref_sum(ip + 8, 32, 0);   /* source and destination */

	if (avail < 40 || plen > avail - 40)
		return false;
	sum = ref_sum(ip + 40, plen, sum + plen + 58);
	return ip[6] == 58 && sum == 0xffff;
}

/* icmp6_ok() on the array buf, its IPv6 header at byte l2. */
#define ICMP6_OK(buf, l2) icmp6_ok((buf) + (l2), (uint32_t)sizeof(buf) - (l2))

/* Handle len bytes copied to a buffer of exactly that size. */
static int
handle(const struct wr_l3svc_port *p, const uint8_t *frame, uint32_t len,
		uint8_t *out, uint32_t outlen, struct wr_l3svc_verdict *v)
{
	uint8_t *copy = malloc(len ? len : 1);
	int rc;

	memcpy(copy, frame, len);
	rc = wr_l3svc_handle(p, copy, len, out, outlen, v);
	free(copy);
	return rc;
}

/* Handle len bytes: class cls, no reply, and nothing learned unless ours. */
static void
check_silent(const struct wr_l3svc_port *p, const uint8_t *frame, uint32_t len,
		enum wr_l3svc_class cls)
{
	struct wr_l3svc_verdict v;
	uint8_t out[256];

	WR_CHECK_U64(handle(p, frame, len, out, sizeof(out), &v), 0);
	WR_CHECK_U64(v.cls, cls);
	WR_CHECK_U64(v.reply_len, 0);
	WR_CHECK(cls == WR_L3SVC_OURS || !v.learned);
}

/* Every truncation of a request is never answered nor taken as ours. */
static void
check_truncations(const struct wr_l3svc_port *p, const uint8_t *frame,
		uint32_t len)
{
	struct wr_l3svc_verdict v;
	uint8_t out[256];
	uint32_t n;

	for (n = 0; n < len; n++) {
		WR_CHECK_U64(handle(p, frame, n, out, sizeof(out), &v), 0);
		if (v.cls == WR_L3SVC_OURS || v.reply_len != 0)
			fprintf(stderr, "truncated to %u: class %d, reply %u\n",
				n, v.cls, v.reply_len);
		WR_CHECK(v.cls != WR_L3SVC_OURS && v.reply_len == 0);
	}
}

static void
test_arp_request(void)
{
	static const uint8_t want[60] = {
		PEER_MAC, OUR_MAC, 0x08, 0x06,
		0x00, 0x01, 0x08, 0x00, 0x06, 0x04, 0x00, 0x02, OUR_MAC,
		0xc6, 0x12, 0x00, 0x01, PEER_MAC, 0xc6, 0x12, 0x00, 0xfe,
	};
	struct wr_l3svc_port p;
	struct wr_l3svc_verdict v;
	uint8_t out[128];

	port_ours(&p);
	WR_CHECK(wr_l3svc_is_candidate(arp_req, sizeof(arp_req)));
	memset(out, 0xee, sizeof(out));
	WR_CHECK_U64(handle(&p, arp_req, sizeof(arp_req), out, sizeof(out), &v), 0);
	WR_CHECK_U64(v.cls, WR_L3SVC_OURS);
	WR_CHECK_U64(v.reply_len, 60);
	WR_CHECK(memcmp(out, want, sizeof(want)) == 0);
	WR_CHECK(v.learned && !v.nb.ipv6);
	WR_CHECK_U64(v.nb.ip4, 0xc61200fe);
	WR_CHECK(rte_is_same_ether_addr(&v.nb.mac, &peer_mac));
	check_truncations(&p, arp_req, sizeof(arp_req));
	/* Too little room: the class is told, nothing is written. */
	memset(out, 0xee, sizeof(out));
	WR_CHECK_U64(handle(&p, arp_req, sizeof(arp_req), out, 59, &v), (uint64_t)-ENOSPC);
	WR_CHECK_U64(v.cls, WR_L3SVC_OURS);
	WR_CHECK_U64(v.reply_len, 0);
	WR_CHECK_U64(out[0], 0xee);
}

/* Requests for another address, or that claim ours, are not answered. */
static void
test_arp_not_ours(void)
{
	struct wr_l3svc_port p;

	port_ours(&p);
	p.ip4 = 0xc6120002;
	check_silent(&p, arp_req, sizeof(arp_req), WR_L3SVC_NOT_OURS);
	p.ip4 = 0xc61200fe;  /* the sender claims the port's address */
	check_silent(&p, arp_req, sizeof(arp_req), WR_L3SVC_NOT_OURS);
	p.has_ip4 = false;
	p.ip4 = 0xc6120001;
	check_silent(&p, arp_req, sizeof(arp_req), WR_L3SVC_NOT_OURS);
}

/* One field changed at a time: each makes the request malformed. */
static void
test_arp_malformed(void)
{
	static const struct { uint32_t off; uint8_t val; } bad[] = {
		{ 15, 6 },     /* hardware type 6 (IEEE 802) */
		{ 17, 0xdd },  /* protocol IPv6 */
		{ 18, 8 },     /* hardware address length */
		{ 19, 16 },    /* protocol address length */
		{ 21, 3 },     /* RARP request */
		{ 22, 0xff },  /* sender MAC multicast */
	};
	struct wr_l3svc_port p;
	uint8_t frame[sizeof(arp_req)];
	size_t i;

	port_ours(&p);
	for (i = 0; i < RTE_DIM(bad); i++) {
		memcpy(frame, arp_req, sizeof(frame));
		frame[bad[i].off] = bad[i].val;
		check_silent(&p, frame, sizeof(frame), WR_L3SVC_MALFORMED);
	}
}

/* Our ARP request is byte for byte the kernel's (padded); announcements teach. */
static void
test_arp_builders(void)
{
	struct wr_l3svc_port peer, p;
	struct wr_l3svc_verdict v;
	uint8_t out[128], rep[128];
	int n;

	port_peer(&peer);
	port_ours(&p);
	memset(out, 0xee, sizeof(out));
	n = wr_l3svc_arp_request(&peer, 0xc6120001, out, sizeof(out));
	WR_CHECK_U64(n, 60);
	WR_CHECK(memcmp(out, arp_req, sizeof(arp_req)) == 0);
	WR_CHECK_U64(out[42] | out[59], 0);
	WR_CHECK_U64(wr_l3svc_arp_request(&peer, 1, out, 63), (uint64_t)-ENOSPC);
	n = wr_l3svc_arp_announce(&peer, out, sizeof(out));
	WR_CHECK_U64(n, 60);
	WR_CHECK(memcmp(out + 38, "\xc6\x12\x00\xfe", 4) == 0);  /* target: itself */
	WR_CHECK_U64(handle(&p, out, (uint32_t)n, rep, sizeof(rep), &v), 0);
	WR_CHECK_U64(v.cls, WR_L3SVC_OURS);
	WR_CHECK_U64(v.reply_len, 0);
	WR_CHECK(v.learned && v.nb.ip4 == 0xc61200fe &&
		rte_is_same_ether_addr(&v.nb.mac, &peer_mac));
	/* Our reply, seen by the peer, teaches it our MAC. */
	WR_CHECK_U64(handle(&p, arp_req, sizeof(arp_req), out, sizeof(out), &v), 0);
	WR_CHECK_U64(handle(&peer, out, v.reply_len, rep, sizeof(rep), &v), 0);
	WR_CHECK_U64(v.cls, WR_L3SVC_OURS);
	WR_CHECK(v.learned && v.nb.ip4 == 0xc6120001 && v.reply_len == 0);
	peer.has_ip4 = false;
	WR_CHECK_U64(wr_l3svc_arp_announce(&peer, out, sizeof(out)), (uint64_t)-EINVAL);
}

/* 802.1Q: only the port's VLAN is answered, and the reply is tagged. */
static void
test_vlan(void)
{
	struct wr_l3svc_port p;
	struct wr_l3svc_verdict v;
	uint8_t frame[sizeof(arp_req) + 4], out[128];

	port_ours(&p);
	memcpy(frame, arp_req, 12);
	memcpy(frame + 12, "\x81\x00\x30\x64", 4);  /* PCP 1, VLAN 100 */
	memcpy(frame + 16, arp_req + 12, sizeof(arp_req) - 12);
	WR_CHECK(wr_l3svc_is_candidate(frame, sizeof(frame)));
	WR_CHECK_U64(handle(&p, frame, sizeof(frame), out, sizeof(out), &v), 0);
	WR_CHECK_U64(v.cls, WR_L3SVC_NOT_OURS);   /* untagged port */
	p.vlan_id = 100;
	WR_CHECK_U64(handle(&p, arp_req, sizeof(arp_req), out, sizeof(out), &v), 0);
	WR_CHECK_U64(v.cls, WR_L3SVC_NOT_OURS);   /* untagged frame */
	WR_CHECK_U64(handle(&p, frame, sizeof(frame), out, sizeof(out), &v), 0);
	WR_CHECK_U64(v.cls, WR_L3SVC_OURS);
	WR_CHECK_U64(v.reply_len, 60);
	WR_CHECK(memcmp(out + 12, "\x81\x00\x00\x64\x08\x06\x00\x01", 8) == 0);
	WR_CHECK(memcmp(out + 32, "\xc6\x12\x00\x01", 4) == 0);   /* sender: us */
	p.vlan_id = 200;
	check_silent(&p, frame, sizeof(frame), WR_L3SVC_NOT_OURS);
	check_truncations(&p, frame, sizeof(frame));
	/* Builders tag too: a tagged NS is WR_L3SVC_BUILD_MAX bytes. */
	WR_CHECK_U64(wr_l3svc_ns(&p, peer_ip6, out, sizeof(out)), WR_L3SVC_BUILD_MAX);
	WR_CHECK(memcmp(out + 12, "\x81\x00\x00\xc8\x86\xdd", 6) == 0);
	WR_CHECK(ICMP6_OK(out, 18));
}

static void
test_echo4(void)
{
	struct wr_l3svc_port p;
	struct wr_l3svc_verdict v;
	uint8_t out[128], frame[sizeof(echo4_req)];

	port_ours(&p);
	WR_CHECK(wr_l3svc_is_candidate(echo4_req, sizeof(echo4_req)));
	WR_CHECK_U64(handle(&p, echo4_req, sizeof(echo4_req), out, sizeof(out), &v), 0);
	WR_CHECK_U64(v.cls, WR_L3SVC_OURS);
	WR_CHECK_U64(v.reply_len, sizeof(echo4_req));
	WR_CHECK(!v.learned);
	WR_CHECK(memcmp(out, echo4_req + 6, 6) == 0 && memcmp(out + 6, echo4_req, 6) == 0);
	WR_CHECK_U64(out[14], 0x45);
	WR_CHECK_U64(out[22], 64);                                   /* TTL */
	WR_CHECK(memcmp(out + 26, "\xc6\x12\x00\x01\xc6\x12\x00\xfe", 8) == 0);
	WR_CHECK_U64(ref_sum(out + 14, 20, 0), 0xffff);
	WR_CHECK_U64(out[34], 0);                                    /* echo reply */
	WR_CHECK(memcmp(out + 38, echo4_req + 38, sizeof(echo4_req) - 38) == 0);
	WR_CHECK_U64(ref_sum(out + 34, sizeof(echo4_req) - 34, 0), 0xffff);
	check_truncations(&p, echo4_req, sizeof(echo4_req));
	/* A bad ICMP checksum; a fragment; another destination. */
	memcpy(frame, echo4_req, sizeof(frame));
	frame[61] ^= 1;
	check_silent(&p, frame, sizeof(frame), WR_L3SVC_MALFORMED);
	p.ip4 = 0xc6120002;
	check_silent(&p, echo4_req, sizeof(echo4_req), WR_L3SVC_NOT_OURS);
}

/* An echo reply to the port is ours, and not answered; UDP is other. */
static void
test_echo4_other(void)
{
	struct wr_l3svc_port p;
	struct wr_l3svc_verdict v;
	struct wr_frame_spec s;
	struct wr_frame_layout lay;
	uint8_t out[128], frame[sizeof(echo4_req)];

	port_ours(&p);
	memcpy(frame, echo4_req, sizeof(frame));
	frame[34] = 0;      /* type 0; the checksum's high byte + 8 */
	frame[36] += 8;
	check_silent(&p, frame, sizeof(frame), WR_L3SVC_OURS);
	memset(&s, 0, sizeof(s));
	s.size = 64;
	s.dst_ip = p.ip4;
	WR_CHECK_U64(wr_frame_build(&s, frame, sizeof(frame), &lay), 0);
	WR_CHECK(!wr_l3svc_is_candidate(frame, lay.data_len));
	WR_CHECK_U64(handle(&p, frame, lay.data_len, out, sizeof(out), &v), 0);
	WR_CHECK_U64(v.cls, WR_L3SVC_OTHER);
}

static void
test_echo6(void)
{
	struct wr_l3svc_port p;
	struct wr_l3svc_verdict v;
	uint8_t out[128];

	port_ours(&p);
	WR_CHECK(ICMP6_OK(echo6_req, 14));
	WR_CHECK(wr_l3svc_is_candidate(echo6_req, sizeof(echo6_req)));
	WR_CHECK_U64(handle(&p, echo6_req, sizeof(echo6_req), out, sizeof(out), &v), 0);
	WR_CHECK_U64(v.cls, WR_L3SVC_OURS);
	WR_CHECK_U64(v.reply_len, sizeof(echo6_req));
	WR_CHECK(memcmp(out, echo6_req + 6, 6) == 0 && memcmp(out + 6, echo6_req, 6) == 0);
	WR_CHECK(memcmp(out + 22, our_ip6, 16) == 0 && memcmp(out + 38, peer_ip6, 16) == 0);
	WR_CHECK_U64(out[54], 129);
	WR_CHECK(memcmp(out + 58, echo6_req + 58, sizeof(echo6_req) - 58) == 0);
	WR_CHECK(ICMP6_OK(out, 14));
	check_truncations(&p, echo6_req, sizeof(echo6_req));
	p.ip6[15] = 2;
	check_silent(&p, echo6_req, sizeof(echo6_req), WR_L3SVC_NOT_OURS);
}

/* NS -> NA with S and O set and our MAC in a TLLA option (RFC 4861 7.2.4). */
static void
test_ns(void)
{
	static const uint8_t want_nd[] = {
		0x88, 0x00, 0, 0, 0x60, 0, 0, 0, OUR_IP6, 0x02, 0x01, OUR_MAC,
	};
	struct wr_l3svc_port p;
	struct wr_l3svc_verdict v;
	uint8_t out[128];

	port_ours(&p);
	WR_CHECK(ICMP6_OK(ns_req, 14));
	WR_CHECK_U64(handle(&p, ns_req, sizeof(ns_req), out, sizeof(out), &v), 0);
	WR_CHECK_U64(v.cls, WR_L3SVC_OURS);
	WR_CHECK_U64(v.reply_len, 86);
	WR_CHECK(memcmp(out, ns_req + 6, 6) == 0);           /* to its SLLA */
	WR_CHECK_U64(out[21], 255);                            /* hop limit */
	WR_CHECK(memcmp(out + 22, our_ip6, 16) == 0 && memcmp(out + 38, peer_ip6, 16) == 0);
	memset(out + 56, 0, 2);  /* the checksum, checked below */
	WR_CHECK(memcmp(out + 54, want_nd, sizeof(want_nd)) == 0);
	WR_CHECK_U64(handle(&p, ns_req, sizeof(ns_req), out, sizeof(out), &v), 0);
	WR_CHECK(ICMP6_OK(out, 14));
	WR_CHECK(v.learned && v.nb.ipv6 && memcmp(v.nb.ip6, peer_ip6, 16) == 0);
	WR_CHECK(rte_is_same_ether_addr(&v.nb.mac, &peer_mac));
	check_truncations(&p, ns_req, sizeof(ns_req));
	p.ip6[15] = 2;
	check_silent(&p, ns_req, sizeof(ns_req), WR_L3SVC_NOT_OURS);
}

/*
 * A connection client's source range (nb_more): ARP and NS for an address
 * in it are answered, for that address; one just outside it is not.
 */
static void
test_more_addrs(void)
{
	static const uint8_t want_arp[60] = {
		PEER_MAC, OUR_MAC, 0x08, 0x06,
		0x00, 0x01, 0x08, 0x00, 0x06, 0x04, 0x00, 0x02, OUR_MAC,
		0xc6, 0x12, 0x00, 0x01, PEER_MAC, 0xc6, 0x12, 0x00, 0xfe,
	};
	struct wr_l3svc_port p;
	struct wr_l3svc_verdict v;
	uint8_t out[128];

	port_ours(&p);
	p.ip4 = 0xc6120063;          /* the port: 198.18.0.99, 2001:db8::63 */
	p.ip6[15] = 0x63;
	check_silent(&p, arp_req, sizeof(arp_req), WR_L3SVC_NOT_OURS);
	check_silent(&p, ns_req, sizeof(ns_req), WR_L3SVC_NOT_OURS);
	p.nb_more = 4;               /* 198.18.0.0-3, 2001:db8::0-3 */
	p.more_ip4 = 0xc6120000;
	memcpy(p.more_ip6, our_ip6, 16);
	p.more_ip6[15] = 0;
	WR_CHECK_U64(handle(&p, arp_req, sizeof(arp_req), out, sizeof(out), &v), 0);
	WR_CHECK_U64(v.cls, WR_L3SVC_OURS);
	WR_CHECK_U64(v.reply_len, 60);
	WR_CHECK(memcmp(out, want_arp, sizeof(want_arp)) == 0);
	WR_CHECK_U64(handle(&p, ns_req, sizeof(ns_req), out, sizeof(out), &v), 0);
	WR_CHECK_U64(v.cls, WR_L3SVC_OURS);
	WR_CHECK_U64(v.reply_len, 86);
	WR_CHECK(memcmp(out + 62, our_ip6, 16) == 0);   /* the target asked */
	WR_CHECK(ICMP6_OK(out, 14));
	p.more_ip4 = 0xc6120002;     /* 198.18.0.2-5, 2001:db8::2-5 */
	p.more_ip6[15] = 2;
	check_silent(&p, arp_req, sizeof(arp_req), WR_L3SVC_NOT_OURS);
	check_silent(&p, ns_req, sizeof(ns_req), WR_L3SVC_NOT_OURS);
	p.more_ip6[15] = 0;          /* another /64 */
	p.more_ip6[7] = 1;
	check_silent(&p, ns_req, sizeof(ns_req), WR_L3SVC_NOT_OURS);
}

/* DAD (source ::): the NA goes to all nodes, without S (RFC 4861 7.2.4). */
static void
test_ns_dad(void)
{
	struct wr_l3svc_port p;
	struct wr_l3svc_verdict v;
	uint8_t out[128];

	port_ours(&p);
	WR_CHECK(ICMP6_OK(ns_dad, 14));
	WR_CHECK_U64(handle(&p, ns_dad, sizeof(ns_dad), out, sizeof(out), &v), 0);
	WR_CHECK_U64(v.cls, WR_L3SVC_NOT_OURS);
	memcpy(p.ip6, ns_dad + 62, 16);
	WR_CHECK_U64(handle(&p, ns_dad, sizeof(ns_dad), out, sizeof(out), &v), 0);
	WR_CHECK_U64(v.cls, WR_L3SVC_OURS);
	WR_CHECK_U64(v.reply_len, 86);
	WR_CHECK(!v.learned);
	WR_CHECK(memcmp(out, "\x33\x33\x00\x00\x00\x01", 6) == 0);
	WR_CHECK(memcmp(out + 38, "\xff\x02\x00\x00", 4) == 0 && out[53] == 1);
	WR_CHECK_U64(out[58], 0x20);                           /* O only */
	WR_CHECK(ICMP6_OK(out, 14));
}

/* Rewrite the ICMPv6 checksum of frame (untagged) after an edit. */
static void
fix_icmp6(uint8_t *frame)
{
	uint32_t plen = (uint32_t)(frame[18] << 8 | frame[19]);
	uint32_t sum;

	frame[56] = 0;
	frame[57] = 0;
	sum = ref_sum(frame + 22, 32, 0);
	sum = ~ref_sum(frame + 54, plen, sum + plen + 58) & 0xffff;
	frame[56] = (uint8_t)(sum >> 8);
	frame[57] = (uint8_t)sum;
}

/* RFC 4861 7.1.1: each of these NS is silently discarded. */
static void
test_ns_malformed(void)
{
	struct wr_l3svc_port p;
	uint8_t frame[sizeof(ns_req)];
	int i;

	port_ours(&p);
	for (i = 0; i < 6; i++) {
		memcpy(frame, ns_req, sizeof(frame));
		if (i == 0)
			frame[21] = 64;     /* hop limit (not in the checksum) */
		else if (i == 1)
			frame[57] ^= 1;     /* checksum */
		else if (i == 2)
			frame[79] = 0;      /* option length 0 */
		else if (i == 3)
			frame[62] = 0xff;   /* multicast target */
		else if (i == 4)
			frame[55] = 1;      /* code */
		else
			memset(frame + 22, 0, 16);  /* DAD with an SLLA */
		if (i >= 2)
			fix_icmp6(frame);
		check_silent(&p, frame, sizeof(frame), WR_L3SVC_MALFORMED);
	}
}

/* Our NS is byte for byte the kernel's; resolution round trip. */
static void
test_nd_builders(void)
{
	struct wr_l3svc_port peer, p;
	struct wr_l3svc_verdict v;
	uint8_t ns[128], na[128], rep[128];
	int n;

	port_peer(&peer);
	port_ours(&p);
	n = wr_l3svc_ns(&peer, our_ip6, ns, sizeof(ns));
	WR_CHECK_U64(n, sizeof(ns_req));
	WR_CHECK(memcmp(ns, ns_req, sizeof(ns_req)) == 0);
	WR_CHECK_U64(wr_l3svc_ns(&peer, our_ip6, ns, WR_L3SVC_BUILD_MAX - 1),
		(uint64_t)-ENOSPC);
	/* Our NS answered by the peer; its NA teaches us its MAC. */
	n = wr_l3svc_ns(&p, peer_ip6, ns, sizeof(ns));
	WR_CHECK_U64(handle(&peer, ns, (uint32_t)n, na, sizeof(na), &v), 0);
	WR_CHECK_U64(v.cls, WR_L3SVC_OURS);
	WR_CHECK_U64(handle(&p, na, v.reply_len, rep, sizeof(rep), &v), 0);
	WR_CHECK_U64(v.cls, WR_L3SVC_OURS);
	WR_CHECK(v.reply_len == 0 && v.learned && v.nb.ipv6);
	WR_CHECK(memcmp(v.nb.ip6, peer_ip6, 16) == 0);
	WR_CHECK(rte_is_same_ether_addr(&v.nb.mac, &peer_mac));
	/* The unsolicited NA: all nodes, O set, S clear; it teaches too. */
	n = wr_l3svc_na_announce(&peer, na, sizeof(na));
	WR_CHECK_U64(n, 86);
	WR_CHECK(memcmp(na, "\x33\x33\x00\x00\x00\x01", 6) == 0);
	WR_CHECK_U64(na[58], 0x20);
	WR_CHECK(ICMP6_OK(na, 14));
	WR_CHECK_U64(handle(&p, na, (uint32_t)n, rep, sizeof(rep), &v), 0);
	WR_CHECK_U64(v.cls, WR_L3SVC_OURS);
	WR_CHECK(v.learned && memcmp(v.nb.ip6, peer_ip6, 16) == 0);
	/* An NA to all nodes with S set is malformed (RFC 4861 7.1.2). */
	na[58] = 0x60;
	fix_icmp6(na);
	WR_CHECK_U64(handle(&p, na, (uint32_t)n, rep, sizeof(rep), &v), 0);
	WR_CHECK_U64(v.cls, WR_L3SVC_MALFORMED);
	WR_CHECK(!v.learned);
	peer.has_ip6 = false;
	WR_CHECK_U64(wr_l3svc_na_announce(&peer, na, sizeof(na)), (uint64_t)-EINVAL);
}

int
main(void)
{
	WR_TEST_RUN(test_arp_request);
	WR_TEST_RUN(test_arp_not_ours);
	WR_TEST_RUN(test_arp_malformed);
	WR_TEST_RUN(test_arp_builders);
	WR_TEST_RUN(test_vlan);
	WR_TEST_RUN(test_echo4);
	WR_TEST_RUN(test_echo4_other);
	WR_TEST_RUN(test_echo6);
	WR_TEST_RUN(test_ns);
	WR_TEST_RUN(test_ns_dad);
	WR_TEST_RUN(test_ns_malformed);
	WR_TEST_RUN(test_nd_builders);
	WR_TEST_RUN(test_more_addrs);
	return wr_test_summary();
}
