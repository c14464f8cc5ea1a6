/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The "rfc2889" object of a --mode mesh result (RFC 2889 5.1, 5.2;
 * docs/rfc2889.md, docs/results.md): the settings, each trial's counts
 * by port and by pair of ports, and what the trials found. The method
 * (methods/mode_mesh.c) hands over the structs below; only this file
 * writes their keys. Pure: no EAL.
 */
#ifndef WR_MESHJSON_H
#define WR_MESHJSON_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "kinds.h"
#include "config/config.h"
#include "rfc2889mesh.h"

/* One meshed trial as recorded. */
struct wr_mesh_trial_rec {
	const struct wr_mesh_plan *plan;
	const struct wr_mesh_counts *c;
	uint32_t frame_size;	/* bytes, FCS included */
	double offered_pps;	/* per sending port */
	double send_s;		/* first to last frame sent */
	double reset_s;		/* the --fdb-reset command's time, 0: none */
	double tsc_hz;		/* the latency's clock */
	bool pass;		/* no pair lost a frame */
	bool congestion;	/* 5.5: the verdicts too */
};

/* What the trials found. */
struct wr_mesh_found {
	bool search;		/* a throughput search (else one trial) */
	bool found;		/* search: a rate without loss */
	bool converged;		/* search: resolved before the trial cap */
	bool at_max;		/* search: the top of the range passed */
	double throughput_pps;	/* search: per sending port */
	double fail_pps;	/* search: lowest lossy rate, 0: none */
	double fwd_pps;		/* the forwarding rate in all, of the last
				 * trial (one trial) or at the throughput */
};

/*
 * The "rfc2889" object of doc for cfg's --mode mesh over nb ports (the
 * run's indices 0..nb-1, macs[i] port i's MAC) and an empty "trials";
 * NULL without memory. Owned by doc.
 */
json_t *wr_mesh_doc(json_t *doc, const struct wr_config *cfg, unsigned int nb,
		const struct rte_ether_addr *macs);

/* Append trial t to o's "trials". This function can't fail. */
void wr_mesh_trial_json(json_t *o, const struct wr_mesh_trial_rec *t);

/* The frame sizes of cfg's --mode mesh (--sizes, else --size), the i-th. */
unsigned int wr_mesh_nb_sizes(const struct wr_config *cfg);
uint32_t wr_mesh_size(const struct wr_config *cfg, unsigned int i);

/*
 * Append what the trials at frame size found, f, to o's "results"; the
 * first size's is o's "result" as well. This function can't fail.
 */
void wr_mesh_found_json(json_t *o, const struct wr_mesh_found *f,
		uint32_t size);

/* A port's point: stream_id = port * WR_MESH_PORT_POINT (meshpoints.c). */
#define WR_MESH_PORT_POINT 16

/*
 * The points of a mesh result doc (for compare and report, kinds.h): the
 * run's (the forwarding rate in all and, from a search, the throughput
 * per port), then one per port (its forwarding rate in the trial of the
 * result, its maximum forwarding rate); none while it runs. Returns 0 or
 * -EINVAL with err naming the missing or ill-typed field.
 */
int wr_mesh_points(const json_t *doc, struct wr_points *out,
		struct wr_error *err);

#endif /* WR_MESHJSON_H */
