/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The validated configuration of one run: defaults, then a profile
 * (profile.c), then the command line (opts.c); read-only once the run
 * starts.
 */
#ifndef WR_CONFIG_H
#define WR_CONFIG_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include <rte_ether.h>

#include "goals.h"
#include "impair_spec.h"
#include "mix.h"
#include "opts_conn.h"
#include "pattern.h"
#include "portip.h"
#include "range.h"
#include "rfc2889cfg.h"
#include "rate.h"
#include "stream.h"

#define WR_MAX_PORTS 32u
#define WR_MAX_QUEUES 16u          /* per port and direction */
#define WR_MAX_BURST 512u
#define WR_MAX_MAPS 64u            /* explicit lcore maps */
#define WR_MAX_QPW 32u             /* queues of one direction per worker */
#define WR_FRAME_MIN_SIZE 64u      /* RFC 2544, FCS included */
#define WR_FRAME_MAX_SIZE 9018u    /* 9000-byte MTU + 14 header + 4 FCS */
#define WR_MAX_SIZES 16u           /* frame sizes of one sweep */
#define WR_MAX_REPEAT 1000u        /* --repeat */
#define WR_MAX_WARMUP 100u         /* --warmup */
#define WR_LABEL_LEN 128u          /* --label, with the NUL */
#define WR_MAX_LAT_LOADS 16u       /* --lat-loads */
#define WR_MAX_Y1564_STEPS 10u     /* --y1564-steps */
#define WR_MAX_POOL_MBUFS (1u << 24) /* --pool-mbufs */

enum wr_dir {
	WR_DIR_TX = 0,
	WR_DIR_RX = 1,
};

/* One (port, queue) pair in one direction. */
struct wr_qref {
	uint16_t port;
	uint16_t queue;
	enum wr_dir dir;
};

/* An explicit placement: lcore owns the listed queues. */
struct wr_map {
	unsigned int lcore;
	unsigned int nb_q;
	struct wr_qref q[2 * WR_MAX_QPW];
};

/* What the run does with its trials. */
enum wr_mode {
	WR_MODE_RUN = 0,     /* one trial, live view */
	WR_MODE_SWEEP,       /* one trial per frame size */
	WR_MODE_THROUGHPUT,  /* RFC 2544 26.1: NDR (and PDR) per size */
	WR_MODE_LOSS,        /* RFC 2544 26.3: frame loss rate per size */
	WR_MODE_B2B,         /* RFC 2544 26.4: back-to-back bursts per size */
	WR_MODE_MLR,         /* MLRsearch (draft-ietf-bmwg-mlrsearch), mlr.h */
	WR_MODE_Y1564,       /* ITU-T Y.1564 service activation, docs/y1564.md */
	WR_MODE_ADDR_CAPACITY, /* RFC 2889 5.7: address caching capacity */
	WR_MODE_ADDR_LEARNING, /* RFC 2889 5.8: address learning rate */
	WR_MODE_CONN_RATE,   /* RFC 9693: maximum connection establishment
	                      * rate of a --conn client, docs/tcp.md */
	WR_MODE_CONN_CAPACITY, /* RFC 9693 7: connections held, docs/conncap.md */
	WR_MODE_MESH,        /* RFC 2889 5.1, 5.2: meshed forwarding */
	WR_MODE_CONN_LOAD,   /* requests/s or goodput per concurrency of a
	                      * --conn client, docs/connload.md */
	WR_MODE_CONN_TEARDOWN, /* RFC 9693: connection tear-down rate of a
	                        * --conn client, docs/connteardown.md */
};

/* Which TX stamps latency may be computed from. */
enum wr_lat_mode {
	WR_LAT_AUTO = 0,  /* streams sent by this process (same TSC) */
	WR_LAT_TSC,       /* also other processes: the user says same host */
	WR_LAT_OFF,
	WR_LAT_SYNC,      /* also other hosts: one-way only where both ends'
	                   * clocks are synchronised (results/oneway.h) */
};

