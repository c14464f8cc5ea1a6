/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>

#include "base/error.h"
#include "base/units.h"
#include "config/portip.h"
#include "datapath/capture.h"
#include "datapath/svcq.h"
#include "port.h"
#include "ringpair.h"

#define POOL_CACHE 128u
#define EM_RX_FREE_THRESH 32u  /* below this every em RX burst costs a VM exit */
/*
 * Bytes a PMD may count in an RX buffer beyond the frame: a VLAN tag the
 * MTU check always allows for (em, virtio: 4) and virtio's net header (12).
 */
#define RX_BUF_EXTRA 16u
/*
 * net_af_xdp (DPDK 22.11, zero copy) fills a fill ring of 2048 slots from
 * the RX pool at queue set-up, whatever nb_rxd says, and does not give back
 * the mbufs left in its rings when the port closes: the ring plus up to two
 * of its 32-frame batches (measured: 2048 after a polled RX queue, 2080
 * after an idle one).
 */
#define XSK_RING_SLOTS 2048u
#define XSK_HELD_MBUFS (XSK_RING_SLOTS + 64u)

void
wr_port_note(struct wr_port *p, const char *fmt, ...)
{
	va_list ap;

	if (p->nb_notes == WR_PORT_MAX_NOTES)
		return;
	va_start(ap, fmt);
	vsnprintf(p->notes[p->nb_notes++], WR_PORT_NOTE_LEN, fmt, ap);
	va_end(ap);
}

static bool
is_driver(const struct wr_port *p, const char *name)
{
	return strcmp(p->driver, name) == 0;
}

/*
 * Per-lcore cache of a pool of n mbufs: none for the tiny pools of
 * --pool-mbufs, where cached mbufs would hide the exhaustion under test
 * (the mempool also refuses a cache above n / 1.5).
 */
static unsigned int
pool_cache(uint32_t n)
{
	return n >= 3u * POOL_CACHE ? POOL_CACHE : 0;
}

/* Round n up to 2^k - 1, the most efficient size for a ring-backed pool. */
static uint32_t
pool_round(uint32_t n)
{
	uint32_t v = 1;

	while (v - 1 < n)
		v <<= 1;
	return v - 1;
}

static int
probe_queues(struct wr_port *p, const struct wr_config *cfg, struct wr_error *err)
{
	/* Configure at least one queue each way: some PMDs (vmxnet3) refuse 0. */
	p->nb_txq = p->tx ? cfg->nb_txq : 1;
	p->nb_rxq = p->rx ? cfg->nb_rxq : 1;
	/* net_tap pairs each RX queue with a TX queue (one fd); from 23.11 it
	 * refuses unequal counts: the direction the run does not use gets as
	 * many queues as the other (set up, never polled). */
	if (is_driver(p, "net_tap")) {
		if (!p->rx)
			p->nb_rxq = p->nb_txq;
		if (!p->tx)
			p->nb_txq = p->nb_rxq;
	}
	if (p->nb_txq > p->info.max_tx_queues)
		return wr_err_usage(err, -EINVAL, "port %u (%s): %u TX queues asked, the PMD "
			"offers %u", p->port_id, p->driver, p->nb_txq,
			p->info.max_tx_queues);
	if (p->nb_rxq > p->info.max_rx_queues)
		return wr_err_usage(err, -EINVAL, "port %u (%s): %u RX queues asked, the PMD "
			"offers %u", p->port_id, p->driver, p->nb_rxq,
			p->info.max_rx_queues);
	if (is_driver(p, "net_vmxnet3") && !rte_is_power_of_2(p->nb_rxq))
		return wr_err_usage(err, -EINVAL, "port %u (net_vmxnet3): %u RX queues; vmxnet3 "
			"needs a power of two", p->port_id, p->nb_rxq);
	return 0;
}

