/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for profile.c: every error path with its message, precedence
 * of the command line over the profile, and every shipped profile in
 * config/ (its directory is argv[1]).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "config/opts.h"
#include "config/profile.h"
#include "wr_test.h"

static struct wr_error err;
static char path[64];
static const char *config_dir;

/* Write text to a fresh temporary file; its name is in path. */
static void
write_profile(const char *text)
{
	int fd;

	snprintf(path, sizeof(path), "/tmp/wr-profile-XXXXXX");
	fd = mkstemp(path);
	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		fprintf(stderr, "cannot write %s\n", path);
	if (fd >= 0)
		close(fd);
}

/* Load text as a profile over the defaults; the file is removed after. */
static int
load(struct wr_config *cfg, const char *text)
{
	int rc;

	wr_config_defaults(cfg);
	err.msg[0] = '\0';
	write_profile(text);
	rc = wr_profile_load(path, cfg, &err);
	unlink(path);
	return rc;
}

/* Expect text to fail with a message holding where ("FILE:LINE") and what. */
static void
expect_error(const char *text, unsigned int line, const char *what)
{
	struct wr_config c;
	char where[96];

	WR_CHECK_U64(load(&c, text), (uint64_t)-EINVAL);
	if (line > 0)
		snprintf(where, sizeof(where), "%s:%u: ", path, line);
	else
		snprintf(where, sizeof(where), "%s: ", path);
	WR_CHECK_STR(err.msg, where);
	WR_CHECK_STR(err.msg, what);
	/* Whatever is wrong in a profile is the request's: exit 2. */
	WR_CHECK_U64(err.cls, WR_ERR_USAGE);
}

static void
test_syntax_errors(void)
{
	expect_error("[ports]\ntx-ports 0\n", 2,
		"'tx-ports 0': expected [section], key = value or a '#' comment");
	expect_error("[ports\n", 1, "a section line is [name] and nothing else");
	expect_error("[ports] txq = 1\n", 1, "a section line is [name]");
	expect_error("# header\n\n[port]\n", 3, "[port]: unknown section; "
		"accepted: ports, lcores, frames, run, test, output");
	expect_error("[run]\ncount = 1\n[frames]\n[run]\n", 4,
		"[run]: section given twice (first on line 1)");
	expect_error("size = 64\n[frames]\n", 1, "size: key before any [section]");
	expect_error("[frames]\n= 64\n", 2, "no key before '='");
	expect_error("[frames]\nsize =\n", 2, "[frames] size: empty value");
	expect_error("[frames]\nsize = # no value\n", 2, "empty value");
	expect_error("# only a comment\n\n", 0, "no [section] in the file");
	expect_error("", 0, "no [section] in the file");
}

static void
test_length_errors(void)
{
	char text[1024];

	snprintf(text, sizeof(text), "[output]\njson = /tmp/%0300d\n", 0);
	expect_error(text, 2, "value longer than 255 characters");
	snprintf(text, sizeof(text), "[output]\n%0400d = 1\n", 0);
	expect_error(text, 2, "line longer than 322 characters");
	snprintf(text, sizeof(text), "[output]\n%070d = 1\n", 0);
	expect_error(text, 2, "key longer than 63");
}

static void
test_nul_byte(void)
{
	struct wr_config c;
	FILE *f;

	wr_config_defaults(&c);
	write_profile("");
	f = fopen(path, "w");
	if (f != NULL) {
		fwrite("[run]\ncount = 1\0 0\n", 1, 19, f);
		fclose(f);
	}
	WR_CHECK_U64(wr_profile_load(path, &c, &err), (uint64_t)-EINVAL);
	WR_CHECK_STR(err.msg, ":2: NUL byte in the line");
	unlink(path);
}

