/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --mode mesh (RFC 2889 5.1 fully meshed, 5.2 partially meshed): trials
 * on every port of the run (rfc2889_meshio.h), the pattern of
 * --mesh-pattern; one trial at --mesh-rate, or the RFC 2544 throughput
 * search (search.h) over its MIN-MAX on the pass rule of 5.1.3 (no pair
 * lost a frame). Each trial recorded in the result's "rfc2889" object
 * (results/meshjson.h) and kept by the checkpoint; before each, the
 * --fdb-reset command when one is given.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_mbuf.h>

#include "modes_int.h"
#include "rfc2889_frame.h"
#include "rfc2889_meshio.h"
#include "results/fwdjson.h"
#include "results/meshjson.h"
#include "results/result.h"

/* Frames in the trials' pool: every port's bursts in flight, with room. */
#define MESH_POOL_MBUFS 16383u

/* What the trials of one run share. */
struct mesh_ctx {
	struct mode_ctx *m;
	const struct wr_rfc2889_conf *rc;
	struct wr_mesh_plan plan;
	struct wr_mesh_io io;
	struct wr_mesh_counts c;	/* the last trial's (~6 kB) */
	struct wr_fwd_max mfr;		/* 5.6: each port's, over the trials */
	double send_s;			/* the last trial's sending time */
	uint32_t size;			/* the trials' frame size, FCS included */
	json_t *obj;			/* the doc's "rfc2889" */
};

/*
 * The plan over the run's ports, each able to do its part. Returns 0 or
 * -EINVAL (usage, naming the port and --tx-ports / --rx-ports).
 */
static int
mesh_ports(struct mesh_ctx *x, struct wr_error *err)
{
	const struct wr_run *run = x->m->run;
	const struct wr_port *p;
	unsigned int i, o;
	bool rx;
	int rc;

	rc = wr_mesh_plan_make(&x->plan, x->rc->mesh_pattern, run->setup.nb_ports, err);
	for (i = 0; rc == 0 && i < x->plan.nb_ports; i++) {
		p = &run->setup.ports[i];
		for (o = 0, rx = false; o < x->plan.nb_ports; o++)
			rx |= wr_mesh_pair(&x->plan, o, i);
		if ((x->plan.nb_dst[i] && !p->tx) || (rx && !p->rx))
			return wr_err_usage(err, -EINVAL, "--mode mesh "
				"--mesh-pattern %s: port %u must %s (see --tx-ports, "
				"--rx-ports)", wr_mesh_pattern_name(x->rc->mesh_pattern),
				i, x->plan.nb_dst[i] && !p->tx ? "send" : "receive");
		x->io.port_id[i] = p->port_id;
		x->io.nb_rxq[i] = p->nb_rxq;
		memcpy(x->io.mac[i], p->mac.addr_bytes, WR_ADDR_MAC_LEN);
	}
	x->io.plan = &x->plan;
	return rc;
}

/*
 * One trial at pps per sending port: reset (when asked), send, count,
 * record. Returns 0, -EINTR or a negative errno; *fwd_pps is the
 * forwarding rate in all.
 */
