/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * TCP segments on byte buffers (wire.h): IPv4 (RFC 791) and IPv6
 * (RFC 8200) headers, the TCP header and options (RFC 9293 3.1, 3.2;
 * RFC 7323; RFC 2018's SACK-permitted and SACK), the Internet checksum (RFC 1071).
 */
#include <errno.h>
#include <string.h>

#include "tcp/wire.h"

#define IP4_HDR_BYTES 20
#define IP6_HDR_BYTES 40
#define TCP_HDR_BYTES 20
#define IPPROTO_TCP_NUM 6
#define IP4_DF 0x4000

static inline uint16_t
rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint32_t
rd32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
		(uint32_t)p[2] << 8 | p[3];
}

static inline void
wr16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static inline void
wr32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/* The pseudo-header sum: addresses, protocol, TCP length (RFC 9293 3.1,
 * RFC 8200 8.1), both families the same way. */
static uint32_t
pseudo_sum(const uint8_t *src, const uint8_t *dst, size_t alen,
	uint32_t tcp_len)
{
	uint32_t sum = wr_tcp_sum16(src, alen, 0);

	sum = wr_tcp_sum16(dst, alen, sum);
	return sum + IPPROTO_TCP_NUM + (tcp_len >> 16) + (tcp_len & 0xffff);
}

/* Read the IP header: the TCP segment's place and the tuple. */
static int
parse_ip(const uint8_t *buf, size_t len, struct wr_tcp_rx *rx,
	size_t *tcp_off, size_t *tcp_len)
{
	struct wr_tcp_tuple *t = &rx->tuple;
	size_t ihl, tot;

	if (len < 1)
		return -EBADMSG;
	memset(t, 0, sizeof(*t));
	if (buf[0] >> 4 == 4) {
		ihl = (size_t)(buf[0] & 0xf) * 4;
		if (len < IP4_HDR_BYTES || ihl < IP4_HDR_BYTES)
			return -EBADMSG;
		tot = rd16(buf + 2);
		if (tot < ihl || tot > len)
			return -EBADMSG;
		if (buf[9] != IPPROTO_TCP_NUM)
			return -EPROTONOSUPPORT;
		if ((rd16(buf + 6) & 0x3fff) != 0)     /* MF or an offset */
			return -EPROTONOSUPPORT;
		t->family = WR_TCP_IPV4;
		memcpy(t->raddr, buf + 12, 4);
		memcpy(t->laddr, buf + 16, 4);
		*tcp_off = ihl;
		*tcp_len = tot - ihl;
		return 0;
	}
	if (buf[0] >> 4 != 6)
		return -EPROTONOSUPPORT;
	if (len < IP6_HDR_BYTES)
		return -EBADMSG;
	tot = IP6_HDR_BYTES + (size_t)rd16(buf + 4);
	if (tot > len)
		return -EBADMSG;
	if (buf[6] != IPPROTO_TCP_NUM)
		return -EPROTONOSUPPORT;
	t->family = WR_TCP_IPV6;
	memcpy(t->raddr, buf + 8, 16);
	memcpy(t->laddr, buf + 24, 16);
	*tcp_off = IP6_HDR_BYTES;
	*tcp_len = tot - IP6_HDR_BYTES;
	return 0;
}

/* Whether option kind may have length olen (0: any length >= 2). */
static bool
opt_len_ok(uint8_t kind, size_t olen)
{
	switch (kind) {
	case 2:
		return olen == 4;
	case 3:
		return olen == 3;
	case 4:
		return olen == 2;
	case 5:
		return olen >= 10 && olen <= 34 && (olen - 2) % 8 == 0;
	case 8:
		return olen == 10;
	default:
		return olen >= 2;
	}
}

/* The blocks of a SACK option at p (its length checked): the first
 * WR_TCP_SACK_MAX, in the order sent (RFC 2018 3, 4). */
static void
take_sack(struct wr_tcp_seg *seg, const uint8_t *p)
{
	size_t i, n = ((size_t)p[1] - 2) / 8;

	for (i = 0; i < n && seg->nb_sack < WR_TCP_SACK_MAX; i++) {
		seg->sack[seg->nb_sack].left = rd32(p + 2 + 8 * i);
		seg->sack[seg->nb_sack].right = rd32(p + 6 + 8 * i);
		seg->nb_sack++;
	}
}

