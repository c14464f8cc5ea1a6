/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for header stacks (base/stack.h): the spec parser's errors,
 * every supported stack built and checked byte by byte against checksums
 * computed here by hand (RFC 1071), the per-frame checksum update of TX
 * (datapath/txvar.h), and the receiver's walk on each stack, truncated at
 * every byte, and on what a DUT leaves after decapsulation or a tag pop;
 * templates (template=FILE:N) taken from each stack's frame in a pcap file
 * written here build the same bytes as the spec.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/frame.h"
#include "base/stack.h"
#include "datapath/txvar.h"
#include "wr_test.h"
#include "wr_testpkt.h"
#include "wr_test_opts.h"

static uint8_t buf[9018];

/* The stacks of docs/traffic.md, each one of its kind. */
static const char *const stacks[] = {
	"eth/ipv4/udp",
	"eth/vlan(id=10)/ipv4/udp",
	"eth/vlan(id=10,pcp=5)/vlan(id=20)/ipv4/udp",
	"eth/svlan(id=100)/vlan(id=20)/ipv6/udp",
	"eth/mpls(label=100)/mpls(label=200,tc=3,ttl=9)/ipv4/udp",
	"eth/ipv4(src=10.0.0.1,dst=10.0.0.2)/udp/vxlan(vni=42)/eth/ipv4/udp",
	"eth/ipv6(src=fd00::1,dst=fd00::2)/udp/vxlan/eth/ipv4/udp",
	"eth/ipv6/gre/eth/ipv4/udp",
	"eth/ipv4/gre(key=7)/ipv6/udp",
	"eth/ipv4/gre/mpls/ipv4/udp",
	"eth/ipv4/udp(sport=5000)/geneve(vni=99)/eth/ipv6/udp",
	"eth/ipv6/udp/geneve/ipv4/udp",
	"eth/ipv4/ipv6/udp",
	"eth/ipv6/udp/geneve/eth/ipv6/udp/vxlan/eth/vlan(id=3)/ipv4/udp",
};

static void
spec_default(struct wr_frame_spec *s, uint32_t size, const struct wr_stack *st)
{
	wr_test_spec_default(s, size);
	s->ipv6 = wr_stack_inner_ipv6(st);
	s->src_ip6[0] = s->dst_ip6[0] = 0x20;
	s->src_ip6[15] = 1;
	s->dst_ip6[15] = 2;
	s->stack = st;
}

static uint16_t
be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

/*
 * Check every IP header and UDP checksum of the frame of n bytes at p,
 * layers of st at their offsets, by hand: IPv4 header sums to 0xffff, its
 * length fits; a UDP checksum over IPv6 is present and sums to 0xffff
 * with the pseudo-header (RFC 8200 section 8.1); over IPv4 it is 0.
 * Returns the number of bad fields.
 */
static unsigned int
ref_check(const struct wr_stack *st, const uint8_t *p, uint32_t n)
{
	uint32_t off = 0, ip = 0, sum;
	unsigned int i, bad = 0;
	uint8_t ipk = 0;

	for (i = 0; i < st->nb_layers; off += wr_stack_layer_len(&st->l[i]), i++) {
		uint8_t k = st->l[i].kind;

		if (k == WR_STACK_IPV4) {
			bad += wr_test_fold(wr_test_sum(p + off, 20, 0)) != 0xffff;
			bad += be16(p + off + 2) != n - off;
		} else if (k == WR_STACK_IPV6) {
			bad += be16(p + off + 4) != n - off - 40;
		}
		if (k == WR_STACK_IPV4 || k == WR_STACK_IPV6) {
			ip = off;
			ipk = k;
		}
		if (k != WR_STACK_UDP)
			continue;
		bad += be16(p + off + 4) != n - off;
		if (ipk == WR_STACK_IPV4) {
			bad += be16(p + off + 6) != 0;
			continue;
		}
		sum = wr_test_sum(p + ip + 8, 32, 0) + (n - off) + 17;
		bad += be16(p + off + 6) == 0 || wr_test_fold(wr_test_sum(p + off, n - off, sum)) != 0xffff;
	}
	return bad;
}

