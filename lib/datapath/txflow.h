/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The flows of a TX queue whose fields take ranges (config/range.h),
 * prepared once per queue so the per-frame work is one 64-byte row load,
 * a few stores and one checksum update: each row holds the header fields
 * of one flow as stored (MACs, VLAN TCI, DSCP, addresses, ports) and what
 * they change in the checksum against the template (the first flow).
 * Rows are in the order they are sent: increment, or a seeded permutation
 * so each flow appears once per cycle. Plain untagged IPv4 frames of one
 * size use each row's 32-byte image instead (wr_txflow_img: two stores a
 * frame). Pure: no EAL.
 *
 * Checksums by incremental update (RFC 1624 eqn 3, HC' = ~(~HC + m' - m)):
 * a row's sum is the one's complement of (m' - m) over the words it
 * changes, folded, so a frame's IPv4 header checksum (or IPv6 UDP
 * checksum) as TX stamped it for the template's fields becomes the
 * flow's with one add and a fold, whatever its size or stamps. The IPv4
 * UDP checksum stays 0 (none, RFC 768). The test header (stream id,
 * sequence) is untouched: accounting stays per stream.
 */
#ifndef WR_TXFLOW_H
#define WR_TXFLOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/frame.h"
#include "config/range.h"

/* One flow's fields as stored in the frame: 64 bytes, one cache line. */
struct wr_txflow {
	uint8_t mac[2 * RTE_ETHER_ADDR_LEN]; /* destination, source */
	uint16_t tci;          /* 802.1Q TCI (tagged frames) */
	uint16_t ck_sum;       /* RFC 1624 m' - m of the checksum it updates */
	uint32_t ports;        /* UDP source, destination ports */
	uint32_t vtc;          /* IPv6 version/class/label; IPv4: byte 0 is TOS */
	uint16_t ck;           /* !ck_fresh: the frame's checksum, as stored */
	uint8_t pad[6];
	uint8_t addr[32];      /* source, destination (IPv4: 8 bytes) */
} __rte_aligned(64);

/*
 * A flow of a plain untagged IPv4 queue of one frame size (wr_txflow_seal:
 * t->img) as two 16-byte stores of the frame's own bytes: 0-15 (MACs,
 * EtherType, version, TOS) and from the IPv4 header checksum to the UDP
 * length (checksum, addresses, ports, length). 32 bytes a flow, so 1024
 * flows fit a 32 KB L1 data cache, and two stores a frame instead of six.
 */
struct wr_txflow_img {
	uint8_t eth[16];
	uint8_t ip[16];
} __rte_aligned(32);

/* Frame bytes where wr_txflow_img.ip goes: the IPv4 header checksum. */
#define WR_TXFLOW_IMG_IP_OFF (RTE_ETHER_HDR_LEN + \
	offsetof(struct rte_ipv4_hdr, hdr_checksum))

/*
 * Where the rows go in a frame: copied to a local per burst, since stores
 * into frame bytes may alias anything read through a pointer.
 */
struct wr_txflow_at {
	uint16_t l3_off;       /* IP header */
	uint16_t sport_off;    /* UDP source port (then destination) */
	uint16_t ck_off;       /* IPv4 header checksum or IPv6 UDP checksum */
};

/* A queue's flow table; rows follow. Read-only once built. */
struct wr_txflows {
	uint32_t nb;           /* rows: flows per cycle */
	bool ipv6, tagged;
	/* The checksum at ck_off for the template's fields is fresh in the
	 * frame when TX stamping wrote it (IPv6, a mix): each row adds its
	 * ck_sum. Else (fixed-size IPv4: an mbuf back from the PMD holds the
	 * last flow's) each row's ck is the whole checksum (wr_txflow_seal). */
	bool ck_fresh;
	bool img;              /* the images after the rows (wr_txflow_imgs) */
	uint16_t ck_tmpl;      /* the checksum at ck_off at the queue's size */
	uint16_t udp_len;      /* the UDP length at the queue's size, as stored */
	struct wr_txflow_at at;
	struct wr_txflow row[];
} __rte_aligned(64);

