/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Services of ITU-T Y.1564 (docs/y1564.md): a stream with a bandwidth
 * profile (cir=, eir=) and service acceptance criteria (flr=,
 * ftd=, fdv=, avail=). The frames of a service within its CIR are the
 * stream's own (green: its dscp= or prio=); a service with an EIR gets a
 * second stream, its yellow part, on the next free TX queue: the same
 * frames marked yellow= (dscp:N or pcp:N), so that a colour-aware
 * policer tells them apart and the receiver counts them apart (Y.1564
 * 8.1.2 judges loss on green frames only). Pure: no EAL.
 */
#ifndef WR_SERVICE_H
#define WR_SERVICE_H

#include <stdbool.h>
#include <stdint.h>

#include "rate.h"
#include "base/error.h"

/* A stream's part in a service. */
enum wr_service_role {
	WR_SERVICE_NONE = 0,   /* a plain stream */
	WR_SERVICE_GREEN,      /* the service itself: its CIR frames */
	WR_SERVICE_YELLOW,     /* the EIR part of the service before it */
};

/* How yellow frames are marked. */
enum wr_service_mark {
	WR_SERVICE_MARK_NONE = 0,
	WR_SERVICE_MARK_DSCP,
	WR_SERVICE_MARK_PCP,
};

/* A criterion not given is not judged. */
#define WR_SERVICE_NO_CRITERION (-1.0)

/* The Y.1564 keys of one stream, written by the config checks only. */
struct wr_service {
	enum wr_service_role role;
	struct wr_rate cir;        /* WR_RATE_NONE: not a service */
	struct wr_rate eir;        /* WR_RATE_NONE: no EIR */
	double flr;                /* frame loss ratio, 0..1 */
	double ftd_ns;             /* mean frame transfer delay */
	double fdv_ns;             /* frame delay variation */
	double avail;              /* availability ratio, 0..1 */
	enum wr_service_mark yellow_mark;
	uint8_t yellow_value;      /* DSCP 0..63 or PCP 0..7 */
	unsigned int partner;      /* green: its yellow stream's index (or
	                            * UINT32_MAX); yellow: its green's */
};

struct wr_stream_def;
struct wr_config;

/* A stream that is no service. This function can't fail. */
void wr_service_init(struct wr_service *s);

/*
 * One KEY=VALUE of a stream definition, if it is a service key (cir, eir,
 * flr, ftd, fdv, avail, yellow, part; cbs and ebs are refused: no burst
 * tests). Returns 0, 1 for a key it does not know, or -EINVAL with why's
 * message (units: rates as --rate, flr and avail in %, ftd and fdv with
 * ns, us, ms or s).
 */
int wr_service_key(struct wr_service *s, const char *k, const char *v,
		struct wr_error *why);

/* Whether any stream of cfg is a service. This function can't fail. */
bool wr_service_any(const struct wr_config *cfg);

/*
 * Add each service's yellow stream (a service with eir=) after the
 * streams given, again on each call from the same texts. Returns 0 or
 * -EINVAL naming the service and key (no yellow=, no room for another
 * TX queue, a name too long).
 */
int wr_service_expand(struct wr_config *cfg, struct wr_error *err);

/*
 * Rules of the services once every stream is built: --mode y1564 needs
 * services and only services; CIR + EIR within a trusted --link-speed;
 * the CIR steps ascending. Returns 0 or -EINVAL naming service and key.
 */
int wr_service_check(const struct wr_config *cfg, struct wr_error *err);

#endif /* WR_SERVICE_H */
