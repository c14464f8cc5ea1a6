/* SPDX-License-Identifier: BSD-3-Clause */
#include <arpa/inet.h>
#include <errno.h>
#include <string.h>

#include "base/units.h"
#include "portip.h"

/* Longest --port-ip value kept for parsing (two IPv6 addresses and more). */
#define PORTIP_TEXT_LEN 160

/* An address of either family into a (16 bytes); 4 or 6, or 0 when neither. */
static int
parse_addr(const char *s, uint8_t a[16])
{
	memset(a, 0, 16);
	if (inet_pton(AF_INET, s, a) == 1)
		return 4;
	if (inet_pton(AF_INET6, s, a) == 1)
		return 6;
	return 0;
}

/* Whether a and b (bytes) agree on their first len bits. */
static bool
same_prefix(const uint8_t *a, const uint8_t *b, unsigned int len)
{
	unsigned int full = len / 8, rest = len % 8;
	uint8_t mask = (uint8_t)(0xff << (8 - rest));

	return memcmp(a, b, full) == 0 &&
		(rest == 0 || ((a[full] ^ b[full]) & mask) == 0);
}

/* ADDR/PREFIX into f; fam is 4 or 6 on success. */
static int
parse_host(const char *v, char *s, struct wr_portip_fam *f, int *fam,
		struct wr_error *err)
{
	char *slash = strchr(s, '/');
	uint64_t len;

	if (slash == NULL)
		return wr_err_usage(err, -EINVAL, "--port-ip %s: %s has no /PREFIX, "
			"expected e.g. 198.18.0.1/24 or 2001:db8::1/64", v, s);
	*slash = '\0';
	*fam = parse_addr(s, f->addr);
	if (*fam == 0)
		return wr_err_usage(err, -EINVAL, "--port-ip %s: %s is not an IPv4 or "
			"IPv6 address", v, s);
	if (wr_units_parse_u64(slash + 1, 0, *fam == 4 ? 32 : 128, &len) != 0)
		return wr_err_usage(err, -EINVAL, "--port-ip %s: prefix length %s, "
			"expected 0..%u", v, slash + 1, *fam == 4 ? 32 : 128);
	f->prefix_len = (uint8_t)len;
	return 0;
}

/* gw=ADDR: the same family, on the link, not the port's own address. */
static int
parse_gw(const char *v, const char *s, struct wr_portip_fam *f, int fam,
		struct wr_error *err)
{
	unsigned int bytes = fam == 4 ? 4 : 16;

	if (parse_addr(s, f->gw) != fam)
		return wr_err_usage(err, -EINVAL, "--port-ip %s: gw=%s is not an IPv%d "
			"address like the port's", v, s, fam);
	if (!same_prefix(f->gw, f->addr, f->prefix_len) ||
			memcmp(f->gw, f->addr, bytes) == 0)
		return wr_err_usage(err, -EINVAL, "--port-ip %s: gw=%s is %s", v, s,
			memcmp(f->gw, f->addr, bytes) == 0 ? "the port's own address" :
			"not within the port's prefix (a gateway is on the link)");
	f->has_gw = true;
	return 0;
}

/* ,gw=ADDR and ,vlan=N after the address. */
static int
parse_extra(const char *v, char *s, struct wr_portip_fam *f, int fam,
		uint16_t *vlan, struct wr_error *err)
{
	char *item, *save = NULL;
	uint64_t x;

	for (item = strtok_r(s, ",", &save); item != NULL;
			item = strtok_r(NULL, ",", &save)) {
		if (strncmp(item, "gw=", 3) == 0 && !f->has_gw) {
			if (parse_gw(v, item + 3, f, fam, err) != 0)
				return -EINVAL;
		} else if (strncmp(item, "vlan=", 5) == 0 && *vlan == 0) {
			if (wr_units_parse_u64(item + 5, 1, 4094, &x) != 0)
				return wr_err_usage(err, -EINVAL, "--port-ip %s: %s, "
					"expected vlan=1..4094", v, item);
			*vlan = (uint16_t)x;
		} else {
			return wr_err_usage(err, -EINVAL, "--port-ip %s: %s, expected "
				"gw=ADDR or vlan=N (each at most once)", v, item);
		}
	}
	return 0;
}

