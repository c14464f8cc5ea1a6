/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A TCP connection's 4-tuple as the core keys it: local and remote
 * address and port, seen from this end. Ports are in host byte order;
 * addresses are in network byte order (as on the wire), so IPv4 and IPv6
 * are handled alike: an IPv4 address is its 4 bytes, read as a uint32_t
 * in memory order.
 */
#ifndef WR_TCP_TUPLE_H
#define WR_TCP_TUPLE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* Address families of a tuple. */
enum wr_tcp_family {
	WR_TCP_IPV4 = 4,
	WR_TCP_IPV6 = 6,
};

/* One 4-tuple. For IPv4 only the first 4 bytes of each address count. */
struct wr_tcp_tuple {
	uint8_t laddr[16];      /* local address, network order */
	uint8_t raddr[16];      /* remote address, network order */
	uint16_t lport;         /* local port, host order */
	uint16_t rport;         /* remote port, host order */
	uint8_t family;         /* enum wr_tcp_family */
	uint8_t pad[3];
};

/* Whether a and b name the same connection. Can't fail. */
static inline bool
wr_tcp_tuple_eq(const struct wr_tcp_tuple *a, const struct wr_tcp_tuple *b)
{
	size_t alen = a->family == WR_TCP_IPV4 ? 4 : 16;

	return a->family == b->family && a->lport == b->lport &&
		a->rport == b->rport && memcmp(a->laddr, b->laddr, alen) == 0 &&
		memcmp(a->raddr, b->raddr, alen) == 0;
}

/* Set an IPv4 tuple from addresses in network order. Can't fail. */
static inline void
wr_tcp_tuple_set4(struct wr_tcp_tuple *t, uint32_t laddr_be,
	uint16_t lport, uint32_t raddr_be, uint16_t rport)
{
	memset(t, 0, sizeof(*t));
	memcpy(t->laddr, &laddr_be, 4);
	memcpy(t->raddr, &raddr_be, 4);
	t->lport = lport;
	t->rport = rport;
	t->family = WR_TCP_IPV4;
}

#endif /* WR_TCP_TUPLE_H */