static void
test_key_errors(void)
{
	expect_error("[run]\ndurtion = 5s\n", 2, "[run] durtion = 5s: unknown key; "
		"did you mean 'duration' (in [run])? accepted in [run]: pattern, "
		"rate, link-speed, duration, count, interval, grace, link-timeout, "
		"impair, pool-mbufs, latency, start-on-rx, idle-timeout, rx-clock, "
		"clock-sync, reflect");
	expect_error("[ports]\ntx_ports = 0\n", 2, "did you mean 'tx-ports'");
	expect_error("[frames]\nrate = 10\n", 2,
		"[frames] rate = 10: rate belongs in section [run]");
	expect_error("[frames]\nspeed = 10\n", 2, "[frames] speed = 10: unknown "
		"key; accepted in [frames]: size, src-mac, dst-mac");
	expect_error("[output]\nxyzzyplugh = 1\n", 2, "[output] xyzzyplugh = 1: "
		"unknown key; accepted in [output]: json, checkpoint, csv, csv-streams, label, "
		"control, control-listen, control-token, web, web-open, web-history, "
		"lease-log, plain, quiet");
	expect_error("[frames]\nduration = 5s\n", 2,
		"[frames] duration = 5s: duration belongs in section [run]");
	expect_error("[frames]\nsize = 64\n# again\nsize = 128\n", 4,
		"[frames] size = 128: size already set on line 2; give it once");
	/* port-ip repeats, one address per family and port (portip.c). */
	expect_error("[ports]\nport-ip = 0=10.0.0.1/8\nport-ip = 0=10.0.0.2/8\n", 3,
		"port 0 already has an IPv4 address");
}

static void
test_value_errors(void)
{
	expect_error("[frames]\nsize = 63\n", 2,
		"[frames] size = 63: out of range, accepted 64 to 9018");
	expect_error("[run]\nduration = soon\n", 2, "[run] duration = soon: not a "
		"duration, accepted e.g. 10, 2.5s, 500ms, 5m, 1h");
	expect_error("[run]\ninterval = 10ms\n", 2, "too short, at least 100 ms");
	expect_error("[frames]\ndst-mac = 02:00\n", 2,
		"[frames] dst-mac = 02:00: not a MAC address");
	expect_error("[frames]\nsrc-ip = 10.0.0\n", 2, "not an IPv4 address");
	expect_error("[ports]\ntx-ports = 0,x\n", 2, "[ports] tx-ports = 0,x: "
		"expected a port list such as 0,1 or 0-3, or all, or none");
	expect_error("[ports]\nrx-ports = 40\n", 2, "port ids go up to 31");
	expect_error("[ports]\ntxq = 17\n", 2, "[ports] txq = 17: out of range, "
		"accepted 1 to 16");
	expect_error("[lcores]\nmap = 1:tx0\n", 2, "[lcores] map = 1:tx0: 'tx0' "
		"is not a queue");
	expect_error("[output]\nquiet = maybe\n", 2, "[output] quiet = maybe: "
		"expected yes or no");
	expect_error("[run]\nimpair = drop=x\n", 2, "[run] impair = drop=x:");
	expect_error("[run]\ncount = 1x\n", 2, "[run] count = 1x: not a whole "
		"number");
}

static void
test_missing_file(void)
{
	struct wr_config c;

	wr_config_defaults(&c);
	WR_CHECK_U64(wr_profile_load("/nonexistent/p.ini", &c, &err),
		(uint64_t)-ENOENT);
	WR_CHECK_STR(err.msg, "/nonexistent/p.ini: cannot read the profile: No such file");
	/* Named on the command line and not there: usage, though not EINVAL. */
	WR_CHECK_U64(err.cls, WR_ERR_USAGE);
	WR_CHECK_U64(err.errnum, ENOENT);
}

static const char full[] =
	"# every section, comments everywhere\n"
	"[ports]   # roles\n"
	"tx-ports = 0\n"
	"rx-ports = 1\n"
	"txq = 2\n"
	"rxq=2\n"
	"txd = 512\n"
	"rxd = 2048\n"
	"burst = 64\n"
	"ring-pairs = 1\n"
	"port-ip = 0=198.18.0.1/24,gw=198.18.0.254\n"
	"port-ip = 0=2001:db8::1/64\n"
	"[lcores]\n"
	"map = 1:tx0.0,tx0.1\n"
	"map = 2:rx1.0,rx1.1\n"
	"[frames]\n"
	"  size = 1518   # indented key\n"
	"src-mac = 02:00:00:00:00:01\n"
	"dst-mac = 02:00:00:00:00:02\n"
	"src-ip = 10.0.0.1\n"
	"dst-ip = 10.0.0.2\n"
	"sport = 2000\n"
	"dport = 3000\n"
	"flows = 8\n"
	"vlan = 100\n"
	"[run]\n"
	"duration = 2.5s\n"
	"count = 1M\n"
	"interval = 500ms\n"
	"grace = 1s\n"
	"link-timeout = 3s\n"
	"impair = drop=100\n"
	"[output]\n"
	"json = /tmp/p.json\n"
	"plain = yes\n"
	"quiet = no\n";

