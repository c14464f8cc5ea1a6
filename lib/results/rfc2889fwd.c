/* SPDX-License-Identifier: BSD-3-Clause */
#include <string.h>

#include "rfc2889fwd.h"

double
wr_fwd_rate_pps(double link_bps, unsigned int frame_len, unsigned int gap_bits)
{
	double bits = (double)(frame_len + 8u) * 8.0 + (double)gap_bits;

	return link_bps > 0 ? link_bps / bits : 0.0;
}

void
wr_fwd_max_init(struct wr_fwd_max *m, unsigned int nb)
{
	memset(m, 0, sizeof(*m));
	m->nb_ports = (uint8_t)(nb > WR_MESH_MAX_PORTS ? WR_MESH_MAX_PORTS : nb);
}

void
wr_fwd_max_add(struct wr_fwd_max *m, const struct wr_mesh_plan *p,
		const struct wr_mesh_counts *c, double send_s, double offered_pps)
{
	struct wr_mesh_port_sum sum;
	unsigned int i;

	for (i = 0; i < m->nb_ports && i < p->nb_ports; i++) {
		wr_mesh_port_sum(p, c, i, send_s, &sum);
		if (sum.fwd_pps > m->mfr_pps[i]) {
			m->mfr_pps[i] = sum.fwd_pps;
			m->at_offered_pps[i] = offered_pps;
		}
	}
}

bool
wr_fwd_pressure(const struct wr_mesh_plan *p, const struct wr_mesh_counts *c,
		double send_s, double legal_pps, int *port)
{
	struct wr_mesh_port_sum sum;
	double best = legal_pps;
	unsigned int i;

	*port = -1;
	for (i = 0; i < p->nb_ports; i++) {
		wr_mesh_port_sum(p, c, i, send_s, &sum);
		if (sum.fwd_pps > best) {
			best = sum.fwd_pps;
			*port = (int)i;
		}
	}
	return *port >= 0;
}
