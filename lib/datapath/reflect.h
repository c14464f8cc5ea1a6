/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Reflector mode (--reflect): every frame an RX queue receives goes back
 * out of the same port on the TX queue of the same number, with its
 * addresses swapped, without a copy. A generator at the other end then
 * measures round trip and loss through whatever lies between.
 *
 * The per-frame swap is pure (no EAL) so unit tests check it on buffers;
 * the lcore loop lives in reflect.c.
 */
#ifndef WR_REFLECT_H
#define WR_REFLECT_H

#include <netinet/in.h>
#include <stdint.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_ether.h>
#include <rte_ip.h>

struct wr_worker;

/* Swap the Ethernet addresses; returns the L2 header length, 0 if too short. */
static inline uint32_t
wr_reflect_swap_l2(uint8_t *data, uint32_t len, uint16_t *type)
{
	struct rte_ether_hdr *eth = (struct rte_ether_hdr *)data;
	struct rte_ether_addr mac;

	if (unlikely(len < RTE_ETHER_HDR_LEN))
		return 0;
	mac = eth->dst_addr;
	eth->dst_addr = eth->src_addr;
	eth->src_addr = mac;
	*type = eth->ether_type;
	if (*type != RTE_BE16(RTE_ETHER_TYPE_VLAN))
		return RTE_ETHER_HDR_LEN;
	if (len < RTE_ETHER_HDR_LEN + 4)
		return 0;
	*type = *(const uint16_t *)(data + RTE_ETHER_HDR_LEN + 2);
	return RTE_ETHER_HDR_LEN + 4;
}

/*
 * Swap the addresses of one frame of len bytes in place, so that it goes
 * back where it came from: the Ethernet addresses always; with IPv4 (behind
 * at most one 802.1Q tag) the IP addresses; with UDP or TCP in a first or
 * only fragment, the ports too. Checksums stay valid without recomputing:
 * the IPv4 header checksum and the UDP/TCP pseudo-header checksum are
 * one's complement sums (RFC 1071), which do not change when two of their
 * 16-bit words trade places. Touches nothing beyond data[len - 1].
 * This function can't fail.
 */
static inline void
wr_reflect_swap(uint8_t *data, uint32_t len)
{
	struct rte_ipv4_hdr *ip;
	uint32_t l2, ihl, addr;
	uint16_t type = 0, port, *ports;

	l2 = wr_reflect_swap_l2(data, len, &type);
	if (type != RTE_BE16(RTE_ETHER_TYPE_IPV4) || l2 == 0 ||
			len < l2 + sizeof(*ip))
		return;
	ip = (struct rte_ipv4_hdr *)(data + l2);
	addr = ip->src_addr;
	ip->src_addr = ip->dst_addr;
	ip->dst_addr = addr;
	ihl = (ip->version_ihl & 0xfu) * 4u;
	if ((ip->next_proto_id != IPPROTO_UDP && ip->next_proto_id != IPPROTO_TCP) ||
			(ip->fragment_offset & RTE_BE16(RTE_IPV4_HDR_OFFSET_MASK)) != 0 ||
			ihl < sizeof(*ip) || len < l2 + ihl + 4)
		return;
	ports = (uint16_t *)(data + l2 + ihl);
	port = ports[0];
	ports[0] = ports[1];
	ports[1] = port;
}

/*
 * The lcore loop of a reflecting worker (called by wr_worker_main for
 * WR_WORKER_REFLECT): each of its RX queues is polled, what arrives is
 * swapped and sent on the same port's TX queue of the same number, which
 * no other lcore uses. Frames the TX queue does not take are freed and
 * counted (nb_unreflected_pkts), never retried. Runs until ctl->rx_stop.
 * Returns 0.
 */
int wr_reflect_main(struct wr_worker *w);

#endif /* WR_REFLECT_H */
