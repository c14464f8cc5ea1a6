/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RFC 2889 meshed forwarding (--mode mesh), pure parts: the pairs of each
 * pattern, the refusal of too few or too many ports, each pair's loss
 * and the verdict, a port's sums and forwarding rate, the verdicts of
 * congestion control (5.5), the mesh frame
 * byte for byte (its pair) and the point compare and report read from
 * the result's object.
 */
#include <errno.h>
#include <string.h>

#include "methods/rfc2889_frame.h"
#include "results/meshjson.h"
#include "results/rfc2889mesh.h"
#include "wr_test.h"

static struct wr_error err;

static void
test_plans(void)
{
	static struct wr_mesh_plan p;
	unsigned int s, d, n;

	WR_CHECK_U64(wr_mesh_plan_make(&p, WR_MESH_FULL, 4, &err), 0);
	for (s = 0, n = 0; s < 4; s++)
		for (d = 0; d < 4; d++)
			n += wr_mesh_pair(&p, s, d);
	WR_CHECK_U64(n, 12);
	WR_CHECK(!wr_mesh_pair(&p, 2, 2) && wr_mesh_pair(&p, 3, 0));
	WR_CHECK_U64(p.nb_dst[1], 3);
	WR_CHECK_U64(wr_mesh_plan_make(&p, WR_MESH_ONE_TO_MANY, 4, &err), 0);
	WR_CHECK(p.nb_dst[0] == 3 && p.nb_dst[1] == 0 && p.nb_dst[3] == 0);
	WR_CHECK(wr_mesh_pair(&p, 0, 3) && !wr_mesh_pair(&p, 3, 0));
	WR_CHECK_U64(wr_mesh_plan_make(&p, WR_MESH_MANY_TO_ONE, 16, &err), 0);
	WR_CHECK(p.nb_dst[0] == 0 && p.nb_dst[15] == 1 && p.dst[15][0] == 0);
	WR_CHECK_U64(wr_mesh_plan_make(&p, WR_MESH_FULL, 2, &err), 0);
	WR_CHECK(wr_mesh_pair(&p, 0, 1) && wr_mesh_pair(&p, 1, 0));
	WR_CHECK(wr_mesh_plan_make(&p, WR_MESH_FULL, 1, &err) == -EINVAL);
	WR_CHECK_STR(err.msg, "--mode mesh: 1 ports; a meshed trial needs 2 to 16");
	WR_CHECK(wr_mesh_plan_make(&p, WR_MESH_FULL, 17, &err) == -EINVAL);
	WR_CHECK_STR(wr_mesh_pattern_name(WR_MESH_MANY_TO_ONE), "many-to-one");
	WR_CHECK_U64(wr_mesh_plan_make(&p, WR_MESH_CONGESTION, 4, &err), 0);
	WR_CHECK(p.nb_dst[0] == 2 && p.dst[0][0] == 2 && p.dst[0][1] == 3 &&
		p.nb_dst[1] == 1 && p.dst[1][0] == 2 && p.nb_dst[2] == 0 && p.nb_dst[3] == 0);
	WR_CHECK(wr_mesh_plan_make(&p, WR_MESH_CONGESTION, 5, &err) == -EINVAL);
	WR_CHECK_STR(err.msg, "--mesh-pattern congestion: 5 ports; it needs 4");
}

static void
test_counts(void)
{
	static struct wr_mesh_plan p;
	static struct wr_mesh_counts c;
	struct wr_mesh_port_sum sum;

	WR_CHECK_U64(wr_mesh_plan_make(&p, WR_MESH_FULL, 3, &err), 0);
	memset(&c, 0, sizeof(c));
	WR_CHECK(!wr_mesh_pass(&p, &c));	/* nothing sent: no pass */
	c.sent[0][1] = c.sent[0][2] = c.sent[1][0] = c.sent[1][2] = 100;
	c.sent[2][0] = c.sent[2][1] = 100;
	c.rx[0][1] = c.rx[0][2] = c.rx[1][0] = c.rx[1][2] = 100;
	c.rx[2][0] = 100;
	c.rx[2][1] = 97;
	c.stray[2][1] = 5;	/* flooded to port 0: not a receipt */
	WR_CHECK_U64(wr_mesh_lost(&c, 2, 1), 3);
	WR_CHECK(!wr_mesh_pass(&p, &c));
	wr_mesh_port_sum(&p, &c, 1, 2.0, &sum);
	WR_CHECK_U64(sum.sent_pkts, 200);
	WR_CHECK_U64(sum.lost_pkts, 0);
	WR_CHECK_U64(sum.rx_pkts, 197);
	WR_CHECK_U64(sum.stray_pkts, 5);
	WR_CHECK(sum.fwd_pps > 98.49 && sum.fwd_pps < 98.51);
	wr_mesh_port_sum(&p, &c, 2, 2.0, &sum);
	WR_CHECK_U64(sum.lost_pkts, 3);
	c.rx[2][1] = 101;	/* a duplicate: no loss, never below 0 */
	WR_CHECK_U64(wr_mesh_lost(&c, 2, 1), 0);
	WR_CHECK(wr_mesh_pass(&p, &c));
}

/* 5.5: the uncongested flow's loss is head-of-line blocking; no loss on
 * the congested port with refused transmits is back pressure. */
