/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The "y1564" object of a --mode y1564 result (docs/y1564.md, schema
 * docs/schema/wirerate-result-1.schema.json): a step's figures and
 * verdict, a service's performance test and its series. Pure: no EAL.
 */
#ifndef WR_Y1564_JSON_H
#define WR_Y1564_JSON_H

#include <jansson.h>

#include "y1564.h"
#include "config/stream.h"

/* The figures of one step, for its JSON. */
struct wr_y1564_step_rec {
	const struct wr_y1564_step *step;
	const struct wr_y1564_meas *meas;
	const struct wr_y1564_verdict *v;
	double frame_bits;   /* a frame's mean size in bits, FCS included */
};

/* A step's object: what was offered, measured and judged. */
json_t *wr_y1564_step_json(const struct wr_y1564_step_rec *r);

/*
 * A service's object before its steps: names, bandwidth profile (as
 * given and in frames per second), marking and criteria; "steps" empty.
 */
json_t *wr_y1564_service_json(const struct wr_stream_def *green,
		const struct wr_stream_def *yellow, const struct wr_y1564_crit *c);

/*
 * The performance test of one service so far: availability a, series s,
 * verdict v (NULL while it runs) and the totals of m. Replaces "perf".
 */
void wr_y1564_perf_json(json_t *svc, const struct wr_y1564_avail *a,
		const struct wr_y1564_series *s, const struct wr_y1564_meas *m,
		const struct wr_y1564_verdict *v, double frame_bits);

/* The verdict's "pass" and "fails" into o. This function can't fail. */
void wr_y1564_verdict_json(json_t *o, const struct wr_y1564_verdict *v);

#endif /* WR_Y1564_JSON_H */
