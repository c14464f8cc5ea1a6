/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Header stacks (stack.h): the spec parser and the TX builder. The
 * receiver's walk is in stack_rx.c.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_geneve.h>
#include <rte_gre.h>
#include <rte_ip.h>
#include <rte_mpls.h>
#include <rte_udp.h>
#include <rte_vxlan.h>

#include "stack.h"

#define TTL_DEFAULT 64u
#define GRE_PROTO_TEB 0x6558u /* transparent Ethernet bridging (RFC 1701) */
#define TMPL_KEY "template="

/* Layer kinds as named in a spec, with their header bytes. */
static const struct {
	const char *name;
	uint8_t hdr_len;
} kinds[WR_STACK_NB_KINDS] = {
	[WR_STACK_ETH] = { "eth", sizeof(struct rte_ether_hdr) },
	[WR_STACK_VLAN] = { "vlan", sizeof(struct rte_vlan_hdr) },
	[WR_STACK_SVLAN] = { "svlan", sizeof(struct rte_vlan_hdr) },
	[WR_STACK_MPLS] = { "mpls", sizeof(struct rte_mpls_hdr) },
	[WR_STACK_IPV4] = { "ipv4", sizeof(struct rte_ipv4_hdr) },
	[WR_STACK_IPV6] = { "ipv6", sizeof(struct rte_ipv6_hdr) },
	[WR_STACK_UDP] = { "udp", sizeof(struct rte_udp_hdr) },
	[WR_STACK_GRE] = { "gre", sizeof(struct rte_gre_hdr) },
	[WR_STACK_VXLAN] = { "vxlan", sizeof(struct rte_vxlan_hdr) },
	[WR_STACK_GENEVE] = { "geneve", sizeof(struct rte_geneve_hdr) },
};

/* How a field's value is written. */
enum field_type { F_NUM, F_MAC, F_IP4, F_IP6 };

/* Every field of every kind: where it goes, its range and default. */
static const struct field {
	uint8_t kind;
	const char *name;
	enum field_type type;
	uint8_t slot;        /* F_NUM: num[slot]; addresses: 0 src, 1 dst */
	uint32_t max;
	uint32_t def;        /* F_NUM left out (addresses: the stream's) */
} fields[] = {
	{ WR_STACK_ETH, "src", F_MAC, 0, 0, 0 },
	{ WR_STACK_ETH, "dst", F_MAC, 1, 0, 0 },
	{ WR_STACK_VLAN, "id", F_NUM, 0, 4094, 1 },
	{ WR_STACK_VLAN, "pcp", F_NUM, 1, 7, 0 },
	{ WR_STACK_SVLAN, "id", F_NUM, 0, 4094, 1 },
	{ WR_STACK_SVLAN, "pcp", F_NUM, 1, 7, 0 },
	{ WR_STACK_MPLS, "label", F_NUM, 0, 0xfffff, 16 },
	{ WR_STACK_MPLS, "tc", F_NUM, 1, 7, 0 },
	{ WR_STACK_MPLS, "ttl", F_NUM, 2, 255, TTL_DEFAULT },
	{ WR_STACK_IPV4, "src", F_IP4, 0, 0, 0 },
	{ WR_STACK_IPV4, "dst", F_IP4, 1, 0, 0 },
	{ WR_STACK_IPV4, "ttl", F_NUM, 0, 255, TTL_DEFAULT },
	{ WR_STACK_IPV6, "src", F_IP6, 0, 0, 0 },
	{ WR_STACK_IPV6, "dst", F_IP6, 1, 0, 0 },
	{ WR_STACK_IPV6, "hlim", F_NUM, 0, 255, TTL_DEFAULT },
	{ WR_STACK_UDP, "sport", F_NUM, 0, 65535, 0 },
	{ WR_STACK_UDP, "dport", F_NUM, 1, 65535, 0 },
	{ WR_STACK_GRE, "key", F_NUM, 0, UINT32_MAX, 0 },
	{ WR_STACK_VXLAN, "vni", F_NUM, 0, 0xffffff, 1 },
	{ WR_STACK_GENEVE, "vni", F_NUM, 0, 0xffffff, 1 },
};

