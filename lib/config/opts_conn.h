/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Options of a connection run (docs/tcp.md, "Running connections"):
 * --conn ROLE makes the run one of TCP connections instead of frames,
 * the --conn-* options fill the engine's configuration (conncfg.h). Pure:
 * opts.c dispatches to these; names and help are in the option table
 * (optab.c).
 */
#ifndef WR_OPTS_CONN_H
#define WR_OPTS_CONN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "conncfg.h"

struct wr_config;
struct wr_l3svc_port;

/* Connections open at once, at most (the pool's indices are 32-bit). */
#define WR_CONN_MAX_OPEN (1u << 24)
/* Source addresses of one client, at most. */
#define WR_CONN_MAX_LADDRS (1u << 24)
/* Largest response body and bulk length of one connection, bytes. */
#define WR_CONN_MAX_BODY_BYTES 1000000000ULL
#define WR_CONN_MAX_BULK_BYTES (1ULL << 50)
/* Largest receive window: 65535 << 14 (RFC 7323 2.3). */
#define WR_CONN_MAX_WINDOW_BYTES (65535u << 14)

/* Concurrencies of --mode conn-load (--conn-concurrency A,B,...), at most. */
#define WR_CONN_LOAD_MAX 16u

/* Defaults (docs/tcp.md and --help state them). */
#define WR_CONN_DEFAULT_PORT 80u
#define WR_CONN_DEFAULT_OPEN 10000u
#define WR_CONN_DEFAULT_BODY_BYTES 1000u
#define WR_CONN_DEFAULT_SPORT_FIRST 1024u
#define WR_CONN_DEFAULT_SPORT_LAST 65535u
#define WR_CONN_DEFAULT_TIMEOUT_US 5000000u
#define WR_CONN_DEFAULT_TIME_WAIT_US 60000000u /* 2 MSL, MSL 30 s (Linux) */
#define WR_CONN_DEFAULT_WINDOW_BYTES 262144u
#define WR_CONN_DEFAULT_TTL 64u

/*
 * What the options of a connection run asked. cfg holds every field the
 * options decide; the per-port ones (laddr, family of a server) are
 * completed by wr_opts_conn_port_cfg. Written by the parser only.
 */
struct wr_conn_opts {
	struct wr_conn_cfg cfg;     /* role 0: not a connection run */
	uint64_t given;             /* bit (id - WR_OPT_CONN): option given */
	bool src_set;               /* --conn-src-ip: cfg.laddr, nb_laddrs */
	bool host_set;              /* --conn-host given (else the server's
	                             * address) */
	bool mss_set;               /* --conn-mss given (else from the family) */
	uint8_t src_family;         /* --conn-src-ip's family, 4 or 6 */
	bool listen_set;            /* --conn-listen given: listen_port */
	uint16_t listen_port;       /* a server's port (cfg.server_port is
	                             * the client's target in a run of both) */
	uint64_t role_ports;        /* --conn P=ROLE,...: the ports named
	                             * (0: --conn ROLE, every port alike) */
	uint64_t server_ports;      /* of role_ports: those of a server */
	uint32_t load_conc[WR_CONN_LOAD_MAX]; /* --conn-concurrency's values
	                             * in order (cfg.max_open: the largest) */
	uint32_t nb_load_conc;      /* how many; 0: not given */
	uint8_t csum;               /* --conn-csum: 0 (not given) or
	                             * WR_CONN_CSUM_AUTO, WR_CONN_CSUM_SOFTWARE */
};

/* --conn-csum's words, as conn_word numbers them (optab.c's order). */
enum { WR_CONN_CSUM_AUTO = 1, WR_CONN_CSUM_SOFTWARE = 2 };

/* Defaults of these options (not a connection run). Can't fail. */
void wr_opts_conn_defaults(struct wr_conn_opts *co);

/*
 * Apply option id with value v. Returns 0, 1 when id is not one of
 * these, or -EINVAL with a message naming the option and the value.
 */
int wr_opts_conn(int id, const char *v, struct wr_config *cfg,
		struct wr_error *err);

/*
 * Cross-option rules, once every option is known: a connection run's
 * options without --conn, options of the other role or application,
 * frame-only options with --conn, a client without a server, addresses
 * of the wrong family, ports without a --port-ip address of the run's
 * family (the ports named by --tx-ports, else port 0), concurrency above
 * the source tuples. Completes cfg (family, MSS, window shift, Host).
 * Returns 0 or -EINVAL with a message naming the option.
 */
int wr_opts_conn_check(struct wr_config *cfg, struct wr_error *err);

/*
 * Whether a client port on nq queue pairs can share c among its nq
 * workers (lib/setup/connsetup.c): at least one source port, connection
 * open at once, connection a second (when paced) and connection (when
 * counted) each. Returns 0, or -EINVAL with err naming the option.
 */
int wr_opts_conn_share_check(const struct wr_conn_cfg *c, unsigned int nq,
	struct wr_error *err);

/*
 * The engine configuration of port port_id (< nb_ports): the options'
 * cfg with the port's address (laddr, unless --conn-src-ip) and, for a
 * server, its family. Returns 0, or -EINVAL with a message when the run
 * is not a connection run or the port has no --port-ip address of the
 * run's family (exit 2: bad input, before any traffic).
 */
int wr_opts_conn_port_cfg(const struct wr_config *cfg, unsigned int port_id,
		struct wr_conn_cfg *out, struct wr_error *err);

/*
 * Add a connection client's --conn-src-ip range to what its port answers
 * ARP and neighbour solicitations for (svc's nb_more), so that a router
 * or a host on the link can send the replies to those addresses. Nothing
 * for a server, a frame run or a client without --conn-src-ip. Can't fail.
 */
void wr_opts_conn_svc(const struct wr_config *cfg, struct wr_l3svc_port *svc);

/*
 * --conn P=ROLE[,P=ROLE...] (opts_conn_roles.c): each port's role into
 * co->role_ports and server_ports; cfg.role is client when any port is
 * one, else server. Returns 0 or -EINVAL naming the value.
 */
int wr_opts_conn_roles(const char *v, struct wr_conn_opts *co,
		struct wr_error *err);

/* Whether the run has client and server ports both. Can't fail. */
bool wr_opts_conn_both(const struct wr_conn_opts *co);

/* The role of port port_id in a connection run (0: not one). */
uint8_t wr_opts_conn_port_role(const struct wr_config *cfg,
		unsigned int port_id);

/*
 * The rules of --conn P=ROLE,...: the ports it names are the run's
 * (--tx-ports, when given, names the same; else set from them); in a run
 * of both roles, --conn-server is the address of a server port and
 * --conn-listen, when given, its port. Returns 0 or -EINVAL naming the
 * option.
 */
int wr_opts_conn_roles_check(struct wr_config *cfg, struct wr_error *err);

/*
 * Bytes the TCP core of one port needs for cfg (connection pool, tuple
 * table, timer links; lib/tcp's own figures): a lower bound of what a
 * port's engine allocates. Can't fail.
 */
uint64_t wr_opts_conn_mem_bytes(const struct wr_conn_cfg *cfg);

/*
 * Whether nb_ports engines of cfg fit in avail_bytes (the memory EAL may
 * take, e.g. the hugepages'). Returns 0, or -ENOMEM (class usage) with a
 * message naming --conn-concurrency and the bytes needed and available.
 */
int wr_opts_conn_mem_check(const struct wr_config *cfg, unsigned int nb_ports,
		uint64_t avail_bytes, struct wr_error *err);

#endif /* WR_OPTS_CONN_H */
