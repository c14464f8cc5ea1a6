/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests for opts.c (and optjson.c): parsing, defaults and every error message. */
#include <errno.h>
#include <stdlib.h>

#include "config/optab.h"
#include "config/optjson.h"
#include "config/opts.h"
#include "wr_test.h"
#include "wr_test_opts.h"


/* Every option of the table has help, a unique name and id, an argument
 * name exactly when it takes one, lines within 78 columns, and a handler
 * in the parser (no "internal: option N has no handler"). */
static void
test_optab(void)
{
	char buf[1024];
	struct wr_error msg;
	struct wr_config c;
	size_t i, j;

	WR_CHECK(wr_optab_len > 40 && wr_optab_len <= WR_OPTAB_MAX);
	for (i = 0; i < wr_optab_len; i++) {
		const struct wr_optdesc *o = &wr_optab[i];
		const char *line;
		int n = wr_optab_format(o, buf, sizeof(buf));

		if (n <= 0 || o->help == NULL || o->help[0] == '\0')
			fprintf(stderr, "option --%s has no help line\n", o->name);
		WR_CHECK(n > 0 && (size_t)n < sizeof(buf));
		WR_CHECK(strncmp(buf, "  --", 4) == 0 && strstr(buf, o->name) == buf + 4);
		WR_CHECK((o->arg != NULL) == (o->has_arg == required_argument));
		WR_CHECK(o->section < WR_OPTSEC_COUNT);
		WR_CHECK(wr_optab_find(o->name) == o);
		for (line = buf; n > 0 && *line != '\0'; line = strchr(line, '\n') + 1)
			WR_CHECK(strchr(line, '\n') - line <= 78);
		for (j = i + 1; j < wr_optab_len; j++)
			WR_CHECK(strcmp(o->name, wr_optab[j].name) != 0 && o->id != wr_optab[j].id);
		if (o->id == WR_OPT_HELP || o->id == WR_OPT_VERSION || o->id == WR_OPT_PROFILE)
			continue;
		wr_config_defaults(&c);
		wr_err_clear(&msg);
		wr_opts_set(o->name, o->has_arg ? "1" : NULL, &c, &msg);
		WR_CHECK(strstr(msg.msg, "no handler") == NULL);
	}
	WR_CHECK(wr_optab_find("no-such-option") == NULL);
	/* A missing help text is refused, not formatted as an empty line. */
	WR_CHECK(wr_optab_format(&(struct wr_optdesc){ "x", no_argument, 0, NULL, "",
		WR_OPTSEC_RUN }, buf, sizeof(buf)) < 0);
}

static void
test_defaults(void)
{
	struct wr_config c;

	WR_CHECK_U64(PARSE(&c, "--quiet"), WR_OPTS_RUN);
	WR_CHECK_U64(c.frame_size, 64);
	WR_CHECK_U64(c.burst_pkts, 32);
	WR_CHECK_U64(c.duration_ms, 10000);
	WR_CHECK_U64(c.interval_ms, 1000);
	WR_CHECK(!c.tx_ports_set && !c.rx_ports_set);
	WR_CHECK(c.quiet);
}

static void
test_values(void)
{
	struct wr_config c;

	WR_CHECK_U64(PARSE(&c, "--size", "9018", "--burst", "64", "--txq", "2",
		"--duration", "2.5s", "--tx-ports", "0,2-3", "--rx-ports", "none",
		"--src-ip", "10.0.0.1", "--dst-mac", "02:00:00:00:00:09",
		"--flows", "16", "--vlan", "7", "--json", "/tmp/x.json"), 0);
	WR_CHECK_U64(c.frame_size, 9018);
	WR_CHECK_U64(c.burst_pkts, 64);
	WR_CHECK_U64(c.nb_txq, 2);
	WR_CHECK_U64(c.duration_ms, 2500);
	WR_CHECK_U64(c.tx_port_mask, 0xd);
	WR_CHECK(c.rx_ports_set && c.rx_port_mask == 0);
	WR_CHECK_U64(c.src_ip, 0x0a000001);
	WR_CHECK(c.dst_mac_set && c.dst_mac.addr_bytes[5] == 9);
	WR_CHECK_U64(c.nb_flows, 16);
	WR_CHECK_U64(c.vlan_id, 7);
	WR_CHECK_STR(c.json_path, "/tmp/x.json");
}

static void
test_count_means_no_duration(void)
{
	struct wr_config c;

	WR_CHECK_U64(PARSE(&c, "--count", "1M"), 0);
	WR_CHECK_U64(c.count_pkts, 1000000);
	WR_CHECK_U64(c.duration_ms, 0);
	WR_CHECK_U64(PARSE(&c, "--count", "10", "--duration", "3"), 0);
	WR_CHECK_U64(c.duration_ms, 3000);
}