#define NB_FIELDS RTE_DIM(fields)

/* Which kinds may follow each kind (bit per kind); the spec's grammar. */
#define K(x) (1u << WR_STACK_##x)
static const uint32_t may_follow[WR_STACK_NB_KINDS] = {
	[WR_STACK_ETH] = K(VLAN) | K(SVLAN) | K(MPLS) | K(IPV4) | K(IPV6),
	[WR_STACK_VLAN] = K(VLAN) | K(MPLS) | K(IPV4) | K(IPV6),
	[WR_STACK_SVLAN] = K(VLAN) | K(SVLAN) | K(MPLS) | K(IPV4) | K(IPV6),
	[WR_STACK_MPLS] = K(MPLS) | K(IPV4) | K(IPV6),
	[WR_STACK_IPV4] = K(UDP) | K(GRE) | K(IPV4) | K(IPV6),
	[WR_STACK_IPV6] = K(UDP) | K(GRE) | K(IPV4) | K(IPV6),
	[WR_STACK_UDP] = K(VXLAN) | K(GENEVE),
	[WR_STACK_GRE] = K(ETH) | K(MPLS) | K(IPV4) | K(IPV6),
	[WR_STACK_VXLAN] = K(ETH),
	[WR_STACK_GENEVE] = K(ETH) | K(IPV4) | K(IPV6),
};

/* The field index of kind's field name, or -1. */
static int
field_find(uint8_t kind, const char *name, size_t n)
{
	unsigned int i;

	for (i = 0; i < NB_FIELDS; i++)
		if (fields[i].kind == kind && strlen(fields[i].name) == n &&
				memcmp(fields[i].name, name, n) == 0)
			return (int)i;
	return -1;
}

/* Kind fields[fi]'s names, for messages: "src, dst, ttl". */
static void
field_names(uint8_t kind, char *buf, size_t len)
{
	unsigned int i;
	size_t o = 0;

	buf[0] = '\0';
	for (i = 0; i < NB_FIELDS && o < len; i++)
		if (fields[i].kind == kind)
			o += (size_t)snprintf(buf + o, len - o, "%s%s", o ? ", " : "",
				fields[i].name);
	if (buf[0] == '\0')
		snprintf(buf, len, "none");
}

/* The bit of field fi in its layer's `given`: its place among its kind's. */
static uint8_t
field_bit(int fi)
{
	unsigned int i, k = 0;

	for (i = 0; i < (unsigned int)fi; i++)
		k += fields[i].kind == fields[fi].kind;
	return (uint8_t)(1u << k);
}

/* Store value text v (NUL-terminated) of field fi into ly. */
static int
field_set(struct wr_stack_layer *ly, int fi, const char *v)
{
	const struct field *f = &fields[fi];
	char *end;
	unsigned long long x;

	switch (f->type) {
	case F_MAC:
		return rte_ether_unformat_addr(v, (struct rte_ether_addr *)
			(f->slot ? ly->dst : ly->src)) == 0 ? 0 : -EINVAL;
	case F_IP4:
		return inet_pton(AF_INET, v, f->slot ? ly->dst : ly->src) == 1 ? 0 : -EINVAL;
	case F_IP6:
		return inet_pton(AF_INET6, v, f->slot ? ly->dst : ly->src) == 1 ? 0 : -EINVAL;
	case F_NUM:
		break;
	}
	if (*v < '0' || *v > '9')
		return -EINVAL;
	x = strtoull(v, &end, 0);
	if (*end != '\0' || x > f->max)
		return -EINVAL;
	ly->num[f->slot] = (uint32_t)x;
	return 0;
}

/* One "name=value" of layer li (1-based in messages). */
static int
parse_field(struct wr_stack_layer *ly, unsigned int li, const char *s, size_t n,
		struct wr_error *why)
{
	const char *eq = memchr(s, '=', n);
	char val[64], names[64];
	int fi;

