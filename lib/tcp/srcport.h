/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A client's source tuple allocator: walks ranges of local addresses and
 * ports towards one server (millions of 4-tuples: 256 addresses times
 * 64,000 ports), round robin, and hands out the next tuple that is free.
 * A tuple is skipped while the lookup table holds it: a connection in
 * TIME_WAIT keeps its entry until 2 MSL have passed (RFC 9293 3.6.1), so
 * a port still in TIME_WAIT is never reused early.
 *
 * With RSS, the allocator can also insist that the server's reply hashes
 * to a given receive queue: it computes the Toeplitz hash (the one NICs
 * use, Microsoft's RSS specification) of the reply's addresses and ports
 * and looks the queue up in the redirection table, skipping ports that
 * land elsewhere. Pure: no EAL. Written only by the owning lcore.
 */
#ifndef WR_TCP_SRCPORT_H
#define WR_TCP_SRCPORT_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "tcp/table.h"
#include "tcp/tuple.h"

/*
 * The Toeplitz hash of len input bytes under key (key_bytes >= len + 4,
 * as every RSS key of 40 or 52 bytes is for a 36-byte IPv6 input).
 * Bits are taken most significant first, as the specification says.
 * Can't fail; 0 when the key is too short.
 */
uint32_t wr_tcp_toeplitz(const uint8_t *key, size_t key_bytes,
	const uint8_t *in, size_t len);

/*
 * The Toeplitz hash of the packet that arrives for tuple: from the remote
 * end (source raddr:rport) to us (destination laddr:lport), the input
 * being source address, destination address, source port, destination
 * port in network order (IPv4 12 bytes, IPv6 36). Can't fail.
 */
uint32_t wr_tcp_toeplitz_rx(const uint8_t *key, size_t key_bytes,
	const struct wr_tcp_tuple *tuple);

/* What the allocator walks. */
struct wr_tcp_srcport_cfg {
	struct wr_tcp_tuple first;  /* family, first local address, remote
				     * address and port; lport unused */
	uint32_t nb_laddrs;         /* local addresses first.laddr + i */
	uint16_t lport_first;       /* local ports [first, last] */
	uint16_t lport_last;
	/* RSS: rss_key NULL for none */
	const uint8_t *rss_key;
	uint32_t rss_key_bytes;
	const uint16_t *reta;       /* reta_size queues, a power of two */
	uint32_t reta_size;
	uint16_t queue;             /* the queue replies must reach */
};

struct wr_tcp_srcport {
	struct wr_tcp_srcport_cfg cfg;
	uint32_t laddr_idx;         /* the cursor: next address index */
	uint16_t lport;             /* and next port */
	uint64_t nb_tuples;         /* addresses times ports */
	uint64_t nb_skipped_busy;   /* tuples in the table when met */
	uint64_t nb_skipped_queue;  /* replies hashing to another queue */
};

/*
 * Set the allocator up (cfg is copied; rss_key and reta must live on).
 * Returns 0, or -EINVAL with err filled for an empty range, a bad family,
 * an address range that wraps, a key shorter than the input plus 4 bytes
 * or a redirection table that is not a power of two.
 */
int wr_tcp_srcport_init(struct wr_tcp_srcport *sp,
	const struct wr_tcp_srcport_cfg *cfg, struct wr_error *err);

/*
 * Write the next free tuple to out, trying at most max_tries tuples from
 * the cursor on. Returns 0, or -EAGAIN when none of them would do (all in
 * use, or none reaches the queue): the caller counts it and tries later.
 */
int wr_tcp_srcport_next(struct wr_tcp_srcport *sp,
	const struct wr_tcp_table *t, struct wr_tcp_tuple *out,
	uint32_t max_tries);

#endif /* WR_TCP_SRCPORT_H */
