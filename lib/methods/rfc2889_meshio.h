/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * One RFC 2889 meshed trial on the wire (5.1.2, 5.2.2), driven from the
 * main lcore while no worker runs, as the address trials are
 * (rfc2889_io.h): each port first sends one learning frame (broadcast,
 * from its own MAC), then after a settle wait every port of the plan
 * sends to its destinations in turn at the offered rate, paced by the
 * TSC (frames of io's frame_len, the tag at their start and zeros
 * after it); every receive queue is polled the whole time and our frames
 * (rfc2889_frame.h, kind mesh, carrying their pair) of this trial are
 * counted by pair and by the port they reached. A slow path of a few
 * hundred thousand frames/s in all: enough for software switches.
 */
#ifndef WR_RFC2889_MESHIO_H
#define WR_RFC2889_MESHIO_H

#include <stdint.h>

#include <rte_mempool.h>

#include "rfc2889_addr.h"
#include "results/rfc2889mesh.h"
#include "base/error.h"

/* The ports of the trials, and what they share. Owned by the method. */
struct wr_mesh_io {
	const struct wr_mesh_plan *plan;
	uint16_t port_id[WR_MESH_MAX_PORTS];	/* DPDK port ids */
	uint16_t nb_rxq[WR_MESH_MAX_PORTS];	/* receive queues polled */
	uint8_t mac[WR_MESH_MAX_PORTS][WR_ADDR_MAC_LEN];
	struct rte_mempool *pool;		/* the frames' mbufs */
	uint64_t tsc_hz;
	const volatile int *signals;		/* non-zero: stop */
	uint16_t trial;				/* this trial's number */
	uint16_t frame_len;	/* the trial frames' bytes, FCS excluded (the
				 * learning frames: WR_R2889_FRAME_LEN) */
};

/* What one trial sends. */
struct wr_mesh_send {
	double pps;		/* per sending port */
	uint64_t ms;		/* how long each port sends */
	uint64_t settle_ms;	/* after the learning frames, and at the end */
};

/*
 * Run trial s on io into c. Returns 0, -EINTR on a signal, or -EIO with
 * err set when a port would not take a frame for a second.
 */
int wr_mesh_io_trial(const struct wr_mesh_io *io, const struct wr_mesh_send *s,
		struct wr_mesh_counts *c, struct wr_error *err);

/* Drop whatever waits in the ports' receive queues. Can't fail. */
void wr_mesh_io_drain(const struct wr_mesh_io *io);

#endif /* WR_RFC2889_MESHIO_H */
