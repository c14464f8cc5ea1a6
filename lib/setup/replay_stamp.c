/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --replay-stamp at set-up (docs/replay.md): which frames of a TX queue's
 * share get the test header, where, and the UDP checksum each would have
 * with seq and timestamp 0, the base of the per-frame update
 * (datapath/replay.c). Every copy of a stamped frame gets the magic and
 * the stream id here, once.
 */
#include <errno.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ip.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>

#include "base/cksum.h"
#include "base/frame.h"
#include "base/pcapread.h"
#include "base/stack.h"
#include "datapath/replay.h"
#include "replay_setup.h"

/*
 * The UDP checksum of the frame at d (RFC 768; over IPv6 RFC 8200 section
 * 8.1): the pseudo-header's addresses, protocol and UDP length, and the
 * UDP header and payload with the checksum field taken as 0. A result of
 * 0 is sent as 0xffff. As stored (the sum of words in memory order).
 */
static uint16_t
udp_cksum(const uint8_t *d, const struct wr_stack_udp *u)
{
	uint16_t len_be, ck;
	uint32_t sum;

	memcpy(&len_be, d + u->udp_off + 4, sizeof(len_be));
	sum = u->ipv6 ? __rte_raw_cksum(d + u->ip_off + 8, 32, 0) :
		__rte_raw_cksum(d + u->ip_off + 12, 8, 0);
	sum += rte_cpu_to_be_16(IPPROTO_UDP) + len_be;
	sum = __rte_raw_cksum(d + u->udp_off, 6, sum);
	sum = wr_cksum_add(d + u->udp_off + 8, rte_be_to_cpu_16(len_be) - 8u, sum);
	ck = (uint16_t)~__rte_raw_cksum_reduce(sum);
	return ck == 0 ? 0xffff : ck;
}

/*
 * A frame's stamp, and its UDP header in *u, when it has a UDP payload
 * with room; else th_off 0.
 */
static struct wr_replay_stamp
frame_stamp(const uint8_t *d, uint32_t len, struct wr_stack_udp *u)
{
	struct wr_replay_stamp s = { 0, 0, 0 };

	if (wr_stack_first_udp(d, len, u) == 1 && u->payload_len >= WR_FRAME_TH_LEN) {
		s.th_off = (uint16_t)(u->udp_off + sizeof(struct rte_udp_hdr));
		s.ck_off = (uint16_t)(u->udp_off + 6);
	}
	return s;
}

/*
 * Write the test header (seq and timestamp 0) and its checksum into the
 * copies of frame k, whose UDP header is u; its stamp's base from the
 * first.
 */
static void
stamp_copies(struct wr_replayq *r, uint32_t k, struct wr_replay_stamp *s,
		const struct wr_stack_udp *u, uint16_t stream_id)
{
	struct wr_test_hdr th = { .magic = WR_FRAME_MAGIC, .stream_id = stream_id };
	uint32_t c;

	for (c = k; c < r->nb_copies; c += r->nb) {
		uint8_t *d = rte_pktmbuf_mtod(r->mbufs[c], uint8_t *);

		memcpy(d + s->th_off, &th, sizeof(th));
		if (c == k)
			s->ck_base = udp_cksum(d, u);
		memcpy(d + s->ck_off, &s->ck_base, sizeof(s->ck_base));
	}
}

int
wr_replay_stamp_setup(struct wr_replayq *r, uint16_t stream_id, int socket)
{
	uint32_t k;

	r->stamp = rte_zmalloc_socket("wr_replay_s", (r->nb + 1) * sizeof(r->stamp[0]),
		0, socket);
	r->prefix_stamped = rte_zmalloc_socket("wr_replay_n",
		(r->nb + 1) * sizeof(r->prefix_stamped[0]), 0, socket);
	if (r->stamp == NULL || r->prefix_stamped == NULL)
		return -ENOMEM;
	for (k = 0; k < r->nb && r->nb_copies > 0; k++) {
		struct rte_mbuf *m = r->mbufs[k];
		struct wr_stack_udp u;

		r->stamp[k] = frame_stamp(rte_pktmbuf_mtod(m, uint8_t *), m->data_len, &u);
		if (r->stamp[k].th_off != 0)
			stamp_copies(r, k, &r->stamp[k], &u, stream_id);
		r->prefix_stamped[k + 1] = r->prefix_stamped[k] + (r->stamp[k].th_off != 0);
	}
	return 0;
}
