/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RFC 2889 5.3 (multiple devices) and 5.4 (unidirectional) as --mesh-pattern
 * values: the pairs of each (the first half of the ports to the second;
 * both ways for 5.3), the refusal of an odd number of ports, the pattern's
 * name and section, and the verdict on a trial's counts.
 */
#include <errno.h>
#include <string.h>

#include "results/rfc2889mesh.h"
#include "wr_test.h"

static struct wr_error err;

/* Pairs of p: their count, and whether every one crosses the halves. */
static unsigned int
nb_pairs(const struct wr_mesh_plan *p, bool *crossing)
{
	unsigned int s, d, n = 0, h = p->nb_ports / 2u;

	*crossing = true;
	for (s = 0; s < p->nb_ports; s++)
		for (d = 0; d < p->nb_ports; d++)
			if (wr_mesh_pair(p, s, d)) {
				n++;
				*crossing &= (s < h) != (d < h);
			}
	return n;
}

static void
test_unidir(void)
{
	static struct wr_mesh_plan p;
	bool cross;

	WR_CHECK_U64(wr_mesh_plan_make(&p, WR_MESH_UNIDIR, 4, &err), 0);
	WR_CHECK_U64(nb_pairs(&p, &cross), 4);
	WR_CHECK(cross);
	WR_CHECK(wr_mesh_pair(&p, 0, 2) && wr_mesh_pair(&p, 0, 3) &&
		wr_mesh_pair(&p, 1, 2) && wr_mesh_pair(&p, 1, 3));
	WR_CHECK(!wr_mesh_pair(&p, 2, 0) && !wr_mesh_pair(&p, 0, 1));
	WR_CHECK(p.nb_dst[2] == 0 && p.nb_dst[3] == 0);
	WR_CHECK_U64(wr_mesh_plan_make(&p, WR_MESH_UNIDIR, 16, &err), 0);
	WR_CHECK_U64(nb_pairs(&p, &cross), 64);
	WR_CHECK(cross);
	WR_CHECK_U64(wr_mesh_plan_make(&p, WR_MESH_UNIDIR, 2, &err), 0);
	WR_CHECK(wr_mesh_pair(&p, 0, 1) && !wr_mesh_pair(&p, 1, 0));
	WR_CHECK(wr_mesh_plan_make(&p, WR_MESH_UNIDIR, 5, &err) == -EINVAL);
	WR_CHECK_STR(err.msg, "--mesh-pattern unidirectional: 5 ports; it needs "
		"an even number");
	WR_CHECK_STR(wr_mesh_pattern_name(WR_MESH_UNIDIR), "unidirectional");
	WR_CHECK_STR(wr_mesh_section(WR_MESH_UNIDIR), "5.4");
}

static void
test_multi_device(void)
{
	static struct wr_mesh_plan p;
	bool cross;

	WR_CHECK_U64(wr_mesh_plan_make(&p, WR_MESH_MULTI_DEVICE, 4, &err), 0);
	WR_CHECK_U64(nb_pairs(&p, &cross), 8);
	WR_CHECK(cross);
	WR_CHECK(wr_mesh_pair(&p, 3, 0) && wr_mesh_pair(&p, 0, 3) &&
		!wr_mesh_pair(&p, 2, 3) && !wr_mesh_pair(&p, 0, 1));
	WR_CHECK_U64(wr_mesh_plan_make(&p, WR_MESH_MULTI_DEVICE, 6, &err), 0);
	WR_CHECK_U64(nb_pairs(&p, &cross), 18);
	WR_CHECK(cross && p.nb_dst[4] == 3 && p.dst[4][0] == 0);
	WR_CHECK(wr_mesh_plan_make(&p, WR_MESH_MULTI_DEVICE, 3, &err) == -EINVAL);
	WR_CHECK_STR(err.msg, "--mesh-pattern multi-device: 3 ports");
	WR_CHECK_STR(wr_mesh_pattern_name(WR_MESH_MULTI_DEVICE), "multi-device");
	WR_CHECK_STR(wr_mesh_section(WR_MESH_MULTI_DEVICE), "5.3");
	WR_CHECK_STR(wr_mesh_section(WR_MESH_FULL), "5.1");
	WR_CHECK_STR(wr_mesh_section(WR_MESH_CONGESTION), "5.5");
}

static void
test_verdict(void)
{
	static struct wr_mesh_plan p;
	static struct wr_mesh_counts c;

	WR_CHECK_U64(wr_mesh_plan_make(&p, WR_MESH_UNIDIR, 4, &err), 0);
	memset(&c, 0, sizeof(c));
	c.sent[0][2] = c.rx[0][2] = 10;
	c.sent[0][3] = c.rx[0][3] = 10;
	c.sent[1][2] = c.rx[1][2] = 10;
	WR_CHECK(!wr_mesh_pass(&p, &c));	/* 1 -> 3 sent nothing */
	c.sent[1][3] = 10;
	c.rx[1][3] = 9;
	WR_CHECK(!wr_mesh_pass(&p, &c));
	c.rx[1][3] = 10;
	WR_CHECK(wr_mesh_pass(&p, &c));
}

int
main(void)
{
	WR_TEST_RUN(test_unidir);
	WR_TEST_RUN(test_multi_device);
	WR_TEST_RUN(test_verdict);
	return wr_test_summary();
}