/* Take one option of kind at p (olen bytes, checked) into rx. */
static void
opt_take(struct wr_tcp_rx *rx, uint8_t kind, const uint8_t *p)
{
	switch (kind) {
	case 2:
		rx->seg.mss_bytes = rd16(p + 2);
		rx->opt_seen |= WR_TCP_OPT_MSS;
		break;
	case 3:
		rx->seg.wscale = p[2] > 14 ? 14 : p[2];
		rx->opt_seen |= WR_TCP_OPT_WSCALE;
		break;
	case 4:
		rx->seg.sack_ok = 1;
		rx->opt_seen |= WR_TCP_OPT_SACK_OK;
		break;
	case 5:
		take_sack(&rx->seg, p);
		rx->opt_seen |= WR_TCP_OPT_SACK;
		break;
	case 8:
		rx->opt_seen |= WR_TCP_OPT_TS;
		break;
	default:
		rx->opt_seen |= WR_TCP_OPT_OTHER;
		break;
	}
}

/* Walk the options in p[0, len): RFC 9293 3.2, "end of list" stops. */
static int
parse_opts(const uint8_t *p, size_t len, struct wr_tcp_rx *rx)
{
	size_t i = 0, olen;

	while (i < len) {
		if (p[i] == 0)
			break;
		if (p[i] == 1) {
			i++;
			continue;
		}
		if (i + 1 >= len)
			return -EBADMSG;
		olen = p[i + 1];
		if (olen < 2 || i + olen > len || !opt_len_ok(p[i], olen))
			return -EBADMSG;
		opt_take(rx, p[i], p + i);
		i += olen;
	}
	return 0;
}

int
wr_tcp_wire_parse(const uint8_t *buf, size_t len, struct wr_tcp_rx *rx)
{
	size_t off, tlen, doff;
	const uint8_t *h;
	int rc;

	rc = parse_ip(buf, len, rx, &off, &tlen);
	if (rc != 0)
		return rc;
	h = buf + off;
	if (tlen < TCP_HDR_BYTES)
		return -EBADMSG;
	doff = (size_t)(h[12] >> 4) * 4;
	if (doff < TCP_HDR_BYTES || doff > tlen)
		return -EBADMSG;
	memset(&rx->seg, 0, sizeof(rx->seg));
	rx->opt_seen = 0;
	rx->seg.wscale = WR_TCP_WSCALE_NONE;
	rc = parse_opts(h + TCP_HDR_BYTES, doff - TCP_HDR_BYTES, rx);
	if (rc != 0)
		return rc;
	rx->tuple.rport = rd16(h);
	rx->tuple.lport = rd16(h + 2);
	rx->seg.seq = rd32(h + 4);
	rx->seg.ack = rd32(h + 8);
	rx->seg.flags = h[13] & 0x3f;
	rx->seg.wnd_raw = rd16(h + 14);
	rx->seg.len_bytes = (uint32_t)(tlen - doff);
	rx->payload_off = (uint32_t)(off + doff);
	return 0;
}

/* The checksums of a packet whose TCP segment is buf[off, off + tlen). */
static bool
csum_ok_at(const uint8_t *buf, const struct wr_tcp_tuple *t, size_t off,
	size_t tlen)
{
	size_t alen = t->family == WR_TCP_IPV4 ? 4 : 16;
	uint32_t sum;

	if (t->family == WR_TCP_IPV4 &&
			wr_cksum_fold(wr_tcp_sum16(buf, off, 0)) != 0xffff)
		return false;
	sum = pseudo_sum(t->raddr, t->laddr, alen, (uint32_t)tlen);
	return wr_cksum_fold(wr_tcp_sum16(buf + off, tlen, sum)) == 0xffff;
}

bool
wr_tcp_wire_csum_ok(const uint8_t *buf, size_t len)
{
	struct wr_tcp_rx rx;
	size_t off, tlen;

	if (parse_ip(buf, len, &rx, &off, &tlen) != 0)
		return false;
	return csum_ok_at(buf, &rx.tuple, off, tlen);
}

bool
wr_tcp_wire_csum_ok_rx(const uint8_t *buf, const struct wr_tcp_rx *rx)
{
	size_t off;

	/* the lengths parse_ip checked */
	if (rx->tuple.family == WR_TCP_IPV4) {
		off = (size_t)(buf[0] & 0xf) * 4;
		return csum_ok_at(buf, &rx->tuple, off, rd16(buf + 2) - off);
	}
	return csum_ok_at(buf, &rx->tuple, IP6_HDR_BYTES, rd16(buf + 4));
}

