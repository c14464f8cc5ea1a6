/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <string.h>

#include "rfc2889mesh.h"

/*
 * Whether s sends to d in pattern over nb ports (not congestion). The
 * halves of 5.3 and 5.4: ports 0 .. nb/2-1 and nb/2 .. nb-1.
 */
static bool
pattern_pair(enum wr_mesh_pattern pattern, unsigned int nb, unsigned int s,
		unsigned int d)
{
	bool cross = (s < nb / 2) != (d < nb / 2);

	switch (pattern) {
	case WR_MESH_ONE_TO_MANY:
	case WR_MESH_BROADCAST: return s == 0 && d != 0;
	case WR_MESH_MANY_TO_ONE: return d == 0 && s != 0;
	case WR_MESH_UNIDIR: return cross && s < nb / 2;
	case WR_MESH_MULTI_DEVICE: return cross;
	case WR_MESH_FULL:
	case WR_MESH_CONGESTION:
		break;
	}
	return s != d;
}

int
wr_mesh_plan_make(struct wr_mesh_plan *p, enum wr_mesh_pattern pattern,
		unsigned int nb, struct wr_error *err)
{
	unsigned int s, d;

	if (nb < 2 || nb > WR_MESH_MAX_PORTS)
		return wr_err_usage(err, -EINVAL, "--mode mesh: %u ports; a meshed "
			"trial needs 2 to %u ports", nb, WR_MESH_MAX_PORTS);
	if ((pattern == WR_MESH_UNIDIR || pattern == WR_MESH_MULTI_DEVICE) &&
			nb % 2 != 0)
		return wr_err_usage(err, -EINVAL, "--mesh-pattern %s: %u ports; "
			"it needs an even number (two halves)",
			wr_mesh_pattern_name(pattern), nb);
	if (pattern == WR_MESH_CONGESTION && nb != 4)
		return wr_err_usage(err, -EINVAL, "--mesh-pattern congestion: %u "
			"ports; it needs 4 (two senders, the congested and the "
			"uncongested port)", nb);
	memset(p, 0, sizeof(*p));
	p->nb_ports = (uint8_t)nb;
	p->bcast = pattern == WR_MESH_BROADCAST;
	if (pattern == WR_MESH_CONGESTION) {
		/* RFC 2889 5.5.2: port 0 sends half to the congested port 2,
		 * half to the uncongested port 3; port 1 all to port 2. */
		p->nb_dst[0] = 2;
		p->dst[0][0] = 2;
		p->dst[0][1] = 3;
		p->nb_dst[1] = 1;
		p->dst[1][0] = 2;
		return 0;
	}
	for (s = 0; s < nb; s++)
		for (d = 0; d < nb; d++)
			if (pattern_pair(pattern, nb, s, d))
				p->dst[s][p->nb_dst[s]++] = (uint8_t)d;
	return 0;
}

bool
wr_mesh_pair(const struct wr_mesh_plan *p, unsigned int s, unsigned int d)
{
	unsigned int i;

	if (s >= p->nb_ports)
		return false;
	for (i = 0; i < p->nb_dst[s]; i++)
		if (p->dst[s][i] == d)
			return true;
	return false;
}

const char *
wr_mesh_pattern_name(enum wr_mesh_pattern pattern)
{
	switch (pattern) {
	case WR_MESH_FULL: return "full";
	case WR_MESH_ONE_TO_MANY: return "one-to-many";
	case WR_MESH_MANY_TO_ONE: return "many-to-one";
	case WR_MESH_CONGESTION: return "congestion";
	case WR_MESH_UNIDIR: return "unidirectional";
	case WR_MESH_MULTI_DEVICE: return "multi-device";
	case WR_MESH_BROADCAST: return "broadcast";
	}
	return "?";
}

const char *
wr_mesh_section(enum wr_mesh_pattern pattern)
{
	switch (pattern) {
	case WR_MESH_FULL: return "5.1";
	case WR_MESH_ONE_TO_MANY:
	case WR_MESH_MANY_TO_ONE: return "5.2";
	case WR_MESH_MULTI_DEVICE: return "5.3";
	case WR_MESH_UNIDIR: return "5.4";
	case WR_MESH_CONGESTION: return "5.5";
	case WR_MESH_BROADCAST: return "5.10";
	}
	return "?";
}

void
wr_mesh_counts_init(struct wr_mesh_counts *c)
{
	unsigned int i;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < WR_MESH_MAX_PORTS; i++)
		wr_hist_init(&c->lat[i]);
}

uint64_t
wr_mesh_lost(const struct wr_mesh_counts *c, unsigned int s, unsigned int d)
{
	return c->sent[s][d] > c->rx[s][d] ? c->sent[s][d] - c->rx[s][d] : 0;
}

void
wr_mesh_port_sum(const struct wr_mesh_plan *p, const struct wr_mesh_counts *c,
		unsigned int i, double send_s, struct wr_mesh_port_sum *sum)
{
	unsigned int o;

	memset(sum, 0, sizeof(*sum));
	for (o = 0; o < p->nb_ports; o++) {
		sum->sent_pkts += c->sent[i][o];
		sum->lost_pkts += wr_mesh_lost(c, i, o);
		sum->rx_pkts += c->rx[o][i];
		sum->stray_pkts += c->stray[o][i];
	}
	/* A broadcast frame is sent once, to every receiver. */
	if (p->bcast && p->nb_dst[i] > 0)
		sum->sent_pkts = c->sent[i][p->dst[i][0]];
	sum->fwd_pps = send_s > 0 ? (double)sum->rx_pkts / send_s : 0.0;
}

void
wr_mesh_congestion(const struct wr_mesh_counts *c, struct wr_mesh_congestion *g)
{
	memset(g, 0, sizeof(*g));
	g->uncongested_sent_pkts = c->sent[0][3];
	g->uncongested_lost_pkts = wr_mesh_lost(c, 0, 3);
	g->congested_sent_pkts = c->sent[0][2] + c->sent[1][2];
	g->congested_lost_pkts = wr_mesh_lost(c, 0, 2) + wr_mesh_lost(c, 1, 2);
	g->refused_pkts = c->tx_refused[0] + c->tx_refused[1];
	g->hol_blocking = g->uncongested_lost_pkts > 0;
	g->back_pressure = g->congested_lost_pkts == 0 && g->refused_pkts > 0;
}

bool
wr_mesh_pass(const struct wr_mesh_plan *p, const struct wr_mesh_counts *c)
{
	unsigned int s, i;

	for (s = 0; s < p->nb_ports; s++) {
		for (i = 0; i < p->nb_dst[s]; i++) {
			if (c->sent[s][p->dst[s][i]] == 0 ||
					wr_mesh_lost(c, s, p->dst[s][i]) != 0)
				return false;
		}
	}
	return true;
}
