/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for clocksync.c: the daemons' answers as captured from real
 * daemons on this project's test machine (linuxptp 3.1.1 ptp4l -S over a
 * veth between two namespaces, chrony 4.3 chronyd -x; Debian 12), then
 * cut to show what is wrong with them.
 */
#include <errno.h>
#include <string.h>

#include "measure/clocksync.h"
#include "wr_test.h"

/* pmc -u -b 0 -s SOCK of a slave ptp4l whose servo (linreg) locked. */
static const char pmc_slave[] =
	"sending: GET TIME_STATUS_NP\n"
	"sending: GET PORT_DATA_SET\n"
	"sending: GET CURRENT_DATA_SET\n"
	"\ta6c118.fffe.ef1ac5-0 seq 0 RESPONSE MANAGEMENT TIME_STATUS_NP \n"
	"\t\tmaster_offset              1059\n"
	"\t\tingress_time               1796254095315607564\n"
	"\t\tcumulativeScaledRateOffset +0.000000000\n"
	"\t\tscaledLastGmPhaseChange    0\n"
	"\t\tgmTimeBaseIndicator        0\n"
	"\t\tlastGmPhaseChange          0x0000'0000000000000000.0000\n"
	"\t\tgmPresent                  true\n"
	"\t\tgmIdentity                 2a72c8.fffe.8b2876\n"
	"\ta6c118.fffe.ef1ac5-1 seq 1 RESPONSE MANAGEMENT PORT_DATA_SET \n"
	"\t\tportIdentity            a6c118.fffe.ef1ac5-1\n"
	"\t\tportState               SLAVE\n"
	"\t\tlogMinDelayReqInterval  -4\n"
	"\t\tpeerMeanPathDelay       0\n"
	"\t\tlogAnnounceInterval     -3\n"
	"\t\tannounceReceiptTimeout  3\n"
	"\t\tlogSyncInterval         -4\n"
	"\t\tdelayMechanism          1\n"
	"\t\tlogMinPdelayReqInterval 0\n"
	"\t\tversionNumber           2\n"
	"\ta6c118.fffe.ef1ac5-0 seq 2 RESPONSE MANAGEMENT CURRENT_DATA_SET \n"
	"\t\tstepsRemoved     1\n"
	"\t\toffsetFromMaster 1059.0\n"
	"\t\tmeanPathDelay    157.0\n";

/* The same of a slave with free_running 1: it never locks. */
static const char pmc_uncalibrated[] =
	"sending: GET TIME_STATUS_NP\n"
	"sending: GET PORT_DATA_SET\n"
	"\ta6c118.fffe.ef1ac5-0 seq 0 RESPONSE MANAGEMENT TIME_STATUS_NP \n"
	"\t\tmaster_offset              246\n"
	"\t\tingress_time               1796254097443067651\n"
	"\t\tcumulativeScaledRateOffset +0.000000000\n"
	"\t\tscaledLastGmPhaseChange    0\n"
	"\t\tgmTimeBaseIndicator        0\n"
	"\t\tlastGmPhaseChange          0x0000'0000000000000000.0000\n"
	"\t\tgmPresent                  true\n"
	"\t\tgmIdentity                 2a72c8.fffe.8b2876\n"
	"sending: GET CURRENT_DATA_SET\n"
	"\ta6c118.fffe.ef1ac5-1 seq 1 RESPONSE MANAGEMENT PORT_DATA_SET \n"
	"\t\tportIdentity            a6c118.fffe.ef1ac5-1\n"
	"\t\tportState               UNCALIBRATED\n"
	"\t\tlogMinDelayReqInterval  -4\n"
	"\t\tpeerMeanPathDelay       0\n"
	"\t\tlogAnnounceInterval     -3\n"
	"\t\tannounceReceiptTimeout  3\n"
	"\t\tlogSyncInterval         -4\n"
	"\t\tdelayMechanism          1\n"
	"\t\tlogMinPdelayReqInterval 0\n"
	"\t\tversionNumber           2\n"
	"\ta6c118.fffe.ef1ac5-0 seq 2 RESPONSE MANAGEMENT CURRENT_DATA_SET \n"
	"\t\tstepsRemoved     1\n"
	"\t\toffsetFromMaster 246.0\n"
	"\t\tmeanPathDelay    486.0\n";