/* Parse text, failing the test on an error. */
static void
parse_ok(const char *text, struct wr_stack *st)
{
	struct wr_error e;

	wr_err_clear(&e);
	if (wr_stack_parse(text, st, &e) != 0) {
		fprintf(stderr, "%s: %s\n", text, e.msg);
		WR_CHECK(0);
	}
}

static void
test_parse_errors(void)
{
	static const struct { const char *text, *msg; } bad[] = {
		{ "ipv4/udp", "layer 1 must be eth" },
		{ "eth/ipv4", "must end in ipv4/udp or ipv6/udp" },
		{ "eth/vxlan/ipv4/udp", "layer 2: vxlan cannot follow eth" },
		{ "eth/ipv4/udp/eth/ipv4/udp", "layer 4: eth cannot follow udp" },
		{ "eth/vlan(id=4095)/ipv4/udp", "layer 2 (vlan): id=4095: expected a whole number 0..4094" },
		{ "eth/vlan(vni=3)/ipv4/udp", "layer 2 (vlan): 'vni=3' is not FIELD=VALUE of a known field (id, pcp)" },
		{ "eth/vlan(id=3,id=4)/ipv4/udp", "id given twice" },
		{ "eth/vlan(id=3/ipv4/udp", "no ')'" },
		{ "eth/ipv4(src=10.0.0)/udp/vxlan/eth/ipv4/udp", "expected an IPv4 address" },
		{ "eth/ipv6(dst=1.2.3.4)/udp/vxlan/eth/ipv4/udp", "expected an IPv6 address" },
		{ "eth(src=02:00)/ipv4/udp", "expected a MAC address" },
		{ "eth//ipv4/udp", "layer 2: empty" },
		{ "eth/ipv4/udp/", "layer 4: empty" },
		{ "eth/ipx/udp", "layer 2: unknown 'ipx'" },
		{ "eth/ipv4(dst=10.0.0.1)/udp", "innermost IP and UDP take the stream's" },
		{ "eth/ipv4/udp(sport=1)", "innermost IP and UDP take the stream's" },
		{ "eth/mpls/mpls/mpls/mpls/mpls/mpls/mpls/mpls/mpls/mpls/mpls/mpls/mpls/mpls/ipv4/udp",
			"more than 16 layers" },
	};
	struct wr_stack st;
	struct wr_error e;
	unsigned int i;

	for (i = 0; i < RTE_DIM(bad); i++) {
		wr_err_clear(&e);
		WR_CHECK(wr_stack_parse(bad[i].text, &st, &e) == -EINVAL);
		WR_CHECK_STR(e.msg, bad[i].msg);
	}
	parse_ok("eth/mpls/mpls/mpls/mpls/mpls/mpls/mpls/mpls/mpls/mpls/mpls/mpls/mpls/ipv4/udp", &st);
	WR_CHECK_U64(st.nb_layers, 16);
}

/* Each stack: headers by hand, lengths, checksums; the walk finds it. */
static void
check_build(const char *text, uint32_t size)
{
	struct wr_frame_spec s;
	struct wr_frame_layout lay;
	struct wr_stack_found f;
	struct wr_stack st;

	parse_ok(text, &st);
	spec_default(&s, size, &st);
	WR_CHECK(wr_frame_build(&s, buf, sizeof(buf), &lay) == 0);
	WR_CHECK_U64(lay.th_off, wr_stack_hdr_len(&st));
	WR_CHECK_U64(lay.data_len, size - 4);
	WR_CHECK_U64(ref_check(&st, buf, lay.data_len), 0);
	WR_CHECK_U64(be16(buf + lay.udp_sport_off), 1024);
	WR_CHECK_U64(be16(buf + lay.udp_sport_off + 2), 5001);
	WR_CHECK(memcmp(buf + lay.th_off, "WRH1\x11\x00", 6) == 0);
	WR_CHECK_U64(wr_stack_find(buf, lay.data_len, WR_FRAME_MAGIC, WR_FRAME_TH_LEN, &f), 1);
	WR_CHECK_U64(f.th_off, lay.th_off);
	/* One byte less than the smallest frame does not build. */
	s.size = wr_frame_min_size_spec(&s) - 1;
	WR_CHECK(wr_frame_build(&s, buf, sizeof(buf), &lay) == -EINVAL);
}

