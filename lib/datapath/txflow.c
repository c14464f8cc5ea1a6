/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "txflow.h"

/*
 * Rows are read from frames of the smallest size: 88 bytes at most, a
 * header stack's at most its headers and test header (stack.h).
 */
#define FLOW_BUF_LEN 1024u

/* Values of each field per flow index: sport fastest (range.h). */
static void
flow_spec(const struct wr_frame_spec *base, const struct wr_ranges *r,
		uint32_t flow, struct wr_frame_spec *s)
{
	uint32_t k[WR_RANGE_NB_FIELDS];
	unsigned int f;

	for (f = 0; f < WR_RANGE_NB_FIELDS; f++) {
		uint32_t nb = r->nb[f] > 1 ? r->nb[f] : 1;

		if ((f == WR_RANGE_SRC_IP || f == WR_RANGE_DST_IP) && base->ipv6)
			nb = 1;
		if ((f == WR_RANGE_SRC_IP6 || f == WR_RANGE_DST_IP6) && !base->ipv6)
			nb = 1;
		k[f] = flow % nb;
		flow /= nb;
	}
	*s = *base;
	s->src_udp = (uint16_t)(base->src_udp + k[WR_RANGE_SPORT]);
	s->dst_udp = (uint16_t)(base->dst_udp + k[WR_RANGE_DPORT]);
	s->src_ip = base->src_ip + k[WR_RANGE_SRC_IP];
	s->dst_ip = base->dst_ip + k[WR_RANGE_DST_IP];
	wr_range_ip6_at(base->src_ip6, k[WR_RANGE_SRC_IP6], s->src_ip6);
	wr_range_ip6_at(base->dst_ip6, k[WR_RANGE_DST_IP6], s->dst_ip6);
	wr_range_mac_at(&base->src_mac, k[WR_RANGE_SRC_MAC], &s->src_mac);
	wr_range_mac_at(&base->dst_mac, k[WR_RANGE_DST_MAC], &s->dst_mac);
	s->vlan_id = (uint16_t)(base->vlan_id + k[WR_RANGE_VLAN]);
	s->dscp = (uint8_t)(base->dscp + k[WR_RANGE_DSCP]);
}

/* Row e from a frame d built for the flow; tmpl_ck is the template's checksum. */
static void
flow_row(const struct wr_txflows *t, const uint8_t *d, uint16_t tmpl_ck,
		struct wr_txflow *e)
{
	uint16_t ck;

	memset(e, 0, sizeof(*e));
	memcpy(e->mac, d, sizeof(e->mac));
	if (t->tagged)
		memcpy(&e->tci, d + 14, sizeof(e->tci));
	if (t->ipv6) {
		memcpy(&e->vtc, d + t->at.l3_off, sizeof(e->vtc));
		memcpy(e->addr, d + t->at.l3_off + 8, 32);
	} else {
		e->vtc = d[t->at.l3_off + 1];
		memcpy(e->addr, d + t->at.l3_off + 12, 8);
	}
	memcpy(&e->ports, d + t->at.sport_off, sizeof(e->ports));
	/* m' - m = S' + ~S, where a checksum is ~S (RFC 1624 section 3). */
	memcpy(&ck, d + t->at.ck_off, sizeof(ck));
	e->ck_sum = wr_txflow_fold((uint32_t)(uint16_t)~ck + tmpl_ck);
}

/* The rows in send order, each built as a frame at the smallest size. */
static int
fill_rows(const struct wr_frame_spec *base, const struct wr_ranges *r,
		struct wr_txflows *t, uint8_t *buf, uint32_t *order)
{
	struct wr_frame_layout lay;
	struct wr_frame_spec s;
	uint16_t tmpl_ck;
	uint32_t i;

	if (wr_frame_build(base, buf, FLOW_BUF_LEN, &lay) != 0)
		return -EINVAL;
	memcpy(&tmpl_ck, buf + t->at.ck_off, sizeof(tmpl_ck));
	wr_range_order(r, t->nb, order);
	for (i = 0; i < t->nb; i++) {
		flow_spec(base, r, order[i], &s);
		if (wr_frame_build(&s, buf, FLOW_BUF_LEN, &lay) != 0)
			return -EINVAL;
		flow_row(t, buf, tmpl_ck, &t->row[i]);
	}
	return 0;
}

/*
 * Where the rows go: the innermost IP header (the plain frame's, or the
 * last of a stack's, found from its length field), UDP, and the checksum
 * that covers them: the IPv4 header's, or the UDP over IPv6 one.
 */
