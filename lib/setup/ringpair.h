/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --ring-pairs: ethdev ports wired back to back through rte_rings (the
 * ring PMD), a NIC pair that needs no hardware, for tests and benchmarks.
 */
#ifndef WR_RINGPAIR_H
#define WR_RINGPAIR_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

#define WR_RING_PAIR_SIZE 1024u   /* slots per rte_ring of a ring pair */

/*
 * Make nb_pairs pairs of ethdev ports wired back to back with rte_rings
 * (what one sends, the other receives), nb_queues queues each way.
 * Returns 0 or a negative errno with a message.
 */
int wr_port_make_ring_pairs(unsigned int nb_pairs, uint16_t nb_queues,
		struct wr_error *err);

/*
 * Free the frames still inside the rings of the pairs made by
 * wr_port_make_ring_pairs(): sent by one end, never received by the other
 * (a port not polled, or not in the run). Call once no lcore uses the
 * ports. Returns the number of frames freed. This function can't fail.
 */
uint64_t wr_port_drain_ring_pairs(unsigned int nb_pairs, uint16_t nb_queues);

/* Whether port_id is an end of a ring pair (made anew with the pairs). */
bool wr_port_is_ring_pair(uint16_t port_id);

#endif /* WR_RINGPAIR_H */
