/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "rfc2889_frame.h"
#include "rfc2889_io.h"
#include "rfc2889_rx.h"

#define IO_BURST 32u
/* A port that takes no frame for this long has failed. */
#define IO_STUCK_S 1.0

/* Counts of one trial while it runs, and its receivers. */
struct io_count {
	const struct wr_r2889_io *io;
	struct wr_rfc2889_counts *c;
	uint64_t *learn_flooded;
	struct wr_r2889_rx rx;
};

/* Count one received frame of port role r (wr_r2889_count_fn). */
static void
count_frame(void *arg, unsigned int r, const struct rte_mbuf *m, uint64_t now)
{
	struct io_count *k = arg;
	struct wr_r2889_tag t;

	(void)now;
	if (m->nb_segs != 1 || !wr_r2889_parse(rte_pktmbuf_mtod(m, const uint8_t *),
			rte_pktmbuf_data_len(m), &t) || t.trial != k->io->trial)
		return;
	if (t.kind == WR_R2889_TEST && r == WR_R2889_PLEARN)
		k->c->test_rx_pkts++;
	else if (t.kind == WR_R2889_TEST && r == WR_R2889_PMON)
		k->c->flooded_pkts++;
	else if (t.kind == WR_R2889_LEARN && r == WR_R2889_PMON)
		(*k->learn_flooded)++;
}

/* The receivers of io's three ports, counting into k (NULL: drop). */
static void
rx_of(const struct wr_r2889_io *io, struct io_count *k, struct wr_r2889_rx *rx)
{
	*rx = (struct wr_r2889_rx){ .nb_ports = WR_R2889_NB_PORTS,
		.port_id = io->port_id, .nb_rxq = io->nb_rxq, .tsc_hz = io->tsc_hz,
		.signals = io->signals, .count = k != NULL ? count_frame : NULL,
		.arg = k };
}

void
wr_r2889_io_drain(const struct wr_r2889_io *io)
{
	struct wr_r2889_rx rx;

	rx_of(io, NULL, &rx);
	wr_r2889_rx_drain(&rx);
}

/* Frame i of phase kind into m. Returns m, or NULL (no mbuf). */
static struct rte_mbuf *
make_frame(const struct wr_r2889_io *io, const struct wr_r2889_send *s,
		enum wr_r2889_kind kind, uint32_t i)
{
	struct wr_r2889_tag t = { .kind = kind, .trial = io->trial, .idx = i };
	struct rte_mbuf *m = rte_pktmbuf_alloc(io->pool);
	uint8_t addr[WR_ADDR_MAC_LEN];
	uint8_t *p;

	if (m == NULL)
		return NULL;
	p = (uint8_t *)rte_pktmbuf_append(m, WR_R2889_FRAME_LEN);
	wr_addr_plan_mac(s->plan, i, addr);
	if (kind == WR_R2889_LEARN)
		wr_r2889_frame(p, io->mac[WR_R2889_PTEST], addr, &t);
	else
		wr_r2889_frame(p, addr, io->mac[WR_R2889_PTEST], &t);
	return m;
}

/* Fill b with the frames due by now from *next on (at most IO_BURST). */
static unsigned int
due_frames(const struct wr_r2889_io *io, const struct wr_r2889_send *s,
		enum wr_r2889_kind kind, uint32_t next, uint32_t due,
		struct rte_mbuf **b)
{
	unsigned int n = 0;

	while (next + n < due && n < IO_BURST) {
		b[n] = make_frame(io, s, kind, next + n);
		if (b[n] == NULL)
			break;
		n++;
	}
	return n;
}

/*
 * Send the nb frames of phase kind from port role r at pps, polling the
 * receivers between bursts. Returns 0, -EINTR or -EIO.
 */
static int
send_phase(const struct wr_r2889_io *io, const struct wr_r2889_send *s,
		enum wr_r2889_kind kind, double pps, struct io_count *k,
		uint64_t *sent, struct wr_error *err)
{
	unsigned int r = kind == WR_R2889_LEARN ? WR_R2889_PLEARN : WR_R2889_PTEST;
	double per_pkt = (double)io->tsc_hz / pps;
	uint64_t t0 = rte_rdtsc(), last = t0, now;
	struct rte_mbuf *b[IO_BURST];
	uint32_t next = 0, due;
	unsigned int n, tx;

	while (next < s->nb) {
		if (io->signals != NULL && *io->signals != 0)
			return -EINTR;
		now = rte_rdtsc();
		due = (uint32_t)RTE_MIN((double)s->nb, (double)(now - t0) / per_pkt + 1);
		n = due_frames(io, s, kind, next, due, b);
		tx = n ? rte_eth_tx_burst(io->port_id[r], 0, b, (uint16_t)n) : 0;
		if (tx < n)
			rte_pktmbuf_free_bulk(&b[tx], n - tx);
		next += tx;
		*sent += tx;
		if (tx > 0 || n == 0)
			last = now;
		else if ((double)(now - last) > IO_STUCK_S * (double)io->tsc_hz)
			return wr_err_fail(err, -EIO, "address trial: port %u took no "
				"frame for %.0f s (%u of %u sent)", io->port_id[r],
				IO_STUCK_S, next, s->nb);
		wr_r2889_rx_poll(&k->rx);
	}
	return 0;
}

int
wr_r2889_io_trial(const struct wr_r2889_io *io,
		const struct wr_r2889_send *s, struct wr_rfc2889_counts *c,
		uint64_t *learn_flooded, struct wr_error *err)
{
	struct io_count k = { .io = io, .c = c, .learn_flooded = learn_flooded };
	int rc;

	rx_of(io, &k, &k.rx);
	memset(c, 0, sizeof(*c));
	*learn_flooded = 0;
	rc = send_phase(io, s, WR_R2889_LEARN, s->learn_pps, &k,
		&c->learn_sent_pkts, err);
	if (rc == 0)
		rc = wr_r2889_rx_settle(&k.rx, s->settle_ms);
	if (rc == 0)
		rc = send_phase(io, s, WR_R2889_TEST, s->test_pps, &k,
			&c->test_sent_pkts, err);
	if (rc == 0)
		rc = wr_r2889_rx_settle(&k.rx, s->settle_ms);
	return rc;
}
