/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The frames of the RFC 2889 address trials (5.7, 5.8): 60 bytes before
 * the FCS (64 on the wire), destination and source MAC, the local
 * experimental EtherType 0x88b5 (IEEE 802), then a small header: a
 * magic, the kind of frame, the trial's number and the frame's index
 * (and for --mode mesh, the pair of ports it belongs to and the TSC
 * when it was made).
 * A switch forwards them by MAC alone; the receiver tells ours from any
 * other frame, and a frame of an earlier trial from this one's. Pure.
 */
#ifndef WR_RFC2889_FRAME_H
#define WR_RFC2889_FRAME_H

#include <stdbool.h>
#include <stdint.h>

/* Bytes of a frame without its FCS. */
#define WR_R2889_FRAME_LEN 60u
/* IEEE 802 local experimental EtherType 1. */
#define WR_R2889_ETHERTYPE 0x88b5u

enum wr_r2889_kind {
	WR_R2889_LEARN = 1,	/* learning port -> the test port's MAC */
	WR_R2889_TEST = 2,	/* test port -> a learned address */
	WR_R2889_MESH = 3,	/* --mode mesh: port src -> port dst */
};

/* What a frame says about itself. */
struct wr_r2889_tag {
	enum wr_r2889_kind kind;
	uint16_t trial;		/* the trial's number, wraps */
	uint32_t idx;		/* the address's index in the plan; mesh:
				 * the frame's number in its pair */
	uint8_t src_port;	/* mesh: the sender's and the receiver's */
	uint8_t dst_port;	/* indices among the run's ports; 0xff:
				 * broadcast, every port but src */
	uint64_t tsc;		/* mesh: the sender's TSC when it made it */
};

/*
 * Write the frame from src to dst carrying tag t into buf
 * (WR_R2889_FRAME_LEN bytes). This function can't fail.
 */
void wr_r2889_frame(uint8_t *buf, const uint8_t dst[6], const uint8_t src[6],
		const struct wr_r2889_tag *t);

/*
 * Read the tag of frame buf of len bytes into t. Returns whether it is
 * one of ours. This function can't fail.
 */
bool wr_r2889_parse(const uint8_t *buf, uint32_t len, struct wr_r2889_tag *t);

#endif /* WR_RFC2889_FRAME_H */
