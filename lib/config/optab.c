/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The option table (optab.h): names, arguments and help of every option,
 * in --help order; optab_query.c answers questions on it. Help lines are
 * at most 52 characters so that with the 22-column option field --help
 * stays within 76 columns.
 */
#include "optab.h"

#define REQ required_argument
#define NO no_argument

/*
 * Words of the options that take a choice of them. The order of mode,
 * stamp and latency is their enum's (config.h): the parser maps a word to
 * its index. The others list the words of a larger syntax, for completion.
 */
static const char *const mode_values[] = { "run", "sweep", "throughput",
	"loss", "b2b", "mlr", "y1564", "addr-capacity", "addr-learning",
	"conn-rate", "conn-capacity", "mesh", "conn-load", "conn-teardown",
	NULL };
static const char *const stamp_values[] = { "full", "seq", "none", NULL };
static const char *const latency_values[] = { "auto", "tsc", "off", "sync", NULL };
static const char *const capture_what_values[] = { "foreign", "seq", "last",
	NULL };
static const char *const sizes_values[] = { "rfc2544", "rfc2544-jumbo", NULL };
static const char *const pattern_values[] = { "constant", "burst:", "poisson",
	NULL };
static const char *const ports_values[] = { "all", "none", NULL };
static const char *const rate_values[] = { "max", NULL };
static const char *const vary_values[] = { "inc", "random", NULL };
static const char *const replay_speed_values[] = { "max", NULL };
static const char *const rx_clock_values[] = { "own", "any", NULL };
static const char *const addr_plan_values[] = { "random", NULL };
static const char *const mesh_pattern_values[] = { "full", "one-to-many",
	"many-to-one", "congestion", "unidirectional", "multi-device",
	"broadcast", NULL };
static const char *const clock_sync_values[] = { "auto", "ptp", "chrony", "none",
	NULL };
/* In the order of enum wr_conn_role and wr_conn_app (conncfg.h), from 1. */
static const char *const conn_values[] = { "client", "server", NULL };
static const char *const conn_app_values[] = { "http", "bulk", NULL };
static const char *const conn_csum_values[] = { "auto", "software", NULL };

