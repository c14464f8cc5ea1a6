/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A TX port's frames (port.h): each queue's template built from the run's
 * options, its pool of mbufs holding it, what varies per frame (txvar,
 * the flow rows of field ranges), one set per frame size; and a next
 * hop's new MAC written into all of them.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_malloc.h>
#include <rte_mbuf.h>

#include "base/error.h"
#include "base/units.h"
#include "config/portip.h"
#include "datapath/txflow.h"
#include "datapath/txvar.h"
#include "port.h"
#include "port_int.h"

struct tmpl_arg {
	const uint8_t *bytes;
	uint32_t len;
};

static void
tmpl_init(struct rte_mempool *mp __rte_unused, void *arg, void *obj,
		unsigned int idx __rte_unused)
{
	const struct tmpl_arg *t = arg;
	struct rte_mbuf *m = obj;

	memcpy((uint8_t *)m->buf_addr + RTE_PKTMBUF_HEADROOM, t->bytes, t->len);
	/* The queue's frame length, which its fixed-size TX path then never
	 * writes again (datapath/txstamp.h, tx_stamp_new). */
	m->data_len = (uint16_t)t->len;
	m->pkt_len = t->len;
}

static void
dst_mac_set(struct rte_mempool *mp __rte_unused, void *arg, void *obj,
		unsigned int idx __rte_unused)
{
	struct rte_mbuf *m = obj;

	memcpy((uint8_t *)m->buf_addr + RTE_PKTMBUF_HEADROOM, arg,
		RTE_ETHER_ADDR_LEN);
}

/* The flow table after txvar v in its block (make_tx_flows), writable. */
static struct wr_txflows *
tx_flows_of(struct wr_txvar *v)
{
	return (struct wr_txflows *)RTE_PTR_ALIGN_CEIL(v + 1, 64);
}

void
wr_port_set_dst_mac(struct wr_port *p, uint16_t q, const struct rte_ether_addr *mac)
{
	struct rte_ether_addr m = *mac;
	unsigned int i;

	for (i = 0; i < p->nb_txsets; i++) {
		if (p->txset[i].pool[q] != NULL)
			rte_mempool_obj_iter(p->txset[i].pool[q], dst_mac_set, &m);
		/* Field ranges: each frame takes its MACs from the flow rows. */
		if (p->txset[i].var[q] != NULL && p->txset[i].var[q]->flows != NULL)
			wr_txflow_set_dst_mac(tx_flows_of(p->txset[i].var[q]), &m);
	}
}

/* A --stream's own headers and size over the defaults. */
static void
fill_stream_spec(const struct wr_stream_def *d, struct wr_frame_spec *s)
{
	s->size = d->frame_size;
	s->vlan_id = d->vlan_id;
	s->vlan_prio = d->vlan_prio;
	s->dscp = d->dscp;
	s->src_ip = d->src_ip;
	s->dst_ip = d->dst_ip;
	s->src_udp = d->src_udp;
	s->dst_udp = d->dst_udp;
	s->ipv6 = d->ipv6;
	s->stack = &d->stack;
	memcpy(s->src_ip6, d->src_ip6, sizeof(s->src_ip6));
	memcpy(s->dst_ip6, d->dst_ip6, sizeof(s->dst_ip6));
}

void
wr_port_frame_spec(const struct wr_port *p, const struct wr_config *cfg,
		const struct wr_port *peer, uint16_t queue, uint32_t size,
		struct wr_frame_spec *s)
{
	memset(s, 0, sizeof(*s));
	s->size = size;
	s->src_mac = cfg->src_mac_set ? cfg->src_mac : p->mac;
	s->dst_mac = cfg->dst_mac_set ? cfg->dst_mac :
		p->nh[queue].resolved ? p->nh[queue].mac : peer->mac;
	s->vlan_id = cfg->vlan_id;
	s->src_ip = cfg->src_ip;
	s->dst_ip = cfg->dst_ip;
	s->src_udp = cfg->src_udp;
	s->dst_udp = cfg->dst_udp;
	s->stream_id = wr_port_stream_id(p->port_id, queue);
	s->ipv6 = cfg->ipv6;
	memcpy(s->src_ip6, cfg->src_ip6, sizeof(s->src_ip6));
	memcpy(s->dst_ip6, cfg->dst_ip6, sizeof(s->dst_ip6));
	s->dscp = cfg->dscp;
	s->vlan_prio = cfg->vlan_prio;
	s->stack = &cfg->stack;
	if (cfg->nb_stream_defs != 0)
		fill_stream_spec(&cfg->streams[queue], s);
	wr_portip_frame(&cfg->port_ip[p->port_id], &cfg->port_ip[peer->port_id],
		cfg->addr_set | (cfg->nb_stream_defs ? cfg->streams[queue].addr_set : 0), s);
}

/*
 * The flow table of field ranges after the queue's txvar in one block v
 * (txflow.h), from the template's checksum at the queue's size.
 */
