/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * IPv6 frames and size mixes on the TX side: templates, the per-frame
 * field table and the incremental UDP checksum against a full recompute;
 * the options that ask for them.
 */
#include <errno.h>
#include <stdlib.h>

#include <rte_ip.h>

#include "base/frame.h"
#include "datapath/txvar.h"
#include "wr_test.h"
#include "wr_test_opts.h"

static uint8_t buf[WR_FRAME_MAX_SIZE];

static void
spec6(struct wr_frame_spec *s, uint32_t size, uint16_t vlan)
{
	static const uint8_t src[16] = { 0x20, 0x01, 0, 2, [15] = 1 };
	static const uint8_t dst[16] = { 0x20, 0x01, 0, 2, 0, 0, 0, 1, [15] = 1 };

	memset(s, 0, sizeof(*s));
	s->size = size;
	s->vlan_id = vlan;
	s->src_ip = 0xc6120001;
	s->dst_ip = 0xc6130001;
	s->src_udp = 1024;
	s->dst_udp = 1024;
	s->stream_id = 3;
	s->ipv6 = true;
	memcpy(s->src_ip6, src, 16);
	memcpy(s->dst_ip6, dst, 16);
}

/* The UDP checksum the frame at data carries verifies (sums to 0xffff). */
static int
udp6_ok(const uint8_t *data, uint32_t l2)
{
	const struct rte_ipv6_hdr *ip = (const struct rte_ipv6_hdr *)(data + l2);

	return rte_ipv6_udptcp_cksum_verify(ip, ip + 1) == 0;
}

static void
test_min_sizes(void)
{
	struct wr_frame_spec s;
	struct wr_frame_layout lay;
	struct wr_frame_rx fr;

	WR_CHECK_U64(wr_frame_min_size_l3(false, true), 84);
	WR_CHECK_U64(wr_frame_min_size_l3(true, true), 88);
	WR_CHECK_U64(wr_frame_min_size_l3(false, false), 64);
	spec6(&s, 83, 0);
	WR_CHECK(wr_frame_build(&s, buf, sizeof(buf), &lay) == -EINVAL);
	spec6(&s, 84, 0);
	WR_CHECK(wr_frame_build(&s, buf, sizeof(buf), &lay) == 0);
	WR_CHECK(udp6_ok(buf, 14));
	WR_CHECK_U64(lay.th_off, 62);
	WR_CHECK_U64(lay.udp_sport_off, 54);
	WR_CHECK(wr_frame_classify(buf, lay.data_len, &fr) == WR_FRAME_OWN);
	WR_CHECK_U64(fr.stream_id, 3);
	/* A cut frame: signature, wrong length. */
	WR_CHECK(wr_frame_classify(buf, lay.data_len - 1, &fr) == WR_FRAME_MALFORMED);
	spec6(&s, 87, 7);
	WR_CHECK(wr_frame_build(&s, buf, sizeof(buf), &lay) == -EINVAL);
	spec6(&s, 88, 7);
	WR_CHECK(wr_frame_build(&s, buf, sizeof(buf), &lay) == 0);
	WR_CHECK(udp6_ok(buf, 18));
	WR_CHECK(wr_frame_classify(buf, lay.data_len, &fr) == WR_FRAME_OWN);
}

/*
 * Stamp random seq, timestamp and source port as TX does, update the
 * checksum incrementally and check it against the full one, for every size
 * of an odd mix, tagged and not.
 */
