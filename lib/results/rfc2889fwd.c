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

void
wr_fwd_press_init(struct wr_fwd_press *f, double link_bps, unsigned int frame_len)
{
	memset(f, 0, sizeof(*f));
	f->link_bps = link_bps;
	f->frame_len = frame_len;
	f->offered_pps = wr_fwd_rate_pps(link_bps, frame_len, WR_FWD_PRESSURE_GAP_BITS);
	f->legal_pps = wr_fwd_rate_pps(link_bps, frame_len, WR_FWD_GAP_BITS);
	f->port = -1;
}

void
wr_fwd_press_judge(struct wr_fwd_press *f, const struct wr_mesh_plan *p,
		const struct wr_mesh_counts *c, double send_s)
{
	struct wr_mesh_port_sum sum;
	unsigned int i;
	double tx;

	f->nb_ports = (uint8_t)(p->nb_ports > WR_MESH_MAX_PORTS ?
		WR_MESH_MAX_PORTS : p->nb_ports);
	f->tx_pps = -1.0;
	for (i = 0; i < f->nb_ports; i++) {
		wr_mesh_port_sum(p, c, i, send_s, &sum);
		f->fwd_pps[i] = sum.fwd_pps;
		tx = send_s > 0 ? (double)sum.sent_pkts / send_s : 0.0;
		if (p->nb_dst[i] > 0 && (f->tx_pps < 0 || tx < f->tx_pps))
			f->tx_pps = tx;
	}
	if (f->tx_pps < 0)
		f->tx_pps = 0.0;
	f->held = f->tx_pps > f->legal_pps;
	f->found = wr_fwd_pressure(p, c, send_s, f->legal_pps, &f->port);
}

double
wr_fwd_over_pct(const struct wr_fwd_press *f)
{
	if (f->port < 0 || f->port >= f->nb_ports || f->legal_pps <= 0)
		return 0.0;
	return (f->fwd_pps[f->port] / f->legal_pps - 1.0) * 100.0;
}