static void
probe_desc(struct wr_port *p, const struct wr_config *cfg)
{
	uint16_t rxd = cfg->nb_rxd, txd = cfg->nb_txd;

	if (rte_eth_dev_adjust_nb_rx_tx_desc(p->port_id, &rxd, &txd) != 0) {
		rxd = cfg->nb_rxd;
		txd = cfg->nb_txd;
	}
	if (txd != cfg->nb_txd)
		wr_port_note(p, "TX descriptors %u -> %u (PMD allows %u..%u, multiple of %u)",
			cfg->nb_txd, txd, p->info.tx_desc_lim.nb_min,
			p->info.tx_desc_lim.nb_max, p->info.tx_desc_lim.nb_align);
	if (rxd != cfg->nb_rxd)
		wr_port_note(p, "RX descriptors %u -> %u (PMD allows %u..%u, multiple of %u)",
			cfg->nb_rxd, rxd, p->info.rx_desc_lim.nb_min,
			p->info.rx_desc_lim.nb_max, p->info.rx_desc_lim.nb_align);
	p->nb_txd = txd;
	p->nb_rxd = rxd;
}

/* MTU and buffer sizes for the frame size; jumbo frames need a larger MTU. */
static int
probe_mtu(struct wr_port *p, const struct wr_config *cfg, struct wr_error *err)
{
	uint32_t l2 = RTE_ETHER_HDR_LEN + RTE_ETHER_CRC_LEN + (cfg->vlan_id ? 4 : 0);
	uint32_t need_mtu = cfg->frame_size - l2;
	uint32_t frame_len = cfg->frame_size - WR_UNITS_FCS_BYTES;

	char origin[64];

	p->mtu = 0;
	if (need_mtu > RTE_ETHER_MTU) {
		if (need_mtu > p->info.max_mtu || frame_len > p->info.max_rx_pktlen)
			return wr_err_usage(err, -EINVAL, "port %u (%s): frame size %u (%s) "
				"needs MTU %u; the port allows MTU %u (frames of %u bytes)",
				p->port_id, p->driver, cfg->frame_size,
				wr_stream_size_origin(cfg, origin, sizeof(origin)), need_mtu,
				p->info.max_mtu, p->info.max_rx_pktlen);
		p->mtu = (uint16_t)need_mtu;
		wr_port_note(p, "MTU set to %u for %u-byte frames", p->mtu, cfg->frame_size);
	}
	/* RX buffers hold a whole frame: QEMU's e1000 cannot split one. */
	p->rx_mbuf_room = RTE_MAX((uint32_t)RTE_MBUF_DEFAULT_DATAROOM,
		(p->mtu ? p->mtu : RTE_ETHER_MTU) + l2 + RX_BUF_EXTRA);
	if (p->rx_mbuf_room < p->info.min_rx_bufsize)
		p->rx_mbuf_room = p->info.min_rx_bufsize;
	/*
	 * em programs the buffer size as a power of two at most the room
	 * (em_rctl_bsize), so a 9018-byte room gets 8192-byte buffers and
	 * jumbo frames arrive in two segments: round up instead.
	 */
	if (is_driver(p, "net_e1000_em") && !rte_is_power_of_2(p->rx_mbuf_room)) {
		p->rx_mbuf_room = rte_align32pow2(p->rx_mbuf_room);
		wr_port_note(p, "RX buffers of %u bytes: net_e1000_em only programs "
			"powers of two", p->rx_mbuf_room);
	}
	return 0;
}