	fi = eq == NULL ? -1 : field_find(ly->kind, s, (size_t)(eq - s));
	if (fi < 0) {
		field_names(ly->kind, names, sizeof(names));
		return wr_err_usage(why, -EINVAL, "layer %u (%s): '%.*s' is not FIELD=VALUE "
			"of a known field (%s)", li, kinds[ly->kind].name, (int)n, s, names);
	}
	n -= (size_t)(eq + 1 - s);
	if (n == 0 || n >= sizeof(val) || (memcpy(val, eq + 1, n), val[n] = '\0',
			field_set(ly, fi, val) != 0)) {
		const struct field *f = &fields[fi];

		return wr_err_usage(why, -EINVAL, "layer %u (%s): %s=%.*s: expected %s%.0u",
			li, kinds[ly->kind].name, f->name, (int)n, eq + 1,
			f->type == F_MAC ? "a MAC address" : f->type == F_IP4 ?
			"an IPv4 address" : f->type == F_IP6 ? "an IPv6 address" :
			"a whole number 0..", f->type == F_NUM ? f->max : 0);
	}
	if (ly->given & field_bit(fi))
		return wr_err_usage(why, -EINVAL, "layer %u (%s): %s given twice", li,
			kinds[ly->kind].name, fields[fi].name);
	ly->given |= field_bit(fi);
	return 0;
}

/* The fields "a=1,b=2" of layer li, n bytes at s. */
static int
parse_fields(struct wr_stack_layer *ly, unsigned int li, const char *s, size_t n,
		struct wr_error *why)
{
	while (n > 0) {
		const char *comma = memchr(s, ',', n);
		size_t k = comma ? (size_t)(comma - s) : n;
		int rc = parse_field(ly, li, s, k, why);

		if (rc != 0)
			return rc;
		n -= comma ? k + 1 : k;
		s += comma ? k + 1 : k;
	}
	return 0;
}

/* Default numbers of a layer's fields. */
static void
layer_init(struct wr_stack_layer *ly, uint8_t kind)
{
	unsigned int i;

	memset(ly, 0, sizeof(*ly));
	ly->kind = kind;
	for (i = 0; i < NB_FIELDS; i++)
		if (fields[i].kind == kind && fields[i].type == F_NUM)
			ly->num[fields[i].slot] = fields[i].def;
}

/* One layer "name" or "name(fields)", n bytes at s. */
static int
parse_layer(struct wr_stack *st, const char *s, size_t n, struct wr_error *why)
{
	const char *par = memchr(s, '(', n);
	size_t name_len = par ? (size_t)(par - s) : n;
	unsigned int li = st->nb_layers + 1, k;

	if (st->nb_layers == WR_STACK_MAX_LAYERS)
		return wr_err_usage(why, -EINVAL, "more than %u layers",
			WR_STACK_MAX_LAYERS);
	for (k = 0; k < WR_STACK_NB_KINDS; k++)
		if (strlen(kinds[k].name) == name_len &&
				memcmp(kinds[k].name, s, name_len) == 0)
			break;
	if (k == WR_STACK_NB_KINDS)
		return wr_err_usage(why, -EINVAL, "layer %u: unknown '%.*s' (eth, vlan, "
			"svlan, mpls, ipv4, ipv6, udp, gre, vxlan, geneve)", li,
			(int)name_len, s);
	if (par != NULL && s[n - 1] != ')')
		return wr_err_usage(why, -EINVAL, "layer %u (%s): no ')' after its fields",
			li, kinds[k].name);
	layer_init(&st->l[st->nb_layers], (uint8_t)k);
	st->nb_layers++;
	if (par == NULL)
		return 0;
	return parse_fields(&st->l[li - 1], li, par + 1, n - name_len - 2, why);
}