static void
test_build(void)
{
	struct wr_stack st;
	unsigned int i;

	for (i = 0; i < RTE_DIM(stacks); i++) {
		check_build(stacks[i], 1518);
		parse_ok(stacks[i], &st);
		check_build(stacks[i], RTE_MAX(64u, wr_stack_hdr_len(&st) + 18 + 4));
	}
}

/* Known bytes of one stack: tags, labels, VNI, ports, protocols. */
static void
test_bytes(void)
{
	struct wr_frame_spec s;
	struct wr_frame_layout lay;
	struct wr_stack st;

	parse_ok("eth/svlan(id=10,pcp=5)/vlan(id=20)/mpls(label=100)/"
		"mpls(label=1048575,tc=3,ttl=9)/ipv4/udp", &st);
	spec_default(&s, 128, &st);
	WR_CHECK(wr_frame_build(&s, buf, sizeof(buf), &lay) == 0);
	WR_CHECK(memcmp(buf + 12, "\x88\xa8\xa0\x0a\x81\x00\x00\x14\x88\x47"
		"\x00\x06\x40\x40\xff\xff\xf7\x09\x45", 19) == 0);
	parse_ok("eth/ipv4(src=10.0.0.1,dst=10.0.0.2,ttl=3)/udp/vxlan(vni=42)/"
		"eth(dst=02:aa:bb:cc:dd:ee)/ipv4/udp", &st);
	WR_CHECK(wr_frame_build(&s, buf, sizeof(buf), &lay) == 0);
	WR_CHECK(memcmp(buf + 22, "\x03\x11", 2) == 0);                /* TTL, UDP */
	WR_CHECK(memcmp(buf + 26, "\x0a\x00\x00\x01\x0a\x00\x00\x02", 8) == 0);
	WR_CHECK(memcmp(buf + 34, "\x04\x00\x12\xb5", 4) == 0);        /* 1024 -> 4789 */
	WR_CHECK(memcmp(buf + 42, "\x08\x00\x00\x00\x00\x00\x2a\x00", 8) == 0);
	WR_CHECK(memcmp(buf + 50, "\x02\xaa\xbb\xcc\xdd\xee\x02\x00", 8) == 0);
	parse_ok("eth/ipv6/gre(key=7)/eth/ipv4/udp", &st);
	WR_CHECK(wr_frame_build(&s, buf, sizeof(buf), &lay) == 0);
	WR_CHECK_U64(buf[20], 47);
	WR_CHECK(memcmp(buf + 54, "\x20\x00\x65\x58\x00\x00\x00\x07", 8) == 0);
	parse_ok("eth/ipv4/udp/geneve(vni=99)/ipv6/udp", &st);
	s.ipv6 = true;
	WR_CHECK(wr_frame_build(&s, buf, sizeof(buf), &lay) == 0);
	WR_CHECK(memcmp(buf + 36, "\x17\xc1", 2) == 0);                /* 6081 */
	WR_CHECK(memcmp(buf + 42, "\x00\x00\x86\xdd\x00\x00\x63\x00", 8) == 0);
}

/*
 * TX's per-frame checksum update (txvar.h) on stacks where one UDP
 * checksum covers the stamps: inner IPv6, or IPv4 inside UDP over IPv6.
 * Every other checksum of the stack must hold unchanged.
 */
static void
check_stamped(const char *text, bool live)
{
	struct wr_frame_spec s;
	struct wr_frame_layout lay;
	struct wr_txvar v;
	struct wr_mix mix = { .nb_sizes = 0 };
	struct wr_stack st;
	uint64_t rnd = 7;
	unsigned int k, bad = 0;
	bool needed;

	parse_ok(text, &st);
	spec_default(&s, 300, &st);
	WR_CHECK(wr_frame_build(&s, buf, sizeof(buf), &lay) == 0);
	WR_CHECK(wr_txvar_build(&mix, &s, &lay, &v, &needed) == 0);
	WR_CHECK(needed == live && v.csum6 == live);
	for (k = 0; live && k < 2000; k++) {
		struct wr_test_hdr *th = (struct wr_test_hdr *)(buf + v.th_off);
		uint16_t sp = rte_cpu_to_be_16((uint16_t)(1024 + k % 300));

		th->seq = wr_test_prng(&rnd);
		th->tsc_lo = (uint32_t)wr_test_prng(&rnd);
		memcpy(buf + v.sport_off, &sp, 2);
		wr_txvar_csum6_sport(&v, buf, v.ck_base, sp);
		bad += ref_check(&st, buf, lay.data_len);
		wr_txvar_restamp6(&v, buf, (uint32_t)wr_test_prng(&rnd));
		bad += ref_check(&st, buf, lay.data_len);
	}
	WR_CHECK_U64(bad, 0);
}