static void
check_incremental(uint16_t vlan)
{
	struct wr_frame_spec s;
	struct wr_frame_layout lay;
	struct wr_txvar v;
	struct wr_mix mix;
	uint64_t st = 42 + vlan;
	bool needed;
	unsigned int k, bad = 0;
	uint32_t l2 = vlan ? 18 : 14;

	WR_CHECK(wr_mix_parse("88:5,89:3,1517:1,9018:1", 64, 9018, &mix, &err) == 0);
	spec6(&s, 9018, vlan);
	WR_CHECK(wr_frame_build(&s, buf, sizeof(buf), &lay) == 0);
	WR_CHECK(wr_txvar_build(&mix, &s, &lay, &v, &needed) == 0);
	WR_CHECK(needed && v.mix && v.csum6);
	for (k = 0; k < 4000; k++) {
		struct wr_test_hdr *th = (struct wr_test_hdr *)(buf + v.th_off);
		uint16_t len = wr_txvar_size_frame(&v, buf, k % v.seq_len), base, sp;

		WR_CHECK_U64(len, mix.size[mix.seq[k % v.seq_len]] - 4);
		th->seq = k < 8 ? (uint64_t)0 - k : wr_test_prng(&st);
		th->tsc_lo = (uint32_t)wr_test_prng(&st);
		sp = rte_cpu_to_be_16((uint16_t)(1024 + k % 300));
		memcpy(buf + v.sport_off, &sp, 2);
		memcpy(&base, buf + v.udp_ck_off, 2);
		wr_txvar_csum6_sport(&v, buf, base, sp);
		bad += !udp6_ok(buf, l2);
		/* A refused frame restamped later must stay valid too. */
		wr_txvar_restamp6(&v, buf, (uint32_t)wr_test_prng(&st));
		bad += !udp6_ok(buf, l2);
	}
	WR_CHECK_U64(bad, 0);
}

static void
test_incremental(void)
{
	check_incremental(0);
	check_incremental(100);
}

/*
 * The stepped checksum of a fixed size (wr_txvar_ck6_next) against the
 * folded one per frame, across the state's wrap at 0xffff and seq's
 * carry into its upper 32 bits, up to the last seq, and on a real frame:
 * its checksum verifies.
 */
static void
test_stepped(void)
{
	static const uint64_t start[] = { 0, (1ull << 32) - 70000,
		UINT64_MAX - 140000 };
	struct wr_frame_spec s;
	struct wr_frame_layout lay;
	struct wr_txvar v;
	struct wr_mix none = { 0 };
	uint64_t burst_sum, seq, n, bad = 0;
	bool needed;
	unsigned int k;

	spec6(&s, 84, 0);
	WR_CHECK(wr_frame_build(&s, buf, sizeof(buf), &lay) == 0);
	WR_CHECK(wr_txvar_build(&none, &s, &lay, &v, &needed) == 0);
	WR_CHECK(needed && !v.mix && v.csum6);
	burst_sum = wr_txvar_csum6_burst(&v, 0x89abcdefu, v.sport_base_be);
	for (k = 0; k < RTE_DIM(start); k++) {
		uint32_t st = wr_txvar_ck6_start(v.ck_base, burst_sum, start[k]);

		for (n = 0, seq = start[k]; n < 140000; n++, seq++) {
			struct wr_test_hdr *th = (struct wr_test_hdr *)(buf + v.th_off);
			uint16_t ck = wr_txvar_ck6_next(&st);

			bad += ck != wr_txvar_csum6_of(v.ck_base, burst_sum, seq);
			if (n % 997 != 0)
				continue;
			th->seq = seq;
			th->tsc_lo = 0x89abcdefu;
			memcpy(buf + v.udp_ck_off, &ck, sizeof(ck));
			bad += !udp6_ok(buf, RTE_ETHER_HDR_LEN);
		}
	}
	WR_CHECK_U64(bad, 0);
}

/* Fixed-size IPv4 needs no table: the plain TX path stays as it was. */
static void
test_plain_path(void)
{
	struct wr_frame_spec s;
	struct wr_frame_layout lay;
	struct wr_txvar v;
	struct wr_mix none = { 0 };
	bool needed = true;

	spec6(&s, 64, 0);
	s.ipv6 = false;
	WR_CHECK(wr_frame_build(&s, buf, sizeof(buf), &lay) == 0);
	WR_CHECK(wr_txvar_build(&none, &s, &lay, &v, &needed) == 0);
	WR_CHECK(!needed);
}

