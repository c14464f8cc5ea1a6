/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RFC 2889 5.6 (forward pressure, maximum forwarding rate), pure parts:
 * the legal and the pressure rate of a declared link speed (figures
 * worked by hand from IEEE 802.3's 96-bit gap and 5.6's 88-bit one), a
 * port's MFR over trials at several loads, and the forward pressure
 * verdict on a trial's counts.
 */
#include <math.h>
#include <string.h>

#include "results/rfc2889fwd.h"
#include "wr_test.h"

static struct wr_error err;

static void
test_rates(void)
{
	/* 64-byte frames at 10 Mbit/s: 10e6 / 672 and 10e6 / 664 bits. */
	WR_CHECK(fabs(wr_fwd_rate_pps(10e6, 64, WR_FWD_GAP_BITS) - 14880.952) < 0.01);
	WR_CHECK(fabs(wr_fwd_rate_pps(10e6, 64, WR_FWD_PRESSURE_GAP_BITS) -
		15060.241) < 0.01);
	/* 10 Gbit/s: the 14.88 Mpps everyone quotes. */
	WR_CHECK(fabs(wr_fwd_rate_pps(10e9, 64, 96) - 14880952.38) < 1);
	WR_CHECK(wr_fwd_rate_pps(0, 64, 96) == 0.0);
}

static void
test_mfr(void)
{
	static struct wr_mesh_plan p;
	static struct wr_mesh_counts c;
	struct wr_fwd_max m;

	WR_CHECK_U64(wr_mesh_plan_make(&p, WR_MESH_MANY_TO_ONE, 3, &err), 0);
	wr_fwd_max_init(&m, 3);
	memset(&c, 0, sizeof(c));
	c.sent[1][0] = c.sent[2][0] = 1000;
	c.rx[1][0] = c.rx[2][0] = 1000;		/* 2000 in 1 s at 1000 */
	wr_fwd_max_add(&m, &p, &c, 1.0, 1000);
	c.sent[1][0] = c.sent[2][0] = 3000;
	c.rx[1][0] = c.rx[2][0] = 1200;		/* 2400 in 1 s at 3000 */
	wr_fwd_max_add(&m, &p, &c, 1.0, 3000);
	c.sent[1][0] = c.sent[2][0] = 2000;
	c.rx[1][0] = c.rx[2][0] = 1100;		/* 2200 in 1 s at 2000 */
	wr_fwd_max_add(&m, &p, &c, 1.0, 2000);
	WR_CHECK(fabs(m.mfr_pps[0] - 2400) < 1e-9 && m.at_offered_pps[0] == 3000);
	WR_CHECK(m.mfr_pps[1] == 0 && m.mfr_pps[2] == 0);
}

static void
test_pressure(void)
{
	static struct wr_mesh_plan p;
	static struct wr_mesh_counts c;
	int port;

	WR_CHECK_U64(wr_mesh_plan_make(&p, WR_MESH_UNIDIR, 2, &err), 0);
	memset(&c, 0, sizeof(c));
	c.sent[0][1] = 15060;
	c.rx[0][1] = 14880;
	WR_CHECK(!wr_fwd_pressure(&p, &c, 1.0, 14880.952, &port) && port == -1);
	c.rx[0][1] = 15000;
	WR_CHECK(wr_fwd_pressure(&p, &c, 1.0, 14880.952, &port) && port == 1);
}

/* The trial's record: the two rates of the link, each port, the verdict. */
static void
test_press_trial(void)
{
	static struct wr_mesh_plan p;
	static struct wr_mesh_counts c;
	struct wr_fwd_press f;

	WR_CHECK_U64(wr_mesh_plan_make(&p, WR_MESH_UNIDIR, 2, &err), 0);
	wr_fwd_press_init(&f, 10e6, 64);
	WR_CHECK(fabs(f.offered_pps - 15060.241) < 0.01);
	WR_CHECK(fabs(f.legal_pps - 14880.952) < 0.01);
	WR_CHECK(!f.found && f.port == -1);
	memset(&c, 0, sizeof(c));
	c.sent[0][1] = 15060;
	c.rx[0][1] = 14000;			/* under the legal rate */
	wr_fwd_press_judge(&f, &p, &c, 1.0);
	WR_CHECK(!f.found && f.port == -1 && f.nb_ports == 2);
	WR_CHECK(f.held && f.tx_pps == 15060 && wr_fwd_over_pct(&f) == 0.0);
	wr_fwd_press_judge(&f, &p, &c, 1.02);	/* the sender fell behind */
	WR_CHECK(!f.held && fabs(f.tx_pps - 15060 / 1.02) < 0.01);
	wr_fwd_press_judge(&f, &p, &c, 1.0);
	WR_CHECK(f.fwd_pps[1] == 14000 && f.fwd_pps[0] == 0);
	c.rx[0][1] = 15060;			/* every frame: above it */
	wr_fwd_press_judge(&f, &p, &c, 1.0);
	WR_CHECK(f.found && f.port == 1 && f.fwd_pps[1] == 15060);
	WR_CHECK(fabs(wr_fwd_over_pct(&f) - (15060 / f.legal_pps - 1) * 100) < 1e-9);
}

int
main(void)
{
	WR_TEST_RUN(test_rates);
	WR_TEST_RUN(test_mfr);
	WR_TEST_RUN(test_pressure);
	WR_TEST_RUN(test_press_trial);
	return wr_test_summary();
}
