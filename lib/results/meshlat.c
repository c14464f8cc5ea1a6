/* SPDX-License-Identifier: BSD-3-Clause */
#include "meshlat.h"
#include "base/jsonw.h"

json_t *
wr_mesh_lat_json(const struct wr_hist *h, double tsc_hz)
{
	double ns = tsc_hz > 0 ? 1e9 / tsc_hz : 0.0;
	json_t *o = json_object();

	if (o == NULL)
		return NULL;
	wr_json_set(o, "count", json_integer((json_int_t)h->nb));
	if (h->nb == 0)
		return o;
	wr_json_set(o, "min_ns", json_real((double)h->min * ns));
	wr_json_set(o, "mean_ns", json_real(wr_hist_mean(h) * ns));
	wr_json_set(o, "p50_ns", json_real((double)wr_hist_percentile(h, 50) * ns));
	wr_json_set(o, "p99_ns", json_real((double)wr_hist_percentile(h, 99) * ns));
	wr_json_set(o, "max_ns", json_real((double)h->max * ns));
	return o;
}
