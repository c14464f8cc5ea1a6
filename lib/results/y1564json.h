/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The "y1564" object of a --mode y1564 result (docs/y1564.md, schema
 * docs/schema/wirerate-result-1.schema.json): a step's figures and
 * verdict, a service's performance test and its series. Pure: no EAL.
 */
#ifndef WR_Y1564JSON_H
#define WR_Y1564JSON_H

#include <jansson.h>

#include "y1564.h"
#include "config/config.h"
#include "config/stream.h"

/* The figures of one step, for its JSON. */
struct wr_y1564_step_rec {
	const struct wr_y1564_step *step;
	const struct wr_y1564_meas *meas;
	const struct wr_y1564_verdict *v;
	double frame_bits;   /* a frame's mean size in bits, FCS included */
};

/*
 * The "y1564" object of doc: the test's settings (from cfg) and an empty
 * "services"; NULL without memory. Owned by doc.
 */
json_t *wr_y1564_doc(json_t *doc, const struct wr_config *cfg);

/*
 * Append a service to y's "services": names, bandwidth profile (frames
 * per second), marking and criteria, "steps" empty. Returns its object
 * (owned by y), NULL without memory.
 */
json_t *wr_y1564_service_add(json_t *y, const struct wr_stream_def *green,
		const struct wr_stream_def *yellow, const struct wr_y1564_crit *c);

/* Append one step, what was offered, measured and judged, to svc. */
void wr_y1564_step_add(json_t *svc, const struct wr_y1564_step_rec *r);

/*
 * Where the test stands: each service's verdict so far (pass[i] for
 * svc[i]), the whole one, the phase ("configuration", "performance",
 * "done") and how delay is measured (round_trip: through a reflector).
 */
void wr_y1564_state(json_t *y, json_t *const *svc, const bool *pass,
		unsigned int n, const char *phase, bool round_trip);

/*
 * The performance test of one service so far: availability a, series s,
 * verdict v (NULL while it runs) and the totals of m. Replaces "perf".
 */
void wr_y1564_perf_json(json_t *svc, const struct wr_y1564_avail *a,
		const struct wr_y1564_series *s, const struct wr_y1564_meas *m,
		const struct wr_y1564_verdict *v, double frame_bits);

/*
 * The verdict's "pass", "fails" and "not_measured" (criteria without a
 * figure) into o. This function can't fail.
 */
void wr_y1564_verdict_json(json_t *o, const struct wr_y1564_verdict *v);

/*
 * A step's (or performance test's) verdict as text into buf: "pass",
 * "FAIL: FLR 0.2 > 0.001; ..." with each failing KPI against its
 * criterion, "not measured: FTD FDV" for criteria without a figure
 * ("pass; not measured (skipped): FTD" when the user skipped them), or
 * "not judged (cut short)". This function can't fail.
 */
void wr_y1564_verdict_text(const json_t *o, char *buf, size_t len);

/* o's delay k (ns) in ms into buf, "-" when o has none. Can't fail. */
void wr_y1564_ms_text(const json_t *o, const char *k, char *buf, size_t len);

#endif /* WR_Y1564JSON_H */