/* The grandmaster's own ptp4l. */
static const char pmc_master[] =
	"sending: GET TIME_STATUS_NP\n"
	"sending: GET PORT_DATA_SET\n"
	"sending: GET CURRENT_DATA_SET\n"
	"\t2a72c8.fffe.8b2876-0 seq 0 RESPONSE MANAGEMENT TIME_STATUS_NP \n"
	"\t\tmaster_offset              0\n"
	"\t\tingress_time               0\n"
	"\t\tcumulativeScaledRateOffset +0.000000000\n"
	"\t\tscaledLastGmPhaseChange    0\n"
	"\t\tgmTimeBaseIndicator        0\n"
	"\t\tlastGmPhaseChange          0x0000'0000000000000000.0000\n"
	"\t\tgmPresent                  false\n"
	"\t\tgmIdentity                 2a72c8.fffe.8b2876\n"
	"\t2a72c8.fffe.8b2876-1 seq 1 RESPONSE MANAGEMENT PORT_DATA_SET \n"
	"\t\tportIdentity            2a72c8.fffe.8b2876-1\n"
	"\t\tportState               MASTER\n"
	"\t\tlogMinDelayReqInterval  -4\n"
	"\t\tpeerMeanPathDelay       0\n"
	"\t\tlogAnnounceInterval     -3\n"
	"\t\tannounceReceiptTimeout  3\n"
	"\t\tlogSyncInterval         -4\n"
	"\t\tdelayMechanism          1\n"
	"\t\tlogMinPdelayReqInterval 0\n"
	"\t\tversionNumber           2\n"
	"\t2a72c8.fffe.8b2876-0 seq 2 RESPONSE MANAGEMENT CURRENT_DATA_SET \n"
	"\t\tstepsRemoved     0\n"
	"\t\toffsetFromMaster 0.0\n"
	"\t\tmeanPathDelay    0.0\n";

/* chronyc -c tracking of a client synchronised to a server on a veth. */
static const char chrony_synced[] =
	"0AE70501,10.231.5.1,9,1796254125.028667023,-0.000001048,-0.000000031,0.000000037,0.041,-0.002,0.073,0.000002111,0.000000865,0.1,Normal\n";

/* Of a client whose server does not answer. */
static const char chrony_unsynced[] =
	"00000000,,0,0.000000000,0.000000000,0.000000000,0.000000000,0.000,0.000,0.000,1.000000000,1.000000000,0.0,Not synchronised\n";

/* Of the server (local stratum 8): the reference itself. */
static const char chrony_local[] =
	"7F7F0101,,8,1796254114.454098146,0.000000000,0.000000000,0.000000000,0.000,0.000,0.000,0.000000000,0.000000000,0.0,Normal\n";

static void
test_ptp_slave(void)
{
	struct wr_clocksync cs;

	WR_CHECK(wr_clocksync_parse_pmc(pmc_slave, &cs) == 0);
	WR_CHECK(cs.source == WR_CLOCKSYNC_PTP);
	WR_CHECK(cs.synced);
	WR_CHECK_NEAR(cs.offset_ns, 1059, 0);
	WR_CHECK_NEAR(cs.delay_ns, 157, 0);
	/* |offsetFromMaster| + meanPathDelay */
	WR_CHECK_NEAR(cs.bound_ns, 1216, 0);
	WR_CHECK_STR(cs.detail, "port SLAVE of grandmaster 2a72c8.fffe.8b2876");
	WR_CHECK(strcmp(cs.reference, "2a72c8.fffe.8b2876") == 0);
	WR_CHECK(cs.reason[0] == '\0');
}

static void
test_ptp_unlocked(void)
{
	struct wr_clocksync cs;

	WR_CHECK(wr_clocksync_parse_pmc(pmc_uncalibrated, &cs) == 0);
	WR_CHECK(cs.source == WR_CLOCKSYNC_PTP);
	WR_CHECK(!cs.synced);
	WR_CHECK_STR(cs.reason, "port state UNCALIBRATED");
	WR_CHECK_NEAR(cs.bound_ns, 0, 0);
}

