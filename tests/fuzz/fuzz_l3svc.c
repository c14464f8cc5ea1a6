/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ARP, neighbour discovery and echo (lib/base/l3svc.c) on arbitrary bytes.
 *
 * Input: the first byte picks the port (bit 0: IPv4 address 198.18.0.1,
 * bit 1: IPv6 address 2001:db8::1, bit 2: VLAN 100), the rest is one
 * received frame (at most WR_FRAME_MAX_SIZE bytes), handled from an
 * exact-size heap copy into an exact-size reply buffer.
 * Properties: nothing is read past the frame nor written past the reply
 * buffer; a reply only for a frame of class ours, at least the Ethernet
 * minimum and at most the frame plus a tag; a frame that is no candidate
 * is of class other; with too little room, -ENOSPC and nothing written;
 * the port's own reply, received back, is never answered (no ping-pong).
 */
#include "base/l3svc.h"
#include "config/config.h"
#include "fuzz.h"

/* Handle frame with an out buffer of exactly outlen bytes. */
static int
handle(const struct wr_l3svc_port *p, const uint8_t *frame, uint32_t len,
		uint8_t **out, uint32_t outlen, struct wr_l3svc_verdict *v)
{
	uint8_t *copy = malloc(len ? len : 1);
	int rc;

	*out = malloc(outlen ? outlen : 1);
	if (copy == NULL || *out == NULL)
		abort();
	memcpy(copy, frame, len);
	memset(*out, 0xa5, outlen);
	rc = wr_l3svc_handle(p, copy, len, *out, outlen, v);
	FUZZ_CHECK(v->cls <= WR_L3SVC_MALFORMED);
	FUZZ_CHECK(v->reply_len == 0 || v->cls == WR_L3SVC_OURS);
	FUZZ_CHECK(wr_l3svc_is_candidate(copy, len) || v->cls == WR_L3SVC_OTHER);
	free(copy);
	return rc;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct rte_ether_addr mac = {{ 0x02, 0, 0, 0, 0, 0x01 }};
	struct wr_l3svc_port p = { .mac = mac, .ip4 = 0xc6120001,
		.ip6 = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 } };
	struct wr_l3svc_verdict v, again;
	uint32_t len, room;
	uint8_t *out, *out2;

	if (size < 1 || size - 1 > WR_FRAME_MAX_SIZE)
		return 0;
	p.has_ip4 = data[0] & 1;
	p.has_ip6 = data[0] & 2;
	p.vlan_id = data[0] & 4 ? 100 : 0;
	len = (uint32_t)size - 1;
	room = RTE_MAX(len, (uint32_t)WR_L3SVC_MIN_LEN) + 4;
	FUZZ_CHECK(handle(&p, data + 1, len, &out, room, &v) == 0);
	if (v.reply_len != 0) {
		FUZZ_CHECK(v.reply_len >= WR_L3SVC_MIN_LEN && v.reply_len <= room);
		FUZZ_CHECK(handle(&p, out, v.reply_len, &out2, room, &again) == 0);
		FUZZ_CHECK(again.reply_len == 0);
		free(out2);
		/* One byte short of the reply: refused, nothing written. */
		FUZZ_CHECK(handle(&p, data + 1, len, &out2, v.reply_len - 1, &again) ==
			-ENOSPC);
		FUZZ_CHECK(again.reply_len == 0 && out2[0] == 0xa5);
		free(out2);
	}
	free(out);
	return 0;
}
