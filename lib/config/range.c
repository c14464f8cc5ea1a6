/* SPDX-License-Identifier: BSD-3-Clause */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/splitmix.h"
#include "base/units.h"
#include "range.h"

static const char *const field_name[WR_RANGE_NB_FIELDS] = {
	[WR_RANGE_SPORT] = "sport", [WR_RANGE_DPORT] = "dport",
	[WR_RANGE_SRC_IP] = "src-ip", [WR_RANGE_DST_IP] = "dst-ip",
	[WR_RANGE_SRC_IP6] = "src-ip6", [WR_RANGE_DST_IP6] = "dst-ip6",
	[WR_RANGE_SRC_MAC] = "src-mac", [WR_RANGE_DST_MAC] = "dst-mac",
	[WR_RANGE_VLAN] = "vlan", [WR_RANGE_DSCP] = "dscp",
};

const char *
wr_range_name(enum wr_range_field f)
{
	return f < WR_RANGE_NB_FIELDS ? field_name[f] : "?";
}

/*
 * Split v at its one '-' into a and b (b NULL without one). Returns
 * -EINVAL when v is too long or has an empty side.
 */
static int
split(const char *v, char *a, char *b, size_t len, bool *two)
{
	const char *dash = strchr(v, '-');

	*two = dash != NULL;
	if (strlen(v) >= len)
		return -EINVAL;
	if (dash == NULL) {
		strcpy(a, v);
		return 0;
	}
	memcpy(a, v, (size_t)(dash - v));
	a[dash - v] = '\0';
	strcpy(b, dash + 1);
	return a[0] == '\0' || b[0] == '\0' || strchr(b, '-') != NULL ? -EINVAL : 0;
}

/* Count of first..last, refusing a backward or too long range. */
static int
count(uint64_t first, uint64_t last, uint32_t *nb, struct wr_error *err)
{
	if (last < first)
		return wr_err_usage(err, -EINVAL, "the range runs backwards (its last "
			"value is below its first)");
	if (last - first >= WR_RANGE_MAX_FLOWS)
		return wr_err_usage(err, -EINVAL, "%" PRIu64 " values, more than the %u "
			"flows a stream may have", last - first + 1, WR_RANGE_MAX_FLOWS);
	*nb = (uint32_t)(last - first + 1);
	return 0;
}

#define TEXT_LEN 128

int
wr_range_parse_num(const char *v, uint64_t lo, uint64_t hi, uint64_t *first,
		uint32_t *nb, struct wr_error *err)
{
	char a[TEXT_LEN], b[TEXT_LEN];
	uint64_t x, y;
	bool two;

	if (split(v, a, b, sizeof(a), &two) != 0 ||
			wr_units_parse_u64(a, lo, hi, &x) != 0 ||
			(two && wr_units_parse_u64(b, lo, hi, &y) != 0))
		return wr_err_usage(err, -EINVAL, "expected N or N-M with each in "
			"%" PRIu64 "..%" PRIu64, lo, hi);
	*first = x;
	return count(x, two ? y : x, nb, err);
}

int
wr_range_parse_ip4(const char *v, uint32_t *first, uint32_t *nb,
		struct wr_error *err)
{
	char a[TEXT_LEN], b[TEXT_LEN];
	struct in_addr x, y;
	bool two;

	if (split(v, a, b, sizeof(a), &two) != 0 || inet_pton(AF_INET, a, &x) != 1 ||
			(two && inet_pton(AF_INET, b, &y) != 1))
		return wr_err_usage(err, -EINVAL, "not an IPv4 address or range, "
			"expected e.g. 198.18.0.1 or 10.0.0.1-10.0.3.255");
	*first = ntohl(x.s_addr);
	return count(*first, two ? ntohl(y.s_addr) : *first, nb, err);
}

/* The 64-bit big-endian number at p. */
static uint64_t
be64_at(const uint8_t *p)
{
	uint64_t x = 0;
	unsigned int i;

	for (i = 0; i < 8; i++)
		x = x << 8 | p[i];
	return x;
}

int
wr_range_parse_ip6(const char *v, uint8_t *first, uint32_t *nb,
		struct wr_error *err)
{
	char a[TEXT_LEN], b[TEXT_LEN];
	struct in6_addr x, y;
	bool two;

	if (split(v, a, b, sizeof(a), &two) != 0 || inet_pton(AF_INET6, a, &x) != 1 ||
			(two && inet_pton(AF_INET6, b, &y) != 1))
		return wr_err_usage(err, -EINVAL, "not an IPv6 address or range, "
			"expected e.g. 2001:2::1 or 2001:2::1-2001:2::ff");
	if (!two)
		y = x;
	if (memcmp(&x, &y, 8) != 0)
		return wr_err_usage(err, -EINVAL, "the range's addresses differ in "
			"their first 64 bits; only the last 64 count");
	memcpy(first, &x, 16);
	return count(be64_at((const uint8_t *)&x + 8), be64_at((const uint8_t *)&y + 8),
		nb, err);
}

/* The 48-bit number of a MAC address, first byte highest. */
static uint64_t
mac_num(const struct rte_ether_addr *m)
{
	uint64_t x = 0;
	unsigned int i;

	for (i = 0; i < RTE_ETHER_ADDR_LEN; i++)
		x = x << 8 | m->addr_bytes[i];
	return x;
}

