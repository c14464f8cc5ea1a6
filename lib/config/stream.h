/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Streams: the unit of traffic. With --stream (repeatable) each TX port
 * carries one stream per definition, each on its own TX queue (stream k on
 * queue k), so each keeps its own sequence space, accounting, latency and
 * rate report under its stream id. Pure: no EAL.
 *
 * A definition is KEY=VALUE pairs separated by ';' or spaces; a key left
 * out takes the command line's (or profile's) value:
 *   name=probe        label in results [streamK]
 *   size=BYTES | mix=MIX         frame size or size mix (mix.h)
 *   rate=R            its own rate (rate.h forms) | share=P  P% of --rate
 *                     [an equal share of what the shares leave of --rate,
 *                     or unpaced without --rate]
 *   pattern=P         constant | burst:N/T | poisson[:SEED] (pattern.h)
 *   l3=ipv4|ipv6  src-ip=A  dst-ip=A  (IPv4 or IPv6 address: an IPv6 one
 *                     means l3=ipv6)
 *   sport=N  dport=N  flows=N  vlan=ID  prio=0..7  dscp=0..63
 *                     (src-ip, dst-ip, sport, dport, vlan, dscp: or a range
 *                     FIRST-LAST, range.h)  vary=inc|random[:SEED]
 *   stack=SPEC        a header stack (base/stack.h), as --stack
 *   cir= eir= flr= ftd= fdv= avail= yellow=   a Y.1564 service (service.h)
 */
#ifndef WR_STREAM_H
#define WR_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mix.h"
#include "pattern.h"
#include "range.h"
#include "rate.h"
#include "service.h"
#include "base/error.h"
#include "base/stack.h"

#define WR_STREAM_MAX 16u        /* per TX port: one TX queue each */
#define WR_STREAM_TEXT_LEN 256u
#define WR_STREAM_NAME_LEN 32u

/* One stream, every field resolved; read-only once the run starts. */
struct wr_stream_def {
	char name[WR_STREAM_NAME_LEN];
	uint32_t frame_size;      /* bytes with FCS; with a mix, its largest */
	struct wr_mix mix;        /* nb_sizes 0: frame_size only */
	struct wr_rate rate;      /* own rate; WR_RATE_NONE: see share_pct */
	double share_pct;         /* > 0: this % of the port's --rate */
	struct wr_pattern pattern;
	bool ipv6;
	uint32_t src_ip, dst_ip;  /* IPv4, host order */
	uint8_t src_ip6[16], dst_ip6[16];
	uint16_t src_udp, dst_udp;
	uint32_t nb_flows;        /* 1 when ranges are given (folded in) */
	struct wr_ranges ranges;  /* fields that vary; first values above */
	uint16_t vlan_id;         /* 0: untagged */
	uint8_t vlan_prio;        /* 802.1Q PCP */
	uint8_t dscp;
	unsigned int addr_set;    /* enum wr_portip_addr_bits of src-ip / dst-ip */
	struct wr_stack stack;    /* stack=SPEC (base/stack.h); 0 layers: none */
	struct wr_service svc;        /* cir=, eir=, ...: a Y.1564 service (service.h) */
};

struct wr_config;

/*
 * Resolve stream idx (0-based) of cfg from its text over cfg's own frame
 * settings into cfg->streams[idx]. Returns 0 or -EINVAL with a message
 * naming the stream and the key.
 */
int wr_stream_build(struct wr_config *cfg, unsigned int idx, struct wr_error *err);

/*
 * Rules across streams once all are built: sizes for their headers, no two
 * streams with the same addresses, ports and tag, rates that add up to no
 * more than a trusted link speed (--link-speed). Sets cfg->nb_txq and
 * cfg->frame_size (the largest). Returns 0 or -EINVAL with a message.
 */
int wr_stream_check(struct wr_config *cfg, struct wr_error *err);

/*
 * Frames per second of stream d on a port whose --rate is port (unit
 * WR_RATE_NONE: none), on a link of link_bps (for % rates). INFINITY when
 * unpaced. Returns 0 or -EINVAL (a % rate without a link speed).
 */
int wr_stream_pps(const struct wr_stream_def *d, const struct wr_rate *port,
		uint64_t link_bps, double *pps);

/*
 * Where cfg's largest frame size comes from, for messages: "--stream 2
 * (jumbo)", "--mix imix" or "--size". Returns buf.
 */
const char *wr_stream_size_origin(const struct wr_config *cfg, char *buf,
		size_t len);

/* Mean frame size of d in bytes, FCS included. */
double wr_stream_mean_size(const struct wr_stream_def *d);

#endif /* WR_STREAM_H */
