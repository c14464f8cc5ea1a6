/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Configuration of the RFC 2889 address modes (docs/rfc2889.md):
 * --mode addr-capacity (section 5.7), addr-learning (5.8) and mesh
 * (5.1, 5.2). Filled by
 * opts_rfc2889.c from the option table; read by methods/mode_rfc2889.c.
 */
#ifndef WR_RFC2889CFG_H
#define WR_RFC2889CFG_H

#include <stdbool.h>
#include <stdint.h>

/* Longest --fdb-reset command, bytes with its NUL. */
#define WR_RFC2889_CMD_LEN 1024u
/* Most addresses one trial learns (--addr-count). */
#define WR_RFC2889_MAX_ADDRS 1000000u

/* --mesh-pattern: who sends to whom (RFC 2889 5.1 to 5.5). */
enum wr_mesh_pattern {
	WR_MESH_FULL,		/* 5.1: every port to every other */
	WR_MESH_ONE_TO_MANY,	/* 5.2: the first port to every other */
	WR_MESH_MANY_TO_ONE,	/* 5.2: every other port to the first */
	WR_MESH_CONGESTION,	/* 5.5: ports 0, 1 overload 2; 0 also to 3 */
	WR_MESH_UNIDIR,		/* 5.4: each port of the first half to each
				 * of the second, one way only */
	WR_MESH_MULTI_DEVICE,	/* 5.3: each port of the first half (one
				 * switch) to each of the second (the other
				 * switch), both ways */
	WR_MESH_BROADCAST,	/* 5.10: the first port broadcasts to all */
};

struct wr_rfc2889_conf {
	/* Run port indices (the ports' order on the command line). */
	uint16_t learn_port;	/* sends learning frames, receives test frames */
	uint16_t test_port;	/* sends the test frames */
	uint16_t mon_port;	/* counts what the switch floods */
	uint32_t min_nb;	/* --addr-count: N searched in min_nb..max_nb */
	uint32_t max_nb;	/* addr-learning: N = max_nb */
	double addr_pps;	/* --addr-rate: test frames (and 5.7 learning) */
	double learn_min_pps;	/* --learn-rates: 5.8's search range */
	double learn_max_pps;
	char reset_cmd[WR_RFC2889_CMD_LEN]; /* --fdb-reset, "" = none */
	uint64_t aging_ms;	/* --aging, 0: unknown */
	uint64_t settle_ms;	/* --addr-settle: learning to test frames */
	bool plan_random;	/* --addr-plan random[:SEED] */
	uint8_t plan_base[6];	/* range: the first address */
	uint64_t plan_seed;	/* random: the key */
	/* --mode mesh (5.1, 5.2) */
	enum wr_mesh_pattern mesh_pattern;	/* --mesh-pattern */
	double mesh_min_pps;	/* --mesh-rate: per sending port; equal to */
	double mesh_max_pps;	/* mesh_max_pps: one trial, else a search */
	bool mesh_rate_set;	/* --mesh-rate was given */
	uint64_t fwd_pressure_bps;	/* --mesh-forward-pressure, 0: off */
};

#endif /* WR_RFC2889CFG_H */