static void
test_stamped(void)
{
	check_stamped("eth/ipv4/udp/vxlan/eth/ipv4/udp", false);
	check_stamped("eth/vlan/ipv6/udp", true);
	check_stamped("eth/ipv6/udp/vxlan/eth/ipv4/udp", true);
	check_stamped("eth/ipv6/udp/vxlan/eth/ipv6/udp", true);
	check_stamped("eth/ipv6/udp/geneve/eth/ipv6/udp/vxlan/eth/ipv4/udp", true);
	check_stamped("eth/ipv4/gre/ipv6/udp", true);
}

/*
 * Every stack cut at every byte, in a buffer of exactly that size (so a
 * read past it is caught by ASan or valgrind): never own; foreign while
 * the magic is not all there, malformed once it is.
 */
static void
check_truncated(const char *text)
{
	struct wr_frame_spec s;
	struct wr_frame_layout lay;
	struct wr_stack_found f;
	struct wr_stack st;
	uint32_t n;
	unsigned int bad = 0;

	parse_ok(text, &st);
	spec_default(&s, 256, &st);
	WR_CHECK(wr_frame_build(&s, buf, sizeof(buf), &lay) == 0);
	for (n = 0; n < lay.data_len; n++) {
		uint8_t *cut = malloc(n ? n : 1);
		int want = n < lay.th_off + 4 ? 0 : 2;

		memcpy(cut, buf, n);
		bad += wr_stack_find(cut, n, WR_FRAME_MAGIC, WR_FRAME_TH_LEN, &f) != want;
		free(cut);
	}
	WR_CHECK_U64(bad, 0);
}

static void
test_truncated(void)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(stacks); i++)
		check_truncated(stacks[i]);
}

/*
 * wr_stack_may_carry never hides a frame the walk takes: every stack's
 * frame with each of the 65536 outermost EtherTypes, and every cut of
 * the Ethernet header.
 */
static void
check_may_carry(const char *text)
{
	struct wr_frame_spec s;
	struct wr_frame_layout lay;
	struct wr_stack_found f;
	struct wr_stack st;
	unsigned int bad = 0, carried = 0;
	uint32_t t, n;

	parse_ok(text, &st);
	spec_default(&s, 256, &st);
	WR_CHECK(wr_frame_build(&s, buf, sizeof(buf), &lay) == 0);
	WR_CHECK(wr_stack_may_carry(buf, lay.data_len));
	for (t = 0; t < 65536; t++) {
		buf[12] = (uint8_t)(t >> 8);
		buf[13] = (uint8_t)t;
		if (wr_stack_may_carry(buf, lay.data_len))
			carried++;
		else
			bad += wr_stack_find(buf, lay.data_len, WR_FRAME_MAGIC,
				WR_FRAME_TH_LEN, &f) != 0;
	}
	WR_CHECK_U64(bad, 0);
	WR_CHECK_U64(carried, 8);
	WR_CHECK(wr_frame_build(&s, buf, sizeof(buf), &lay) == 0);
	for (n = 0; n < 14; n++)
		WR_CHECK(!wr_stack_may_carry(buf, n));
}

static void
test_may_carry(void)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(stacks); i++)
		check_may_carry(stacks[i]);
}

