/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the frame, stack and L3 service tests share: RFC 1071 reference
 * sums computed byte by byte (not with DPDK's code under test), and the
 * default frame spec their templates start from.
 */
#ifndef WR_TESTPKT_H
#define WR_TESTPKT_H

#include <stdint.h>
#include <string.h>

#include "base/frame.h"

/* One's-complement sum of len bytes as big-endian words, added to sum,
 * not folded. */
static inline uint32_t
wr_test_sum(const uint8_t *p, uint32_t len, uint32_t sum)
{
	uint32_t i;

	for (i = 0; i + 1 < len; i += 2)
		sum += (uint32_t)(p[i] << 8 | p[i + 1]);
	if (len & 1)
		sum += (uint32_t)p[len - 1] << 8;
	return sum;
}

/* sum folded to 16 bits: 0xffff over a span with a valid checksum. */
static inline uint16_t
wr_test_fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)sum;
}

/* IPv4/UDP test frame of size bytes between two local MACs, stream 17. */
static inline void
wr_test_spec_default(struct wr_frame_spec *s, uint32_t size)
{
	static const struct rte_ether_addr src = {{ 0x02, 0, 0, 0, 0, 0x01 }};
	static const struct rte_ether_addr dst = {{ 0x02, 0, 0, 0, 0, 0x02 }};

	memset(s, 0, sizeof(*s));
	s->size = size;
	s->src_mac = src;
	s->dst_mac = dst;
	s->src_ip = 0xc6120001;
	s->dst_ip = 0xc6130001;
	s->src_udp = 1024;
	s->dst_udp = 5001;
	s->stream_id = 17;
}

#endif /* WR_TESTPKT_H */
