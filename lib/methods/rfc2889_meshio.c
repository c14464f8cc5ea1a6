/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "rfc2889_frame.h"
#include "rfc2889_meshio.h"
#include "rfc2889_rx.h"

#define IO_BURST 32u
/* A port that takes no frame for this long has failed. */
#define IO_STUCK_S 1.0

/* Where one sending port stands. */
struct sender {
	uint64_t total;		/* frames it sends in the trial */
	uint64_t next;		/* frames sent so far */
	uint32_t seq[WR_MESH_MAX_PORTS];	/* next number, per destination */
	uint64_t last_tsc;	/* when it last took a frame */
};

static const uint8_t bcast_mac[WR_ADDR_MAC_LEN] = { 0xff, 0xff, 0xff, 0xff,
	0xff, 0xff };

/* What counts a trial's frames (wr_r2889_count_fn's arg). */
struct mesh_count {
	const struct wr_mesh_io *io;
	struct wr_mesh_counts *c;
};

/* Count frame m received at port r at TSC now (wr_r2889_count_fn). */
static void
count_frame(void *arg, unsigned int r, const struct rte_mbuf *m, uint64_t now)
{
	const struct wr_mesh_io *io = ((struct mesh_count *)arg)->io;
	struct wr_mesh_counts *c = ((struct mesh_count *)arg)->c;
	struct wr_r2889_tag t;

	if (m->nb_segs != 1 || !wr_r2889_parse(rte_pktmbuf_mtod(m, const uint8_t *),
			rte_pktmbuf_data_len(m), &t) || t.kind != WR_R2889_MESH ||
			rte_pktmbuf_data_len(m) != io->frame_len ||
			t.trial != io->trial || t.src_port >= io->plan->nb_ports ||
			(t.dst_port >= io->plan->nb_ports &&
			!(io->plan->bcast && t.dst_port == WR_MESH_BCAST_DST))) {
		c->other_rx[r]++;
		return;
	}
	if (t.dst_port == r || (t.dst_port == WR_MESH_BCAST_DST &&
			t.src_port != r)) {
		c->rx[t.src_port][r]++;
		/* A stamp ahead of now (another host's TSC) is no latency. */
		if (now >= t.tsc)
			wr_hist_add(&c->lat[r], now - t.tsc);
	} else if (t.dst_port == WR_MESH_BCAST_DST) {
		c->other_rx[r]++;	/* its own broadcast, looped back */
	} else
		c->stray[t.src_port][t.dst_port]++;
}

/* The receivers of io's ports, counting with k (NULL: drop). */
static void
rx_of(const struct wr_mesh_io *io, struct mesh_count *k, struct wr_r2889_rx *rx)
{
	*rx = (struct wr_r2889_rx){ .nb_ports = io->plan->nb_ports,
		.port_id = io->port_id, .nb_rxq = io->nb_rxq, .tsc_hz = io->tsc_hz,
		.signals = io->signals, .count = k != NULL ? count_frame : NULL,
		.arg = k };
}

void
wr_mesh_io_drain(const struct wr_mesh_io *io)
{
	struct wr_r2889_rx rx;

	rx_of(io, NULL, &rx);
	wr_r2889_rx_drain(&rx);
}

/*
 * A frame of len bytes (at least WR_R2889_FRAME_LEN) from port s to dst
 * carrying t, zeros after the tag; NULL: no mbuf.
 */
static struct rte_mbuf *
make_frame(const struct wr_mesh_io *io, unsigned int s, const uint8_t *dst,
		const struct wr_r2889_tag *t, uint16_t len)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(io->pool);
	uint8_t *p;

	if (m == NULL)
		return NULL;
	p = (uint8_t *)rte_pktmbuf_append(m, len);
	if (p == NULL) {
		rte_pktmbuf_free(m);
		return NULL;
	}
	wr_r2889_frame(p, dst, io->mac[s], t);
	memset(p + WR_R2889_FRAME_LEN, 0, len - WR_R2889_FRAME_LEN);
	return m;
}

/* One broadcast learning frame from each port. Returns 0 or -EIO. */
static int
send_learning(const struct wr_mesh_io *io, struct wr_mesh_counts *c,
		struct wr_error *err)
{
	struct wr_r2889_tag t = { .kind = WR_R2889_LEARN, .trial = io->trial };
	struct rte_mbuf *m;
	unsigned int s;

	for (s = 0; s < io->plan->nb_ports; s++) {
		t.src_port = (uint8_t)s;
		m = make_frame(io, s, bcast_mac, &t, WR_R2889_FRAME_LEN);
		if (m == NULL || rte_eth_tx_burst(io->port_id[s], 0, &m, 1) != 1) {
			rte_pktmbuf_free(m);
			return wr_err_fail(err, -EIO, "mesh trial: port %u took no "
				"learning frame", io->port_id[s]);
		}
		c->learn_sent[s]++;
	}
	return 0;
}