static void
test_full_profile(void)
{
	struct wr_config c;

	WR_CHECK_U64(load(&c, full), 0);
	WR_CHECK_STR(c.profile_path, "/tmp/wr-profile-");
	WR_CHECK(c.tx_ports_set && c.tx_port_mask == 1);
	WR_CHECK(c.rx_ports_set && c.rx_port_mask == 2);
	WR_CHECK(c.nb_txq == 2 && c.nb_rxq == 2);
	WR_CHECK(c.nb_txd == 512 && c.nb_rxd == 2048 && c.burst_pkts == 64);
	WR_CHECK_U64(c.nb_ring_pairs, 1);
	WR_CHECK(c.port_ip[0].v4.set && c.port_ip[0].v4.has_gw && c.port_ip[0].v6.set);
	WR_CHECK_U64(c.nb_maps, 2);
	WR_CHECK(c.maps_from_profile);
	WR_CHECK(c.maps[1].lcore == 2 && c.maps[1].nb_q == 2 &&
		c.maps[1].q[1].dir == WR_DIR_RX && c.maps[1].q[1].queue == 1);
	WR_CHECK_U64(c.frame_size, 1518);
	WR_CHECK(c.src_mac_set && c.src_mac.addr_bytes[5] == 1);
	WR_CHECK(c.dst_mac_set && c.dst_mac.addr_bytes[5] == 2);
	WR_CHECK(c.src_ip == 0x0a000001 && c.dst_ip == 0x0a000002);
	WR_CHECK(c.src_udp == 2000 && c.dst_udp == 3000);
	WR_CHECK(c.nb_flows == 8 && c.vlan_id == 100);
	WR_CHECK(c.duration_ms == 2500 && c.duration_set);
	WR_CHECK_U64(c.count_pkts, 1000000);
	WR_CHECK(c.interval_ms == 500 && c.grace_ms == 1000);
	WR_CHECK_U64(c.link_timeout_ms, 3000);
	WR_CHECK_U64(c.impair.drop.every, 100);
	WR_CHECK_STR(c.json_path, "/tmp/p.json");
	WR_CHECK(c.plain && !c.quiet);
}

/* defaults < profile < command line, the way app/start/parse.c runs them. */
static void
test_precedence(void)
{
	struct wr_config c;
	const char *argv[] = { "wirerate", "--profile", "P", "--size", "256",
		"--map", "3:tx0.0,tx0.1,rx1.0,rx1.1", "--quiet", "--grace", "0" };
	const char *found;

	WR_CHECK_U64(load(&c, full), 0);
	WR_CHECK_U64(wr_opts_find_profile((int)RTE_DIM(argv),
		(char **)(uintptr_t)argv, &found, &err), 0);
	WR_CHECK_STR(found, "P");
	strcpy(c.profile_path, "P");
	WR_CHECK_U64(wr_opts_parse((int)RTE_DIM(argv), (char **)(uintptr_t)argv,
		&c, &err), WR_OPTS_RUN);
	WR_CHECK_U64(c.frame_size, 256);           /* command line wins */
	WR_CHECK_U64(c.nb_txd, 512);               /* profile kept */
	WR_CHECK_U64(c.interval_ms, 500);
	WR_CHECK_U64(c.grace_ms, 0);
	WR_CHECK(c.quiet && c.plain);
	/* A --map replaces the profile's maps rather than adding to them. */
	WR_CHECK_U64(c.nb_maps, 1);
	WR_CHECK_U64(c.maps[0].lcore, 3);
	/* Untouched by either: the default. */
	WR_CHECK_U64(c.nb_txq, 2);
}

static void
test_find_profile(void)
{
	const char *twice[] = { "wirerate", "--profile", "a.ini", "--size", "64",
		"--profile=b.ini" };
	const char *abbrev[] = { "wirerate", "--size", "64", "--prof", "c.ini" };
	const char *none[] = { "wirerate", "--size", "64", "--bogus" };
	const char *found;

	WR_CHECK_U64(wr_opts_find_profile((int)RTE_DIM(twice),
		(char **)(uintptr_t)twice, &found, &err), (uint64_t)-EINVAL);
	WR_CHECK_STR(err.msg, "--profile b.ini: a profile was already given (a.ini)");
	WR_CHECK_U64(wr_opts_find_profile((int)RTE_DIM(abbrev),
		(char **)(uintptr_t)abbrev, &found, &err), 0);
	WR_CHECK_STR(found, "c.ini");
	WR_CHECK_U64(wr_opts_find_profile((int)RTE_DIM(none),
		(char **)(uintptr_t)none, &found, &err), 0);
	WR_CHECK(found == NULL);
}