/* Pools sized from the rings and bursts actually configured. */
static void
probe_pools(struct wr_port *p, const struct wr_config *cfg)
{
	uint32_t in_flight = is_driver(p, "net_ring") ? WR_RING_PAIR_SIZE : 0;
	uint32_t xsk = is_driver(p, "net_af_xdp") ? XSK_RING_SLOTS : 0;
	/* --capture holds the last frames received (a ring pair's are the
	 * peer's TX mbufs): room for them in both pools. */
	uint32_t held = cfg->capture.path[0] != '\0' ?
		wr_capture_hold_slots(&cfg->capture) : 0;

	/* --port-ip: service frames held on a ring, replies on another. */
	if (wr_portip_any(&cfg->port_ip[p->port_id]))
		held += 2u * WR_SVCQ_RING_SLOTS;

	p->rx_rings_per_q = is_driver(p, "net_vmxnet3") ? 2 : 1;
	/* Ring, pending burst and the one in hand, two lcore caches. */
	p->tx_in_flight = in_flight + held;
	p->tx_pool_mbufs = pool_round(p->nb_txd + in_flight + held +
		4u * cfg->burst_pkts + 3u * POOL_CACHE);
	p->rx_pool_mbufs = pool_round(p->nb_rxd * p->rx_rings_per_q + xsk + held +
		4u * cfg->burst_pkts + 3u * POOL_CACHE);
	if (xsk != 0)
		wr_port_note(p, "RX pool %u mbufs: net_af_xdp fills a %u-slot ring from it "
			"and keeps up to %u mbufs per pool after close (not counted "
			"as missing)", p->rx_pool_mbufs, xsk, XSK_HELD_MBUFS);
	if (cfg->pool_mbufs != 0) {
		p->tx_pool_mbufs = p->rx_pool_mbufs = cfg->pool_mbufs;
		wr_port_note(p, "pools of %u mbufs (--pool-mbufs, a test knob)",
			cfg->pool_mbufs);
	}
	if (p->rx_rings_per_q > 1)
		wr_port_note(p, "RX pool %u mbufs: %s fills %u rings per queue",
			p->rx_pool_mbufs, p->driver, p->rx_rings_per_q);
	/* Replayed frames are sent by reference (datapath/replay.h); --port-ip
	 * replies come from the RX pool (setup/svc.h): not one TX pool. */
	p->fast_free = (p->info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE) != 0 &&
		cfg->replay.path[0] == '\0' && !wr_portip_any(&cfg->port_ip[p->port_id]);
}

int
wr_port_probe(struct wr_port *p, uint16_t port_id, bool tx, bool rx,
		const struct wr_config *cfg, struct wr_error *err)
{
	int rc;

	memset(p, 0, sizeof(*p));
	p->port_id = port_id;
	p->tx = tx;
	p->rx = rx;
	rc = rte_eth_dev_info_get(port_id, &p->info);
	if (rc != 0)
		return wr_err_env(err, rc, "port %u: cannot read device info: %s",
			port_id, rte_strerror(-rc));
	snprintf(p->driver, sizeof(p->driver), "%s", p->info.driver_name);
	rte_eth_dev_get_name_by_port(port_id, p->name);
	p->socket = rte_eth_dev_socket_id(port_id);
	rte_eth_macaddr_get(port_id, &p->mac);
	wr_devinfo_read(&p->info, p->driver, "/sys", &p->dev);
	rc = probe_queues(p, cfg, err);
	if (rc != 0)
		return rc;
	probe_desc(p, cfg);
	rc = probe_mtu(p, cfg, err);
	if (rc != 0)
		return rc;
	probe_pools(p, cfg);
	return 0;
}

/* Template copied into every mbuf of a TX pool once, at creation. */
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
		pool_cache(p->tx_pool_mbufs),
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

static int
make_rx_pool(struct wr_port *p, uint16_t q, struct wr_error *err)
{
	char name[RTE_MEMPOOL_NAMESIZE];

	/* A kept port set up again makes its new pools before the old go. */
	snprintf(name, sizeof(name), "wr_rx_%u_%u_%" PRIu64, p->port_id, q,
		p->nb_setups);
	p->rx_pool[q] = rte_pktmbuf_pool_create(name, p->rx_pool_mbufs,
		pool_cache(p->rx_pool_mbufs),
		0, (uint16_t)(p->rx_mbuf_room + RTE_PKTMBUF_HEADROOM), p->socket);
	if (p->rx_pool[q] == NULL)
		return wr_err_env(err, -ENOMEM, "port %u RX queue %u: no memory for %u mbufs of "
			"%u bytes on socket %d (%s): reserve more hugepages",
			p->port_id, q, p->rx_pool_mbufs, p->rx_mbuf_room, p->socket,
			rte_strerror(rte_errno));
	return 0;
}