/* The TCP header's room for options (RFC 9293 3.1: 15 words in all). */
#define TCP_OPTS_MAX_BYTES 40

/* SACK blocks the builder writes for seg (at most WR_TCP_SACK_MAX). */
static inline size_t
sack_blocks(const struct wr_tcp_seg *seg)
{
	return seg->nb_sack > WR_TCP_SACK_MAX ? WR_TCP_SACK_MAX : seg->nb_sack;
}

/* Bytes of the options the builder writes for seg (SACK-permitted and
 * SACK each after two NOPs, RFC 2018 appendix A's alignment). */
static size_t
opts_bytes(const struct wr_tcp_seg *seg)
{
	size_t n = sack_blocks(seg);

	return (seg->mss_bytes != 0 ? 4 : 0) +
		(seg->wscale != WR_TCP_WSCALE_NONE ? 4 : 0) +
		(seg->sack_ok ? 4 : 0) + (n > 0 ? 4 + 8 * n : 0);
}

/* SACK-permitted and the SACK blocks at o (opts_bytes' layout). */
static void
build_sack(const struct wr_tcp_seg *seg, uint8_t *o)
{
	size_t i, n = sack_blocks(seg);

	if (seg->sack_ok) {
		o[0] = 1;
		o[1] = 1;
		o[2] = 4;
		o[3] = 2;
		o += 4;
	}
	if (n == 0)
		return;
	o[0] = 1;
	o[1] = 1;
	o[2] = 5;
	o[3] = (uint8_t)(2 + 8 * n);
	for (i = 0; i < n; i++) {
		wr32(o + 4 + 8 * i, seg->sack[i].left);
		wr32(o + 8 + 8 * i, seg->sack[i].right);
	}
}

/* The ones'-complement sum (unfolded) of the options build_tcp_hdr
 * writes for seg, from the fields: the bytes just stored into the
 * buffer's cold line would be read back only once it came. */
static uint32_t
opts_sum(const struct wr_tcp_seg *seg)
{
	size_t i, n = sack_blocks(seg);
	uint32_t sum = 0;

	if (seg->mss_bytes != 0)
		sum += 0x0204u + seg->mss_bytes;
	if (seg->wscale != WR_TCP_WSCALE_NONE)
		sum += 0x0103u + (0x0300u | seg->wscale);
	if (seg->sack_ok)
		sum += 0x0101u + 0x0402u;
	if (n == 0)
		return sum;
	sum += 0x0101u + (0x0500u | (uint32_t)(2 + 8 * n));
	for (i = 0; i < n; i++)
		sum += (seg->sack[i].left >> 16) + (seg->sack[i].left & 0xffff) +
			(seg->sack[i].right >> 16) + (seg->sack[i].right & 0xffff);
	return sum;
}

size_t
wr_tcp_wire_len(const struct wr_tcp_tx *tx)
{
	size_t ip = tx->tuple->family == WR_TCP_IPV4 ? IP4_HDR_BYTES :
		IP6_HDR_BYTES;

	return ip + TCP_HDR_BYTES + opts_bytes(tx->seg) + tx->seg->len_bytes;
}

/* The IP header for a TCP segment of tcp_len bytes; its length. */
static size_t
build_ip(const struct wr_tcp_tx *tx, uint8_t *p, size_t tcp_len)
{
	const struct wr_tcp_tuple *t = tx->tuple;

	if (t->family == WR_TCP_IPV4) {
		memset(p, 0, IP4_HDR_BYTES);
		p[0] = 0x45;
		wr16(p + 2, (uint16_t)(IP4_HDR_BYTES + tcp_len));
		wr16(p + 6, IP4_DF);
		p[8] = tx->ttl;
		p[9] = IPPROTO_TCP_NUM;
		memcpy(p + 12, t->laddr, 4);
		memcpy(p + 16, t->raddr, 4);
		/* From the fields, not from p: reading back what was just
		 * written byte by byte waits for the stores */
		if (tx->csum_mode != WR_TCP_CSUM_OFFLOAD)
			wr16(p + 10, (uint16_t)~wr_cksum_fold(0x4500u + IP4_HDR_BYTES +
				(uint32_t)tcp_len + IP4_DF +
				((uint32_t)tx->ttl << 8 | IPPROTO_TCP_NUM) +
				wr_tcp_sum16(t->laddr, 4, 0) +
				wr_tcp_sum16(t->raddr, 4, 0)));
		return IP4_HDR_BYTES;
	}
	memset(p, 0, IP6_HDR_BYTES);
	p[0] = 0x60;
	wr16(p + 4, (uint16_t)tcp_len);
	p[6] = IPPROTO_TCP_NUM;
	p[7] = tx->ttl;
	memcpy(p + 8, t->laddr, 16);
	memcpy(p + 24, t->raddr, 16);
	return IP6_HDR_BYTES;
}