/* Fill b with port s's frames due by due, from x->next on. */
static unsigned int
due_frames(const struct wr_mesh_io *io, unsigned int s, struct sender *x,
		uint64_t due, struct rte_mbuf **b)
{
	const struct wr_mesh_plan *p = io->plan;
	struct wr_r2889_tag t = { .kind = WR_R2889_MESH, .trial = io->trial,
		.src_port = (uint8_t)s };
	uint32_t seq[WR_MESH_MAX_PORTS];
	unsigned int n = 0, d;

	memcpy(seq, x->seq, sizeof(seq));
	t.tsc = rte_rdtsc();
	while (x->next + n < due && n < IO_BURST) {
		d = p->dst[s][(x->next + n) % p->nb_dst[s]];
		t.dst_port = (uint8_t)(p->bcast ? WR_MESH_BCAST_DST : d);
		t.idx = p->bcast ? (uint32_t)(x->next + n) : seq[d]++;
		b[n] = make_frame(io, s, p->bcast ? bcast_mac : io->mac[d], &t,
			io->frame_len);
		if (b[n] == NULL)
			break;
		n++;
	}
	return n;
}

/* Send port s's frames due by now. Returns 0 or -EIO. */
static int
send_due(const struct wr_mesh_io *io, unsigned int s, struct sender *x,
		uint64_t now, uint64_t t0, double per_pkt, struct wr_mesh_counts *c,
		struct wr_error *err)
{
	const struct wr_mesh_plan *p = io->plan;
	struct rte_mbuf *b[IO_BURST];
	uint64_t due = (uint64_t)((double)(now - t0) / per_pkt) + 1;
	unsigned int n, tx, i, d;

	n = due_frames(io, s, x, RTE_MIN(due, x->total), b);
	tx = n ? rte_eth_tx_burst(io->port_id[s], 0, b, (uint16_t)n) : 0;
	if (tx < n) {
		rte_pktmbuf_free_bulk(&b[tx], n - tx);
		c->tx_refused[s] += n - tx;
	}
	for (i = 0; i < tx && p->bcast; i++)	/* each frame to every one */
		for (d = 0; d < p->nb_dst[s]; d++)
			c->sent[s][p->dst[s][d]]++;
	for (i = 0; i < tx && !p->bcast; i++) {
		d = p->dst[s][(x->next + i) % p->nb_dst[s]];
		x->seq[d]++;
		c->sent[s][d]++;
	}
	x->next += tx;
	if (tx > 0 || n == 0)
		x->last_tsc = now;
	else if ((double)(now - x->last_tsc) > IO_STUCK_S * (double)io->tsc_hz)
		return wr_err_fail(err, -EIO, "mesh trial: port %u took no frame "
			"for %.0f s", io->port_id[s], IO_STUCK_S);
	return 0;
}

/*
 * Every port's frames at s->pps for s->ms, rx polled meanwhile. Returns
 * 0, -EINTR or -EIO.
 */
static int
send_mesh(const struct wr_mesh_io *io, const struct wr_mesh_send *s,
		const struct wr_r2889_rx *rx, struct wr_mesh_counts *c,
		struct wr_error *err)
{
	const struct wr_mesh_plan *p = io->plan;
	double per_pkt = (double)io->tsc_hz / s->pps;
	uint64_t t0 = rte_rdtsc(), now = t0;
	struct sender x[WR_MESH_MAX_PORTS];
	unsigned int i, busy;
	int rc;

	memset(x, 0, sizeof(x));
	for (i = 0; i < p->nb_ports; i++) {
		x[i].total = p->nb_dst[i] ? (uint64_t)(s->pps * (double)s->ms / 1e3 + 0.5) : 0;
		x[i].last_tsc = t0;
	}
	do {
		if (io->signals != NULL && *io->signals != 0)
			return -EINTR;
		now = rte_rdtsc();
		for (i = 0, busy = 0; i < p->nb_ports; i++) {
			if (x[i].next >= x[i].total)
				continue;
			busy++;
			rc = send_due(io, i, &x[i], now, t0, per_pkt, c, err);
			if (rc != 0)
				return rc;
		}
		wr_r2889_rx_poll(rx);
	} while (busy > 0);
	c->send_tsc = now - t0;
	return 0;
}

int
wr_mesh_io_trial(const struct wr_mesh_io *io, const struct wr_mesh_send *s,
		struct wr_mesh_counts *c, struct wr_error *err)
{
	struct mesh_count k = { .io = io, .c = c };
	struct wr_r2889_rx rx;
	int rc;

	rx_of(io, &k, &rx);
	wr_mesh_counts_init(c);
	rc = send_learning(io, c, err);
	if (rc == 0)
		rc = wr_r2889_rx_settle(&rx, s->settle_ms);
	if (rc == 0)
		rc = send_mesh(io, s, &rx, c, err);
	if (rc == 0)
		rc = wr_r2889_rx_settle(&rx, s->settle_ms);
	return rc;
}