static int
trial(struct mesh_ctx *x, double pps, bool *pass, double *fwd_pps)
{
	struct mode_ctx *m = x->m;
	const struct wr_config *cfg = m->run->setup.cfg;
	struct wr_mesh_send s = { .pps = pps, .ms = cfg->trial_ms,
		.settle_ms = x->rc->settle_ms };
	struct wr_mesh_trial_rec rec = { .plan = &x->plan, .c = &x->c,
		.offered_pps = pps, .tsc_hz = (double)m->run->setup.tsc_hz,
		.frame_size = x->size,
		.congestion = x->rc->mesh_pattern == WR_MESH_CONGESTION };
	double hz = (double)m->run->setup.tsc_hz;
	uint64_t t0 = rte_rdtsc(), rx = 0;
	struct wr_trial t;
	unsigned int s_, d;
	int rc;

	wr_mode_trial_at(x->size, pps, cfg->trial_ms, &t);
	wr_mode_progress_trial(m, "mesh", &t);
	if (x->rc->reset_cmd[0] != '\0') {
		rc = wr_mode_fdb_reset(x->rc->reset_cmd, m->err);
		if (rc != 0)
			return rc;
	}
	rec.reset_s = (double)(rte_rdtsc() - t0) / hz;
	wr_mesh_io_drain(&x->io);
	x->io.trial++;
	rc = wr_mesh_io_trial(&x->io, &s, &x->c, m->err);
	if (rc == -EINTR)
		return wr_err_fail(m->err, -EINTR, "stopped by a signal");
	if (rc != 0)
		return rc;
	*pass = wr_mesh_pass(&x->plan, &x->c);
	rec.pass = *pass;
	rec.send_s = (double)x->c.send_tsc / hz;
	x->send_s = rec.send_s;
	for (s_ = 0; s_ < x->plan.nb_ports; s_++)
		for (d = 0; d < x->plan.nb_ports; d++)
			rx += x->c.rx[s_][d];
	*fwd_pps = rec.send_s > 0 ? (double)rx / rec.send_s : 0.0;
	wr_fwd_max_add(&x->mfr, &x->plan, &x->c, rec.send_s, pps);
	wr_mesh_trial_json(x->obj, &rec);
	/* A crash from now on loses no finished trial (docs/results.md). */
	wr_result_checkpoint_keep(m->run, m->doc);
	return 0;
}

/* The throughput search over --mesh-rate MIN-MAX (5.1.3 pass rule). */
static int
search(struct mesh_ctx *x, struct wr_mesh_found *f)
{
	const struct wr_config *cfg = x->m->run->setup.cfg;
	struct wr_search_conf sc = { .max_pps = x->rc->mesh_max_pps,
		.min_pps = x->rc->mesh_min_pps, .res_rel = cfg->resolution_pct / 100.0,
		.max_trials = cfg->max_trials };
	struct wr_search_result r;
	struct wr_search s;
	double pps, fwd;
	bool pass;
	int ret = wr_search_init(&s, &sc);

	f->search = true;
	while (ret == 0 && wr_search_next(&s, &pps) == WR_SEARCH_TRIAL) {
		x->m->size_left = wr_mode_search_left(&s);
		snprintf(x->m->prog.phase, sizeof(x->m->prog.phase), "%.0f pps", pps);
		ret = trial(x, pps, &pass, &fwd);
		/* A trial that failed counts as lossy: at least one frame. */
		if (ret == 0)
			ret = wr_search_report(&s, pps, 1, pass ? 0 : 1);
		if (ret == 0 && pass && pps > f->throughput_pps) {
			f->throughput_pps = pps;
			f->fwd_pps = fwd;
		}
	}
	if (wr_search_result(&s, &r) == 0) {
		f->found = r.ndr_found;
		f->converged = r.converged;
		f->at_max = r.ndr_found && r.ndr_pps >= x->rc->mesh_max_pps;
		f->throughput_pps = r.ndr_found ? r.ndr_pps : 0.0;
		f->fail_pps = f->at_max ? 0 : r.ndr_upper_pps;
	}
	return ret;
}

/*
 * 5.6's forward pressure: one trial at the 88-bit gap's rate of the
 * declared link, judged against the 96-bit gap's rate; run again (up to
 * WR_FWD_PRESS_TRIES in all) while the senders themselves fell under the
 * legal rate (a busy host), every trial recorded. Returns as trial.
 */