static void
test_help_version(void)
{
	struct wr_config c;

	WR_CHECK_U64(PARSE(&c, "--help"), WR_OPTS_HELP);
	WR_CHECK_U64(PARSE(&c, "--version"), WR_OPTS_VERSION);
}

/* Each bad input fails with a message naming it and what is accepted. */
static void
test_errors(void)
{
	struct wr_config c;

	WR_CHECK(PARSE(&c, "--size", "63") == -EINVAL);
	WR_CHECK_STR(err.msg, "--size 63: out of range, accepted 64 to 9018");
	WR_CHECK(PARSE(&c, "--size", "big") == -EINVAL);
	WR_CHECK_STR(err.msg, "--size big: not a whole number");
	WR_CHECK(PARSE(&c, "--burst", "0") == -EINVAL);
	WR_CHECK_STR(err.msg, "accepted 1 to 512");
	WR_CHECK(PARSE(&c, "--duration", "5parsecs") == -EINVAL);
	WR_CHECK_STR(err.msg, "--duration 5parsecs: not a duration");
	WR_CHECK(PARSE(&c, "--interval", "10ms") == -EINVAL);
	WR_CHECK_STR(err.msg, "at least 100 ms");
	WR_CHECK(PARSE(&c, "--tx-ports", "0,x") == -EINVAL);
	WR_CHECK_STR(err.msg, "expected a port list");
	WR_CHECK(PARSE(&c, "--tx-ports", "40") == -EINVAL);
	WR_CHECK_STR(err.msg, "port ids go up to 31");
	WR_CHECK(PARSE(&c, "--src-ip", "300.1.1.1") == -EINVAL);
	WR_CHECK_STR(err.msg, "not an IPv4 address");
	WR_CHECK(PARSE(&c, "--dst-mac", "zz") == -EINVAL);
	WR_CHECK_STR(err.msg, "not a MAC address");
	WR_CHECK(PARSE(&c, "--bogus") == -EINVAL);
	WR_CHECK_STR(err.msg, "--bogus: unknown option");
	WR_CHECK(PARSE(&c, "--size") == -EINVAL);
	WR_CHECK_STR(err.msg, "--size: needs a value");
	/* A misspelt option: the closest name, swaps counting as one edit. */
	WR_CHECK(PARSE(&c, "--szie", "512") == -EINVAL);
	WR_CHECK_STR(err.msg, "--szie: unknown option; did you mean --size?");
	WR_CHECK(PARSE(&c, "--ring-piars=1") == -EINVAL);
	WR_CHECK_STR(err.msg, "did you mean --ring-pairs?");
	WR_CHECK(PARSE(&c, "--plain=1") == -EINVAL);
	WR_CHECK_STR(err.msg, "--plain=1: takes no value");
	WR_CHECK(PARSE(&c, "--zzzzzz") == -EINVAL);
	WR_CHECK(strstr(err.msg, "did you mean") == NULL);
	WR_CHECK(PARSE(&c, "stray") == -EINVAL);
	WR_CHECK_STR(err.msg, "stray: unexpected argument");
	WR_CHECK(PARSE(&c, "--flows", "100", "--sport", "65500") == -EINVAL);
	WR_CHECK_STR(err.msg, "would pass 65535");
	WR_CHECK(PARSE(&c, "--vlan", "5", "--size", "64") == -EINVAL);
	WR_CHECK_STR(err.msg, "a tagged frame needs at least 68");
	WR_CHECK(PARSE(&c, "--tx-ports", "none", "--rx-ports", "none") == -EINVAL);
	WR_CHECK_STR(err.msg, "nothing to do");
	/* Found by the fuzzer: this run would wait for ever. */
	WR_CHECK(PARSE(&c, "--tx-ports", "none", "--count", "1000") == -EINVAL);
	WR_CHECK_STR(err.msg, "--count with --tx-ports none");
	WR_CHECK(PARSE(&c, "--pool-mbufs", "16") == -EINVAL);
	WR_CHECK_STR(err.msg, "--pool-mbufs 16 is below --burst 32");
	WR_CHECK_U64(PARSE(&c, "--pool-mbufs", "64"), 0);
	WR_CHECK_U64(c.pool_mbufs, 64);
	WR_CHECK(PARSE(&c, "--pool-mbufs", "0") == -EINVAL);
	WR_CHECK(PARSE(&c, "--burst", "512", "--txd", "512") == -EINVAL);
	WR_CHECK_STR(err.msg, "more than half of --txd");
}

