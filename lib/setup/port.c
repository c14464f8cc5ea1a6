/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "base/error.h"
#include "base/units.h"
#include "config/portip.h"
#include "config/opts_conn.h"
#include "datapath/capture.h"
#include "datapath/connworker.h"
#include "datapath/svcq.h"
#include "kport.h"
#include "port.h"
#include "port_int.h"
#include "ringpair.h"
#include "vport.h"

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
	/* net_af_packet's qpairs sockets share one fanout group: the kernel
	 * hands a received frame (an ARP reply, an echo request) to any of
	 * them. A port that does not receive but has an address sets up
	 * every one, which resolution and the main lcore then poll. */
	if (!p->rx && is_driver(p, "net_af_packet") &&
			wr_portip_any(&cfg->port_ip[p->port_id]))
		p->nb_rxq = RTE_MAX(1, RTE_MIN(p->info.max_rx_queues, WR_MAX_QUEUES));
	/* Each stream has its queue: name the first that has none. */
	if (p->nb_txq > p->info.max_tx_queues && cfg->nb_stream_defs > p->info.max_tx_queues)
		return wr_err_usage(err, -EINVAL, "port %u (%s): --stream %u (%s) needs TX "
			"queue %u, and the PMD offers %u queues (%u streams%s)", p->port_id,
			p->driver, p->info.max_tx_queues + 1,
			cfg->streams[p->info.max_tx_queues].name, p->info.max_tx_queues,
			p->info.max_tx_queues, cfg->nb_stream_defs, wr_service_any(cfg) ?
			"; a service with eir= takes two" : "");
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

/*
 * The largest MTU the port's ethdev accepts: ethdev checks both max_mtu
 * and max_rx_pktlen, with the overhead it derives (eth_dev_validate_mtu).
 */
static uint32_t
port_max_mtu(const struct wr_port *p, uint32_t *overhead)
{
	uint32_t max_mtu = p->info.max_mtu, pktlen = p->info.max_rx_pktlen;

	*overhead = RTE_ETHER_HDR_LEN + RTE_ETHER_CRC_LEN;
	if (max_mtu != UINT16_MAX && pktlen > max_mtu)
		*overhead = pktlen - max_mtu;
	return pktlen > *overhead ? RTE_MIN(max_mtu, pktlen - *overhead) : 0;
}

/* XDP_PACKET_HEADROOM of the kernel's uapi (linux/bpf.h). */
#define XDP_HEADROOM 256u

/*
 * The largest RX data room net_af_xdp can take: its umem chunk is the
 * mempool's whole object (header, mbuf, headroom, data room, the pool's
 * padding), and the kernel takes a chunk of one page at most.
 */
static uint32_t
xdp_max_room(void)
{
	uint32_t page = (uint32_t)sysconf(_SC_PAGESIZE);
	uint32_t room = page;

	while (room > RTE_CACHE_LINE_SIZE && rte_mempool_calc_obj_size(
			(uint32_t)sizeof(struct rte_mbuf) + RTE_PKTMBUF_HEADROOM + room,
			0, NULL) > page)
		room -= RTE_CACHE_LINE_SIZE;
	return room;
}

/* The largest frame (FCS included) an XDP RX buffer of ours holds. */
static uint32_t
xdp_max_frame(void)
{
	return xdp_max_room() - XDP_HEADROOM + WR_UNITS_FCS_BYTES;
}

/* A jumbo MTU through ethdev (not for PMDs that copy from a kernel interface). */
static int
probe_ethdev_mtu(struct wr_port *p, const struct wr_config *cfg, uint32_t need_mtu,
		struct wr_error *err)
{
	uint32_t overhead, allowed = port_max_mtu(p, &overhead);
	char origin[64];

