/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Header stacks (stack.h): a template's headers from a frame of a capture
 * file (template=FILE[:N]), found by the receiver's walk (stack_rx.c).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "frame.h"
#include "pcapread.h"
#include "stack.h"

/* Longest frame a template file may hold (a jumbo frame's capture). */
#define TMPL_MAX_FRAME 65535u

/* The layers walked so far, "eth/ipv4/udp", for messages. */
static void
layer_names(const struct wr_stack *st, char *buf, size_t len)
{
	unsigned int i;
	size_t o = 0;

	buf[0] = '\0';
	for (i = 0; i < st->nb_layers && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s", i ? "/" : "",
			wr_stack_kind_name(st->l[i].kind));
}

/* A GRE layer with a checksum: it would cover every per-frame stamp. */
static int
gre_with_checksum(const struct wr_stack *st, const uint8_t *d)
{
	unsigned int i;

	for (i = 0; i < st->nb_layers; i++)
		if (st->l[i].kind == WR_STACK_GRE && (d[st->l[i].off] & 0x80) != 0)
			return (int)i + 1;
	return 0;
}

/* Walk frame nb (from 1) of p into st; messages start with "path: frame nb: ". */
static int
take_frame(const struct wr_pcap *p, const char *path, uint32_t nb,
		struct wr_stack *st, struct wr_error *why)
{
	const uint8_t *d = p->data + p->frames[nb - 1].off;
	uint32_t len = p->frames[nb - 1].len, stop;
	char names[WR_STACK_TEXT_LEN];
	int off = wr_stack_walk(d, len, WR_FRAME_MAGIC, st, &stop);

	layer_names(st, names, sizeof(names));
	if (off == -E2BIG)
		return wr_err_usage(why, -EINVAL, "%s: frame %u: more than %u layers "
			"(%s...)", path, nb, WR_STACK_MAX_LAYERS, names);
	if (off == 0)
		return wr_err_usage(why, -EINVAL, "%s: frame %u: no UDP payload: the walk "
			"through Ethernet, VLAN, MPLS, IPv4 (no fragments), IPv6, GRE, "
			"UDP-VXLAN and UDP-Geneve stopped at byte %u of %u, after '%s'",
			path, nb, stop, len, names[0] ? names : "nothing");
	if (gre_with_checksum(st, d) != 0)
		return wr_err_usage(why, -EINVAL, "%s: frame %u: layer %d (gre) has a "
			"checksum, which would cover every frame's stamps: not supported",
			path, nb, gre_with_checksum(st, d));
	if ((uint32_t)off > WR_STACK_TMPL_MAX)
		return wr_err_usage(why, -EINVAL, "%s: frame %u: %d header bytes before "
			"the innermost UDP payload (%s), more than %u", path, nb, off,
			names, WR_STACK_TMPL_MAX);
	memcpy(st->tmpl, d, (size_t)off);
	st->tmpl_len = (uint16_t)off;
	return 0;
}

int
wr_stack_template(const char *path, uint32_t nb, struct wr_stack *st,
		struct wr_error *why)
{
	struct wr_pcap p;
	int rc = wr_pcap_read_file(path, TMPL_MAX_FRAME, &p, why);

	if (rc != 0)
		return rc == -ENOMEM ? rc : -EINVAL;
	if (nb > p.nb_frames)
		rc = wr_err_usage(why, -EINVAL, "%s: frame %u: the file holds %u "
			"frame%s", path, nb, p.nb_frames, p.nb_frames == 1 ? "" : "s");
	else
		rc = take_frame(&p, path, nb, st, why);
	wr_pcap_free(&p);
	return rc;
}
