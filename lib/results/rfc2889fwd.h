/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RFC 2889 5.6 (forward pressure and maximum forwarding rate), its pure
 * figures over the trials of a meshed run (rfc2889mesh.h):
 *
 * - the maximum forwarding rate (MFR) of a port: the highest forwarding
 *   rate it showed over the offered loads tried, loads above what the
 *   switch forwards included (5.6.4);
 * - forward pressure: the ports are offered frames with a gap of 88 bit
 *   times instead of the 96 of IEEE 802.3 (5.6.2), and the switch exerts
 *   forward pressure when a port forwards above the legal rate of its
 *   output, the rate with the 96-bit gap.
 *
 * A virtual link has no wire gap: the rates are defined by a declared
 * link speed (bits/s). A frame of L bytes (FCS included) takes L + 8
 * (preamble) + 12 (gap) bytes at the legal rate, L + 8 + 11 under
 * pressure. Nothing here sends, sleeps or prints.
 */
#ifndef WR_RFC2889_FWD_H
#define WR_RFC2889_FWD_H

#include <stdbool.h>
#include <stdint.h>

#include "rfc2889mesh.h"

/* Bits of the legal gap (IEEE 802.3) and of 5.6's shortened one. */
#define WR_FWD_GAP_BITS 96u
#define WR_FWD_PRESSURE_GAP_BITS 88u

/*
 * Frames/s of frame_len bytes (FCS included) on a link of link_bps with
 * a gap of gap_bits: link_bps / ((frame_len + 8) * 8 + gap_bits). 0 when
 * link_bps is 0. This function can't fail.
 */
double wr_fwd_rate_pps(double link_bps, unsigned int frame_len,
		unsigned int gap_bits);

/* The MFR of each port over the trials folded in so far. */
struct wr_fwd_max {
	uint8_t nb_ports;
	double mfr_pps[WR_MESH_MAX_PORTS];	/* highest forwarding rate */
	double at_offered_pps[WR_MESH_MAX_PORTS];	/* the load it came at */
};

/* Start m over nb ports (nothing seen). This function can't fail. */
void wr_fwd_max_init(struct wr_fwd_max *m, unsigned int nb);

/*
 * Fold one trial into m: each port's forwarding rate (its frames
 * received over send_s seconds of p in c), offered at offered_pps per
 * sending port. This function can't fail.
 */
void wr_fwd_max_add(struct wr_fwd_max *m, const struct wr_mesh_plan *p,
		const struct wr_mesh_counts *c, double send_s, double offered_pps);

/*
 * Whether a trial shows forward pressure: some port of p forwarded over
 * send_s seconds at more than legal_pps (its output's legal rate). The
 * port with the highest rate over legal_pps in *port (or -1). This
 * function can't fail.
 */
bool wr_fwd_pressure(const struct wr_mesh_plan *p,
		const struct wr_mesh_counts *c, double send_s, double legal_pps,
		int *port);

/* 5.6's forward pressure trial: what was offered and what came out. */
struct wr_fwd_press {
	double link_bps;	/* the declared link speed */
	unsigned int frame_len;	/* bytes, FCS included */
	double offered_pps;	/* per sending port: the 88-bit gap's rate */
	double legal_pps;	/* the 96-bit gap's rate */
	uint8_t nb_ports;
	double fwd_pps[WR_MESH_MAX_PORTS];	/* each port's forwarding rate */
	double tx_pps;		/* the slowest sending port's own rate */
	bool held;		/* every sending port sent above legal_pps */
	unsigned int tries;	/* trials run to get one held */
	bool found;		/* a port forwarded above legal_pps */
	int port;		/* the port furthest above it, or -1 */
};

/*
 * Trials a forward pressure run may take: a trial whose senders fell
 * under the legal rate (the tester, not the switch) says nothing and is
 * run again, up to this many in all.
 */
#define WR_FWD_PRESS_TRIES 3u

/*
 * Fill f's rates for link_bps and frame_len (nothing seen yet). This
 * function can't fail.
 */
void wr_fwd_press_init(struct wr_fwd_press *f, double link_bps,
		unsigned int frame_len);

/*
 * How far the port furthest above f's legal rate forwarded above it, in
 * % of it; 0 when none did. This function can't fail.
 */
double wr_fwd_over_pct(const struct wr_fwd_press *f);

/*
 * Judge the trial of p in c (send_s seconds of sending) into f: each
 * port's forwarding rate, whether the senders held a rate above the
 * legal one (held), the verdict. This function can't fail.
 */
void wr_fwd_press_judge(struct wr_fwd_press *f, const struct wr_mesh_plan *p,
		const struct wr_mesh_counts *c, double send_s);

#endif /* WR_RFC2889_FWD_H */
