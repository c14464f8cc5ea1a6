/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "connload_read.h"

/*
 * The number at path of cell i times scale into metric id of p; null (a
 * figure the trial could not have) is left absent, else bad input.
 */
static int
figure(const json_t *cell, unsigned int i, const char *path, double scale,
		unsigned int id, struct wr_point *p, struct wr_error *err)
{
	const json_t *x = wr_metrics_get(cell, path);

	if (json_is_null(x))
		return 0;
	if (!json_is_number(x))
		return wr_err_usage(err, -EINVAL, "field 'conn_load.cells[%u].%s' "
			"is %s", i, path, x == NULL ? "missing" : "not a number");
	p->m.have[id] = true;
	p->m.v[id] = json_number_value(x) * scale;
	return 0;
}

/* Failed connections, % of attempted (absent when none attempted). */
static int
failed_pct(const json_t *cell, unsigned int i, struct wr_point *p,
		struct wr_error *err)
{
	const json_t *a = json_object_get(cell, "attempted");
	const json_t *f = wr_metrics_get(cell, "failed.total");

	if (!json_is_integer(a) || !json_is_integer(f))
		return wr_err_usage(err, -EINVAL, "field 'conn_load.cells[%u].%s' "
			"is missing or not an integer", i, json_is_integer(a) ?
			"failed.total" : "attempted");
	if (json_integer_value(a) <= 0)
		return 0;
	p->m.have[WR_METRIC_CONN_FAIL_PCT] = true;
	p->m.v[WR_METRIC_CONN_FAIL_PCT] = 100.0 *
		(double)json_integer_value(f) / (double)json_integer_value(a);
	return 0;
}

/* Cell i of the document into p. */
static int
cell_point(const json_t *cell, unsigned int i, struct wr_point *p,
		struct wr_error *err)
{
	const json_t *k = json_object_get(cell, "concurrency");
	const char *app = json_string_value(json_object_get(cell, "app"));

	if (!json_is_integer(k) || json_integer_value(k) < 1)
		return wr_err_usage(err, -EINVAL, "field 'conn_load.cells[%u]."
			"concurrency' is missing or not a positive integer", i);
	p->frame_size = (unsigned int)json_integer_value(k);
	if (app == NULL || (strcmp(app, "http") != 0 && strcmp(app, "bulk") != 0))
		return wr_err_usage(err, -EINVAL, "field 'conn_load.cells[%u].app' "
			"is missing or not \"http\" or \"bulk\"", i);
	/* bulk sends no requests: its figure is goodput */
	if ((strcmp(app, "http") == 0 && figure(cell, i, "requests_per_s", 1,
			WR_METRIC_CONN_RPS, p, err)) ||
			figure(cell, i, "cps", 1, WR_METRIC_CONN_CPS, p, err) ||
			figure(cell, i, "goodput_bps", 1e-9,
			WR_METRIC_CONN_GOODPUT_GBPS, p, err) ||
			failed_pct(cell, i, p, err))
		return -EINVAL;
	if (json_is_null(json_object_get(cell, "connect")))
		return 0;
	return figure(cell, i, "connect.p99_us", 1, WR_METRIC_CONN_CONNECT_P99_US,
		p, err);
}

int
wr_connload_points(const json_t *doc, struct wr_points *out,
		struct wr_error *err)
{
	const json_t *cells = wr_metrics_get(doc, "conn_load.cells");
	size_t i;

	if (cells == NULL && wr_kind_running(doc))
		return 0;       /* killed in its first trial: none finished */
	if (!json_is_array(cells))
		return wr_err_usage(err, -EINVAL, "field 'conn_load.cells' is "
			"missing or not an array: not a conn-load result");
	if (json_array_size(cells) > WR_KIND_MAX_POINTS)
		return wr_err_usage(err, -EINVAL, "field 'conn_load.cells' holds "
			"%zu trials (at most %u)", json_array_size(cells),
			WR_KIND_MAX_POINTS);
	for (i = 0; i < json_array_size(cells); i++)
		if (cell_point(json_array_get(cells, i), (unsigned int)i,
				&out->p[i], err) != 0)
			return -EINVAL;
	out->nb = (unsigned int)i;
	return 0;
}