static void
fill_conf(struct wr_port *p, struct rte_eth_conf *conf)
{
	memset(conf, 0, sizeof(*conf));
	if (p->mtu != 0)
		conf->rxmode.mtu = p->mtu;
	if (p->fast_free)
		conf->txmode.offloads |= RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE;
	if (p->nb_rxq > 1 && (p->info.flow_type_rss_offloads &
			(RTE_ETH_RSS_IP | RTE_ETH_RSS_UDP)) != 0) {
		conf->rxmode.mq_mode = RTE_ETH_MQ_RX_RSS;
		conf->rx_adv_conf.rss_conf.rss_hf = p->info.flow_type_rss_offloads &
			(RTE_ETH_RSS_IP | RTE_ETH_RSS_UDP);
	} else if (p->nb_rxq > 1) {
		/* virtio-user, memif, vhost: queue i receives the peer's queue i. */
		wr_port_note(p, "%u RX queues without RSS: the PMD has none, frames are "
			"spread by the peer's queue", p->nb_rxq);
	}
}

/*
 * A queue the PMD refused: -EINVAL is ethdev's answer to a descriptor
 * count outside the port's limits (the --txd/--rxd asked); anything else
 * is the port's side.
 */
static int
desc_err(const struct wr_port *p, const char *dir, uint16_t q, uint16_t nb_desc,
		int rc, struct wr_error *err)
{
	if (rc == -EINVAL)
		return wr_err_usage(err, rc, "--%sd %u: port %u (%s) refused it for "
			"%s queue %u (see the port's descriptor limits)", dir, nb_desc,
			p->port_id, p->driver, dir, q);
	return wr_err_env(err, rc, "port %u (%s) %s queue %u, %u descriptors: %s",
		p->port_id, p->driver, dir, q, nb_desc, rte_strerror(-rc));
}

static int
setup_queues(struct wr_port *p, const struct rte_eth_conf *conf, struct wr_error *err)
{
	struct rte_eth_rxconf rxc = p->info.default_rxconf;
	struct rte_eth_txconf txc = p->info.default_txconf;
	uint16_t q;
	int rc;

	txc.offloads = conf->txmode.offloads;
	if (is_driver(p, "net_e1000_em") && rxc.rx_free_thresh < EM_RX_FREE_THRESH) {
		rxc.rx_free_thresh = EM_RX_FREE_THRESH;
		wr_port_note(p, "rx_free_thresh %u: fewer RX doorbells (VM exits) on em",
			EM_RX_FREE_THRESH);
	}
	for (q = 0; q < p->nb_txq; q++) {
		rc = rte_eth_tx_queue_setup(p->port_id, q, p->nb_txd, p->socket, &txc);
		if (rc != 0)
			return desc_err(p, "tx", q, p->nb_txd, rc, err);
	}
	for (q = 0; q < p->nb_rxq; q++) {
		rc = rte_eth_rx_queue_setup(p->port_id, q, p->nb_rxd, p->socket,
			&rxc, p->rx_pool[q]);
		if (rc != 0)
			return desc_err(p, "rx", q, p->nb_rxd, rc, err);
	}
	return 0;
}

static int
make_rx_pools(struct wr_port *p, struct wr_error *err)
{
	uint16_t q;
	int rc;

	for (q = 0; q < p->nb_rxq; q++) {
		rc = make_rx_pool(p, q, err);
		if (rc != 0)
			return rc;
	}
	return 0;
}

int
wr_port_setup(struct wr_port *p, const struct wr_config *cfg __rte_unused,
		struct wr_error *err)
{
	struct rte_eth_conf conf;
	int rc;

