/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What compare judges at a point of a result, and the point's name. A
 * point with a stream_id is a stream of a run (its loss), or a port of a
 * --mode mesh run (port * 16: its forwarding rate and its MFR, RFC 2889
 * 5.6). Pure: no EAL.
 */
#include <stdio.h>

#include <rte_common.h>

#include "kinds.h"
#include "meshjson.h"

unsigned int
wr_point_judged(const struct wr_kind *k, const struct wr_point *p,
		const unsigned int **ids)
{
	static const unsigned int stream_ids[] = { WR_METRIC_LOSS_PCT };
	static const unsigned int port_ids[] = { WR_METRIC_MESH_PORT_FWD_PPS,
		WR_METRIC_MESH_MFR_PPS };

	if (p->stream_id >= 0 && k->points == wr_mesh_points) {
		*ids = port_ids;
		return RTE_DIM(port_ids);
	}
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
	else if (p->stream_id >= 0 && k->points == wr_mesh_points)
		snprintf(buf, len, "%u B, port %d", p->frame_size,
			p->stream_id / WR_MESH_PORT_POINT);
	else if (p->stream_id >= 0)
		snprintf(buf, len, "%u B, stream tx%d.%d", p->frame_size,
			p->stream_id / 16, p->stream_id % 16);
	else if (k->by_load)
		snprintf(buf, len, "%u B at %g%% load", p->frame_size, p->load_pct);
	else
		snprintf(buf, len, "%u B", p->frame_size);
	return buf;
}