	if (need_mtu <= RTE_ETHER_MTU || wr_kport_copies(p) || wr_vport_memif(p))
		return 0;
	/* The af_xdp PMD's limit is its buffers', ours the page its RX
	 * buffer must fit (xdp_max_frame); the kernel's XDP on the interface
	 * takes its own, often less (veth: a page less headroom). */
	if (strcmp(p->driver, "net_af_xdp") == 0 &&
			cfg->frame_size > RTE_MIN(allowed + overhead, xdp_max_frame()))
		return wr_err_usage(err, -EINVAL, "port %u (net_af_xdp): frame size "
			"%u (%s) is over what an XDP buffer holds here: frames of %u "
			"bytes at most (the PMD's limit: MTU %u), and the kernel's XDP "
			"on the interface may take less (a veth with 4 KiB pages: MTU "
			"3506); af_packet carries jumbo frames", p->port_id,
			cfg->frame_size, wr_stream_size_origin(cfg, origin, sizeof(origin)),
			RTE_MIN(allowed + overhead, xdp_max_frame()), allowed);
	if (need_mtu > allowed)
		return wr_err_usage(err, -EINVAL, "port %u (%s): frame size %u (%s) "
			"needs MTU %u; the port allows MTU %u (frames of %u bytes)",
			p->port_id, p->driver, cfg->frame_size,
			wr_stream_size_origin(cfg, origin, sizeof(origin)), need_mtu,
			allowed, allowed + overhead);
	p->mtu = (uint16_t)need_mtu;
	wr_port_note(p, "MTU set to %u for %u-byte frames", p->mtu, cfg->frame_size);
	return 0;
}

/*
 * MTU and buffer sizes for the frame size; jumbo frames need a larger MTU
 * (of the ethdev, or of the kernel interface behind af_packet and tap).
 * A frame that fits keeps the default data room.
 */