	rc = make_rx_pools(p, err);
	if (rc != 0)
		return rc;
	fill_conf(p, &conf);
	rc = rte_eth_dev_configure(p->port_id, p->nb_rxq, p->nb_txq, &conf);
	if (rc != 0)
		return wr_err_env(err, rc, "port %u (%s): configure with %u RX / %u TX "
			"queues%s failed: %s", p->port_id, p->driver, p->nb_rxq,
			p->nb_txq, p->mtu ? " and a jumbo MTU" : "", rte_strerror(-rc));
	p->configured = true;
	rc = setup_queues(p, &conf, err);
	if (rc != 0)
		return rc;
	if (p->rx)
		rte_eth_promiscuous_enable(p->port_id); /* -ENOTSUP is harmless */
	rc = rte_eth_dev_start(p->port_id);
	if (rc != 0)
		return wr_err_env(err, rc, "port %u (%s): start failed: %s",
			p->port_id, p->driver, rte_strerror(-rc));
	p->started = true;
	return 0;
}

void
wr_port_wait_link(struct wr_port *p, uint64_t timeout_ms)
{
	struct rte_eth_link link;
	uint64_t waited = 0;

	for (;;) {
		memset(&link, 0, sizeof(link));
		if (rte_eth_link_get_nowait(p->port_id, &link) != 0)
			break;
		if (link.link_status == RTE_ETH_LINK_UP || waited >= timeout_ms)
			break;
		rte_delay_us_sleep(10 * 1000);
		waited += 10;
	}
	p->link_up = link.link_status == RTE_ETH_LINK_UP;
	p->link_speed_mbps = link.link_speed == RTE_ETH_SPEED_NUM_UNKNOWN ?
		0 : link.link_speed;
	p->link_wait_ms = waited;
}

uint64_t
wr_port_mbufs_missing(const struct wr_port *p)
{
	uint64_t missing = 0, held = is_driver(p, "net_af_xdp") ? XSK_HELD_MBUFS : 0;
	/* A kept port's RX rings stay filled from its pools. */
	uint64_t rx_held = held + (p->kept ? (uint64_t)p->nb_rxd * p->rx_rings_per_q : 0);
	uint64_t n;
	unsigned int i;
	uint16_t q;

	for (q = 0; q < WR_MAX_QUEUES; q++) {
		for (i = 0; i < p->nb_txsets; i++) {
			n = p->txset[i].pool[q] == NULL ? 0 :
				rte_mempool_in_use_count(p->txset[i].pool[q]);
			missing += n > held ? n - held : 0;
		}
		n = p->rx_pool[q] == NULL ? 0 : rte_mempool_in_use_count(p->rx_pool[q]);
		missing += n > rx_held ? n - rx_held : 0;
	}
	return missing;
}

void
wr_port_stop(struct wr_port *p)
{
	if (p->kept)
		return;
	if (p->started)
		rte_eth_dev_stop(p->port_id);
	p->started = false;
}

/* Close the port: queues are released and their mbufs go back. */
void
wr_port_close(struct wr_port *p)
{
	if (p->kept)
		return;
	wr_port_stop(p);
	if (p->configured)
		rte_eth_dev_close(p->port_id);
	p->configured = false;
}

void
wr_port_teardown(struct wr_port *p)
{
	uint16_t q;

	unsigned int i;

	wr_port_close(p);
	for (q = 0; q < WR_MAX_QUEUES; q++) {
		for (i = 0; i < p->nb_txsets; i++) {
			rte_mempool_free(p->txset[i].pool[q]);
			p->txset[i].pool[q] = NULL;
			rte_free(p->txset[i].var[q]);
			p->txset[i].var[q] = NULL;
		}
		if (!p->kept)
			rte_mempool_free(p->rx_pool[q]);
		p->rx_pool[q] = NULL;
	}
	p->nb_txsets = 0;
	p->cur = NULL;
}