/*
 * Where a run reads its host's clock synchronisation (--clock-sync,
 * measure/clocksync.h): the word's order is optab.c's clock_sync_values.
 */
enum wr_clock_sync {
	WR_CLOCK_SYNC_AUTO = 0, /* ptp4l, else chronyd, where its socket exists */
	WR_CLOCK_SYNC_PTP,      /* linuxptp: ptp4l through pmc */
	WR_CLOCK_SYNC_CHRONY,   /* chronyd through chronyc */
	WR_CLOCK_SYNC_NONE,     /* not read: no one-way latency across hosts */
};
#define WR_CLOCK_PATH_LEN 108u      /* a UNIX socket path (sun_path), NUL */

/* What TX writes into each frame's test header (--stamp). */
enum wr_stamp {
	WR_STAMP_FULL = 0, /* sequence and TX timestamp */
	WR_STAMP_SEQ = 1,  /* sequence only; the timestamp stays 0 */
	WR_STAMP_NONE = 2, /* template untouched: every frame has seq 0 */
};

/*
 * Which received frames drive the RX clock of --start-on-rx and
 * --idle-timeout (--rx-clock): a receiver's link also carries frames of
 * nobody's test (a switch's BPDUs every 2 s, LLDP), which must neither
 * start it nor keep its idle timeout from ending it.
 */
enum wr_rx_clock {
	WR_RX_CLOCK_OWN = 0, /* bursts with own frames (a stream's test frames) */
	WR_RX_CLOCK_ANY = 1, /* any burst: another tool's traffic; a reflector */
};

/* What --capture keeps of the received frames (capture.h). */
enum wr_capture_what_bits {
	WR_CAPTURE_FOREIGN = 1u << 0,  /* foreign and malformed frames */
	WR_CAPTURE_SEQ = 1u << 1,      /* around every sequence anomaly */
	WR_CAPTURE_LAST = 1u << 2,     /* last frames per RX queue at stop */
};

struct wr_capture_conf {
	char path[PATH_MAX];        /* pcapng file, "" = no capture */
	uint32_t what;              /* WR_CAPTURE_* bits [all] */
	uint32_t around_pkts;       /* frames kept each side of an anomaly [4] */
	uint32_t last_pkts;         /* frames kept per RX queue at stop [16] */
	uint32_t max_pkts;          /* foreign/anomaly copies per queue [1000] */
	uint32_t snaplen;           /* bytes kept per frame, 0: whole [0] */
};

/* --replay: send a capture's frames (docs/replay.md). */
struct wr_replay_conf {
	char path[PATH_MAX];        /* pcap or pcapng file, "" = off */
	double speed;               /* capture timing sped up this many times;
	                             * 0: as fast as possible (or --rate) [1] */
	bool speed_set;             /* --replay-speed given */
	uint32_t nb_loops;          /* times the file is sent, 0: until stopped [1] */
	bool stamp;                 /* --replay-stamp: the test header into each
	                             * UDP payload with room [off] */
	uint32_t max_len;           /* longest frame of the file, bytes without
	                             * FCS (set by the checks, which read it) */
};

struct wr_config {
	/* Ports by role; a port may be in both. Empty masks mean "all". */
	uint64_t tx_port_mask;
	uint64_t rx_port_mask;
	bool tx_ports_set;
	bool rx_ports_set;
	uint16_t nb_txq;            /* TX queues per TX port */
	uint16_t nb_rxq;            /* RX queues per RX port */
	uint16_t nb_txd;            /* TX descriptors asked for (PMD may adjust) */
	uint16_t nb_rxd;
	uint16_t burst_pkts;
	uint32_t frame_size;        /* bytes, FCS included; with --sizes the largest */
	bool size_set;