static void
test_ptp_master(void)
{
	struct wr_clocksync cs;
	char present[sizeof(pmc_master)], *p;

	WR_CHECK(wr_clocksync_parse_pmc(pmc_master, &cs) == 0);
	WR_CHECK(cs.synced);
	WR_CHECK_NEAR(cs.bound_ns, 0, 0);
	WR_CHECK_STR(cs.detail, "this host is the grandmaster");
	/* Its own identity: a far end with another grandmaster is not in sync. */
	WR_CHECK(strcmp(cs.reference, "2a72c8.fffe.8b2876") == 0);
	/* A MASTER port while another grandmaster is present: not ours. */
	memcpy(present, pmc_master, sizeof(present));
	p = strstr(present, "gmPresent                  false");
	WR_CHECK(p != NULL);
	if (p != NULL)
		memcpy(p + strlen("gmPresent                  "), "true ", 5);
	WR_CHECK(wr_clocksync_parse_pmc(present, &cs) == 0);
	WR_CHECK(!cs.synced);
	WR_CHECK_STR(cs.reason, "a grandmaster is present");
}

static void
test_ptp_no_answer(void)
{
	struct wr_clocksync cs;
	char cut[sizeof(pmc_slave)], *p;

	/* pmc with no ptp4l at its socket prints only what it sent. */
	WR_CHECK(wr_clocksync_parse_pmc("sending: GET TIME_STATUS_NP\n", &cs) == -EINVAL);
	WR_CHECK(!cs.synced);
	WR_CHECK_STR(cs.reason, "no answer from ptp4l");
	/* SLAVE, but CURRENT_DATA_SET did not come: no bound, not synced. */
	memcpy(cut, pmc_slave, sizeof(cut));
	p = strstr(cut, "\ta6c118.fffe.ef1ac5-0 seq 2");
	WR_CHECK(p != NULL);
	if (p != NULL)
		*p = '\0';
	WR_CHECK(wr_clocksync_parse_pmc(cut, &cs) == 0);
	WR_CHECK(!cs.synced);
	WR_CHECK_STR(cs.reason, "no CURRENT_DATA_SET");
	/* Hardware timestamping: the PHC is disciplined, phc2sys is not read. */
	WR_CHECK(wr_clocksync_parse_pmc("\t\tportState SLAVE\n\t\ttimestamping HARDWARE\n",
		&cs) == 0);
	WR_CHECK(!cs.synced);
	WR_CHECK_STR(cs.reason, "phc2sys");
}

static void
test_chrony(void)
{
	struct wr_clocksync cs;

	WR_CHECK(wr_clocksync_parse_chrony(chrony_synced, &cs) == 0);
	WR_CHECK(cs.source == WR_CLOCKSYNC_CHRONY);
	WR_CHECK(cs.synced);
	WR_CHECK_NEAR(cs.offset_ns, -1048, 1e-6);
	/* chronyc(1): |offset| + root delay / 2 + root dispersion */
	WR_CHECK_NEAR(cs.bound_ns, 1048 + 2111 / 2.0 + 865, 1e-6);
	WR_CHECK_STR(cs.detail, "leap status Normal, reference 0AE70501 10.231.5.1, stratum 9");
	WR_CHECK(wr_clocksync_parse_chrony(chrony_local, &cs) == 0);
	WR_CHECK(cs.synced);
	WR_CHECK_NEAR(cs.bound_ns, 0, 0);
	WR_CHECK(wr_clocksync_parse_chrony(chrony_unsynced, &cs) == 0);
	WR_CHECK(!cs.synced);
	WR_CHECK_STR(cs.reason, "leap status Not synchronised");
}

static void
test_chrony_bad(void)
{
	struct wr_clocksync cs;

	WR_CHECK(wr_clocksync_parse_chrony("", &cs) == -EINVAL);
	WR_CHECK(!cs.synced);
	WR_CHECK_STR(cs.reason, "not the 14 fields");
	/* The human-readable form (chronyc tracking without -c). */
	WR_CHECK(wr_clocksync_parse_chrony("Reference ID    : 0AE70501 (10.231.5.1)\n",
		&cs) == -EINVAL);
	WR_CHECK(wr_clocksync_parse_chrony("0AE70501,x,9,1.0,fast,0,0,0,0,0,0,0,0,Normal\n",
		&cs) == -EINVAL);
	WR_CHECK(!cs.synced);
	WR_CHECK(strcmp(wr_clocksync_source_name(WR_CLOCKSYNC_NONE), "none") == 0);
}

int
main(void)
{
	WR_TEST_RUN(test_ptp_slave);
	WR_TEST_RUN(test_ptp_unlocked);
	WR_TEST_RUN(test_ptp_master);
	WR_TEST_RUN(test_ptp_no_answer);
	WR_TEST_RUN(test_chrony);
	WR_TEST_RUN(test_chrony_bad);
	return wr_test_summary();
}
