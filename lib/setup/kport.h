/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The Linux side of a port backed by a kernel interface (net_af_packet,
 * net_tap, net_af_xdp): the interface's name and MTU, the af_packet
 * ring's frame size, and a root qdisc that af_packet would bypass.
 */
#ifndef WR_SETUP_KPORT_H
#define WR_SETUP_KPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "base/error.h"
#include "port.h"

/* af_packet's defaults (rte_eth_af_packet.c) for framesz= and blocksz=. */
#define WR_KPORT_AFP_FRAMESZ 2048u
#define WR_KPORT_AFP_BLOCKSZ 4096u

/*
 * True for net_af_packet, which copies whole frames between mbufs and
 * its ring: up to DPDK 24.11 its rte_eth_dev_info limits (max_rx_pktlen
 * 1518) are nominal and its ethdev MTU is not checked; the kernel
 * interface's MTU and the ring's framesz= bound a frame. (net_tap does
 * check its ethdev MTU when sending: DPDK 22.11 allows it 1504, 23.11
 * and later 9000.) This function can't fail.
 */
bool wr_kport_copies(const struct wr_port *p);

/*
 * Check that frames of frame_len bytes (no FCS), mtu bytes of L3, pass
 * the kernel interface of a kernel-backed port p (net_af_packet, net_tap,
 * net_af_xdp; other ports: 0): the interface's MTU (sysfs), which
 * wirerate raises itself on the net_tap interface it made; for
 * net_af_packet the ring's framesz= (the exact --vdev arguments to add
 * are named), and a root qdisc the default qdisc bypass would skip.
 * Raises *rx_room to what the PMD needs of an RX mbuf.
 * Returns 0 (notes on p say what was adapted), -EINVAL (usage: the
 * message names the interface, what it allows and the command or
 * argument that fixes it) or a negative errno of the kernel.
 */
int wr_kport_check(struct wr_port *p, uint32_t frame_len, uint32_t mtu,
		uint32_t *rx_room, struct wr_error *err);

/*
 * The kind of ifname's root qdisc ("noqueue", "tbf", ...) in kind, read
 * over rtnetlink. Returns 0, -ENOENT (no root qdisc reported) or a
 * negative errno.
 */
int wr_kport_root_qdisc(const char *ifname, char *kind, size_t len);

#endif