/* What a DUT leaves: inner frame after decap, a popped tag, odd headers. */
static void
test_dut_did(void)
{
	struct wr_frame_spec s;
	struct wr_frame_layout lay;
	struct wr_stack_found f;
	struct wr_stack st;
	uint32_t n;

	parse_ok("eth/ipv4/udp/vxlan/eth/vlan(id=5)/ipv4/udp", &st);
	spec_default(&s, 200, &st);
	WR_CHECK(wr_frame_build(&s, buf, sizeof(buf), &lay) == 0);
	n = lay.data_len;
	/* Decapsulated: the inner tagged frame alone. */
	WR_CHECK_U64(wr_stack_find(buf + 50, n - 50, WR_FRAME_MAGIC, WR_FRAME_TH_LEN, &f), 1);
	WR_CHECK_U64(f.th_off, lay.th_off - 50);
	/* Tag popped: the inner frame's addresses, then its IP header. */
	memmove(buf + 62, buf + 66, n - 66);
	WR_CHECK_U64(wr_stack_find(buf + 50, n - 54, WR_FRAME_MAGIC, WR_FRAME_TH_LEN, &f), 1);
	/* Padding after the frame (an Ethernet minimum) is allowed. */
	WR_CHECK_U64(wr_stack_find(buf + 50, n - 50, WR_FRAME_MAGIC, WR_FRAME_TH_LEN, &f), 1);
	/* The UDP length disagreeing with its IP header: malformed. */
	buf[50 + 14 + 20 + 5] ^= 1;
	WR_CHECK_U64(wr_stack_find(buf + 50, n - 54, WR_FRAME_MAGIC, WR_FRAME_TH_LEN, &f), 2);
	buf[50 + 14 + 20 + 5] ^= 1;
	/* A fragment is foreign: its payload is not all there. */
	buf[50 + 14 + 6] |= 0x20;
	WR_CHECK_U64(wr_stack_find(buf + 50, n - 54, WR_FRAME_MAGIC, WR_FRAME_TH_LEN, &f), 0);
	buf[50 + 14 + 6] &= (uint8_t)~0x20;
	/* Another magic: foreign. */
	WR_CHECK_U64(wr_stack_find(buf + 50, n - 54, 0x12345678, WR_FRAME_TH_LEN, &f), 0);
}

/* A classic pcap at path: a 60-byte frame of zeros, then len bytes at p. */
static void
write_pcap(const char *path, const uint8_t *p, uint32_t len)
{
	const uint32_t hdr[6] = { 0xa1b2c3d4, 2 | 4u << 16, 0, 0, 65535, 1 };
	const uint32_t rec0[4] = { 1, 0, 60, 60 }, rec1[4] = { 2, 0, len, len };
	static const uint8_t zeros[60];
	FILE *f = fopen(path, "wb");

	WR_CHECK(f != NULL);
	if (f == NULL)
		return;
	fwrite(hdr, sizeof(hdr), 1, f);
	fwrite(rec0, sizeof(rec0), 1, f);
	fwrite(zeros, sizeof(zeros), 1, f);
	fwrite(rec1, sizeof(rec1), 1, f);
	fwrite(p, len, 1, f);
	fclose(f);
}

/* text's frame as a template: its layers found, the same bytes built. */
static void
check_template(const char *text, const char *path)
{
	static uint8_t again[9018];
	struct wr_frame_layout lay, lay2;
	struct wr_stack st, tp;
	struct wr_frame_spec s;
	char arg[128];
	unsigned int i;

	parse_ok(text, &st);
	spec_default(&s, 1518, &st);
	WR_CHECK(wr_frame_build(&s, buf, sizeof(buf), &lay) == 0);
	write_pcap(path, buf, lay.data_len);
	snprintf(arg, sizeof(arg), "template=%s:2", path);
	parse_ok(arg, &tp);
	WR_CHECK_U64(tp.nb_layers, st.nb_layers);
	for (i = 0; i < st.nb_layers && i < tp.nb_layers; i++)
		WR_CHECK_U64(tp.l[i].kind, st.l[i].kind);
	WR_CHECK_U64(wr_stack_hdr_len(&tp), wr_stack_hdr_len(&st));
	WR_CHECK_U64(wr_stack_inner_ipv6(&tp), wr_stack_inner_ipv6(&st));
	/* At another size: every length and checksum the spec's. */
	s.size = 301;
	WR_CHECK(wr_frame_build(&s, buf, sizeof(buf), &lay) == 0);
	s.stack = &tp;
	WR_CHECK(wr_frame_build(&s, again, sizeof(again), &lay2) == 0);
	WR_CHECK(memcmp(buf, again, lay.data_len) == 0);
	WR_CHECK_U64(lay2.th_off, lay.th_off);
	WR_CHECK_U64(lay2.udp_ck_off, lay.udp_ck_off);
	WR_CHECK_U64(lay2.udp_ck_live, lay.udp_ck_live);
}