/* An IPv4 mix: the header checksum and lengths come from the table. */
static void
test_ipv4_mix(void)
{
	struct wr_frame_spec s;
	struct wr_frame_layout lay;
	struct wr_txvar v;
	struct wr_mix mix;
	bool needed;
	unsigned int k;

	WR_CHECK(wr_mix_parse("imix", 64, 9018, &mix, &err) == 0);
	spec6(&s, 1518, 0);
	s.ipv6 = false;
	WR_CHECK(wr_frame_build(&s, buf, sizeof(buf), &lay) == 0);
	WR_CHECK(wr_txvar_build(&mix, &s, &lay, &v, &needed) == 0);
	WR_CHECK(needed && !v.csum6);
	for (k = 0; k < mix.seq_len; k++) {
		const struct rte_ipv4_hdr *ip = (const struct rte_ipv4_hdr *)(buf + 14);
		uint16_t len = wr_txvar_size_frame(&v, buf, k);
		struct wr_frame_rx fr;

		WR_CHECK_U64(len + 4u, mix.size[mix.seq[k]]);
		WR_CHECK_U64(rte_be_to_cpu_16(ip->total_length), len - 14u);
		WR_CHECK_U64(rte_ipv4_cksum(ip), 0); /* sums to 0xffff with it */
		WR_CHECK(wr_frame_classify(buf, len, &fr) == WR_FRAME_OWN);
	}
}

static void
test_options(void)
{
	struct wr_config c;

	WR_CHECK_U64(PARSE(&c, "--mix", "imix"), 0);
	WR_CHECK_U64(c.frame_size, 1518);
	WR_CHECK_U64(c.mix.seq_len, 12);
	WR_CHECK_U64(PARSE(&c, "--ipv6", "--size", "84", "--dst-ip6", "2001:db8::9"), 0);
	WR_CHECK(c.ipv6);
	WR_CHECK_U64(c.dst_ip6[15], 9);
	WR_CHECK_U64(c.src_ip6[1], 1);
	WR_CHECK(PARSE(&c, "--ipv6") == -EINVAL);
	WR_CHECK_STR(err.msg, "--size 64: an IPv6 frame needs at least 84 bytes");
	WR_CHECK(PARSE(&c, "--ipv6", "--vlan", "3", "--size", "84") == -EINVAL);
	WR_CHECK_STR(err.msg, "a tagged IPv6 frame needs at least 88 bytes");
	WR_CHECK(PARSE(&c, "--ipv6", "--mix", "imix") == -EINVAL);
	WR_CHECK_STR(err.msg, "--mix imix: frame size 64 is below the 84 bytes an IPv6");
	WR_CHECK(PARSE(&c, "--ipv6", "--mode", "sweep", "--sizes", "84,64") == -EINVAL);
	WR_CHECK_STR(err.msg, "--sizes: 64 is below the 84 bytes");
	WR_CHECK(PARSE(&c, "--mix", "imix", "--size", "128") == -EINVAL);
	WR_CHECK_STR(err.msg, "--size and --mix together");
	WR_CHECK(PARSE(&c, "--mix", "imix", "--mode", "throughput") == -EINVAL);
	WR_CHECK_STR(err.msg, "--mix with --mode");
	WR_CHECK(PARSE(&c, "--mix", "64:7,20000") == -EINVAL);
	WR_CHECK_STR(err.msg, "--mix: mix '64:7,20000': frame size 20000 outside 64..9018");
	WR_CHECK(PARSE(&c, "--src-ip6", "198.18.0.1") == -EINVAL);
	WR_CHECK_STR(err.msg, "--src-ip6 198.18.0.1: not an IPv6 address");
}

int
main(void)
{
	WR_TEST_RUN(test_min_sizes);
	WR_TEST_RUN(test_incremental);
	WR_TEST_RUN(test_stepped);
	WR_TEST_RUN(test_plain_path);
	WR_TEST_RUN(test_ipv4_mix);
	WR_TEST_RUN(test_options);
	return wr_test_summary();
}