	uint64_t duration_ms;       /* 0: until the count or a signal */
	bool duration_set;          /* given explicitly */
	uint64_t count_pkts;        /* frames per TX port, 0: unlimited */
	uint64_t interval_ms;       /* stats interval */
	uint64_t grace_ms;          /* RX keeps polling this long after TX stops */
	uint64_t checkpoint_ms;     /* --json rewritten this often; 0: at the end */
	uint64_t link_timeout_ms;   /* wait at most this for link up */

	/* Frame fields; MACs default to the ports' own and their peers'. */
	struct rte_ether_addr src_mac;
	struct rte_ether_addr dst_mac;
	bool src_mac_set;
	bool dst_mac_set;
	uint32_t src_ip;            /* host byte order */
	uint32_t dst_ip;
	unsigned int addr_set;      /* enum wr_portip_addr_bits: given explicitly */
	struct wr_portip port_ip[WR_MAX_PORTS]; /* --port-ip, by port id */
	uint64_t announce_ms;       /* --announce: period during the run; 0: off */
	uint16_t src_udp;
	uint16_t dst_udp;
	uint32_t nb_flows;          /* UDP source ports src_udp .. +nb_flows-1 */
	struct wr_ranges ranges;    /* fields that vary (range.h); firsts above */
	uint16_t vlan_id;           /* 0: untagged */
	struct wr_mix mix;          /* --mix; nb_sizes 0: fixed frame_size */
	bool ipv6;                  /* IPv6/UDP frames, not IPv4 */
	uint8_t src_ip6[16];        /* network byte order */
	uint8_t dst_ip6[16];
	uint8_t dscp;               /* IPv4 TOS / IPv6 traffic class >> 2 */
	uint8_t vlan_prio;          /* 802.1Q PCP, with --vlan */
	struct wr_pattern pattern;  /* --pattern; constant: the pacer alone */
	struct wr_stack stack;      /* --stack; nb_layers 0: none */
	/* --stream: one TX queue per definition (stream.h); 0: none. */
	unsigned int nb_stream_defs;
	char stream_text[WR_STREAM_MAX][WR_STREAM_TEXT_LEN];
	struct wr_stream_def streams[WR_STREAM_MAX]; /* built by the checks */
	unsigned int nb_stream_given; /* of them given, before the services'
	                               * yellow parts (service.h); 0: not yet */
	enum wr_stamp stamp;        /* test header fields written per frame */

	unsigned int nb_maps;       /* explicit lcore placement, 0: automatic */
	struct wr_map maps[WR_MAX_MAPS];

	unsigned int nb_ring_pairs; /* back-to-back port pairs made from rings */
	struct wr_impair_spec impair; /* RX test fixture, off when all zero */
	uint32_t pool_mbufs;        /* test knob: mbufs per pool, 0: sized */
	enum wr_lat_mode lat_mode;
	struct wr_rate rate;        /* per TX port; WR_RATE_NONE: line rate */
	uint64_t link_speed_bps;    /* nominal speed for % rates, 0: reported */

	/* Test modes (RFC 2544). */
	enum wr_mode mode;
	unsigned int nb_sizes;      /* 0: frame_size alone */
	uint32_t sizes[WR_MAX_SIZES];
	uint64_t trial_ms;          /* search/loss trial length [60 s, RFC 2544] */
	double resolution_pct;      /* throughput search resolution, relative */
	unsigned int max_trials;    /* per size */
	double pdr_ratio;           /* partial drop rate loss ratio, 0: NDR only */
	double loss_step_pct;       /* frame loss rate step [10] */
	unsigned int b2b_trials;    /* back-to-back repetitions */
	uint64_t b2b_max_pkts;      /* longest burst tried, 0: 2 s at max rate */
	char json_path[PATH_MAX];
	bool maps_from_profile;     /* a --map on the command line replaces them */
	bool plain;                 /* never refresh in place */
	bool quiet;                 /* no live view */

