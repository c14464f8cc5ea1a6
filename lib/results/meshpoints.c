/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The points of a --mode mesh result (docs/rfc2889.md): the run's, and
 * one per port, which compare judges one by one. Pure: no EAL.
 */
#include <errno.h>
#include <stdbool.h>

#include "meshjson.h"

static void
set(struct wr_point *p, unsigned int id, const json_t *v)
{
	if (json_is_number(v)) {
		p->m.have[id] = true;
		p->m.v[id] = json_number_value(v);
	}
}

/* Whether trial t is of size (a trial of a file without sizes is). */
static bool
of_size(const json_t *t, unsigned int size)
{
	const json_t *fs = json_object_get(t, "frame_size");

	return !json_is_integer(fs) || json_integer_value(fs) == (json_int_t)size;
}

/*
 * The trial result r's forwarding rate comes from, among the trials of
 * its size: of a search, the first passing trial at the highest rate
 * that passed (none when none did); of one trial, the last.
 */
static const json_t *
result_trial(const json_t *o, const json_t *r, unsigned int size)
{
	const json_t *trials = json_object_get(o, "trials"), *t, *best = NULL;
	bool search = json_is_true(json_object_get(r, "search"));
	double pps, top = -1.0;
	size_t i;

	json_array_foreach(trials, i, t) {
		if (!of_size(t, size))
			continue;
		if (!search) {
			best = t;
			continue;
		}
		pps = json_number_value(json_object_get(t, "offered_pps"));
		if (json_is_true(json_object_get(t, "pass")) && pps > top) {
			top = pps;
			best = t;
		}
	}
	return best;
}

/* A port's point: its forwarding rate in trial t, its MFR. */
static int
port_points(const json_t *o, const json_t *r, unsigned int size,
		struct wr_points *out, struct wr_error *err)
{
	const json_t *mfr = json_object_get(r, "max_forwarding_rate"), *x;
	const json_t *t = result_trial(o, r, size);
	struct wr_point *p;
	json_int_t idx;
	size_t i;

	json_array_foreach(mfr, i, x) {
		idx = json_integer_value(json_object_get(x, "index"));
		if (!json_is_integer(json_object_get(x, "index")) || idx < 0 ||
				idx >= WR_MESH_MAX_PORTS)
			return wr_err_usage(err, -EINVAL, "field 'rfc2889.result."
				"max_forwarding_rate[%zu].index' is missing or not a "
				"port (0 to %u)", i, WR_MESH_MAX_PORTS - 1);
		if (out->nb == WR_KIND_MAX_POINTS)
			return wr_err_usage(err, -EINVAL, "more than %u points",
				WR_KIND_MAX_POINTS);
		p = &out->p[out->nb++];
		p->frame_size = size;
		p->stream_id = (int)idx * WR_MESH_PORT_POINT;
		set(p, WR_METRIC_MESH_MFR_PPS, json_object_get(x, "mfr_pps"));
		if (t != NULL && json_is_number(json_object_get(r,
				"forwarding_rate_pps")))
			set(p, WR_METRIC_MESH_PORT_FWD_PPS, json_object_get(
				json_array_get(json_object_get(t, "ports"), (size_t)idx),
				"forwarding_rate_pps"));
	}
	return 0;
}

/* The run's point of result r at size, then its ports'. */
static int
size_points(const json_t *o, const json_t *r, unsigned int size,
		struct wr_points *out, struct wr_error *err)
{
	struct wr_point *p;

	if (out->nb == WR_KIND_MAX_POINTS)
		return wr_err_usage(err, -EINVAL, "more than %u points",
			WR_KIND_MAX_POINTS);
	p = &out->p[out->nb++];
	p->frame_size = size;
	set(p, WR_METRIC_MESH_FWD_PPS, json_object_get(r, "forwarding_rate_pps"));
	set(p, WR_METRIC_MESH_TPUT_PPS, json_object_get(r, "throughput_pps"));
	set(p, WR_METRIC_MESH_FP_OVER_PCT, json_object_get(json_object_get(r,
		"forward_pressure"), "over_legal_pct"));
	return port_points(o, r, size, out, err);
}

int
wr_mesh_points(const json_t *doc, struct wr_points *out, struct wr_error *err)
{
	const json_t *o = json_object_get(doc, "rfc2889"), *r, *fs, *rs;
	unsigned int size;
	size_t i;
	int rc;

	if (!json_is_object(o))
		return wr_err_usage(err, -EINVAL, "field 'rfc2889' is missing or "
			"not an object");
	r = json_object_get(o, "result");
	if (r == NULL && wr_kind_running(doc))
		return 0;       /* killed during the trials: nothing found yet */
	if (!json_is_object(r))
		return wr_err_usage(err, -EINVAL, "field 'rfc2889.result' is "
			"missing or not an object: the trials did not finish");
	out->nb = 0;
	rs = json_object_get(o, "results");
	if (!json_is_array(rs) || json_array_size(rs) == 0) {
		fs = json_object_get(o, "frame_size");
		size = json_is_integer(fs) ? (unsigned int)json_integer_value(fs) : 64;
		return size_points(o, r, size, out, err);
	}
	json_array_foreach(rs, i, r) {
		fs = json_object_get(r, "frame_size");
		if (!json_is_object(r) || !json_is_integer(fs))
			return wr_err_usage(err, -EINVAL, "field 'rfc2889.results[%zu]"
				".frame_size' is missing or not an integer", i);
		rc = size_points(o, r, (unsigned int)json_integer_value(fs), out, err);
		if (rc != 0)
			return rc;
	}
	return 0;
}
