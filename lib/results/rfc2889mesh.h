/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RFC 2889 meshed forwarding (section 5.1 fully meshed, 5.2 partially
 * meshed: one-to-many, many-to-one), its pure parts: who sends to whom
 * (the plan), the counts of one trial by pair of ports, and what they
 * say: each pair's loss (sent = received + lost, exact), each port's
 * forwarding rate (frames received per second at the output port,
 * 5.1.4), and the verdict of a throughput trial (no frame lost on any
 * pair). Nothing here sends, sleeps or prints.
 */
#ifndef WR_RFC2889_MESH_H
#define WR_RFC2889_MESH_H

#include <stdbool.h>
#include <stdint.h>

#include "base/error.h"
#include "measure/hist.h"
#include "config/rfc2889cfg.h"

/* Ports of a meshed trial: 2 to this many. */
#define WR_MESH_MAX_PORTS 16u

/*
 * The receiving port a broadcast frame (5.10) carries: every port but its
 * sender.
 */
#define WR_MESH_BCAST_DST 0xffu

/*
 * Who sends to whom among nb_ports ports (indices of the run's ports).
 * With bcast (5.10), each frame of a sender goes to every destination at
 * once: one frame counts as sent once per destination.
 */
struct wr_mesh_plan {
	uint8_t nb_ports;
	bool bcast;
	uint8_t nb_dst[WR_MESH_MAX_PORTS];	/* destinations of each port */
	uint8_t dst[WR_MESH_MAX_PORTS][WR_MESH_MAX_PORTS];
};

/*
 * Plan p of pattern over nb ports: full, every port to every other; one-
 * to-many, port 0 to every other; many-to-one, every other to port 0;
 * unidirectional, each port of the first half to each of the second;
 * multi-device, the same both ways; broadcast, port 0 to every other
 * with bcast set. Returns 0, or -EINVAL with err set
 * (usage, naming --mode mesh or the pattern) when nb is outside
 * 2..WR_MESH_MAX_PORTS, odd for the halves' patterns, or not 4 for
 * congestion.
 */
int wr_mesh_plan_make(struct wr_mesh_plan *p, enum wr_mesh_pattern pattern,
		unsigned int nb, struct wr_error *err);

/* Whether port s sends to port d in plan p. This function can't fail. */

bool wr_mesh_pair(const struct wr_mesh_plan *p, unsigned int s, unsigned int d);

/* Name of a pattern, as --mesh-pattern takes it. Can't fail. */
const char *wr_mesh_pattern_name(enum wr_mesh_pattern pattern);

/* The RFC 2889 section of a pattern ("5.1" .. "5.5"). Can't fail. */
const char *wr_mesh_section(enum wr_mesh_pattern pattern);

/*
 * The counts of one trial, by [sender][receiver]. Written only by the
 * thread that runs the trial.
 */
struct wr_mesh_counts {
	uint64_t sent[WR_MESH_MAX_PORTS][WR_MESH_MAX_PORTS];
	/* frames of pair s->d received at d */
	uint64_t rx[WR_MESH_MAX_PORTS][WR_MESH_MAX_PORTS];
	/* frames of pair s->d received at a port other than d (flooded) */
	uint64_t stray[WR_MESH_MAX_PORTS][WR_MESH_MAX_PORTS];
	uint64_t learn_sent[WR_MESH_MAX_PORTS];	/* learning frames sent */
	uint64_t other_rx[WR_MESH_MAX_PORTS];	/* any other frame received */
	uint64_t tx_refused[WR_MESH_MAX_PORTS];	/* frames its transmit refused
						 * (sent again later) */
	uint64_t send_tsc;	/* first frame to last frame sent, TSC */
	/* latency of the frames received at each port, TSC cycles: the
	 * sender's stamp to the receiving burst, same host */
	struct wr_hist lat[WR_MESH_MAX_PORTS];
};

/* Empty c for a new trial. This function can't fail. */
void wr_mesh_counts_init(struct wr_mesh_counts *c);

/* Frames of pair s->d lost: sent - received, 0 at least. Can't fail. */
uint64_t wr_mesh_lost(const struct wr_mesh_counts *c, unsigned int s,
		unsigned int d);

/* One port's sums over its pairs. */
struct wr_mesh_port_sum {
	uint64_t sent_pkts;	/* frames it sent, every pair (bcast: each
				 * frame once) */
	uint64_t lost_pkts;	/* of those, lost */
	uint64_t rx_pkts;	/* frames for it received at it */
	uint64_t stray_pkts;	/* frames for others received at it */
	double fwd_pps;		/* rx_pkts per second of sending */
};

/*
 * Port i's sums over the pairs of p in c, its forwarding rate over
 * send_s seconds (0: no rate). This function can't fail.
 */
void wr_mesh_port_sum(const struct wr_mesh_plan *p,
		const struct wr_mesh_counts *c, unsigned int i, double send_s,
		struct wr_mesh_port_sum *sum);

/*
 * Whether a throughput trial passes: every pair of p sent frames and
 * lost none (a frame flooded to another port as well is not a loss).
 * This function can't fail.
 */
bool wr_mesh_pass(const struct wr_mesh_plan *p, const struct wr_mesh_counts *c);

/*
 * RFC 2889 5.5 (congestion control, --mesh-pattern congestion): ports 0
 * and 1 overload port 2; port 0 also sends to port 3, which nothing
 * congests. As 5.5.4 reports them: head-of-line blocking is frame loss
 * on the uncongested flow (0 -> 3); back pressure, the congested port's
 * flows losing no frame while the senders were held back (their transmit
 * refused frames: flow control, or a link that would take no more).
 */
struct wr_mesh_congestion {
	uint64_t uncongested_sent_pkts;	/* pair 0 -> 3 */
	uint64_t uncongested_lost_pkts;
	uint64_t congested_sent_pkts;	/* pairs 0 -> 2 and 1 -> 2 */
	uint64_t congested_lost_pkts;
	uint64_t refused_pkts;		/* ports 0 and 1's transmit refusals */
	bool hol_blocking;
	bool back_pressure;
};

/* The verdicts of 5.5 from c (a congestion plan's). Can't fail. */
void wr_mesh_congestion(const struct wr_mesh_counts *c,
		struct wr_mesh_congestion *g);

#endif /* WR_RFC2889_MESH_H */