int
wr_range_parse_mac(const char *v, struct rte_ether_addr *first, uint32_t *nb,
		struct wr_error *err)
{
	char a[TEXT_LEN], b[TEXT_LEN];
	struct rte_ether_addr x, y;
	bool two;

	if (split(v, a, b, sizeof(a), &two) != 0 || rte_ether_unformat_addr(a, &x) != 0 ||
			(two && rte_ether_unformat_addr(b, &y) != 0))
		return wr_err_usage(err, -EINVAL, "not a MAC address or range, expected "
			"e.g. 02:00:00:00:00:01 or 02:00:00:00:00:01-02:00:00:00:00:ff");
	*first = x;
	return count(mac_num(&x), mac_num(two ? &y : &x), nb, err);
}

int
wr_range_parse_field(enum wr_range_field f, const char *v,
		union wr_range_first *first, uint32_t *nb, struct wr_error *err)
{
	switch (f) {
	case WR_RANGE_SRC_IP:
	case WR_RANGE_DST_IP:
		return wr_range_parse_ip4(v, &first->ip4, nb, err);
	case WR_RANGE_SRC_IP6:
	case WR_RANGE_DST_IP6:
		return wr_range_parse_ip6(v, first->ip6, nb, err);
	case WR_RANGE_SRC_MAC:
	case WR_RANGE_DST_MAC:
		return wr_range_parse_mac(v, &first->mac, nb, err);
	case WR_RANGE_VLAN:
		return wr_range_parse_num(v, 1, 4094, &first->num, nb, err);
	case WR_RANGE_DSCP:
		return wr_range_parse_num(v, 0, 63, &first->num, nb, err);
	default:
		return wr_range_parse_num(v, 0, 65535, &first->num, nb, err);
	}
}

int
wr_range_parse_vary(const char *v, struct wr_ranges *r, struct wr_error *err)
{
	uint64_t seed = 1;

	if (strcmp(v, "inc") == 0) {
		r->random = false;
		return 0;
	}
	if (strncmp(v, "random", 6) != 0 || (v[6] != '\0' && v[6] != ':') ||
			(v[6] == ':' && wr_units_parse_u64(v + 7, 0, UINT64_MAX, &seed) != 0))
		return wr_err_usage(err, -EINVAL, "expected inc, random or random:SEED "
			"(SEED a whole number)");
	r->random = true;
	r->seed = seed;
	return 0;
}

/* Whether field f applies to frames of the family. */
static bool
applies(enum wr_range_field f, bool ipv6)
{
	if (f == WR_RANGE_SRC_IP || f == WR_RANGE_DST_IP)
		return !ipv6;
	if (f == WR_RANGE_SRC_IP6 || f == WR_RANGE_DST_IP6)
		return ipv6;
	return true;
}

uint64_t
wr_range_flows(const struct wr_ranges *r, bool ipv6)
{
	uint64_t n = 1;
	unsigned int f;

	for (f = 0; f < WR_RANGE_NB_FIELDS; f++)
		if (applies(f, ipv6) && r->nb[f] > 1 && n <= WR_RANGE_MAX_FLOWS)
			n *= r->nb[f];
	return n;
}

int
wr_range_check(const struct wr_ranges *r, bool ipv6, bool vlan,
		struct wr_error *err)
{
	unsigned int f;

	for (f = 0; f < WR_RANGE_NB_FIELDS; f++) {
		if (r->nb[f] <= 1)
			continue;
		if (!applies(f, ipv6))
			return wr_err_usage(err, -EINVAL, "a %s range on %s frames: give "
				"the range on --%s", field_name[f], ipv6 ? "IPv6" : "IPv4",
				ipv6 ? (f == WR_RANGE_SRC_IP ? "src-ip6" : "dst-ip6") :
				(f == WR_RANGE_SRC_IP6 ? "src-ip" : "dst-ip"));
		if (f == WR_RANGE_VLAN && !vlan)
			return wr_err_usage(err, -EINVAL, "a vlan range on untagged frames");
	}
	if (wr_range_flows(r, ipv6) > WR_RANGE_MAX_FLOWS)
		return wr_err_usage(err, -EINVAL, "the ranges make more than %u flows "
			"(the product of their sizes)", WR_RANGE_MAX_FLOWS);
	return 0;
}

void
wr_range_mac_at(const struct rte_ether_addr *first, uint32_t i,
		struct rte_ether_addr *out)
{
	uint64_t x = mac_num(first) + i;
	int k;

	for (k = RTE_ETHER_ADDR_LEN - 1; k >= 0; k--, x >>= 8)
		out->addr_bytes[k] = (uint8_t)x;
}

void
wr_range_ip6_at(const uint8_t *first, uint32_t i, uint8_t *out)
{
	uint64_t x = be64_at(first + 8) + i;
	int k;

	memcpy(out, first, 8);
	for (k = 15; k >= 8; k--, x >>= 8)
		out[k] = (uint8_t)x;
}

void
wr_range_order(const struct wr_ranges *r, uint32_t nb, uint32_t *order)
{
	uint64_t s = r->seed;
	uint32_t i, j, t;

	for (i = 0; i < nb; i++)
		order[i] = i;
	if (!r->random)
		return;
	/* Fisher-Yates; the modulo bias of 64 bits over at most 2^16 is < 2^-47. */
	for (i = nb; i > 1; i--) {
		j = (uint32_t)(wr_splitmix64(&s) % i);
		t = order[i - 1];
		order[i - 1] = order[j];
		order[j] = t;
	}
}