	/* Results (docs/results.md). */
	char csv_path[PATH_MAX];    /* per-interval CSV, "" = none */
	char csv_streams_path[PATH_MAX]; /* per-stream CSV, "" = none */
	char label[WR_LABEL_LEN];   /* names the run in reports, "" = none */
	char control_path[PATH_MAX];/* --control socket, "" = none */
	char control_addr[48];      /* --control-listen address, "" = none */
	uint16_t control_port;      /* --control-listen port */
	char control_token_path[PATH_MAX]; /* --control-token, "" = none */
	char web_addr[48];          /* --web address, "" = no web page */
	uint16_t web_port;          /* --web port */
	bool web_open;              /* --web-open: read-only pages, no token */
	char web_history[PATH_MAX]; /* --web-history DB, "" = none */
	char lease_log_path[PATH_MAX]; /* serve's --lease-log, "" = none */
	char peer[PATH_MAX + 8];    /* --peer tcp:HOST:PORT | unix:PATH, "" = none */
	char peer_token_path[PATH_MAX]; /* --peer-token, "" = none */
	uint64_t peer_timeout_ms;   /* --peer-timeout: one answer at most */
	uint64_t peer_idle_ms;      /* --peer-idle: a far end's session ends
	                             * after so long without a peer call */
	struct wr_rate peer_rate;   /* --peer-rate: the far end sends too (its
	                             * 100 %); WR_RATE_NONE: one way */
	char profile_path[PATH_MAX];/* profile the config came from, "" = none */
	unsigned int nb_repeat;     /* counted trials, 1..WR_MAX_REPEAT */
	unsigned int nb_warmup;     /* trials run first and not counted */

	/* Two-ended runs: sender and receiver in different processes. */
	bool start_on_rx;           /* the clock starts with the first RX frame */
	uint64_t idle_timeout_ms;   /* stop this long after the last RX; 0: off */
	enum wr_rx_clock rx_clock;  /* which frames are "RX" for the two above */
	bool rx_clock_set;          /* --rx-clock given */
	uint64_t linger_ms;         /* ports stay open until links are down; 0: off */
	bool reflect;               /* send every received frame back */
	enum wr_clock_sync clock_sync; /* --clock-sync source */
	char clock_sync_path[WR_CLOCK_PATH_LEN]; /* its socket, "" = default */
	struct wr_capture_conf capture; /* --capture (capture.h) */
	struct wr_replay_conf replay; /* --replay (opts_replay.h) */
	/* --mode mlr (mlr.h) and latency under load (modes_lat.c). */
	bool trial_set;             /* --trial given (mlr defaults to 1 s) */
	unsigned int nb_goals;
	struct wr_mlr_goal goals[WR_MLR_MAX_GOALS];
	uint64_t mlr_initial_ms;    /* short trials, 0: --trial / 10 */
	unsigned int nb_lat_loads;  /* 0: no latency-under-load trials */
	double lat_loads_pct[WR_MAX_LAT_LOADS];
	uint64_t lat_trial_ms;      /* 0: --trial */
	/* --mode y1564 (docs/y1564.md). */
	unsigned int nb_y1564_steps; /* CIR steps, % of the CIR, ascending */
	double y1564_steps_pct[WR_MAX_Y1564_STEPS];
	uint64_t step_ms;           /* each configuration test step [10 s] */
	uint64_t perf_ms;           /* the performance test [15 min]; 0: none */
	double police_margin;       /* policing step tolerance M, of CIR+EIR */
	double ses_flr;             /* a second is severely errored above it */
	bool skip_unmeasured;       /* run although ftd=/fdv= have no figure */
	/* --mode addr-capacity and addr-learning (docs/rfc2889.md). */
	struct wr_rfc2889_conf rfc2889;
	/* --conn: a run of TCP connections (opts_conn.h, docs/tcp.md). */
	struct wr_conn_opts conn;
};

/* Fill cfg with the documented defaults. This function can't fail. */
void wr_config_defaults(struct wr_config *cfg);

#endif /* WR_CONFIG_H */