static void
test_congestion(void)
{
	static struct wr_mesh_counts c;
	struct wr_mesh_congestion g;

	memset(&c, 0, sizeof(c));
	c.sent[0][2] = c.sent[0][3] = 1000;
	c.sent[1][2] = 2000;
	c.rx[0][2] = 700;
	c.rx[1][2] = 1400;
	c.rx[0][3] = 1000;
	wr_mesh_congestion(&c, &g);
	WR_CHECK_U64(g.congested_lost_pkts, 900);
	WR_CHECK(!g.hol_blocking && !g.back_pressure);
	c.rx[0][3] = 990;
	wr_mesh_congestion(&c, &g);
	WR_CHECK(g.hol_blocking && g.uncongested_lost_pkts == 10);
	c.rx[0][2] = 1000;
	c.rx[1][2] = 2000;
	c.tx_refused[1] = 5;
	wr_mesh_congestion(&c, &g);
	WR_CHECK(g.back_pressure && g.refused_pkts == 5);
	c.tx_refused[1] = 0;	/* no loss, nobody held back: not shown */
	wr_mesh_congestion(&c, &g);
	WR_CHECK(!g.back_pressure);
}

static void
test_frame(void)
{
	static const uint8_t dst[6] = { 2, 0, 0, 0, 0x0a, 4 };
	static const uint8_t src[6] = { 2, 0, 0, 0, 0x0a, 2 };
	struct wr_r2889_tag t = { .kind = WR_R2889_MESH, .trial = 7,
		.idx = 0x010203, .src_port = 1, .dst_port = 3 }, u;
	uint8_t f[WR_R2889_FRAME_LEN];

	wr_r2889_frame(f, dst, src, &t);
	WR_CHECK(f[19] == 3 && f[26] == 1 && f[27] == 3 && f[25] == 3);
	WR_CHECK(wr_r2889_parse(f, sizeof(f), &u));
	WR_CHECK(u.kind == WR_R2889_MESH && u.trial == 7 && u.idx == 0x010203 &&
		u.src_port == 1 && u.dst_port == 3);
	WR_CHECK(!wr_r2889_parse(f, 27, &u));
	t.tsc = UINT64_C(0x0102030405060708);
	wr_r2889_frame(f, dst, src, &t);
	WR_CHECK(wr_r2889_parse(f, sizeof(f), &u) && u.tsc == t.tsc);
}

/* 5.10: port 0 to every other; a frame is sent once, lost per receiver. */
static void
test_broadcast(void)
{
	static struct wr_mesh_counts c;
	struct wr_mesh_port_sum sum;
	struct wr_mesh_plan p;

	WR_CHECK(wr_mesh_plan_make(&p, WR_MESH_BROADCAST, 4, &err) == 0);
	WR_CHECK(p.bcast && p.nb_dst[0] == 3 && p.nb_dst[1] == 0 &&
		wr_mesh_pair(&p, 0, 3) && !wr_mesh_pair(&p, 1, 0));
	WR_CHECK(strcmp(wr_mesh_pattern_name(WR_MESH_BROADCAST), "broadcast") == 0);
	wr_mesh_counts_init(&c);
	WR_CHECK(c.lat[3].nb == 0 && c.lat[3].min == UINT64_MAX);
	c.sent[0][1] = c.sent[0][2] = c.sent[0][3] = 100;
	c.rx[0][1] = c.rx[0][3] = 100;
	c.rx[0][2] = 90;
	wr_mesh_port_sum(&p, &c, 0, 1.0, &sum);
	WR_CHECK(sum.sent_pkts == 100 && sum.lost_pkts == 10);
	wr_mesh_port_sum(&p, &c, 2, 1.0, &sum);
	WR_CHECK(sum.rx_pkts == 90 && sum.sent_pkts == 0);
	WR_CHECK(!wr_mesh_pass(&p, &c));
	c.rx[0][2] = 100;
	WR_CHECK(wr_mesh_pass(&p, &c));
}

static void
test_points(void)
{
	static struct wr_points pts;
	json_t *doc = json_pack("{s:s, s:{s:s, s:{s:b, s:f, s:f}}}", "mode", "mesh",
		"rfc2889", "pattern", "full", "result", "search", 1,
		"throughput_pps", 689.0, "forwarding_rate_pps", 2066.5);

	memset(&pts, 0, sizeof(pts));
	for (pts.kind = wr_kinds; strcmp(pts.kind->name, "mesh") != 0; pts.kind++)
		;
	WR_CHECK_U64(wr_mesh_points(doc, &pts, &err), 0);
	WR_CHECK_U64(pts.nb, 1);
	WR_CHECK(pts.p[0].m.have[WR_METRIC_MESH_TPUT_PPS] &&
		pts.p[0].m.v[WR_METRIC_MESH_TPUT_PPS] == 689.0);
	WR_CHECK(pts.p[0].m.v[WR_METRIC_MESH_FWD_PPS] == 2066.5);
	json_object_del(json_object_get(doc, "rfc2889"), "result");
	WR_CHECK(wr_mesh_points(doc, &pts, &err) == -EINVAL);
	WR_CHECK_STR(err.msg, "field 'rfc2889.result' is missing");
	json_decref(doc);
}

int
main(void)
{
	WR_TEST_RUN(test_plans);
	WR_TEST_RUN(test_counts);
	WR_TEST_RUN(test_congestion);
	WR_TEST_RUN(test_frame);
	WR_TEST_RUN(test_broadcast);
	WR_TEST_RUN(test_points);
	return wr_test_summary();
}