/* Bytes of a table of nb rows and their images. */
static inline size_t
wr_txflow_size(uint32_t nb)
{
	return sizeof(struct wr_txflows) + (size_t)nb *
		(sizeof(struct wr_txflow) + sizeof(struct wr_txflow_img));
}

/* The images of t's rows, in the same order (t->img). */
static inline const struct wr_txflow_img *
wr_txflow_imgs(const struct wr_txflows *t)
{
	return (const struct wr_txflow_img *)&t->row[t->nb];
}

/*
 * Build the table of r's flows for frames of spec (the first flow's
 * fields; then wr_txflow_seal) into t (wr_txflow_size(wr_range_flows(r, spec->ipv6)) bytes).
 * Returns 0, -EINVAL when r is not valid for spec (wr_range_check) or
 * -ENOMEM.
 */
int wr_txflow_build(const struct wr_frame_spec *spec, const struct wr_ranges *r,
		struct wr_txflows *t);

/*
 * Say how the queue's stamps leave the checksum (fresh: written for the
 * template's fields every frame) and, when not fresh, give each row its
 * whole checksum from the template's, ck_tmpl (as stored, at the queue's
 * fixed size: t->ck_tmpl); for a plain untagged IPv4 frame, also each
 * row's image (t->img). This function can't fail.
 */
void wr_txflow_seal(struct wr_txflows *t, bool fresh, uint16_t ck_tmpl);

/*
 * Every row's (and image's) destination MAC set to mac: a next hop that
 * changed its MAC (setup/svc.c). The checksums do not cover it. The rows
 * are read by the queue's worker meanwhile: a frame built during the
 * change may go with a mix of both MACs, as one from the queue's mbufs
 * may (setup/port.c). This function can't fail.
 */
void wr_txflow_set_dst_mac(struct wr_txflows *t, const struct rte_ether_addr *mac);

/* Fold a 32-bit one's complement sum to 16 bits. This function can't fail. */
static inline uint16_t
wr_txflow_fold(uint32_t s)
{
	s = (s & 0xffffu) + (s >> 16);
	return (uint16_t)((s & 0xffffu) + (s >> 16));
}

/*
 * The checksum ck (as stored) of a frame after its fields change by sum
 * (RFC 1624 eqn 3). This function can't fail.
 */
static inline uint16_t
wr_txflow_csum(uint16_t ck, uint16_t sum)
{
	return (uint16_t)~wr_txflow_fold((uint32_t)(uint16_t)~ck + sum);
}

/* Write image e into the frame at d. This function can't fail. */
static __rte_always_inline void
wr_txflow_img_frame(const struct wr_txflow_img *e, uint8_t *d)
{
	memcpy(d, e->eth, sizeof(e->eth));
	memcpy(d + WR_TXFLOW_IMG_IP_OFF, e->ip, sizeof(e->ip));
}

/*
 * Write row e's fields into the frame at d (layout at) and its checksum:
 * fresh, updated from the frame's; else the row's. Always inlined with
 * ipv6, tagged and fresh constant. This function can't fail.
 */
static __rte_always_inline void
wr_txflow_frame(const struct wr_txflow_at at, const struct wr_txflow *e, uint8_t *d,
		bool ipv6, bool tagged, bool fresh)
{
	uint16_t ck = e->ck;

	memcpy(d, e->mac, sizeof(e->mac));
	if (tagged)
		memcpy(d + 14, &e->tci, sizeof(e->tci));
	if (ipv6) {
		memcpy(d + at.l3_off, &e->vtc, sizeof(e->vtc));
		memcpy(d + at.l3_off + 8, e->addr, 32);
	} else {
		d[at.l3_off + 1] = (uint8_t)e->vtc;
		memcpy(d + at.l3_off + 12, e->addr, 8);
	}
	memcpy(d + at.sport_off, &e->ports, sizeof(e->ports));
	if (fresh) {
		memcpy(&ck, d + at.ck_off, sizeof(ck));
		ck = wr_txflow_csum(ck, e->ck_sum);
		if (ipv6 && ck == 0)   /* UDP: 0 means none, sent as 0xffff (RFC 8200 8.1) */
			ck = 0xffff;
	}
	memcpy(d + at.ck_off, &ck, sizeof(ck));
}

#endif /* WR_TXFLOW_H */