static int
probe_mtu(struct wr_port *p, const struct wr_config *cfg, struct wr_error *err)
{
	uint32_t l2 = RTE_ETHER_HDR_LEN + RTE_ETHER_CRC_LEN + (cfg->vlan_id ? 4 : 0);
	uint32_t need_mtu = cfg->frame_size - l2;
	int rc;

	p->mtu = 0;
	rc = probe_ethdev_mtu(p, cfg, need_mtu, err);
	if (rc != 0)
		return rc;
	/* RX buffers hold a whole frame: QEMU's e1000 cannot split one. */
	p->rx_mbuf_room = RTE_MAX((uint32_t)RTE_MBUF_DEFAULT_DATAROOM,
		RTE_MAX(need_mtu, (uint32_t)RTE_ETHER_MTU) + l2 + RX_BUF_EXTRA);
	if (p->rx_mbuf_room < p->info.min_rx_bufsize)
		p->rx_mbuf_room = p->info.min_rx_bufsize;
	rc = wr_kport_check(p, cfg->frame_size - WR_UNITS_FCS_BYTES, need_mtu,
		&p->rx_mbuf_room, err);
	if (rc == 0)
		rc = wr_vport_check(p, cfg, err);
	if (rc != 0)
		return rc;
	/*
	 * net_af_xdp: the kernel writes a frame XDP's headroom (256 bytes)
	 * into the buffer, the umem chunk being the whole mbuf: without it a
	 * frame over 1792 bytes is dropped on receive (imissed).
	 */
	if (is_driver(p, "net_af_xdp") &&
			p->rx_mbuf_room < cfg->frame_size - WR_UNITS_FCS_BYTES + XDP_HEADROOM) {
		p->rx_mbuf_room = cfg->frame_size - WR_UNITS_FCS_BYTES + XDP_HEADROOM;
		wr_port_note(p, "RX buffers of %u bytes: the frame and XDP's %u-byte "
			"headroom", p->rx_mbuf_room, XDP_HEADROOM);
	}
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

	/* A connection worker keeps frames the PMD refused (connworker.h). */
	if (wr_opts_conn_port_role(cfg, p->port_id) != 0)
		held += WR_CONNQ_KEEP;

	p->rx_rings_per_q = is_driver(p, "net_vmxnet3") ? 2 : 1;
	/* Ring, pending burst and the one in hand, two lcore caches. */
	p->tx_in_flight = in_flight + held;
	p->tx_pool_mbufs = pool_round(p->nb_txd + in_flight + held +
		4u * cfg->burst_pkts + 3u * WR_PORT_POOL_CACHE);
	p->rx_pool_mbufs = pool_round(p->nb_rxd * p->rx_rings_per_q + xsk + held +
		4u * cfg->burst_pkts + 3u * WR_PORT_POOL_CACHE);
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

#define RX_CSUM (RTE_ETH_RX_OFFLOAD_TCP_CKSUM | RTE_ETH_RX_OFFLOAD_IPV4_CKSUM)

/*
 * A connection port leaves the TCP checksum of its segments to the PMD
 * where it offers that (the engine writes the pseudo-header's sum), and
 * the IPv4 header's too where it offers both; it trusts the PMD's check
 * of what it receives where it offers both checks. Not on net_virtio:
 * its peer may be a DPDK vhost port in legacy mode, which hands the
 * segment on with its checksum never computed.
 */
static void
probe_csum(struct wr_port *p, const struct wr_config *cfg)
{
	uint64_t tx = p->info.tx_offload_capa;

	if (wr_opts_conn_port_role(cfg, p->port_id) == 0 ||
			cfg->conn.csum == WR_CONN_CSUM_SOFTWARE)
		return;
	p->tcp_csum_tx = (tx & RTE_ETH_TX_OFFLOAD_TCP_CKSUM) != 0 &&
		!is_driver(p, "net_virtio");
	p->ip4_csum_tx = p->tcp_csum_tx && (tx & RTE_ETH_TX_OFFLOAD_IPV4_CKSUM) != 0;
	p->tcp_csum_rx = (p->info.rx_offload_capa & RX_CSUM) == RX_CSUM;
}

/*
 * A ring pair's end has MAC 0 (the ring PMD sets none), and ARP refuses
 * a sender of MAC 0: --port-ip on a pair (a connection client and server
 * back to back) needs another. A locally administered one by port id.
 */
static void
ring_pair_mac(struct wr_port *p)
{
	if (!rte_is_zero_ether_addr(&p->mac) || !wr_port_is_ring_pair(p->port_id))
		return;
	p->mac.addr_bytes[0] = 0x02;
	p->mac.addr_bytes[4] = (uint8_t)(p->port_id >> 8);
	p->mac.addr_bytes[5] = (uint8_t)p->port_id;
	wr_port_note(p, "the ring PMD's MAC 0: 02:00:00:00:%02x:%02x used (ARP "
		"needs one)", p->mac.addr_bytes[4], p->mac.addr_bytes[5]);
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
	ring_pair_mac(p);
	wr_devinfo_read(&p->info, p->driver, "/sys", &p->dev);
	rc = probe_queues(p, cfg, err);
	if (rc != 0)
		return rc;
	probe_desc(p, cfg);
	rc = probe_mtu(p, cfg, err);
	if (rc != 0)
		return rc;
	probe_pools(p, cfg);
	probe_csum(p, cfg);
	wr_connrss_probe(p, cfg);
	return 0;
}

/* Template copied into every mbuf of a TX pool once, at creation. */
static int
make_rx_pool(struct wr_port *p, uint16_t q, struct wr_error *err)
{
	char name[RTE_MEMPOOL_NAMESIZE];

	/* A kept port set up again makes its new pools before the old go. */
	snprintf(name, sizeof(name), "wr_rx_%u_%u_%" PRIu64, p->port_id, q,
		p->nb_setups);
	p->rx_pool[q] = rte_pktmbuf_pool_create(name, p->rx_pool_mbufs,
		wr_port_pool_cache(p->rx_pool_mbufs),
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
	if (p->tcp_csum_tx)
		conf->txmode.offloads |= RTE_ETH_TX_OFFLOAD_TCP_CKSUM;
	if (p->ip4_csum_tx)
		conf->txmode.offloads |= RTE_ETH_TX_OFFLOAD_IPV4_CKSUM;
	if (p->tcp_csum_rx)
		conf->rxmode.offloads |= RX_CSUM;
	if (p->rss.hf != 0) {
		wr_connrss_conf(p, conf);
	} else if (p->nb_rxq > 1 && (p->info.flow_type_rss_offloads &
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
	/* net_af_xdp answers -EINVAL for any XDP socket the kernel refused:
	 * an MTU above what XDP takes on the interface is the usual cause. */
	if (rc == -EINVAL && strcmp(p->driver, "net_af_xdp") == 0)
		return wr_err_env(err, rc, "port %u (net_af_xdp): its %s queue %u "
			"got no XDP socket (%u descriptors): the kernel refused the "
			"XDP program or socket; the interface's MTU may be above "
			"what XDP takes there (a veth: about 3500 bytes, whatever "
			"the port reports) or it has no XDP; the kernel's reason "
			"is in the EAL log (--log-level=pmd.net.af_xdp:info)",
			p->port_id, dir, q, nb_desc);
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