/* Test modes, rates and results keys map to their options too. */
static void
test_mode_keys(void)
{
	struct wr_config c;

	WR_CHECK_U64(load(&c, "[frames]\nsizes = 64,1518,9018\n"
		"[run]\nrate = 50%\nlink-speed = 10G\nlatency = tsc\n"
		"[test]\nmode = throughput\ntrial = 2s\nresolution = 1\n"
		"max-trials = 7\npdr = 0.01\nloss-step = 5\nb2b-trials = 3\n"
		"b2b-max = 1M\nrepeat = 3\nwarmup = 1\n"
		"[output]\ncsv = /tmp/x.csv\nlabel = lab one\n"), 0);
	WR_CHECK_U64(c.nb_sizes, 3);
	WR_CHECK_U64(c.sizes[2], 9018);
	WR_CHECK(c.rate.unit != WR_RATE_NONE);
	WR_CHECK_U64(c.link_speed_bps, 10000000000ULL);
	WR_CHECK(c.lat_mode == WR_LAT_TSC);
	WR_CHECK(c.mode == WR_MODE_THROUGHPUT);
	WR_CHECK_U64(c.trial_ms, 2000);
	WR_CHECK_NEAR(c.resolution_pct, 1.0, 1e-12);
	WR_CHECK_U64(c.max_trials, 7);
	WR_CHECK_NEAR(c.pdr_ratio, 0.01, 1e-12);
	WR_CHECK_NEAR(c.loss_step_pct, 5.0, 1e-12);
	WR_CHECK_U64(c.b2b_trials, 3);
	WR_CHECK_U64(c.b2b_max_pkts, 1000000);
	WR_CHECK(c.nb_repeat == 3 && c.nb_warmup == 1);
	WR_CHECK_STR(c.csv_path, "/tmp/x.csv");
	WR_CHECK_STR(c.label, "lab one");
	expect_error("[test]\nmode = fastest\n", 2, "[test] mode = fastest:");
	expect_error("[frames]\nsizes = 64,63\n", 2, "[frames] sizes = 64,63: "
		"'63' is not a frame size");
	expect_error("[run]\nrate = fast\n", 2, "[run] rate = fast:");
}

/*
 * The options a profile could not hold before it took its keys from the
 * option table: capture*, checkpoint, goals, lat-loads, lat-trial,
 * mlr-initial and pool-mbufs, each landing in the config.
 */
static void
test_table_keys(void)
{
	struct wr_config c;

	WR_CHECK_U64(load(&c, "[run]\npool-mbufs = 4096\n"
		"[test]\nmode = mlr\ntrial = 2s\ngoals = 0:0.5:4s:0.01\n"
		"mlr-initial = 300ms\nlat-loads = 0,50\nlat-trial = 1500ms\n"
		"[output]\njson = /tmp/x.json\ncheckpoint = 3s\n"
		"[capture]\ncapture = /tmp/x.pcapng\ncapture-what = seq\n"
		"capture-around = 2\ncapture-last = 3\ncapture-max = 5\n"
		"capture-snaplen = 128\n"), 0);
	WR_CHECK_U64(c.pool_mbufs, 4096);
	WR_CHECK_U64(c.nb_goals, 1);
	WR_CHECK_U64(c.mlr_initial_ms, 300);
	WR_CHECK_U64(c.nb_lat_loads, 2);
	WR_CHECK_NEAR(c.lat_loads_pct[1], 50.0, 1e-12);
	WR_CHECK_U64(c.lat_trial_ms, 1500);
	WR_CHECK_U64(c.checkpoint_ms, 3000);
	WR_CHECK_STR(c.capture.path, "/tmp/x.pcapng");
	WR_CHECK_U64(c.capture.what, WR_CAPTURE_SEQ);
	WR_CHECK_U64(c.capture.around_pkts, 2);
	WR_CHECK_U64(c.capture.last_pkts, 3);
	WR_CHECK_U64(c.capture.max_pkts, 5);
	WR_CHECK_U64(c.capture.snaplen, 128);
	expect_error("[run]\ncapture = /tmp/x\n", 2,
		"[run] capture = /tmp/x: capture belongs in section [capture]");
}

