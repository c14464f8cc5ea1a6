/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Ports: what the PMD allows, what was asked, what was adapted, and the
 * ethdev set-up (mempools on the port's socket, queues, MTU, start, link).
 * Every function returns 0 or a negative errno with a message in err;
 * wr_port_teardown is safe on a partly set-up port.
 */
#ifndef WR_PORT_H
#define WR_PORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_ethdev.h>
#include <rte_mempool.h>

#include "base/frame.h"
#include "config/config.h"
#include "connrss.h"
#include "datapath/txvar.h"
#include "devinfo.h"

#define WR_PORT_MAX_NOTES 8u
#define WR_PORT_NOTE_LEN 160u

/* A TX queue's next hop, resolved by --port-ip (resolve.c). */
struct wr_port_nh {
	bool resolved;               /* mac is the frames' destination */
	bool ipv6;
	uint8_t ip[16];              /* network byte order (IPv4: the first 4) */
	struct rte_ether_addr mac;
	uint64_t wait_ms;            /* from the first request to the answer */
	unsigned int nb_requests;    /* ARP requests or NS sent */
	/* The next hop told another MAC during the run (setup/svc.c, main
	 * lcore): how often, and the MAC resolved before traffic. */
	unsigned int nb_mac_changes;
	struct rte_ether_addr first_mac;
};

/* The TX pools of one frame size. */
struct wr_port_txset {
	uint32_t frame_size;
	struct wr_frame_layout layout;
	struct rte_mempool *pool[WR_MAX_QUEUES];
	struct wr_txvar *var[WR_MAX_QUEUES]; /* NULL: nothing varies per frame */
	struct wr_frame_layout qlay[WR_MAX_QUEUES]; /* each queue's template */
};

struct wr_port {
	uint16_t port_id;
	bool tx;                     /* transmits in this run */
	bool rx;                     /* receives in this run */
	char driver[32];
	char name[RTE_ETH_NAME_MAX_LEN];
	int socket;                  /* NUMA socket used for its memory */
	struct rte_ether_addr mac;
	uint16_t peer;               /* port whose MAC is the default destination */
	struct rte_eth_dev_info info;
	struct wr_devinfo dev;       /* bus, device, PCI ids (for results) */

	/* What was configured after adapting to the PMD. */
	uint16_t nb_txq;
	uint16_t nb_rxq;
	uint16_t nb_txd;
	uint16_t nb_rxd;
	uint16_t mtu;                /* 0: left at the PMD default */
	bool fast_free;              /* RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE on */
	bool tcp_csum_tx;            /* a connection port: the PMD computes
	                              * the TCP checksum of what it sends */
	bool ip4_csum_tx;            /* ... and the IPv4 header's */
	bool tcp_csum_rx;            /* a connection port: the PMD checks the
	                              * TCP and IPv4 checksums it receives */
	unsigned int rx_rings_per_q; /* descriptor rings per RX queue (vmxnet3: 2) */
	uint32_t tx_pool_mbufs;      /* per TX queue */
	uint32_t tx_in_flight;       /* frames the port may hold beyond its TX
	                              * descriptors once sent: a ring pair's
	                              * slots, and what --capture keeps of
	                              * them at the receiver */
	uint32_t rx_pool_mbufs;      /* per RX queue */
	uint32_t rx_mbuf_room;       /* data room of RX mbufs, bytes */
	struct wr_connrss rss;       /* a connection port's RSS (connrss.h) */

	/*
	 * TX pools per frame size, each mbuf pre-filled with its queue's
	 * template. Kept until teardown: a PMD may still hold mbufs of a
	 * previous size in its TX ring.
	 */
	unsigned int nb_txsets;
	struct wr_port_txset txset[WR_MAX_SIZES];
	const struct wr_port_txset *cur;   /* the size now in use */
	struct rte_mempool *rx_pool[WR_MAX_QUEUES];

	bool configured;
	bool started;
	/* Its ethdev state and RX pools belong to a port keep (portkeep.h,
	 * wirerate serve): close and teardown leave both to the keep. */
	bool kept;
	bool reused;                 /* taken from the keep as a run left it */
	uint64_t nb_setups;          /* configure + start of this port id in
	                              * this process (1 without a keep) */
	bool link_up;
	uint32_t link_speed_mbps;
	uint64_t link_wait_ms;       /* how long the link took to come up */
	uint64_t rate_link_bps;      /* speed a --rate % was taken of */
	double rate_pps;             /* paced rate, sum of the queues' shares */

	/* Written by wr_resolve_run() on the main lcore before workers start. */
	struct wr_port_nh nh[WR_MAX_QUEUES];

	unsigned int nb_notes;       /* adaptations, in words */
	char notes[WR_PORT_MAX_NOTES][WR_PORT_NOTE_LEN];
};

/*
 * Read the PMD's limits for port_id and decide queue and descriptor counts,
 * MTU and pool sizes for cfg. Nothing is allocated. A request the PMD cannot
 * satisfy without changing the test (queues, frame size) is an error
 * (-EINVAL); harmless adaptations (descriptor rounding) become notes.
 */
int wr_port_probe(struct wr_port *p, uint16_t port_id, bool tx, bool rx,
		const struct wr_config *cfg, struct wr_error *err);

/*
 * Create the RX pools, configure the port and its queues for the largest
 * frame size of cfg, and start it.
 */
int wr_port_setup(struct wr_port *p, const struct wr_config *cfg,
		struct wr_error *err);

/*
 * Make frame_size the size in use: its TX pools (one per TX queue, every
 * mbuf holding the queue's template) are made on first use and p->cur points
 * at them. peer gives the default destination MAC.
 */
int wr_port_use_size(struct wr_port *p, const struct wr_config *cfg,
		const struct wr_port *peer, uint32_t frame_size,
		struct wr_error *err);

/*
 * The frame TX queue q of p sends at size bytes to peer, as the options,
 * its stream and --port-ip make it (the destination MAC: --dst-mac, the
 * resolved next hop, or the peer's MAC). This function can't fail.
 */
/*
 * Write mac as the destination of every frame of TX queue q, in each of
 * its pools (all sizes), while its worker may be sending: a frame in
 * flight leaves with the old MAC, the new one, or (a 6-byte store is not
 * atomic) a mix, which the DUT drops and the stream counts lost. Main
 * lcore only. This function can't fail.
 */
void wr_port_set_dst_mac(struct wr_port *p, uint16_t q,
		const struct rte_ether_addr *mac);

void wr_port_frame_spec(const struct wr_port *p, const struct wr_config *cfg,
		const struct wr_port *peer, uint16_t q, uint32_t size,
		struct wr_frame_spec *s);

/* Wait up to timeout_ms for link up; sets link_up, speed, link_wait_ms. */
void wr_port_wait_link(struct wr_port *p, uint64_t timeout_ms);

/*
 * Mbufs missing from the port's pools (0 when every mbuf is back).
 * Call after wr_port_close. A kept port's RX queues may hold up to their
 * descriptors' worth of its RX pools, not counted.
 */
uint64_t wr_port_mbufs_missing(const struct wr_port *p);

/* Add a note (an adaptation, in words) to p; dropped past
 * WR_PORT_MAX_NOTES. This function can't fail. */
void wr_port_note(struct wr_port *p, const char *fmt, ...)
	__rte_format_printf(2, 3);

/* Stop the port if started (not a kept one). This function can't fail. */
void wr_port_stop(struct wr_port *p);

/*
 * Stop and close the port: its queues are released and the mbufs they held
 * go back to the pools. A kept port stays up. This function can't fail.
 */
void wr_port_close(struct wr_port *p);

/* Close the port and free its pools (a kept port: its TX pools only);
 * safe on partial set-up. */
void wr_port_teardown(struct wr_port *p);

/*
 * Stream id the frames of (port, queue) carry: port * WR_MAX_QUEUES + queue,
 * so a receiver can name the sender's port and queue.
 */
static inline uint16_t
wr_port_stream_id(uint16_t port, uint16_t queue)
{
	return (uint16_t)(port * WR_MAX_QUEUES + queue);
}


#endif /* WR_PORT_H */