static void
test_template(void)
{
	char path[] = "/tmp/wr_test_stack_XXXXXX";
	struct wr_stack st;
	struct wr_error e;
	unsigned int i;
	int fd = mkstemp(path);
	char arg[128];

	WR_CHECK(fd >= 0);
	close(fd);
	for (i = 0; i < RTE_DIM(stacks); i++)
		check_template(stacks[i], path);
	snprintf(arg, sizeof(arg), "template=%s:1", path);
	wr_err_clear(&e);
	WR_CHECK(wr_stack_parse(arg, &st, &e) == -EINVAL);
	WR_CHECK_STR(e.msg, "frame 1: no UDP payload");
	snprintf(arg, sizeof(arg), "template=%s:3", path);
	wr_err_clear(&e);
	WR_CHECK(wr_stack_parse(arg, &st, &e) == -EINVAL);
	WR_CHECK_STR(e.msg, "frame 3: the file holds 2 frames");
	unlink(path);
	wr_err_clear(&e);
	WR_CHECK(wr_stack_parse("template=", &st, &e) == -EINVAL);
	WR_CHECK_STR(e.msg, "expected FILE[:N]");
}

/* UDP layers in a spec's text. */
static unsigned int
count_udp(const char *text)
{
	unsigned int n = 0;

	for (; (text = strstr(text, "udp")) != NULL; text += 3)
		n++;
	return n;
}

/*
 * wr_stack_first_udp (--replay-stamp): the outermost UDP of every stack,
 * its payload to the frame's end; none in a truncated frame, a TCP one
 * or one whose UDP length disagrees with its IP payload.
 */
static void
test_first_udp(void)
{
	struct wr_frame_spec s;
	struct wr_frame_layout lay;
	struct wr_stack_udp u;
	struct wr_stack st;
	unsigned int i, bad = 0;
	uint32_t n;

	for (i = 0; i < RTE_DIM(stacks); i++) {
		parse_ok(stacks[i], &st);
		spec_default(&s, 300, &st);
		WR_CHECK(wr_frame_build(&s, buf, sizeof(buf), &lay) == 0);
		WR_CHECK_U64(wr_stack_first_udp(buf, lay.data_len, &u), 1);
		WR_CHECK_U64(u.payload_len, lay.data_len - u.udp_off - 8);
		WR_CHECK_U64(u.udp_off == lay.th_off - 8, count_udp(stacks[i]) == 1);
		WR_CHECK_U64(u.ipv6, (buf[u.ip_off] >> 4) == 6);
		for (n = 0; n < lay.data_len; n++)
			bad += wr_stack_first_udp(buf, n, &u) != 0;
	}
	WR_CHECK_U64(bad, 0);
	parse_ok("eth/ipv4/udp", &st);
	spec_default(&s, 100, &st);
	WR_CHECK(wr_frame_build(&s, buf, sizeof(buf), &lay) == 0);
	WR_CHECK_U64(wr_stack_first_udp(buf, lay.data_len + 20, &u), 1);  /* padding */
	buf[14 + 20 + 5] ^= 1;
	WR_CHECK_U64(wr_stack_first_udp(buf, lay.data_len, &u), 0);
	buf[14 + 20 + 5] ^= 1;
	buf[14 + 9] = 6;   /* TCP */
	WR_CHECK_U64(wr_stack_first_udp(buf, lay.data_len, &u), 0);
}

int
main(void)
{
	WR_TEST_RUN(test_parse_errors);
	WR_TEST_RUN(test_build);
	WR_TEST_RUN(test_bytes);
	WR_TEST_RUN(test_stamped);
	WR_TEST_RUN(test_truncated);
	WR_TEST_RUN(test_dut_did);
	WR_TEST_RUN(test_may_carry);
	WR_TEST_RUN(test_template);
	WR_TEST_RUN(test_first_udp);
	return wr_test_summary();
}
