/* SPDX-License-Identifier: BSD-3-Clause */
/* A point of a result: its judged metrics, its name, finding it (kinds.h). */
#include <math.h>
#include <stdio.h>

#include <rte_common.h>

#include "kinds.h"

unsigned int
wr_point_judged(const struct wr_kind *k, const struct wr_point *p,
		const unsigned int **ids)
{
	static const unsigned int stream_ids[] = { WR_METRIC_LOSS_PCT };

	if (p->stream_id >= 0) {
		*ids = stream_ids;
		return RTE_DIM(stream_ids);
	}
	*ids = k->judged;
	return k->nb_judged;
}

const char *
wr_point_name(const struct wr_kind *k, const struct wr_point *p, char *buf,
		size_t len)
{
	if (k->key_name != NULL)
		snprintf(buf, len, "%s %u", k->key_name, p->frame_size);
	else if (k->point_name != NULL)
		snprintf(buf, len, "%s", k->point_name);
	else if (p->stream_id >= 0)
		snprintf(buf, len, "%u B, stream tx%d.%d", p->frame_size,
			p->stream_id / 16, p->stream_id % 16);
	else if (k->by_load)
		snprintf(buf, len, "%u B at %g%% load", p->frame_size, p->load_pct);
	else
		snprintf(buf, len, "%u B", p->frame_size);
	return buf;
}

const struct wr_point *
wr_points_find(const struct wr_points *pts, const struct wr_point *p)
{
	unsigned int i;

	for (i = 0; i < pts->nb; i++)
		if (pts->p[i].frame_size == p->frame_size &&
				pts->p[i].stream_id == p->stream_id &&
				fabs(pts->p[i].load_pct - p->load_pct) < 1e-9)
			return &pts->p[i];
	return NULL;
}