/* The TCP header and options at h, doff bytes in all (20 and
 * opts_bytes). */
static void
build_tcp_hdr(const struct wr_tcp_tx *tx, uint8_t *h, size_t doff)
{
	const struct wr_tcp_seg *seg = tx->seg;
	uint8_t *o = h + TCP_HDR_BYTES;

	memset(h, 0, TCP_HDR_BYTES);
	wr16(h, tx->tuple->lport);
	wr16(h + 2, tx->tuple->rport);
	wr32(h + 4, seg->seq);
	wr32(h + 8, seg->ack);
	h[12] = (uint8_t)(doff / 4) << 4;
	h[13] = seg->flags;
	wr16(h + 14, seg->wnd_raw);
	if (seg->mss_bytes != 0) {
		o[0] = 2;
		o[1] = 4;
		wr16(o + 2, seg->mss_bytes);
		o += 4;
	}
	if (seg->wscale != WR_TCP_WSCALE_NONE) {
		o[0] = 1;          /* NOP: keeps the next option aligned */
		o[1] = 3;
		o[2] = 3;
		o[3] = seg->wscale;
		o += 4;
	}
	build_sack(seg, o);
}

int
wr_tcp_wire_build(const struct wr_tcp_tx *tx, uint8_t *buf, size_t room)
{
	const struct wr_tcp_tuple *t = tx->tuple;
	size_t total, ip_len, tcp_len, doff, alen;
	uint32_t sum;
	uint8_t *h;

	if (t->family != WR_TCP_IPV4 && t->family != WR_TCP_IPV6)
		return -EINVAL;
	doff = opts_bytes(tx->seg);
	if (doff > TCP_OPTS_MAX_BYTES)
		return -EINVAL;
	doff += TCP_HDR_BYTES;
	ip_len = t->family == WR_TCP_IPV4 ? IP4_HDR_BYTES : IP6_HDR_BYTES;
	total = ip_len + doff + tx->seg->len_bytes;   /* wr_tcp_wire_len */
	if (total > 65535)
		return -EINVAL;
	if (total > room)
		return -ENOSPC;
	tcp_len = total - ip_len;
	build_ip(tx, buf, tcp_len);
	h = buf + ip_len;
	build_tcp_hdr(tx, h, doff);
	if (tx->payload != NULL)
		memcpy(h + doff, tx->payload, tx->seg->len_bytes);
	else
		wr_tcp_pattern_fill(h + doff, tx->pattern_seed,
			tx->seg->stream_off, tx->seg->len_bytes);
	alen = t->family == WR_TCP_IPV4 ? 4 : 16;
	sum = pseudo_sum(t->laddr, t->raddr, alen, (uint32_t)tcp_len);
	if (tx->csum_mode != WR_TCP_CSUM_SW) {
		wr16(h + 16, wr_cksum_fold(sum));
		return (int)total;
	}
	/* The header and its options from the fields (as build_ip) */
	sum += tx->tuple->lport + tx->tuple->rport +
		(tx->seg->seq >> 16) + (tx->seg->seq & 0xffff) +
		(tx->seg->ack >> 16) + (tx->seg->ack & 0xffff) +
		((uint32_t)(doff >> 2) << 12 | tx->seg->flags) + tx->seg->wnd_raw;
	sum += opts_sum(tx->seg);
	/* doff is even: the payload's first byte is a high one. The sum
	 * reads the caller's bytes, not the copy just written: a load from
	 * a line whose store still waits for it stalls. */
	if (tx->payload != NULL)
		sum = wr_tcp_sum16(tx->payload, tx->seg->len_bytes, sum);
	else
		sum += wr_tcp_pattern_sum(tx->pattern_seed,
			tx->seg->stream_off, tx->seg->len_bytes);
	wr16(h + 16, (uint16_t)~wr_cksum_fold(sum));
	return (int)total;
}