static void
test_stamp(void)
{
	struct wr_config c;

	WR_CHECK_U64(PARSE(&c, "--quiet"), 0);
	WR_CHECK(c.stamp == WR_STAMP_FULL);
	WR_CHECK_U64(PARSE(&c, "--stamp", "seq"), 0);
	WR_CHECK(c.stamp == WR_STAMP_SEQ);
	WR_CHECK_U64(PARSE(&c, "--stamp", "none"), 0);
	WR_CHECK(c.stamp == WR_STAMP_NONE);
	WR_CHECK_U64(PARSE(&c, "--stamp", "none", "--stamp", "full"), 0);
	WR_CHECK(c.stamp == WR_STAMP_FULL);
	WR_CHECK(PARSE(&c, "--stamp", "Full") == -EINVAL);
	WR_CHECK_STR(err.msg, "--stamp Full: expected full (sequence and timestamp), "
		"seq (sequence only) or none");
	/* Unknown options: a hint, a near name, or plainly unknown. */
	WR_CHECK(PARSE(&c, "--mtu", "9000") == -EINVAL);
	WR_CHECK_STR(err.msg, "--mtu: unknown option: the port MTU follows --size");
	WR_CHECK(PARSE(&c, "--tcp") == -EINVAL);
	WR_CHECK_STR(err.msg, "--tcp: unknown option: TCP connections are --conn client "
		"or --conn server");
	WR_CHECK(PARSE(&c, "--zzzzzzzzzzzz") == -EINVAL);
	WR_CHECK_STR(err.msg, "--zzzzzzzzzzzz: unknown option (see --help)");
	WR_CHECK(PARSE(&c, "--t") == -EINVAL);
	WR_CHECK_STR(err.msg, "--t: abbreviates several options (--tx-ports, ");
	/* An abbreviation of a few options names them. */
	WR_CHECK(PARSE(&c, "--siz", "64") == -EINVAL);
	WR_CHECK_STR(err.msg, "--siz: abbreviates several options (--size or --sizes); "
		"write one out");
	/* A mode that judges loss needs a receiver, here or at --peer. */
	WR_CHECK(PARSE(&c, "--mode", "throughput", "--rx-ports", "none") == -EINVAL);
	WR_CHECK_STR(err.msg, "--mode throughput with --rx-ports none and no --peer");
	WR_CHECK_U64(PARSE(&c, "--rx-ports", "none"), 0);
	/* The mode list comes from the option table: y1564 and the RFC 2889
	 * modes included. */
	WR_CHECK(PARSE(&c, "--mode", "foo") == -EINVAL);
	WR_CHECK_STR(err.msg, "--mode foo: expected run, sweep, throughput, loss, b2b, "
		"mlr, y1564, addr-capacity, addr-learning, conn-rate, conn-capacity, mesh, conn-load or conn-teardown");
}

static void
test_map(void)
{
	struct wr_map m;

	WR_CHECK_U64(wr_opts_parse_map("3:tx0.1,rx2.0", &m, &err), 0);
	WR_CHECK_U64(m.lcore, 3);
	WR_CHECK_U64(m.nb_q, 2);
	WR_CHECK(m.q[0].dir == WR_DIR_TX && m.q[0].port == 0 && m.q[0].queue == 1);
	WR_CHECK(m.q[1].dir == WR_DIR_RX && m.q[1].port == 2 && m.q[1].queue == 0);
	WR_CHECK(wr_opts_parse_map("tx0.0", &m, &err) == -EINVAL);
	WR_CHECK_STR(err.msg, "expected LCORE:QUEUES");
	WR_CHECK(wr_opts_parse_map("1:tx0", &m, &err) == -EINVAL);
	WR_CHECK_STR(err.msg, "'tx0' is not a queue");
	WR_CHECK(wr_opts_parse_map("1:", &m, &err) == -EINVAL);
	WR_CHECK_STR(err.msg, "no queue after the colon");
	WR_CHECK(wr_opts_parse_map("1:rx0.99", &m, &err) == -EINVAL);
}