/* The order of the layers, and no fields on the innermost ipX/udp. */
static int
check_order(const struct wr_stack *st, struct wr_error *why)
{
	unsigned int i, n = st->nb_layers;

	if (st->l[0].kind != WR_STACK_ETH)
		return wr_err_usage(why, -EINVAL, "layer 1 must be eth");
	for (i = 1; i < n; i++)
		if ((may_follow[st->l[i - 1].kind] & (1u << st->l[i].kind)) == 0)
			return wr_err_usage(why, -EINVAL, "layer %u: %s cannot follow %s", i + 1,
				kinds[st->l[i].kind].name, kinds[st->l[i - 1].kind].name);
	if (n < 3 || st->l[n - 1].kind != WR_STACK_UDP ||
			(st->l[n - 2].kind != WR_STACK_IPV4 && st->l[n - 2].kind != WR_STACK_IPV6))
		return wr_err_usage(why, -EINVAL, "it must end in ipv4/udp or ipv6/udp "
			"(the test frame's own headers)");
	if (st->l[n - 1].given != 0 || (st->l[n - 2].given & WR_STACK_ADDRS) != 0)
		return wr_err_usage(why, -EINVAL, "layers %u-%u: the innermost IP and UDP "
			"take the stream's addresses and ports (--src-ip, --sport, ...), "
			"not fields", n - 1, n);
	return 0;
}

/* "FILE[:N]": the frame number N (from 1; 1 when left out) of a capture. */
static int
parse_template(const char *arg, struct wr_stack *st, struct wr_error *why)
{
	const char *colon = strrchr(arg, ':');
	char path[WR_STACK_TEXT_LEN];
	unsigned long nb = 1;
	size_t n = strlen(arg);
	char *end;

	if (colon != NULL && colon[1] >= '0' && colon[1] <= '9') {
		nb = strtoul(colon + 1, &end, 10);
		if (*end != '\0' || nb == 0 || nb > UINT32_MAX)
			return wr_err_usage(why, -EINVAL, "template=%s: frame '%s': expected "
				"a frame number from 1", arg, colon + 1);
		n = (size_t)(colon - arg);
	}
	if (n == 0)
		return wr_err_usage(why, -EINVAL, "template=: expected FILE[:N], a pcap "
			"or pcapng file and a frame number from 1");
	memcpy(path, arg, n);
	path[n] = '\0';
	return wr_stack_template(path, (uint32_t)nb, st, why);
}

int
wr_stack_parse(const char *text, struct wr_stack *st, struct wr_error *why)
{
	const char *s = text;
	int rc;

	memset(st, 0, sizeof(*st));
	if (strlen(text) >= sizeof(st->text))
		return wr_err_usage(why, -EINVAL, "longer than %zu characters",
			sizeof(st->text) - 1);
	strcpy(st->text, text);
	if (strncmp(text, TMPL_KEY, strlen(TMPL_KEY)) == 0)
		return parse_template(text + strlen(TMPL_KEY), st, why);
	for (;;) {
		const char *slash = strchr(s, '/');
		size_t n = slash ? (size_t)(slash - s) : strlen(s);

		if (n == 0)
			return wr_err_usage(why, -EINVAL, "layer %u: empty (two '/' or one "
				"at an end)", st->nb_layers + 1);
		rc = parse_layer(st, s, n, why);
		if (rc != 0)
			return rc;
		if (slash == NULL)
			break;
		s = slash + 1;
	}
	return check_order(st, why);
}

const char *
wr_stack_kind_name(unsigned int kind)
{
	return kind < WR_STACK_NB_KINDS ? kinds[kind].name : "?";
}

bool
wr_stack_outer_udp6(const struct wr_stack *st)
{
	unsigned int i;

	for (i = 1; i + 1 < st->nb_layers; i++)
		if (st->l[i].kind == WR_STACK_UDP && st->l[i - 1].kind == WR_STACK_IPV6)
			return true;
	return false;
}

bool
wr_stack_inner_ipv6(const struct wr_stack *st)
{
	return st->nb_layers >= 2 && st->l[st->nb_layers - 2].kind == WR_STACK_IPV6;
}

uint32_t
wr_stack_layer_len(const struct wr_stack_layer *ly)
{
	return kinds[ly->kind].hdr_len +
		(ly->kind == WR_STACK_GRE && (ly->given & WR_STACK_GRE_KEY) ? 4u : 0u);
}

uint32_t
wr_stack_hdr_len(const struct wr_stack *st)
{
	uint32_t len = 0;
	unsigned int i;

	if (st->tmpl_len != 0)
		return st->tmpl_len;
	for (i = 0; i < st->nb_layers; i++)
		len += wr_stack_layer_len(&st->l[i]);
	return len;
}