/* Flags: "no" leaves the default; a cross-option rule runs after merging. */
static void
test_flags_and_rules(void)
{
	struct wr_config c;

	WR_CHECK_U64(load(&c, "[output]\nquiet = off\nplain = TRUE\n"), 0);
	WR_CHECK(!c.quiet && c.plain);
	WR_CHECK_U64(load(&c, "[run]\nstart-on-rx = yes\nidle-timeout = 2s\n"
		"reflect = no\nrx-clock = any\n"), 0);
	WR_CHECK(c.start_on_rx && !c.reflect);
	WR_CHECK_U64(c.idle_timeout_ms, 2000);
	WR_CHECK_U64(c.rx_clock, WR_RX_CLOCK_ANY);
	WR_CHECK_U64(load(&c, "[ports]\ntxd = 32\nburst = 32\n"), 0);
	WR_CHECK_U64(wr_opts_check(&c, &err), (uint64_t)-EINVAL);
	WR_CHECK_STR(err.msg, "--burst 32 is more than half of --txd 32");
	/* A count alone in a profile runs until sent, as on the command line. */
	WR_CHECK_U64(load(&c, "[run]\ncount = 5k\n"), 0);
	WR_CHECK_U64(wr_opts_check(&c, &err), 0);
	WR_CHECK_U64(c.duration_ms, 0);
	WR_CHECK_STR(wr_profile_section_of("link-timeout"), "run");
	WR_CHECK(wr_profile_section_of("help") == NULL);
}

static int
is_profile(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return n > 4 && strcmp(d->d_name + n - 4, ".ini") == 0;
}

/* Every file in config/ loads, passes the cross-option rules, and says
 * what it is for in a comment header. */
static void
test_shipped_profiles(void)
{
	struct dirent **names;
	struct wr_config c;
	char file[1024], first[256];
	int n, i;

	n = scandir(config_dir, &names, is_profile, alphasort);
	WR_CHECK(n >= 6);
	for (i = 0; i < n; i++) {
		FILE *f;

		snprintf(file, sizeof(file), "%s/%s", config_dir, names[i]->d_name);
		wr_config_defaults(&c);
		err.msg[0] = '\0';
		if (wr_profile_load(file, &c, &err) != 0 ||
				wr_opts_check(&c, &err) != 0) {
			fprintf(stderr, "%s: %s\n", file, err.msg);
			WR_CHECK(!"shipped profile loads");
		}
		f = fopen(file, "r");
		WR_CHECK(f != NULL && fgets(first, sizeof(first), f) != NULL &&
			strncmp(first, "# wirerate profile: ", 20) == 0);
		if (f != NULL)
			fclose(f);
		free(names[i]);
	}
	if (n >= 0)
		free(names);
}

/* [streams]: one stream per key, named by it; errors say where. */
static void
test_streams_section(void)
{
	struct wr_config c;

	WR_CHECK_U64(load(&c, "[frames]\nsize = 128\n[streams]\n"
		"load = mix=imix;rate=1Gbps\nprobe = rate=10kpps;dport=2000;dscp=46\n"), 0);
	WR_CHECK_U64(wr_opts_check(&c, &err), 0);
	WR_CHECK_U64(c.nb_stream_defs, 2);
	WR_CHECK_STR(c.streams[0].name, "load");
	WR_CHECK_U64(c.streams[0].mix.seq_len, 12);
	WR_CHECK_STR(c.streams[1].name, "probe");
	WR_CHECK_U64(c.streams[1].frame_size, 128);
	WR_CHECK_U64(c.streams[1].dscp, 46);
	expect_error("[streams]\na = size=64\na = size=128\n", 3,
		"[streams] a: a key named a is already set on line 2");
	expect_error("[streams]\nx = colour=red\n", 2, "unknown key 'colour'");
}

int
main(int argc, char **argv)
{
	config_dir = argc > 1 ? argv[1] : "config";
	WR_TEST_RUN(test_syntax_errors);
	WR_TEST_RUN(test_length_errors);
	WR_TEST_RUN(test_nul_byte);
	WR_TEST_RUN(test_key_errors);
	WR_TEST_RUN(test_value_errors);
	WR_TEST_RUN(test_missing_file);
	WR_TEST_RUN(test_full_profile);
	WR_TEST_RUN(test_precedence);
	WR_TEST_RUN(test_find_profile);
	WR_TEST_RUN(test_flags_and_rules);
	WR_TEST_RUN(test_mode_keys);
	WR_TEST_RUN(test_table_keys);
	WR_TEST_RUN(test_shipped_profiles);
	WR_TEST_RUN(test_streams_section);
	return wr_test_summary();
}