static int
make_tx_flows(struct wr_txvar *v, const struct wr_ranges *r,
		const struct wr_frame_spec *spec)
{
	struct wr_txflows *t = tx_flows_of(v);

	if (wr_txflow_build(spec, r, t) != 0)
		return -EINVAL;
	wr_txflow_seal(t, v->mix || v->csum6, t->ck_tmpl);
	v->flows = t;
	return 0;
}

/* What TX queue q varies per frame (txvar.h), when anything. */
static int
make_tx_var(struct wr_port *p, const struct wr_config *cfg,
		struct wr_port_txset *set, uint16_t q,
		const struct wr_frame_spec *spec, struct wr_error *err)
{
	const struct wr_stream_def *d = cfg->nb_stream_defs ? &cfg->streams[q] : NULL;
	const struct wr_mix *mix = d != NULL ? &d->mix : &cfg->mix;
	const struct wr_ranges *r = d != NULL ? &d->ranges : &cfg->ranges;
	uint64_t nb = wr_range_flows(r, spec->ipv6);
	struct wr_txvar v;
	bool needed;

	if (wr_txvar_build(mix, spec, &set->qlay[q], &v, &needed) != 0)
		return wr_err_usage(err, -EINVAL, "port %u: a size of mix %s cannot hold "
			"the headers", p->port_id, mix->text);
	if (!needed && nb <= 1)
		return 0;
	set->var[q] = rte_malloc_socket("wr_txvar", sizeof(v) + 64 +
		(nb > 1 ? wr_txflow_size((uint32_t)nb) : 0), RTE_CACHE_LINE_SIZE,
		p->socket);
	if (set->var[q] == NULL)
		return wr_err_env(err, -ENOMEM, "port %u TX queue %u: no memory for "
			"its frame table (%" PRIu64 " flows)", p->port_id, q, nb);
	memcpy(set->var[q], &v, sizeof(v));
	if (nb > 1 && make_tx_flows(set->var[q], r, spec) != 0)
		return wr_err_usage(err, -EINVAL, "port %u TX queue %u: its ranges do not "
			"fit its frames", p->port_id, q);
	return 0;
}

static int
make_tx_pool(struct wr_port *p, const struct wr_config *cfg,
		const struct wr_port *peer, struct wr_port_txset *set, uint16_t q,
		struct wr_error *err)
{
	static uint8_t buf[WR_FRAME_MAX_SIZE];
	uint32_t room = RTE_MAX((uint32_t)RTE_MBUF_DEFAULT_DATAROOM,
		set->frame_size - WR_UNITS_FCS_BYTES);
	struct wr_frame_spec spec;
	struct tmpl_arg t;
	char name[RTE_MEMPOOL_NAMESIZE];

	wr_port_frame_spec(p, cfg, peer, q, set->frame_size, &spec);
	if (wr_frame_build(&spec, buf, sizeof(buf), &set->qlay[q]) != 0)
		return wr_err_usage(err, -EINVAL, "port %u: frame size %u cannot hold the "
			"headers", p->port_id, spec.size);
	set->layout = set->qlay[q];
	snprintf(name, sizeof(name), "wr_tx_%u_%u_%u", p->port_id, q, set->frame_size);
	set->pool[q] = rte_pktmbuf_pool_create(name, p->tx_pool_mbufs,
		wr_port_pool_cache(p->tx_pool_mbufs),
		0, (uint16_t)(room + RTE_PKTMBUF_HEADROOM), p->socket);
	if (set->pool[q] == NULL)
		return wr_err_env(err, -ENOMEM, "port %u TX queue %u: no memory for %u mbufs of "
			"%u bytes on socket %d (%s): reserve more hugepages",
			p->port_id, q, p->tx_pool_mbufs, room, p->socket,
			rte_strerror(rte_errno));
	t.bytes = buf;
	t.len = set->qlay[q].data_len;
	rte_mempool_obj_iter(set->pool[q], tmpl_init, &t);
	return make_tx_var(p, cfg, set, q, &spec, err);
}

int
wr_port_use_size(struct wr_port *p, const struct wr_config *cfg,
		const struct wr_port *peer, uint32_t frame_size,
		struct wr_error *err)
{
	struct wr_port_txset *set;
	unsigned int i;
	uint16_t q;
	int rc;

	for (i = 0; i < p->nb_txsets; i++) {
		if (p->txset[i].frame_size == frame_size) {
			p->cur = &p->txset[i];
			return 0;
		}
	}
	if (p->nb_txsets == WR_MAX_SIZES)
		return wr_err_fail(err, -EINVAL, "port %u: more than %u frame sizes",
			p->port_id, WR_MAX_SIZES);
	set = &p->txset[p->nb_txsets++];
	set->frame_size = frame_size;
	for (q = 0; q < p->nb_txq; q++) {
		rc = make_tx_pool(p, cfg, peer, set, q, err);
		if (rc != 0)
			return rc;
	}
	p->cur = set;
	return 0;
}
