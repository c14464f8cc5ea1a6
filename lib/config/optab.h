/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The option table: every wirerate option after "--", once, with its
 * argument, its help text and its section of --help. The parser
 * (getopt_long's table), --help, profiles and any argv check are made
 * from it, so an option cannot exist without help or the other way round.
 * Pure data: no EAL, no printing.
 */
#ifndef WR_OPTAB_H
#define WR_OPTAB_H

#include <getopt.h>
#include <stddef.h>

/* Sections of --help, in the order they are printed. */
enum wr_optab_section {
	WR_OPTSEC_PORTS = 0,
	WR_OPTSEC_FRAMES,
	WR_OPTSEC_RATE,
	WR_OPTSEC_MODES,
	WR_OPTSEC_PROFILE,
	WR_OPTSEC_RUN,
	WR_OPTSEC_TWOEND,
	WR_OPTSEC_CAPTURE,
	WR_OPTSEC_CONN,
	WR_OPTSEC_COUNT,
};

/* Option ids: getopt_long's return values (above any short option). */
enum wr_optab_id {
	WR_OPT_TX_PORTS = 256, WR_OPT_RX_PORTS, WR_OPT_TXQ, WR_OPT_RXQ,
	WR_OPT_TXD, WR_OPT_RXD, WR_OPT_BURST, WR_OPT_MAP, WR_OPT_RING_PAIRS,
	WR_OPT_SIZE, WR_OPT_SRC_MAC, WR_OPT_DST_MAC, WR_OPT_SRC_IP,
	WR_OPT_DST_IP, WR_OPT_SPORT, WR_OPT_DPORT, WR_OPT_FLOWS, WR_OPT_VLAN,
	WR_OPT_STAMP, WR_OPT_RATE, WR_OPT_LINK_SPEED, WR_OPT_MODE,
	WR_OPT_SIZES, WR_OPT_TRIAL, WR_OPT_RESOLUTION, WR_OPT_MAX_TRIALS,
	WR_OPT_PDR, WR_OPT_LOSS_STEP, WR_OPT_B2B_TRIALS, WR_OPT_B2B_MAX,
	WR_OPT_PROFILE, WR_OPT_DURATION, WR_OPT_COUNT, WR_OPT_INTERVAL,
	WR_OPT_GRACE, WR_OPT_LINK_TIMEOUT, WR_OPT_JSON, WR_OPT_CHECKPOINT,
	WR_OPT_IMPAIR, WR_OPT_POOL_MBUFS, WR_OPT_LATENCY, WR_OPT_CSV, WR_OPT_CSV_STREAMS,
	WR_OPT_LABEL, WR_OPT_REPEAT, WR_OPT_WARMUP, WR_OPT_PLAIN,
	WR_OPT_QUIET, WR_OPT_HELP, WR_OPT_VERSION, WR_OPT_START_ON_RX,
	WR_OPT_IDLE_TIMEOUT, WR_OPT_REFLECT, WR_OPT_LINGER,
	WR_OPT_CAPTURE, WR_OPT_CAPTURE_WHAT, WR_OPT_CAPTURE_AROUND,
	WR_OPT_CAPTURE_LAST, WR_OPT_CAPTURE_MAX, WR_OPT_CAPTURE_SNAPLEN,
	WR_OPT_MIX, WR_OPT_IPV6, WR_OPT_SRC_IP6, WR_OPT_DST_IP6,
	WR_OPT_DSCP, WR_OPT_VLAN_PRIO, WR_OPT_PATTERN, WR_OPT_STREAM, WR_OPT_STACK,
	WR_OPT_GOALS, WR_OPT_MLR_INITIAL, WR_OPT_LAT_LOADS, WR_OPT_LAT_TRIAL, WR_OPT_Y1564_STEPS,
	WR_OPT_STEP_TIME, WR_OPT_PERF_TIME, WR_OPT_POLICE_MARGIN, WR_OPT_SES_FLR,
	WR_OPT_SKIP_UNMEASURED,
	WR_OPT_CONTROL,
	WR_OPT_CONTROL_LISTEN, WR_OPT_CONTROL_TOKEN, WR_OPT_WEB, WR_OPT_WEB_OPEN,
	WR_OPT_WEB_HISTORY, WR_OPT_LEASE_LOG,
	WR_OPT_PEER, WR_OPT_PEER_TOKEN, WR_OPT_PEER_TIMEOUT, WR_OPT_PEER_RATE,
	WR_OPT_PEER_IDLE,
	WR_OPT_REPLAY, WR_OPT_REPLAY_SPEED, WR_OPT_REPLAY_LOOP, WR_OPT_REPLAY_STAMP,
	WR_OPT_PORT_IP,
	WR_OPT_VARY,
	WR_OPT_ANNOUNCE,
	WR_OPT_RX_CLOCK,
	WR_OPT_CLOCK_SYNC,
	WR_OPT_ADDR_PORTS, WR_OPT_ADDR_COUNT, WR_OPT_ADDR_RATE, WR_OPT_LEARN_RATES,
	WR_OPT_FDB_RESET, WR_OPT_AGING, WR_OPT_ADDR_SETTLE, WR_OPT_ADDR_PLAN,
	WR_OPT_MESH_PATTERN, WR_OPT_MESH_RATE, WR_OPT_MESH_FWD_PRESSURE,
	WR_OPT_CONN, WR_OPT_CONN_APP, WR_OPT_CONN_SERVER, WR_OPT_CONN_LISTEN,
	WR_OPT_CONN_RATE, WR_OPT_CONN_CONCURRENCY, WR_OPT_CONN_COUNT,
	WR_OPT_CONN_REQUESTS, WR_OPT_CONN_BODY, WR_OPT_CONN_PATH, WR_OPT_CONN_HOST,
	WR_OPT_CONN_SRC_IP, WR_OPT_CONN_SPORT, WR_OPT_CONN_BULK,
	WR_OPT_CONN_TIMEOUT, WR_OPT_CONN_TIME_WAIT, WR_OPT_CONN_MSS,
	WR_OPT_CONN_WINDOW, WR_OPT_CONN_CSUM, WR_OPT_CONN_REQ_BODY,
	WR_OPT_CONN_LAST = WR_OPT_CONN_REQ_BODY, /* the options of lib/config/opts_conn.c */
};

/*
 * Sections of a profile (docs/profiles.md), in the order they are listed;
 * WR_PROF_NONE: not accepted in a profile (help, version, profile itself).
 * [streams] holds no option: its keys are stream names (profile.c).
 */
enum wr_optab_profsec {
	WR_PROF_NONE = 0,
	WR_PROF_PORTS,
	WR_PROF_LCORES,
	WR_PROF_FRAMES,
	WR_PROF_RUN,
	WR_PROF_TEST,
	WR_PROF_OUTPUT,
	WR_PROF_CAPTURE,
	WR_PROF_CONN,
	WR_PROF_STREAMS,
	WR_PROF_COUNT,
};

/* One option. */
struct wr_optdesc {
	const char *name;     /* long name without "--" */
	int has_arg;          /* no_argument or required_argument */
	int id;               /* enum wr_optab_id */
	const char *arg;      /* the argument's name in --help, NULL without */
	const char *help;     /* what it does and its default in [...]; lines
	                       * split with '\n', never empty */
	enum wr_optab_section section;
	enum wr_optab_profsec profile; /* its profile section */
	/* The words the argument takes (NULL-terminated; NULL when it is not
	 * a choice of words): the parser's names, in the order of its enum,
	 * and what --help, the man page and completion list. */
	const char *const *values;
};

/* The table, in --help order, and its length. */
extern const struct wr_optdesc wr_optab[];
extern const size_t wr_optab_len;

/* Upper bound on wr_optab_len, for callers' fixed-size getopt tables. */
#define WR_OPTAB_MAX 160

/* A section's heading in --help ("Ports and placement"). */
const char *wr_optab_section_title(enum wr_optab_section s);

/* A profile section's name ("ports"); "" for WR_PROF_NONE. */
const char *wr_optab_profsec_name(enum wr_optab_profsec s);

/*
 * Index of word v among the values of option id (as its enum counts), or
 * -ENOENT when v is not one of them or the option takes no words.
 */
int wr_optab_value(int id, const char *v);

/* Word i of option id (as its enum counts), or "?" out of range. */
const char *wr_optab_word(int id, int i);

/*
 * Write the words of option id into buf as "a, b or c", in table order,
 * so that a message lists exactly what the parser takes. buf is "" when
 * the option takes no words. Truncates to n bytes; can't fail.
 */
void wr_optab_values_list(int id, char *buf, size_t n);

/* The option called name (without "--"), or NULL. */
const struct wr_optdesc *wr_optab_find(const char *name);

/*
 * Fill lo[0..wr_optab_len] with getopt_long's table: one entry per
 * option and the zero terminator. lo must hold WR_OPTAB_MAX + 1 entries.
 * This function can't fail.
 */
void wr_optab_getopt(struct option *lo);

/*
 * Format one option for --help into buf: "  --name ARG" padded to a
 * column, then its help lines, the later ones indented to that column,
 * each ending in '\n'. Returns the length written (as snprintf), or
 * -EINVAL when the option has no help text.
 */
int wr_optab_format(const struct wr_optdesc *o, char *buf, size_t len);

#endif /* WR_OPTAB_H */
