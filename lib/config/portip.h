/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --port-ip P=ADDR/PREFIX[,gw=ADDR][,vlan=N]: the IPv4 and IPv6 addresses
 * of the ports (docs/l3.md). Pure: parsing, the next hop of a
 * destination, and the addresses a port's frames take by default.
 */
#ifndef WR_PORTIP_H
#define WR_PORTIP_H

#include <stdbool.h>
#include <stdint.h>

#include "base/error.h"
#include "base/frame.h"
#include "base/l3svc.h"

/* One address family of a port. */
struct wr_portip_fam {
	bool set;
	uint8_t prefix_len;         /* 0..32 or 0..128 */
	bool has_gw;
	uint8_t addr[16];           /* network byte order (IPv4: the first 4) */
	uint8_t gw[16];
};

/* What --port-ip gave one port. */
struct wr_portip {
	struct wr_portip_fam v4;
	struct wr_portip_fam v6;
	uint16_t vlan_id;           /* 0: untagged */
};

/* Which frame addresses an option or a stream key gave explicitly. */
enum wr_portip_addr_bits {
	WR_ADDR_SRC4 = 1u << 0,
	WR_ADDR_DST4 = 1u << 1,
	WR_ADDR_SRC6 = 1u << 2,
	WR_ADDR_DST6 = 1u << 3,
};

/*
 * Parse one --port-ip value into tab (indexed by port id, nb_ports
 * entries). A second value for a port adds the other family; the same
 * family twice, or two different VLANs, is refused. Returns 0, or
 * -EINVAL with a usage error naming the value and what was wrong.
 */
int wr_portip_parse(const char *v, struct wr_portip *tab, unsigned int nb_ports,
		struct wr_error *err);

/*
 * The next hop from a port with family f towards dst (network order, 4
 * or 16 bytes as f's family): dst itself when it is within f's prefix,
 * else the gateway. Returns 0 with *nh filled, or -ENETUNREACH when dst
 * is off-link and f has no gateway.
 */
int wr_portip_next_hop(const struct wr_portip_fam *f, bool ipv6,
		const uint8_t *dst, uint8_t nh[16]);

/*
 * Frame addresses from --port-ip: the source from the sending port's
 * entry, the destination from its peer's, each only where the family is
 * set and the address was not given explicitly (addr_set, enum
 * wr_portip_addr_bits); the tag from the port's VLAN when s is untagged.
 * This function can't fail.
 */
void wr_portip_frame(const struct wr_portip *port, const struct wr_portip *peer,
		unsigned int addr_set, struct wr_frame_spec *s);

/*
 * What port pi answers for with MAC mac (l3svc.h), into out.
 * This function can't fail.
 */
void wr_portip_svc(const struct wr_portip *pi, const struct rte_ether_addr *mac,
		struct wr_l3svc_port *out);

/* Whether --port-ip gave port pi any address. */
static inline bool
wr_portip_any(const struct wr_portip *pi)
{
	return pi->v4.set || pi->v6.set;
}

#endif /* WR_PORTIP_H */