/* The port id before '='. */
static int
parse_port(const char *v, char *s, unsigned int nb_ports, unsigned int *port,
		struct wr_error *err)
{
	uint64_t x;

	if (wr_units_parse_u64(s, 0, nb_ports - 1, &x) != 0)
		return wr_err_usage(err, -EINVAL, "--port-ip %s: port %s, expected "
			"0..%u before '='", v, s, nb_ports - 1);
	*port = (unsigned int)x;
	return 0;
}

int
wr_portip_parse(const char *v, struct wr_portip *tab, unsigned int nb_ports,
		struct wr_error *err)
{
	char s[PORTIP_TEXT_LEN], *eq, *comma;
	struct wr_portip_fam f;
	unsigned int port = 0;
	uint16_t vlan = 0;
	int fam = 0;

	if (strlen(v) >= sizeof(s) || (eq = strchr(strcpy(s, v), '=')) == NULL)
		return wr_err_usage(err, -EINVAL, "--port-ip %s: expected "
			"PORT=ADDR/PREFIX[,gw=ADDR][,vlan=N]", v);
	*eq = '\0';
	comma = strchr(eq + 1, ',');
	if (comma != NULL)
		*comma = '\0';
	memset(&f, 0, sizeof(f));
	if (parse_port(v, s, nb_ports, &port, err) != 0 ||
			parse_host(v, eq + 1, &f, &fam, err) != 0 ||
			(comma != NULL && parse_extra(v, comma + 1, &f, fam, &vlan, err) != 0))
		return -EINVAL;
	if ((fam == 4 ? tab[port].v4.set : tab[port].v6.set))
		return wr_err_usage(err, -EINVAL, "--port-ip %s: port %u already has an "
			"IPv%d address; give one per family", v, port, fam);
	if (vlan != 0 && tab[port].vlan_id != 0 && vlan != tab[port].vlan_id)
		return wr_err_usage(err, -EINVAL, "--port-ip %s: port %u is already on "
			"VLAN %u", v, port, tab[port].vlan_id);
	f.set = true;
	*(fam == 4 ? &tab[port].v4 : &tab[port].v6) = f;
	if (vlan != 0)
		tab[port].vlan_id = vlan;
	return 0;
}

int
wr_portip_next_hop(const struct wr_portip_fam *f, bool ipv6,
		const uint8_t *dst, uint8_t nh[16])
{
	unsigned int bytes = ipv6 ? 16 : 4;

	memset(nh, 0, 16);
	if (same_prefix(dst, f->addr, f->prefix_len)) {
		memcpy(nh, dst, bytes);
		return 0;
	}
	if (!f->has_gw)
		return -ENETUNREACH;
	memcpy(nh, f->gw, bytes);
	return 0;
}

/* An IPv4 address of a family entry in host order. */
static uint32_t
host4(const struct wr_portip_fam *f)
{
	uint32_t a;

	memcpy(&a, f->addr, 4);
	return ntohl(a);
}

void
wr_portip_frame(const struct wr_portip *port, const struct wr_portip *peer,
		unsigned int addr_set, struct wr_frame_spec *s)
{
	if (port->v4.set && !(addr_set & WR_ADDR_SRC4))
		s->src_ip = host4(&port->v4);
	if (peer->v4.set && !(addr_set & WR_ADDR_DST4))
		s->dst_ip = host4(&peer->v4);
	if (port->v6.set && !(addr_set & WR_ADDR_SRC6))
		memcpy(s->src_ip6, port->v6.addr, 16);
	if (peer->v6.set && !(addr_set & WR_ADDR_DST6))
		memcpy(s->dst_ip6, peer->v6.addr, 16);
	if (s->vlan_id == 0)
		s->vlan_id = port->vlan_id;
}

void
wr_portip_svc(const struct wr_portip *pi, const struct rte_ether_addr *mac,
		struct wr_l3svc_port *out)
{
	memset(out, 0, sizeof(*out));
	out->mac = *mac;
	out->vlan_id = pi->vlan_id;
	out->has_ip4 = pi->v4.set;
	out->ip4 = host4(&pi->v4);
	out->has_ip6 = pi->v6.set;
	memcpy(out->ip6, pi->v6.addr, 16);
}
