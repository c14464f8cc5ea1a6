/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A deterministic impairment fixture between the NIC and the receiver: an
 * ethdev RX callback that drops, duplicates, reorders and delays our own
 * frames chosen by sequence number, so tests (and lab users checking their
 * accounting) know exactly what the receiver must report.
 *
 * Rules, each optional, applied to own frames by their sequence s:
 *   drop=N[@K]     drop the frame when s % N == K (K defaults to N - 1)
 *   dup=N[@K]      pass the frame twice when s % N == K
 *   reorder=N[@K]  hold the frame when s % N == K and pass it after the
 *                  next frame (or on the next empty poll)
 *   delay=T        busy-wait T (e.g. 50us) in every non-empty poll, so every
 *                  frame's latency grows by at least T
 *   police=R       a device with a known limit: a token bucket of R frames
 *                  per second (e.g. 1Mpps), WR_IMPAIR_POLICE_DEPTH_S deep,
 *                  drops every frame above it
 * Foreign and malformed frames pass untouched.
 */
#ifndef WR_IMPAIR_SPEC_H
#define WR_IMPAIR_SPEC_H

#include <stddef.h>
#include <stdint.h>
#include "base/error.h"

/* The fixture may return up to twice the frames asked for, plus one, so
 * the receiver asks it for at most this many (--burst). */
#define WR_IMPAIR_MAX_BURST 255u

struct wr_impair_rule {
	uint32_t every;   /* 0: rule off */
	uint32_t at;
};

/* Bucket depth of police=R: bursts up to this much of R pass. */
#define WR_IMPAIR_POLICE_DEPTH_S 0.020

struct wr_impair_spec {
	struct wr_impair_rule drop;
	struct wr_impair_rule dup;
	struct wr_impair_rule reorder;
	uint32_t delay_us;
	double police_pps;          /* 0: no policer */
};

/*
 * Parse "drop=1000,dup=1000@250,reorder=1000@500,delay=50us" into spec.
 * Returns 0, or -EINVAL with a message naming the bad part.
 */
int wr_impair_parse(const char *s, struct wr_impair_spec *spec,
		struct wr_error *err);

/* True when the spec does anything. */
static inline int
wr_impair_active(const struct wr_impair_spec *spec)
{
	return spec->drop.every || spec->dup.every || spec->reorder.every ||
		spec->delay_us || spec->police_pps > 0;
}

#endif /* WR_IMPAIR_SPEC_H */