const struct wr_optdesc wr_optab[] = {
	{ "tx-ports", REQ, WR_OPT_TX_PORTS, "LIST", "ports that transmit: 0,1 | 0-3 | all | "
		"none [all]", WR_OPTSEC_PORTS,
		WR_PROF_PORTS, ports_values },
	{ "rx-ports", REQ, WR_OPT_RX_PORTS, "LIST", "ports that receive: 0,1 | 0-3 | all | none\n[all]",
		WR_OPTSEC_PORTS,
		WR_PROF_PORTS, ports_values },
	{ "txq", REQ, WR_OPT_TXQ, "N", "TX queues per TX port, 1..16 [1]", WR_OPTSEC_PORTS,
		WR_PROF_PORTS, NULL },
	{ "rxq", REQ, WR_OPT_RXQ, "N", "RX queues per RX port, 1..16 (RSS when > 1)\n[1]",
		WR_OPTSEC_PORTS,
		WR_PROF_PORTS, NULL },
	{ "txd", REQ, WR_OPT_TXD, "N", "TX descriptors per queue, 32..32768; the PMD\n"
		"may round them (the plan says so) [1024]", WR_OPTSEC_PORTS,
		WR_PROF_PORTS, NULL },
	{ "rxd", REQ, WR_OPT_RXD, "N", "RX descriptors per queue, 32..32768, as --txd\n"
		"[1024]", WR_OPTSEC_PORTS,
		WR_PROF_PORTS, NULL },
	{ "burst", REQ, WR_OPT_BURST, "N", "frames per burst, 1..512 [32]", WR_OPTSEC_PORTS,
		WR_PROF_PORTS, NULL },
	{ "map", REQ, WR_OPT_MAP, "L:Q[,Q...]", "explicit placement, repeatable: lcore L\n"
		"owns queues Q = tx<port>.<queue> |\nrx<port>.<queue>; every queue of the run "
		"must\nbe mapped once [automatic plan]", WR_OPTSEC_PORTS,
		WR_PROF_LCORES, NULL },
	{ "port-ip", REQ, WR_OPT_PORT_IP, "P=ADDR/LEN", "repeatable: port P's IPv4 or "
		"IPv6 address,\n[,gw=ADDR] its gateway, [,vlan=N] its 802.1Q\ntag; its "
		"frames go from it to the peer port's\naddress (--src-ip, --dst-ip and a "
		"stream's\nkeys win) [none]", WR_OPTSEC_PORTS,
		WR_PROF_PORTS, NULL },
	{ "announce", REQ, WR_OPT_ANNOUNCE, "T", "with --port-ip: every T (>= 100ms) "
		"during\nthe run, a gratuitous ARP and an unsolicited\nNA from each port "
		"with an address [only\nbefore traffic]", WR_OPTSEC_PORTS,
		WR_PROF_PORTS, NULL },
	{ "ring-pairs", REQ, WR_OPT_RING_PAIRS, "N", "add N pairs of ports wired back to "
		"back with\nrings (what one sends the other receives) [0]", WR_OPTSEC_PORTS,
		WR_PROF_PORTS, NULL },

	{ "size", REQ, WR_OPT_SIZE, "BYTES", "frame size with FCS (RFC 2544), 64..9018;\n"
		"above 1518 the port MTU is raised (9018 = MTU\n9000) [64]", WR_OPTSEC_FRAMES,
		WR_PROF_FRAMES, NULL },
	{ "src-mac", REQ, WR_OPT_SRC_MAC, "MAC", "source MAC or range M1-M2 [the port's own]",
		WR_OPTSEC_FRAMES,
		WR_PROF_FRAMES, NULL },
	{ "dst-mac", REQ, WR_OPT_DST_MAC, "MAC", "destination MAC or range M1-M2 [the "
		"peer\nport's MAC: ports pair up 0-1, 2-3; a lone\nport is its own peer]", WR_OPTSEC_FRAMES,
		WR_PROF_FRAMES, NULL },
	{ "src-ip", REQ, WR_OPT_SRC_IP, "A.B.C.D", "source IPv4 address or range A-B\n[198.18.0.1]",
		WR_OPTSEC_FRAMES,
		WR_PROF_FRAMES, NULL },
	{ "dst-ip", REQ, WR_OPT_DST_IP, "A.B.C.D", "destination IPv4 address or range A-B\n[198.19.0.1]",
		WR_OPTSEC_FRAMES,
		WR_PROF_FRAMES, NULL },
	{ "sport", REQ, WR_OPT_SPORT, "N", "UDP source port or range N-M [1024]", WR_OPTSEC_FRAMES,
		WR_PROF_FRAMES, NULL },
	{ "dport", REQ, WR_OPT_DPORT, "N", "UDP destination port or range N-M [1024]", WR_OPTSEC_FRAMES,
		WR_PROF_FRAMES, NULL },
	{ "flows", REQ, WR_OPT_FLOWS, "N", "vary the UDP source port over N values,\n"
		"1..65536 (with other ranges: a sport range)\n[1]", WR_OPTSEC_FRAMES,
		WR_PROF_FRAMES, NULL },
	{ "vlan", REQ, WR_OPT_VLAN, "ID", "802.1Q tag 1..4094 or range N-M (frames\n"
		"need >= 68 bytes) [none]", WR_OPTSEC_FRAMES,
		WR_PROF_FRAMES, NULL },
	{ "mix", REQ, WR_OPT_MIX, "MIX", "frame sizes in a repeating sequence instead\n"
		"of --size: imix (64:7,594:4,1518:1), a list\nSIZE[:WEIGHT],... or an RFC 6985 "
		"genome of\nletters a-g (64..1518), h (9018), z (,z=SIZE)\n[none]",
		WR_OPTSEC_FRAMES,
		WR_PROF_FRAMES, NULL },
	{ "ipv6", NO, WR_OPT_IPV6, NULL, "IPv6/UDP frames (UDP checksum set on every\n"
		"frame), at least 84 bytes, 88 tagged [IPv4]", WR_OPTSEC_FRAMES,
		WR_PROF_FRAMES, NULL },
	{ "src-ip6", REQ, WR_OPT_SRC_IP6, "ADDR", "source IPv6 address or range A-B (the\nlast 64 bits vary) [2001:2::1]",
		WR_OPTSEC_FRAMES,
		WR_PROF_FRAMES, NULL },
	{ "dst-ip6", REQ, WR_OPT_DST_IP6, "ADDR", "destination IPv6 address or range A-B\n"
		"[2001:2:0:1::1]", WR_OPTSEC_FRAMES,
		WR_PROF_FRAMES, NULL },
	{ "dscp", REQ, WR_OPT_DSCP, "N", "DSCP 0..63 or range N-M in the IPv4 TOS or\n"
		"IPv6 traffic class [0]", WR_OPTSEC_FRAMES,
		WR_PROF_FRAMES, NULL },
	{ "vary", REQ, WR_OPT_VARY, "ORDER", "order the ranges' flows are sent in: inc\n"
		"(sport fastest, then dport, addresses, MACs,\nvlan, dscp) or random[:SEED], a "
		"seeded\npermutation: each flow once per cycle [inc]",
		WR_OPTSEC_FRAMES,
		WR_PROF_FRAMES, vary_values },
	{ "vlan-prio", REQ, WR_OPT_VLAN_PRIO, "N", "802.1Q priority (PCP) 0..7, with "
		"--vlan [0]", WR_OPTSEC_FRAMES,
		WR_PROF_FRAMES, NULL },
	{ "stream", REQ, WR_OPT_STREAM, "DEF", "repeatable, up to 16: one stream per "
		"TX\nqueue of each TX port, KEY=VALUE;... of name,\nsize, mix, rate, share "
		"(% of --rate),\npattern, l3, src-ip, dst-ip, sport, dport,\nflows, vlan, "
		"prio, dscp; keys left out take\nthe options' values (docs/traffic.md)\n"
		"[one stream per TX queue]", WR_OPTSEC_FRAMES,
		WR_PROF_FRAMES, NULL },
	{ "stack", REQ, WR_OPT_STACK, "SPEC", "carry the frames inside a header stack:\n"
		"layers from the wire in, '/' between, fields\nin ()s, ending in the "
		"frame's own ipv4/udp\nor ipv6/udp, e.g. eth/vlan(id=10)/ipv4/udp or\n"
		"eth/ipv4(dst=ADDR)/udp/vxlan(vni=42)/eth/ipv4/\nudp; layers eth vlan "
		"svlan mpls ipv4 ipv6 udp\ngre vxlan geneve; or template=FILE[:N], the\n"
		"headers of frame N of a pcap or pcapng file\n(docs/traffic.md) [none]",
		WR_OPTSEC_FRAMES,
		WR_PROF_FRAMES, NULL },
	{ "stamp", REQ, WR_OPT_STAMP, "MODE", "test header fields written per frame: "
		"full\n(sequence and TX timestamp), seq (sequence\nonly: no latency), none "
		"(template as built:\nevery frame is seq 0, no loss or latency\naccounting; for "
		"measuring the cost of\nstamping) [full]", WR_OPTSEC_FRAMES,
		WR_PROF_FRAMES, stamp_values },
	{ "replay", REQ, WR_OPT_REPLAY, "FILE", "send the frames of a capture (pcap or "
		"pcapng,\nEthernet) as they are, instead of test frames;\neach TX port "
		"sends the whole file, split\nround robin over its TX queues "
		"(docs/replay.md)\n[off]", WR_OPTSEC_FRAMES,
		WR_PROF_FRAMES, NULL },
	{ "replay-speed", REQ, WR_OPT_REPLAY_SPEED, "X", "--replay at the capture's "
		"timing sped up X\ntimes (0.5 = half speed), or max: as fast as\n"
		"possible; --rate Npps instead sends at a\nfixed rate [1]", WR_OPTSEC_FRAMES,
		WR_PROF_FRAMES, replay_speed_values },
	{ "replay-loop", REQ, WR_OPT_REPLAY_LOOP, "N", "send the --replay file N times, 0 "
		"= until\n--duration or a signal [1]", WR_OPTSEC_FRAMES,
		WR_PROF_FRAMES, NULL },
	{ "replay-stamp", NO, WR_OPT_REPLAY_STAMP, NULL, "put the test header (sequence, "
		"timestamp,\nstream) into each replayed IPv4/IPv6 UDP\npayload of 18 bytes "
		"or more, UDP checksum\nset: per-stream loss and latency; other\nframes stay "
		"as they are (docs/replay.md) [off]", WR_OPTSEC_FRAMES,
		WR_PROF_FRAMES, NULL },

	{ "pattern", REQ, WR_OPT_PATTERN, "P", "constant (the pacer), burst:N/T (N frames\n"
		"back to back every T, e.g. burst:32/1ms) or\npoisson[:SEED] (exponential gaps "
		"at --rate,\nfixed seed [1]) [constant]", WR_OPTSEC_RATE,
		WR_PROF_RUN, pattern_values },
	{ "rate", REQ, WR_OPT_RATE, "R", "per TX port: 1.5Mpps, 250kpps, 9.5Gbps (L1,\n"
		"as RFC 2544), l2:9.5Gbps, 50% of the link,\nmax [max]; split exactly over the "
		"port's TX\nqueues, paced on the TSC in bursts of at most\n--burst frames",
		WR_OPTSEC_RATE,
		WR_PROF_RUN, rate_values },
	{ "link-speed", REQ, WR_OPT_LINK_SPEED, "BPS", "nominal link speed for % rates, "
		"e.g. 10G;\nrequired on virtual NICs whose reported speed\nis a label",
		WR_OPTSEC_RATE,
		WR_PROF_RUN, NULL },

	{ "mode", REQ, WR_OPT_MODE, "MODE", "run (one run), sweep (one trial per size),\n"
		"throughput (RFC 2544 26.1: NDR/PDR search),\nloss (26.3: frame loss rate), "
		"b2b (26.4:\nback-to-back), mlr (MLRsearch, docs/rfc2544.md),\ny1564 (ITU-T Y.1564, docs/y1564.md),\naddr-capacity (RFC 2889 5.7: MAC addresses a\nswitch holds), addr-learning (5.8: how fast\nit learns them), mesh (5.1, 5.2: ports talking\nto each other; docs/rfc2889.md), conn-rate\n(--conn client: the highest connection rate\nwithout a failure), conn-capacity (--conn\nclient: connections a stateful device holds;\ndocs/tcp.md), conn-load (--conn client:\nrequests/s or goodput per --conn-concurrency;\ndocs/connload.md), conn-teardown\n(RFC 9693 tear-down) [run]", WR_OPTSEC_MODES,
		WR_PROF_TEST, mode_values },
	{ "sizes", REQ, WR_OPT_SIZES, "LIST", "frame sizes of a mode: 64,512,1518 | "
		"rfc2544\n(64..1518, 7 sizes) | rfc2544-jumbo (and 9018)\n[--size]",
		WR_OPTSEC_MODES,
		WR_PROF_FRAMES, sizes_values },
	{ "trial", REQ, WR_OPT_TRIAL, "T", "length of one trial, >= 100ms; shorter than\n"
		"60 s is labelled as not RFC 2544 [60s]", WR_OPTSEC_MODES,
		WR_PROF_TEST, NULL },
	{ "resolution", REQ, WR_OPT_RESOLUTION, "PCT", "throughput search ends when the "
		"bounds are\nwithin PCT% of each other, 0.001..50 [0.5]", WR_OPTSEC_MODES,
		WR_PROF_TEST, NULL },
	{ "max-trials", REQ, WR_OPT_MAX_TRIALS, "N", "at most N trials per throughput "
		"search,\n1..128 [20]", WR_OPTSEC_MODES,
		WR_PROF_TEST, NULL },
	{ "pdr", REQ, WR_OPT_PDR, "RATIO", "also find the highest rate losing at most\n"
		"RATIO of the frames (PDR), 0..0.5 [off]", WR_OPTSEC_MODES,
		WR_PROF_TEST, NULL },
	{ "loss-step", REQ, WR_OPT_LOSS_STEP, "PCT", "loss mode: step down by PCT% of the "
		"maximum,\n0.1..10 [10]", WR_OPTSEC_MODES,
		WR_PROF_TEST, NULL },
	{ "b2b-trials", REQ, WR_OPT_B2B_TRIALS, "N", "back-to-back searches to repeat, "
		"1..1000\n(RFC 2544 asks 50) [50]", WR_OPTSEC_MODES,
		WR_PROF_TEST, NULL },
	{ "b2b-max", REQ, WR_OPT_B2B_MAX, "N", "longest burst tried, in frames [2 s at "
		"the\nmaximum rate]", WR_OPTSEC_MODES,
		WR_PROF_TEST, NULL },

	{ "profile", REQ, WR_OPT_PROFILE, "FILE", "read option values from an INI file "
		"first\n(keys are these option names, by section; see\nconfig/*.ini and "
		"docs/profiles.md); options\ngiven here win", WR_OPTSEC_PROFILE,
		WR_PROF_NONE, NULL },

	{ "duration", REQ, WR_OPT_DURATION, "T", "run time: 10, 2.5s, 500ms, 5m, 1h; 0 = "
		"until\nthe count or a signal [10s, or 0 with --count]", WR_OPTSEC_RUN,
		WR_PROF_RUN, NULL },
	{ "count", REQ, WR_OPT_COUNT, "N", "frames per TX port (k/M/G suffixes), split\n"
		"exactly over its TX queues [unlimited]", WR_OPTSEC_RUN,
		WR_PROF_RUN, NULL },
	{ "interval", REQ, WR_OPT_INTERVAL, "T", "stats interval, >= 100ms [1s]",
		WR_OPTSEC_RUN,
		WR_PROF_RUN, NULL },
	{ "grace", REQ, WR_OPT_GRACE, "T", "RX keeps polling this long after TX stops\n"
		"[200ms]", WR_OPTSEC_RUN,
		WR_PROF_RUN, NULL },
	{ "link-timeout", REQ, WR_OPT_LINK_TIMEOUT, "T", "wait this long for links to "
		"come up [5s]", WR_OPTSEC_RUN,
		WR_PROF_RUN, NULL },
	{ "json", REQ, WR_OPT_JSON, "FILE", "write the whole run as JSON "
		"(docs/results.md),\natomically", WR_OPTSEC_RUN,
		WR_PROF_OUTPUT, NULL },
	{ "checkpoint", REQ, WR_OPT_CHECKPOINT, "T", "with --json, rewrite the file "
		"atomically at\nthe first interval T after the last time, so\na crash leaves the "
		"run up to then\n(\"stop_reason\": \"running\"); 0: only at the end\n[2s]",
		WR_OPTSEC_RUN,
		WR_PROF_OUTPUT, NULL },
	{ "impair", REQ, WR_OPT_IMPAIR, "RULES", "test fixture in front of every RX "
		"queue, by\nsequence number: drop=N[@K],dup=N[@K],\nreorder=N[@K],delay=T and "
		"a device with a\nknown limit: police=RATE (pps) (frame with\nseq % N == K; K "
		"defaults to N-1); see\ndocs/accounting.md [off]", WR_OPTSEC_RUN,
		WR_PROF_RUN, NULL },
	{ "pool-mbufs", REQ, WR_OPT_POOL_MBUFS, "N", "test knob: mbufs in each TX and RX "
		"pool (per\nqueue), to provoke pool exhaustion\n(docs/reliability.md) [sized "
		"from rings and\nbursts]", WR_OPTSEC_RUN,
		WR_PROF_RUN, NULL },
	{ "latency", REQ, WR_OPT_LATENCY, "MODE", "auto: latency of frames this process "
		"sent\n(same TSC); tsc: also frames of another\nprocess on this host (needs an "
		"invariant\nTSC); sync: also of another host, one-way\nonly where both ends' "
		"clocks are in sync\n(--clock-sync); off [auto]", WR_OPTSEC_RUN,
		WR_PROF_RUN, latency_values },
	{ "csv", REQ, WR_OPT_CSV, "FILE", "write the per-interval table as CSV (one row\n"
		"per trial, interval and port), atomically", WR_OPTSEC_RUN,
		WR_PROF_OUTPUT, NULL },
	{ "csv-streams", REQ, WR_OPT_CSV_STREAMS, "FILE", "write the per-stream table as "
		"CSV (one row per\ntrial and stream: sent, received, lost,\nlatency), "
		"atomically", WR_OPTSEC_RUN,
		WR_PROF_OUTPUT, NULL },
	{ "label", REQ, WR_OPT_LABEL, "TEXT", "name the run in results and reports",
		WR_OPTSEC_RUN,
		WR_PROF_OUTPUT, NULL },
	{ "control", REQ, WR_OPT_CONTROL, "FILE", "serve JSON-RPC requests on this "
		"UNIX socket\n(mode 0600) during the run: status, update\n(rate, pause), stop "
		"(docs/api.md) [off]", WR_OPTSEC_RUN,
		WR_PROF_OUTPUT, NULL },
	{ "control-listen", REQ, WR_OPT_CONTROL_LISTEN, "ADDR:PORT", "also serve "
		"--control's requests on TCP\n(IPv4 or [IPv6]); needs --control-token\n[off]",
		WR_OPTSEC_RUN, WR_PROF_OUTPUT, NULL },
	{ "control-token", REQ, WR_OPT_CONTROL_TOKEN, "FILE", "the secret a TCP client "
		"sends first (auth);\nthe file readable by its owner only", WR_OPTSEC_RUN,
		WR_PROF_OUTPUT, NULL },
	{ "web", REQ, WR_OPT_WEB, "[ADDR:]PORT", "wirerate serve: also serve a web page "
		"on\nHTTP (docs/web.md), on 127.0.0.1 unless\nADDR is given; needs "
		"--control-token [off]", WR_OPTSEC_RUN, WR_PROF_OUTPUT, NULL },
	{ "web-open", NO, WR_OPT_WEB_OPEN, NULL, "--web's read-only pages without the "
		"token\n(changes always need it) [off]", WR_OPTSEC_RUN,
		WR_PROF_OUTPUT, NULL },
	{ "web-history", REQ, WR_OPT_WEB_HISTORY, "DB", "--web's page also shows the "
		"charts of\n`wirerate history html` of DB (an SQLite\nfile or a "
		"postgresql:// URL) [off]", WR_OPTSEC_RUN, WR_PROF_OUTPUT, NULL },
	{ "lease-log", REQ, WR_OPT_LEASE_LOG, "FILE", "serve: append every lease "
		"event (acquire,\nrenew, release, expire, force, queue) to\nFILE as JSON "
		"lines (docs/api.md) [off]", WR_OPTSEC_RUN,
		WR_PROF_OUTPUT, NULL },
	{ "peer", REQ, WR_OPT_PEER, "SPEC", "the far end counts the frames: a wirerate\n"
		"serve at tcp:HOST:PORT or unix:PATH owning\nthe receiving ports; every "
		"trial judged on\nits counts (docs/twoended.md) [off]", WR_OPTSEC_RUN,
		WR_PROF_TEST, NULL },
	{ "peer-token", REQ, WR_OPT_PEER_TOKEN, "FILE", "the secret of a tcp: --peer "
		"(the far end's\n--control-token)", WR_OPTSEC_RUN,
		WR_PROF_TEST, NULL },
	{ "peer-rate", REQ, WR_OPT_PEER_RATE, "RATE", "both directions: the far end "
		"sends to this\nrun too, at RATE (pps or bps; the 100 % of\nits own "
		"search with --mode throughput) [off]", WR_OPTSEC_RUN,
		WR_PROF_TEST, NULL },
	{ "peer-timeout", REQ, WR_OPT_PEER_TIMEOUT, "T", "longest wait for one answer "
		"of --peer [5s]\n(a trial's counts: --grace more)", WR_OPTSEC_RUN,
		WR_PROF_TEST, NULL },
	{ "peer-idle", REQ, WR_OPT_PEER_IDLE, "T", "wirerate serve: a sender's session "
		"with no\npeer call for T ends, so another may open\none [120s]",
		WR_OPTSEC_RUN, WR_PROF_TEST, NULL },
	{ "repeat", REQ, WR_OPT_REPEAT, "N", "run the traffic phase N times on the same\n"
		"ports, fresh counters each trial; results\ngain \"trials\" and a \"summary\" "
		"(median, min,\nmax, 95% CI) [1]", WR_OPTSEC_RUN,
		WR_PROF_TEST, NULL },
	{ "warmup", REQ, WR_OPT_WARMUP, "N", "trials run first and not counted [0]",
		WR_OPTSEC_RUN,
		WR_PROF_TEST, NULL },
	{ "plain", NO, WR_OPT_PLAIN, NULL, "plain lines even on a terminal", WR_OPTSEC_RUN,
		WR_PROF_OUTPUT, NULL },
	{ "quiet", NO, WR_OPT_QUIET, NULL, "no live view, only the summary", WR_OPTSEC_RUN,
		WR_PROF_OUTPUT, NULL },
	{ "help", NO, WR_OPT_HELP, NULL, "this text (also -h)", WR_OPTSEC_RUN,
		WR_PROF_NONE, NULL },
	{ "version", NO, WR_OPT_VERSION, NULL, "wirerate's and DPDK's versions",
		WR_OPTSEC_RUN,
		WR_PROF_NONE, NULL },

	{ "start-on-rx", NO, WR_OPT_START_ON_RX, NULL, "the clock (duration, intervals, "
		"rates)\nstarts with the first received own frame\n(--rx-clock); with "
		"--tx-ports none or\n--reflect [start at launch]", WR_OPTSEC_TWOEND,
		WR_PROF_RUN, NULL },
	{ "idle-timeout", REQ, WR_OPT_IDLE_TIMEOUT, "T", "stop once no own frame was "
		"received for T\n(--rx-clock), counted from the first; the\nrun "
		"then ends at its last own frame and\n--duration defaults to 0 [off]",
		WR_OPTSEC_TWOEND,
		WR_PROF_RUN, NULL },
	{ "rx-clock", REQ, WR_OPT_RX_CLOCK, "WHICH", "the frames --start-on-rx and "
		"--idle-timeout\nwait for: own (test frames of a stream;\na "
		"switch's BPDUs or LLDP, ARP, any other\ntool's frames neither "
		"start the clock nor\nkeep the timeout off) or any (every frame:\n"
		"for receiving another tool's traffic;\nalways with --reflect) "
		"[own]", WR_OPTSEC_TWOEND,
		WR_PROF_RUN, rx_clock_values },
	{ "clock-sync", REQ, WR_OPT_CLOCK_SYNC, "SRC[:SOCK]", "where this host's clock "
		"sync is read, for\none-way latency across hosts: ptp (ptp4l\nthrough pmc), "
		"chrony (chronyc tracking),\nauto (ptp4l, else chronyd, where its "
		"socket\nexists) or none; :SOCK names ptp4l's\nuds_address or chronyd's "
		"command socket;\nthe result's env.clock (docs/testbeds.md)\n[auto]",
		WR_OPTSEC_TWOEND, WR_PROF_RUN, clock_sync_values },
	{ "reflect", NO, WR_OPT_REFLECT, NULL, "send every received frame back out of "
		"its\nport on the TX queue paired with its RX\nqueue, MACs, IPs and UDP/TCP "
		"ports swapped;\ncounts what it reflected and what it could\nnot (TX full: "
		"freed) [off]", WR_OPTSEC_TWOEND,
		WR_PROF_RUN, NULL },
	{ "linger", REQ, WR_OPT_LINGER, "T", "after the run, with RX and TX stopped, keep\n"
		"the ports open until every link is down\n(the peer left first), at most T "
		"[0]", WR_OPTSEC_TWOEND,
		WR_PROF_RUN, NULL },
	{ "goals", REQ, WR_OPT_GOALS, "LIST", "--mode mlr goals, comma-separated, each\n"
		"LOSS:EXCEED:SUM:WIDTH: loss ratio a trial\nmay have, share of trial "
		"seconds that may\nexceed it, seconds of full-length trials a\nload needs, "
		"relative width of the result\n[0:0.5:21s:0.005,0.005:0.5:21s:0.005, CSIT's\n"
		"NDR and PDR]", WR_OPTSEC_MODES,
		WR_PROF_TEST, NULL },
	{ "mlr-initial", REQ, WR_OPT_MLR_INITIAL, "T", "--mode mlr: length of the "
		"short trials that\nnarrow the interval before full-length ones\n"
		"(--trial; 1s for mlr unless given) [--trial / 10,\nat least 100ms]",
		WR_OPTSEC_MODES,
		WR_PROF_TEST, NULL },
	{ "lat-loads", REQ, WR_OPT_LAT_LOADS, "LIST", "after --mode throughput or mlr: "
		"latency\ntrials at these percentages of the rate found\n(NDR, or the "
		"last goal's), 0 = a trickle of\n10 kpps; none = off [0,10,50,90]",
		WR_OPTSEC_MODES,
		WR_PROF_TEST, NULL },
	{ "lat-trial", REQ, WR_OPT_LAT_TRIAL, "T", "length of each latency trial "
		"[--trial]", WR_OPTSEC_MODES,
		WR_PROF_TEST, NULL },
	{ "y1564-steps", REQ, WR_OPT_Y1564_STEPS, "LIST", "--mode y1564: the CIR steps, "
		"% of each\nservice's CIR, ascending, at most 10\n[25,50,75,100]",
		WR_OPTSEC_MODES,
		WR_PROF_TEST, NULL },
	{ "step-time", REQ, WR_OPT_STEP_TIME, "T", "--mode y1564: length of each "
		"service\nconfiguration step, >= 100ms [10s]", WR_OPTSEC_MODES,
		WR_PROF_TEST, NULL },
	{ "perf-time", REQ, WR_OPT_PERF_TIME, "T", "--mode y1564: length of the "
		"service\nperformance test (every service at its CIR),\n0 = none "
		"[15min]", WR_OPTSEC_MODES,
		WR_PROF_TEST, NULL },
	{ "police-margin", REQ, WR_OPT_POLICE_MARGIN, "PCT", "--mode y1564: the "
		"policing step passes when\nwhat arrives is within CIR+EIR plus PCT%\n"
		"of it, 0..100 [5]", WR_OPTSEC_MODES,
		WR_PROF_TEST, NULL },
	{ "ses-flr", REQ, WR_OPT_SES_FLR, "PCT", "--mode y1564: a second losing more "
		"than PCT%\nof a service's frames is severely errored\n(10 in a row: "
		"unavailable), 0..100 [50]", WR_OPTSEC_MODES,
		WR_PROF_TEST, NULL },
	{ "skip-unmeasured", NO, WR_OPT_SKIP_UNMEASURED, NULL, "--mode y1564: run "
		"although a service's\nftd= or fdv= cannot be measured (--stamp seq\n"
		"or none, --latency off); the verdict lists\nthem as not measured and "
		"judges the rest\n[refused at start]", WR_OPTSEC_MODES,
		WR_PROF_TEST, NULL },
	{ "addr-ports", REQ, WR_OPT_ADDR_PORTS, "L,T,M", "--mode addr-*: the "
		"learning, test and\nmonitoring ports, by their order on the\ncommand "
		"line, three different ports [0,1,2]", WR_OPTSEC_MODES,
		WR_PROF_TEST, NULL },
	{ "addr-count", REQ, WR_OPT_ADDR_COUNT, "N[-M]", "--mode addr-capacity: "
		"search the address\ncount in N..M (a single N: only N);\naddr-learning: "
		"learn M addresses [1-4096]", WR_OPTSEC_MODES,
		WR_PROF_TEST, NULL },
	{ "addr-rate", REQ, WR_OPT_ADDR_RATE, "PPS", "--mode addr-*: rate of the "
		"test frames, and\nof addr-capacity's learning frames [1000]",
		WR_OPTSEC_MODES,
		WR_PROF_TEST, NULL },
	{ "learn-rates", REQ, WR_OPT_LEARN_RATES, "MIN-MAX", "--mode addr-learning: "
		"search the learning\nframes' rate in MIN..MAX frames/s (--resolution,"
		"\n--max-trials) [100-10000]", WR_OPTSEC_MODES,
		WR_PROF_TEST, NULL },
	{ "fdb-reset", REQ, WR_OPT_FDB_RESET, "CMD", "--mode addr-*: shell command "
		"that empties\nthe switch's address table before each trial\n(e.g. "
		"'bridge fdb flush dev br0'); it must\nexit 0 [required]", WR_OPTSEC_MODES,
		WR_PROF_TEST, NULL },
	{ "aging", REQ, WR_OPT_AGING, "T", "--mode addr-*: the switch's ageing time; "
		"a\ntrial longer than it is refused, 0 = not\nchecked [300s]",
		WR_OPTSEC_MODES,
		WR_PROF_TEST, NULL },
	{ "addr-settle", REQ, WR_OPT_ADDR_SETTLE, "T", "--mode addr-*, mesh: wait "
		"between the\nlearning and the test frames, and after the\ntest frames "
		"before counting [100ms]", WR_OPTSEC_MODES,
		WR_PROF_TEST, NULL },
	{ "addr-plan", REQ, WR_OPT_ADDR_PLAN, "PLAN", "--mode addr-*: the learned "
		"source addresses:\nMAC (it and the ones after it) or\nrandom[:SEED] "
		"(locally administered)\n[02:28:89:00:00:00]", WR_OPTSEC_MODES,
		WR_PROF_TEST, addr_plan_values },
	{ "mesh-pattern", REQ, WR_OPT_MESH_PATTERN, "P", "--mode mesh: full (every "
		"port to every\nother, RFC 2889 5.1), one-to-many (the first\nport to "
		"the others), many-to-one (the\nothers to the first; 5.2), congestion\n(5.5: "
		"ports 0 and 1 overload port 2,\nport 0 also sends to port 3),\n"
		"unidirectional (5.4: each port of the\nfirst half to each of the second),\n"
		"multi-device (5.3: the same both ways,\none switch per half) or broadcast\n"
		"(5.10: the first port sends broadcast\nframes, every other counts them) [full]",
		WR_OPTSEC_MODES, WR_PROF_TEST, mesh_pattern_values },
	{ "mesh-rate", REQ, WR_OPT_MESH_RATE, "PPS[-MAX]", "--mode mesh: frames/s "
		"each port sends: one\ntrial, or MIN-MAX: the throughput searched\n"
		"(--resolution, --max-trials) [1000]", WR_OPTSEC_MODES,
		WR_PROF_TEST, NULL },
	{ "mesh-forward-pressure", REQ, WR_OPT_MESH_FWD_PRESSURE, "BPS", "--mode "
		"mesh: RFC 2889 5.6 forward\npressure: one trial at the rate of a gap of\n"
		"88 bit times on a link of BPS (declared:\na virtual link has no wire "
		"gap); found when\na port forwards above the rate of the legal\n96-bit "
		"gap; not with --mesh-rate [off]", WR_OPTSEC_MODES,
		WR_PROF_TEST, NULL },
	{ "capture", REQ, WR_OPT_CAPTURE, "FILE", "write the frames that explain a bad "
		"run to\nFILE (pcapng, rte_pcapng; tcpdump -r and\ntshark read it), "
		"atomically at the end [off]", WR_OPTSEC_CAPTURE,
		WR_PROF_CAPTURE, NULL },
	{ "capture-what", REQ, WR_OPT_CAPTURE_WHAT, "LIST", "what to keep: foreign "
		"(and malformed\nframes), seq (around each gap, late or\nduplicate frame), "
		"last (the last frames per\nRX queue at each stop) [foreign,seq,last]",
		WR_OPTSEC_CAPTURE,
		WR_PROF_CAPTURE, capture_what_values },
	{ "capture-around", REQ, WR_OPT_CAPTURE_AROUND, "N", "frames kept each side of "
		"a seq anomaly,\n0..4096 [4]", WR_OPTSEC_CAPTURE,
		WR_PROF_CAPTURE, NULL },
	{ "capture-last", REQ, WR_OPT_CAPTURE_LAST, "N", "frames kept per RX queue at "
		"each stop,\n0..4096 [16]", WR_OPTSEC_CAPTURE,
		WR_PROF_CAPTURE, NULL },
	{ "capture-max", REQ, WR_OPT_CAPTURE_MAX, "N", "foreign and seq copies per RX "
		"queue; the\nrest are counted (over_budget_pkts) [1000]",
		WR_OPTSEC_CAPTURE,
		WR_PROF_CAPTURE, NULL },
	{ "capture-snaplen", REQ, WR_OPT_CAPTURE_SNAPLEN, "BYTES", "bytes kept per "
		"frame, 14..9018 [whole frame]", WR_OPTSEC_CAPTURE,
		WR_PROF_CAPTURE, NULL },

	{ "conn", REQ, WR_OPT_CONN, "ROLE", "a run of TCP connections instead of "
		"frames:\nclient (opens them to --conn-server) or\nserver (listens on "
		"--conn-listen); each port\nof --tx-ports runs one engine from its\n"
		"--port-ip address; or by port, e.g.\n0=client,1=server: both in one run\n"
		"(docs/tcp.md) [off]", WR_OPTSEC_CONN,
		WR_PROF_CONN, conn_values },
	{ "conn-app", REQ, WR_OPT_CONN_APP, "APP", "what the connections carry: "
		"http (GET and\nanswer, HTTP/1.1) or bulk (the client sends\nas fast as "
		"the windows allow) [http]", WR_OPTSEC_CONN,
		WR_PROF_CONN, conn_app_values },
	{ "conn-server", REQ, WR_OPT_CONN_SERVER, "ADDR:PORT", "client: the server, "
		"A.B.C.D:PORT or\n[IPv6]:PORT; its family is the run's\n(required)",
		WR_OPTSEC_CONN, WR_PROF_CONN, NULL },
	{ "conn-listen", REQ, WR_OPT_CONN_LISTEN, "N", "server: the TCP port it "
		"listens on, 1..65535\n[80]", WR_OPTSEC_CONN, WR_PROF_CONN, NULL },
	{ "conn-rate", REQ, WR_OPT_CONN_RATE, "N", "client: connections opened per "
		"second and\nport, 1..1000000000 (k/M/G) [as fast as\n"
		"--conn-concurrency allows]", WR_OPTSEC_CONN, WR_PROF_CONN, NULL },
	{ "conn-concurrency", REQ, WR_OPT_CONN_CONCURRENCY, "N", "connections open "
		"at once per port (the pool,\nallocated at start), 1..16777216; with\n"
		"--mode conn-load a list, one trial each:\n1,4,16 [10000]",
		WR_OPTSEC_CONN, WR_PROF_CONN, NULL },
	{ "conn-count", REQ, WR_OPT_CONN_COUNT, "N", "client: connections to open "
		"in all per port\n(k/M/G), then the run ends [until --duration]",
		WR_OPTSEC_CONN, WR_PROF_CONN, NULL },
	{ "conn-requests", REQ, WR_OPT_CONN_REQUESTS, "N", "http client: requests "
		"on each connection\n(keep-alive), 1..1000000 [1]", WR_OPTSEC_CONN,
		WR_PROF_CONN, NULL },
	{ "conn-body", REQ, WR_OPT_CONN_BODY, "BYTES", "http server: the body of "
		"each answer,\n1..1000000000 (k/M/G) [1000]", WR_OPTSEC_CONN,
		WR_PROF_CONN, NULL },
	{ "conn-req-body", REQ, WR_OPT_CONN_REQ_BODY, "BYTES", "http client: each "
		"request a POST with a\nbody of BYTES, 1..1000000000 (k/M/G) [a GET,\n"
		"no body]", WR_OPTSEC_CONN, WR_PROF_CONN, NULL },
	{ "conn-path", REQ, WR_OPT_CONN_PATH, "PATH", "http client: the path of "
		"each request, starting\nwith /, at most 63 characters [/]",
		WR_OPTSEC_CONN, WR_PROF_CONN, NULL },
	{ "conn-host", REQ, WR_OPT_CONN_HOST, "NAME", "http client: the Host "
		"header, at most 63\ncharacters [--conn-server's address]",
		WR_OPTSEC_CONN, WR_PROF_CONN, NULL },
	{ "conn-src-ip", REQ, WR_OPT_CONN_SRC_IP, "A-B", "client: source addresses, "
		"one or a range\n(IPv4, or IPv6 varying in its last 64 bits),\none "
		"port only [the port's --port-ip]", WR_OPTSEC_CONN, WR_PROF_CONN, NULL },
	{ "conn-sport", REQ, WR_OPT_CONN_SPORT, "N-M", "client: source ports, "
		"1..65535; each address\nwith each port is one 4-tuple [1024-65535]",
		WR_OPTSEC_CONN, WR_PROF_CONN, NULL },
	{ "conn-bulk", REQ, WR_OPT_CONN_BULK, "BYTES", "bulk client: bytes sent on "
		"each connection\n(k/M/G), then it closes [until the run ends]",
		WR_OPTSEC_CONN, WR_PROF_CONN, NULL },
	{ "conn-timeout", REQ, WR_OPT_CONN_TIMEOUT, "T", "http client: an answer "
		"not complete T after\nits request fails (response timeout) [5s]",
		WR_OPTSEC_CONN, WR_PROF_CONN, NULL },
	{ "conn-time-wait", REQ, WR_OPT_CONN_TIME_WAIT, "T", "how long a closed "
		"connection's 4-tuple stays\nin TIME_WAIT, >= 1ms [60s, 2 MSL as Linux]",
		WR_OPTSEC_CONN, WR_PROF_CONN, NULL },
	{ "conn-mss", REQ, WR_OPT_CONN_MSS, "BYTES", "the MSS announced, "
		"536..8960 (IPv6\n20 less: the frame stays within 9018 bytes)\n"
		"[1460, IPv6 1440]", WR_OPTSEC_CONN, WR_PROF_CONN, NULL },
	{ "conn-window", REQ, WR_OPT_CONN_WINDOW, "BYTES", "the receive window "
		"announced (window scale\nas it needs), 1024..1073725440 [262144]",
		WR_OPTSEC_CONN, WR_PROF_CONN, NULL },
	{ "conn-csum", REQ, WR_OPT_CONN_CSUM, "HOW", "TCP and IPv4 checksums: auto "
		"(by the PMD\nwhere it offers them, else in software) or\nsoftware "
		"(always: the CPU's cost counted) [auto]", WR_OPTSEC_CONN,
		WR_PROF_CONN, conn_csum_values },
};

const size_t wr_optab_len = sizeof(wr_optab) / sizeof(wr_optab[0]);

_Static_assert(sizeof(wr_optab) / sizeof(wr_optab[0]) <= WR_OPTAB_MAX,
	"raise WR_OPTAB_MAX");
