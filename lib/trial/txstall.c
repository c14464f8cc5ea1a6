/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A TX port that makes no progress (setup/run.h, WR_RUN_TX_STALL_S): read
 * at the stats core's interval from the counters the tick just took, never
 * on the workers' path.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "connrun.h"
#include "txstall.h"

/* Frames port index p's --count asks for; 0 when it has no count or has
 * sent all of it (nothing left to wait for). */
static uint64_t
count_left(const struct wr_run *run, unsigned int p)
{
	const struct wr_txq *q;
	uint64_t asked = 0;
	unsigned int i;
	bool left = false;

	WR_RUN_FOREACH_TXQ_OF(run, p, i, q) {
		if (q->limit_pkts == UINT64_MAX)
			return 0;
		asked += q->limit_pkts;
		if (__atomic_load_n(&q->done, __ATOMIC_RELAXED) == 0)
			left = true;
	}
	return left ? asked : 0;
}

/* What usually keeps a peer of this driver from taking frames. */
static const char *
likely_cause(const struct wr_port *port, bool link_up)
{
	if (!link_up)
		return "its link is down: the peer never came up or left";
	if (strncmp(port->driver, "net_vhost", 9) == 0)
		return "the virtio peer has no RX buffer the frame fits (virtio-user "
			"with mrg_rxbuf=0 and a smaller --size, a guest without "
			"mergeable buffers) or does not read its queue";
	if (strncmp(port->driver, "net_virtio_user", 15) == 0)
		return "the vhost peer does not read its queue";
	if (strncmp(port->driver, "net_memif", 9) == 0)
		return "no memif peer reads the ring";
	return "the peer takes no frame (a full ring nobody reads, buffers "
		"smaller than the frame)";
}

static void
stall_hit(struct wr_run *run, unsigned int p, uint64_t asked, uint64_t now)
{
	const struct wr_port_counters *c = &run->res.total[p];
	const struct wr_port *port = &run->setup.ports[p];
	struct wr_tx_stall *s = &run->res.tx_stall;
	bool up = run->live.link[p].up;

	s->hit = true;
	s->pidx = p;
	s->sent = c->tx_pkts;
	s->asked = asked;
	s->refused = c->tx_full_pkts;
	s->quiet_s = wr_run_seconds(run, run->live.txw[p].since_tsc, now);
	snprintf(s->reason, sizeof(s->reason), "port %u (%s) sent no frame for "
		"%.1f s (%" PRIu64 " of %" PRIu64 " sent) while its PMD refused "
		"every one offered (%" PRIu64 " TX refused; link %s): %s; %u-byte "
		"frames", port->port_id, port->driver, s->quiet_s, s->sent, asked,
		s->refused, up ? "up" : "down", likely_cause(port, up),
		run->live.trial.frame_size);
}

bool
wr_run_tx_stalled(struct wr_run *run, uint64_t now)
{
	uint64_t limit = (uint64_t)WR_RUN_TX_STALL_S * run->setup.tsc_hz;
	const struct wr_port_counters *c;
	struct wr_tx_watch *w;
	uint64_t held = __atomic_load_n(&run->live.ctl.tx_held, __ATOMIC_RELAXED);
	uint64_t asked;
	unsigned int p;

	/* A trial with a --duration ends by itself; a connection run's
	 * engines hold refused frames (connrun.h). */
	if (run->live.trial.duration_ms != 0 || run->live.trial.count_only ||
			wr_run_is_conn(run))
		return false;
	for (p = 0; p < run->setup.nb_ports; p++) {
		if (!run->setup.ports[p].tx)
			continue;
		c = &run->res.total[p];
		w = &run->live.txw[p];
		asked = count_left(run, p);
		/* The trial's start: counters at 0 (trial.c's reset). */
		if (w->since_tsc == 0)
			w->since_tsc = run->live.start_tsc;
		/* Progress: a frame sent; or nothing left to send, or TX held
		 * by the controller (live.c). */
		if (asked == 0 || c->tx_pkts != w->sent || (held >> p & 1) != 0) {
			w->sent = c->tx_pkts;
			w->refused = c->tx_full_pkts;
			w->since_tsc = now;
			continue;
		}
		/* None sent since, and the PMD refused frames meanwhile (a
		 * worker off its CPU for a reading is no progress either). */
		if (now - w->since_tsc >= limit && c->tx_full_pkts != w->refused) {
			stall_hit(run, p, asked, now);
			return true;
		}
	}
	return false;
}