static void
set_offsets(struct wr_txflows *t, const struct wr_frame_layout *lay)
{
	t->at.l3_off = (uint16_t)(lay->var_off[0] - (t->ipv6 ?
		offsetof(struct rte_ipv6_hdr, payload_len) :
		offsetof(struct rte_ipv4_hdr, total_length)));
	t->at.sport_off = (uint16_t)lay->udp_sport_off;
	t->at.ck_off = (uint16_t)(t->ipv6 ? lay->udp_ck_off : t->at.l3_off +
		offsetof(struct rte_ipv4_hdr, hdr_checksum));
}

/* t->ck_tmpl: the checksum at ck_off of spec's template at its own size. */
static int
tmpl_checksum(const struct wr_frame_spec *spec, struct wr_txflows *t)
{
	struct wr_frame_layout lay;
	uint8_t *buf = malloc(WR_FRAME_MAX_SIZE);
	int rc = buf == NULL ? -ENOMEM : wr_frame_build(spec, buf, WR_FRAME_MAX_SIZE, &lay);

	if (rc == 0) {
		set_offsets(t, &lay);
		memcpy(&t->ck_tmpl, buf + t->at.ck_off, sizeof(t->ck_tmpl));
		memcpy(&t->udp_len, buf + t->at.sport_off + 4, sizeof(t->udp_len));
	}
	free(buf);
	return rc;
}

int
wr_txflow_build(const struct wr_frame_spec *spec, const struct wr_ranges *r,
		struct wr_txflows *t)
{
	struct wr_frame_spec base = *spec;
	struct wr_frame_layout lay;
	uint8_t buf[FLOW_BUF_LEN];
	uint32_t *order;
	int rc;

	if (wr_range_check(r, spec->ipv6, spec->vlan_id != 0, NULL) != 0)
		return -EINVAL;
	base.size = wr_frame_min_size_spec(spec);
	t->nb = (uint32_t)wr_range_flows(r, spec->ipv6);
	t->ipv6 = spec->ipv6;
	t->tagged = spec->vlan_id != 0;
	order = malloc(t->nb * sizeof(*order));
	rc = order == NULL ? -ENOMEM : tmpl_checksum(spec, t);
	if (rc == 0)
		rc = wr_frame_build(&base, buf, sizeof(buf), &lay);
	if (rc == 0) {
		set_offsets(t, &lay);
		rc = fill_rows(&base, r, t, buf, order);
	}
	free(order);
	return rc;
}

/* Row e's image (wr_txflow_img) for t's plain untagged IPv4 frames. */
static void
flow_img(const struct wr_txflows *t, const struct wr_txflow *e,
		struct wr_txflow_img *g)
{
	const uint16_t type = RTE_BE16(RTE_ETHER_TYPE_IPV4);

	memcpy(g->eth, e->mac, sizeof(e->mac));
	memcpy(g->eth + 12, &type, sizeof(type));
	g->eth[14] = 0x45;
	g->eth[15] = (uint8_t)e->vtc;
	memcpy(g->ip, &e->ck, sizeof(e->ck));
	memcpy(g->ip + 2, e->addr, 8);
	memcpy(g->ip + 10, &e->ports, sizeof(e->ports));
	memcpy(g->ip + 14, &t->udp_len, sizeof(t->udp_len));
}

void
wr_txflow_seal(struct wr_txflows *t, bool fresh, uint16_t ck_tmpl)
{
	struct wr_txflow_img *g = (struct wr_txflow_img *)&t->row[t->nb];
	uint32_t i;

	t->ck_fresh = fresh;
	for (i = 0; i < t->nb && !fresh; i++)
		t->row[i].ck = wr_txflow_csum(ck_tmpl, t->row[i].ck_sum);
	/* The image's bytes between the fields are the plain frame's. */
	t->img = !fresh && !t->ipv6 && !t->tagged &&
		t->at.l3_off == RTE_ETHER_HDR_LEN &&
		t->at.ck_off == WR_TXFLOW_IMG_IP_OFF &&
		t->at.sport_off == WR_TXFLOW_IMG_IP_OFF + 10;
	for (i = 0; i < t->nb && t->img; i++)
		flow_img(t, &t->row[i], &g[i]);
}

void
wr_txflow_set_dst_mac(struct wr_txflows *t, const struct rte_ether_addr *mac)
{
	struct wr_txflow_img *g = (struct wr_txflow_img *)&t->row[t->nb];
	uint32_t i;

	for (i = 0; i < t->nb; i++)
		memcpy(t->row[i].mac, mac, RTE_ETHER_ADDR_LEN);
	for (i = 0; i < t->nb && t->img; i++)
		memcpy(g[i].eth, mac, RTE_ETHER_ADDR_LEN);
}
