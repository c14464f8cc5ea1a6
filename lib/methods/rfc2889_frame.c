/* SPDX-License-Identifier: BSD-3-Clause */
#include <string.h>

#include "rfc2889_frame.h"

/* "WR89": our frames among any others. */
#define R2889_MAGIC 0x57523839u
/* Offsets: the header right after the Ethernet one. */
#define OFF_TYPE 12u
#define OFF_MAGIC 14u
#define OFF_KIND 18u
#define OFF_TRIAL 20u
#define OFF_IDX 22u
#define OFF_SRC 26u
#define OFF_DST 27u
#define OFF_TSC 28u

static void
put_be(uint8_t *p, uint32_t v, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * (n - 1 - i)));
}

static uint32_t
get_be(const uint8_t *p, unsigned int n)
{
	uint32_t v = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

void
wr_r2889_frame(uint8_t *buf, const uint8_t dst[6], const uint8_t src[6],
		const struct wr_r2889_tag *t)
{
	memset(buf, 0, WR_R2889_FRAME_LEN);
	memcpy(buf, dst, 6);
	memcpy(buf + 6, src, 6);
	put_be(buf + OFF_TYPE, WR_R2889_ETHERTYPE, 2);
	put_be(buf + OFF_MAGIC, R2889_MAGIC, 4);
	put_be(buf + OFF_KIND, (uint32_t)t->kind, 2);
	put_be(buf + OFF_TRIAL, t->trial, 2);
	put_be(buf + OFF_IDX, t->idx, 4);
	buf[OFF_SRC] = t->src_port;
	buf[OFF_DST] = t->dst_port;
	put_be(buf + OFF_TSC, (uint32_t)(t->tsc >> 32), 4);
	put_be(buf + OFF_TSC + 4, (uint32_t)t->tsc, 4);
}

bool
wr_r2889_parse(const uint8_t *buf, uint32_t len, struct wr_r2889_tag *t)
{
	uint32_t kind;

	if (len < OFF_DST + 1 || get_be(buf + OFF_TYPE, 2) != WR_R2889_ETHERTYPE ||
			get_be(buf + OFF_MAGIC, 4) != R2889_MAGIC)
		return false;
	kind = get_be(buf + OFF_KIND, 2);
	if (kind != WR_R2889_LEARN && kind != WR_R2889_TEST &&
			kind != WR_R2889_MESH)
		return false;
	t->kind = (enum wr_r2889_kind)kind;
	t->trial = (uint16_t)get_be(buf + OFF_TRIAL, 2);
	t->idx = get_be(buf + OFF_IDX, 4);
	t->src_port = buf[OFF_SRC];
	t->dst_port = buf[OFF_DST];
	t->tsc = len < OFF_TSC + 8 ? 0 : (uint64_t)get_be(buf + OFF_TSC, 4) << 32 |
		get_be(buf + OFF_TSC + 4, 4);
	return true;
}