static void
test_impair(void)
{
	struct wr_config c;

	WR_CHECK_U64(PARSE(&c, "--impair", "drop=1000,dup=10@3,reorder=7,delay=2ms"), 0);
	WR_CHECK(c.impair.drop.every == 1000 && c.impair.drop.at == 999);
	WR_CHECK(c.impair.dup.every == 10 && c.impair.dup.at == 3);
	WR_CHECK(c.impair.reorder.every == 7 && c.impair.reorder.at == 6);
	WR_CHECK_U64(c.impair.delay_us, 2000);
	WR_CHECK(PARSE(&c, "--impair", "dup=10@10") == -EINVAL);
	WR_CHECK_STR(err.msg, "--impair dup=10@10: expected N or N@K");
	WR_CHECK(PARSE(&c, "--impair", "delay=5s") == -EINVAL);
	WR_CHECK_STR(err.msg, "up to 1 s");
	WR_CHECK(PARSE(&c, "--impair", "drop") == -EINVAL);
	WR_CHECK_STR(err.msg, "'drop' is not a rule");
	WR_CHECK(PARSE(&c, "--impair", "drop=5", "--burst", "256") == -EINVAL);
	WR_CHECK_STR(err.msg, "--burst 256 with --impair: at most 255");
}

/*
 * Found by the fuzzer: a parse that stops inside grouped short options
 * ("-hh") must not leave getopt pointing into its argv for the next call.
 */
static void
test_getopt_reset(void)
{
	struct wr_config c;
	char *hh = strdup("-hh"), *x = strdup("-x");
	char *a1[] = { (char *)(uintptr_t)"wirerate", hh, NULL };
	char *a2[] = { (char *)(uintptr_t)"wirerate", x, NULL };

	wr_config_defaults(&c);
	WR_CHECK_U64(wr_opts_parse(2, a1, &c, &err), WR_OPTS_HELP);
	/* A stale position would read hh's second 'h' and answer HELP. */
	WR_CHECK(wr_opts_parse(2, a2, &c, &err) == -EINVAL);
	WR_CHECK_STR(err.msg, "-x: unknown option");
	free(hh);
	free(x);
}

/* Options from a JSON object (optjson.c): the same handlers and messages. */
static void
test_json(void)
{
	json_t *o = json_pack("{s:s, s:i, s:b, s:b, s:[s, s], s:s, s:s}",
		"rate", "2Mpps", "size", 128, "quiet", 1, "plain", 0,
		"map", "1:tx0.0", "2:rx1.0", "tx-ports", "0", "rx-ports", "1");
	struct wr_config c;
	json_t *bad;

	wr_config_defaults(&c);
	c.quiet = false;
	WR_CHECK(wr_opts_from_json(o, &c, &err) == 0);
	WR_CHECK(c.rate.unit == WR_RATE_PPS && c.rate.value == 2e6);
	WR_CHECK_U64(c.frame_size, 128);
	WR_CHECK(c.quiet && !c.plain);
	WR_CHECK_U64(c.nb_maps, 2);
	json_decref(o);
	bad = json_pack("{s:i}", "sise", 64);
	wr_config_defaults(&c);
	WR_CHECK(wr_opts_from_json(bad, &c, &err) == -EINVAL);
	WR_CHECK_STR(err.msg, "--sise: unknown option; did you mean --size?");
	json_decref(bad);
	bad = json_pack("{s:s}", "rate", "bogus");
	WR_CHECK(wr_opts_from_json(bad, &c, &err) == -EINVAL);
	WR_CHECK_STR(err.msg, "--rate: bad rate 'bogus'");
	json_decref(bad);
	bad = json_pack("{s:b}", "size", 1);
	WR_CHECK(wr_opts_from_json(bad, &c, &err) == -EINVAL);
	WR_CHECK_STR(err.msg, "--size: needs a value");
	json_decref(bad);
	bad = json_pack("{s:{}}", "size");
	WR_CHECK(wr_opts_from_json(bad, &c, &err) == -EINVAL);
	WR_CHECK_STR(err.msg, "--size: not a value");
	json_decref(bad);
	/* Cross-option rules too: --sizes without a mode. */
	bad = json_pack("{s:s}", "sizes", "64,128");
	wr_config_defaults(&c);
	WR_CHECK(wr_opts_from_json(bad, &c, &err) == -EINVAL);
	WR_CHECK_STR(err.msg, "--sizes needs a --mode");
	json_decref(bad);
}

int
main(void)
{
	WR_TEST_RUN(test_optab);
	WR_TEST_RUN(test_defaults);
	WR_TEST_RUN(test_values);
	WR_TEST_RUN(test_count_means_no_duration);
	WR_TEST_RUN(test_help_version);
	WR_TEST_RUN(test_errors);
	WR_TEST_RUN(test_map);
	WR_TEST_RUN(test_impair);
	WR_TEST_RUN(test_stamp);
	WR_TEST_RUN(test_getopt_reset);
	WR_TEST_RUN(test_json);
	return wr_test_summary();
}
