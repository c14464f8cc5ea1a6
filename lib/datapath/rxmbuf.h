/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the RX loop reads of each received mbuf, in as few loads as it
 * can: the RX loops are bound by loads (two a cycle), not by arithmetic,
 * so data_off, refcnt and nb_segs come in one 64-bit load (the word PMDs
 * rearm descriptors with), and the frame's length is data_len alone.
 */
#ifndef WR_RXMBUF_H
#define WR_RXMBUF_H

#include <assert.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_mbuf.h>

static_assert(offsetof(struct rte_mbuf, refcnt) ==
	offsetof(struct rte_mbuf, data_off) + 2, "mbuf rearm word: refcnt");
static_assert(offsetof(struct rte_mbuf, nb_segs) ==
	offsetof(struct rte_mbuf, data_off) + 4, "mbuf rearm word: nb_segs");

/*
 * refcnt and nb_segs in the rearm word, and their values for a plain
 * mbuf (both 1): the two middle 16-bit fields, in either byte order.
 */
#define WR_RX_REARM_MASK UINT64_C(0x0000ffffffff0000)
#define WR_RX_REARM_RAW  UINT64_C(0x0000000100010000)

/* data_off, refcnt, nb_segs and port of m, in one load. */
static __rte_always_inline uint64_t
wr_rx_rearm(const struct rte_mbuf *m)
{
	uint64_t v;

	memcpy(&v, (const uint8_t *)m + offsetof(struct rte_mbuf, data_off),
		sizeof(v));
	return v;
}

/* m's data, from its rearm word w (rte_pktmbuf_mtod). */
static __rte_always_inline const uint8_t *
wr_rx_data(const struct rte_mbuf *m, uint64_t w)
{
#if RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN
	const uint16_t off = (uint16_t)w;
#else
	const uint16_t off = (uint16_t)(w >> 48);
#endif
	return (const uint8_t *)m->buf_addr + off;
}

/*
 * Non-zero unless m (rearm word w) can go straight back to pool like a
 * freshly allocated mbuf (what rte_pktmbuf_prefree_seg would find): one
 * reference, one segment (so no next, and pkt_len == data_len), direct,
 * from pool. Branch-free; reads only the mbuf's first cache line.
 */
static __rte_always_inline uint64_t
wr_rx_not_raw(const struct rte_mbuf *m, uint64_t w,
		const struct rte_mempool *pool)
{
	return ((w & WR_RX_REARM_MASK) ^ WR_RX_REARM_RAW) |
		(m->ol_flags & (RTE_MBUF_F_INDIRECT | RTE_MBUF_F_EXTERNAL)) |
		((uintptr_t)m->pool ^ (uintptr_t)pool);
}

/*
 * The bytes of a burst's frames beyond their first segments: what the
 * loops' sum of data_len misses (only when some mbuf was not raw).
 */
static inline uint64_t
wr_rx_chained_bytes(struct rte_mbuf *const *pkts, uint16_t nb)
{
	uint64_t extra = 0;
	uint16_t i;

	for (i = 0; i < nb; i++)
		extra += pkts[i]->pkt_len - pkts[i]->data_len;
	return extra;
}

#endif /* WR_RXMBUF_H */