static int
pressure(struct mesh_ctx *x, struct wr_mesh_found *f)
{
	struct wr_fwd_press fp;
	unsigned int tries;
	bool pass;
	int rc;

	wr_fwd_press_init(&fp, (double)x->rc->fwd_pressure_bps, x->size);
	for (tries = 1; tries <= WR_FWD_PRESS_TRIES; tries++) {
		x->m->size_left = 1;
		snprintf(x->m->prog.phase, sizeof(x->m->prog.phase),
			"%.0f pps (88-bit gap)", fp.offered_pps);
		rc = trial(x, fp.offered_pps, &pass, &f->fwd_pps);
		if (rc != 0)
			return rc;
		wr_fwd_press_judge(&fp, &x->plan, &x->c, x->send_s);
		fp.tries = tries;
		if (fp.held)
			break;
	}
	wr_mesh_found_json(x->obj, f, x->size);
	if (wr_fwd_press_json(x->obj, &fp) != 0)
		return wr_err_env(x->m->err, -ENOMEM, "no memory");
	return 0;
}

/* The trials at one frame size and what they found. Returns as trial. */
static int
run_size(struct mesh_ctx *x)
{
	struct wr_mesh_found f = { 0 };
	bool pass;
	int rc;

	x->io.frame_len = (uint16_t)(x->size - 4);
	wr_fwd_max_init(&x->mfr, x->plan.nb_ports);
	if (x->rc->fwd_pressure_bps != 0) {
		rc = pressure(x, &f);
	} else if (x->rc->mesh_max_pps > x->rc->mesh_min_pps) {
		rc = search(x, &f);
	} else {
		x->m->size_left = 1;
		snprintf(x->m->prog.phase, sizeof(x->m->prog.phase), "%.0f pps",
			x->rc->mesh_min_pps);
		rc = trial(x, x->rc->mesh_min_pps, &pass, &f.fwd_pps);
	}
	if (rc == 0) {
		if (x->rc->fwd_pressure_bps == 0)
			wr_mesh_found_json(x->obj, &f, x->size);
		if (wr_fwd_max_json(x->obj, &x->mfr) != 0)
			return wr_err_env(x->m->err, -ENOMEM, "no memory");
		/* A crash from now on loses no finished size. */
		wr_result_checkpoint_keep(x->m->run, x->m->doc);
	}
	return rc;
}

/* The pool, the doc's object, each size's trials. Returns as trial. */
static int
run_mesh(struct mesh_ctx *x)
{
	const struct wr_config *cfg = x->m->run->setup.cfg;
	struct rte_ether_addr macs[WR_MESH_MAX_PORTS];
	unsigned int i;
	int rc = 0;

	for (i = 0; i < x->plan.nb_ports; i++)
		memcpy(macs[i].addr_bytes, x->io.mac[i], WR_ADDR_MAC_LEN);
	x->obj = wr_mesh_doc(x->m->doc, cfg, x->plan.nb_ports, macs);
	if (x->obj == NULL)
		return wr_err_env(x->m->err, -ENOMEM, "no memory");
	for (i = 0; rc == 0 && i < wr_mesh_nb_sizes(cfg); i++) {
		x->size = wr_mesh_size(cfg, i);
		wr_mode_progress_size(x->m, i + 1, x->size);
		rc = run_size(x);
	}
	return rc;
}

int
wr_mode_mesh(struct mode_ctx *m)
{
	static struct mesh_ctx x;	/* the counts are large: not on the stack */
	char name[RTE_MEMPOOL_NAMESIZE];
	int rc;

	memset(&x, 0, sizeof(x));
	x.m = m;
	x.rc = &m->run->setup.cfg->rfc2889;
	rc = mesh_ports(&x, m->err);
	if (rc != 0)
		return rc;
	snprintf(name, sizeof(name), "wrmesh_%d", (int)getpid());
	x.io.pool = rte_pktmbuf_pool_create(name, MESH_POOL_MBUFS, 256, 0,
		RTE_MBUF_DEFAULT_BUF_SIZE, (int)rte_socket_id());
	if (x.io.pool == NULL)
		return wr_err_env(m->err, -ENOMEM, "--mode mesh: no pool of %u mbufs "
			"for its frames", MESH_POOL_MBUFS);
	x.io.tsc_hz = m->run->setup.tsc_hz;
	x.io.signals = m->h->signals;
	rc = run_mesh(&x);
	wr_mesh_io_drain(&x.io);
	rte_mempool_free(x.io.pool);
	return rc;
}
