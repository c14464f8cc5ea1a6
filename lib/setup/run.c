/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_malloc.h>

#include "base/cpuinfo.h"
#include "base/driver.h"
#include "base/error.h"
#include "datapath/capture.h"
#include "portkeep.h"
#include "replay_setup.h"
#include "resolve.h"
#include "svc.h"
#include "clockread.h"
#include "ringpair.h"
#include "connsetup.h"
#include "run.h"

bool
wr_run_lat_on(const struct wr_run *run)
{
	return run->setup.cfg->lat_mode != WR_LAT_OFF &&
		run->setup.cfg->stamp == WR_STAMP_FULL;
}

bool
wr_run_lat_valid(const struct wr_run *run, bool sender_in_run)
{
	if (!wr_run_lat_on(run))
		return false;
	switch (run->setup.cfg->lat_mode) {
	case WR_LAT_TSC: return true;
	case WR_LAT_SYNC: return true;
	case WR_LAT_OFF: return false;
	default: return sender_in_run;
	}
}

bool
wr_run_lat_possible(const struct wr_run *run)
{
	return wr_run_lat_on(run) &&
		(run->setup.cfg->lat_mode == WR_LAT_TSC ||
		run->setup.cfg->lat_mode == WR_LAT_SYNC || run->setup.q.nb_tx > 0);
}

/* Drivers whose reported link speed is a label, not a measurement. */
bool
wr_run_speed_is_label(const struct wr_port *p)
{
	return wr_driver_speed_is_label(p->driver);
}

bool
wr_run_port_no_wire(const struct wr_port *p)
{
	return wr_driver_no_wire(p->driver);
}

const char *
wr_run_stop_name(enum wr_stop_reason why)
{
	switch (why) {
	case WR_STOP_DURATION: return "duration";
	case WR_STOP_COUNT: return "count";
	case WR_STOP_SIGNAL: return "signal";
	case WR_STOP_ERROR: return "error";
	case WR_STOP_IDLE: return "idle";
	default: return "none";
	}
}

/* Check that every port named in mask exists. */
static int
check_mask(uint64_t mask, const char *opt, struct wr_error *err)
{
	unsigned int p;

	for (p = 0; p < WR_MAX_PORTS; p++)
		if ((mask & (1ULL << p)) && !rte_eth_dev_is_valid_port((uint16_t)p))
			return wr_err_usage(err, -EINVAL, "--%s: port %u does not exist "
				"(%u port%s probed; add --vdev or bind a NIC)", opt, p,
				rte_eth_dev_count_avail(),
				rte_eth_dev_count_avail() == 1 ? "" : "s");
	return 0;
}

/* Probe every port that has a role in this run. */
static int
probe_ports(struct wr_run *run, struct wr_error *err)
{
	const struct wr_config *cfg = run->setup.cfg;
	uint64_t all = 0, txm, rxm;
	uint16_t pid;
	int rc;

	RTE_ETH_FOREACH_DEV(pid)
		if (pid < WR_MAX_PORTS)
			all |= 1ULL << pid;
	if (all == 0)
		return wr_err_usage(err, -EINVAL, "no ports: give EAL a --vdev (e.g. "
			"--vdev net_null0) or bind a NIC to vfio-pci/uio");
	rc = check_mask(cfg->tx_port_mask, "tx-ports", err);
	if (rc == 0)
		rc = check_mask(cfg->rx_port_mask, "rx-ports", err);
	if (rc != 0)
		return rc;
	rxm = cfg->rx_ports_set ? cfg->rx_port_mask : all;
	/* A reflector transmits on its RX ports (paired queues), nowhere else. */
	txm = cfg->reflect ? rxm : cfg->tx_ports_set ? cfg->tx_port_mask : all;
	for (pid = 0; pid < WR_MAX_PORTS; pid++) {
		bool tx = (txm >> pid) & 1, rx = (rxm >> pid) & 1;

		if (!tx && !rx)
			continue;
		rc = wr_port_probe(&run->setup.ports[run->setup.nb_ports], pid, tx, rx, cfg, err);
		if (rc != 0)
			return rc;
		run->setup.nb_ports++;
	}
	return 0;
}

/* Peers follow testpmd's paired topology: 0-1, 2-3; a last odd port loops. */
static const struct wr_port *
peer_of(const struct wr_run *run, unsigned int i)
{
	unsigned int j = (i % 2 == 0) ? i + 1 : i - 1;

	return j < run->setup.nb_ports ? &run->setup.ports[j] : &run->setup.ports[i];
}

static int
make_plan(struct wr_run *run, struct wr_error *err)
{
	struct wr_plan_port pp[WR_MAX_PORTS];
	struct wr_plan_lcore lc[WR_PLAN_MAX_WORKERS];
	unsigned int i, nb_lc = 0, lcore;
	int rc;

	for (i = 0; i < run->setup.nb_ports; i++) {
		pp[i].port_id = run->setup.ports[i].port_id;
		pp[i].socket = run->setup.ports[i].socket;
		/* Reflecting workers own RX queues; the paired TX queue follows. */
		pp[i].nb_txq = run->setup.ports[i].tx && !run->setup.cfg->reflect ?
			run->setup.ports[i].nb_txq : 0;
		pp[i].nb_rxq = run->setup.ports[i].rx ? run->setup.ports[i].nb_rxq : 0;
	}
	RTE_LCORE_FOREACH_WORKER(lcore) {
		if (nb_lc == WR_PLAN_MAX_WORKERS)
			break;
		lc[nb_lc].id = lcore;
		lc[nb_lc].socket = (int)rte_lcore_to_socket_id(lcore);
		nb_lc++;
	}
	rc = run->setup.cfg->nb_maps > 0 ?
		wr_plan_from_maps(run->setup.cfg->maps, run->setup.cfg->nb_maps, pp,
			run->setup.nb_ports, lc, nb_lc, &run->setup.plan, err) :
		wr_plan_auto(pp, run->setup.nb_ports, lc, nb_lc, &run->setup.plan, err);
	/* A connection's two directions on one lcore (connsetup.h). */
	if (rc == 0 && run->setup.cfg->conn.cfg.role != 0)
		rc = wr_plan_pair(&run->setup.plan, err);
	return rc;
}

static int
setup_ports(struct wr_run *run, struct wr_error *err)
{
	unsigned int i;
	int rc;

	for (i = 0; i < run->setup.nb_ports; i++) {
		run->setup.ports[i].peer = peer_of(run, i)->port_id;
		rc = wr_portkeep_setup(run->setup.keep, &run->setup.ports[i],
			run->setup.cfg, err);
		if (rc != 0)
			return rc;
	}
	for (i = 0; i < run->setup.nb_ports; i++)
		wr_port_wait_link(&run->setup.ports[i], run->setup.cfg->link_timeout_ms);
	return 0;
}

unsigned int
wr_run_port_index(const struct wr_run *run, uint16_t port_id)
{
	unsigned int i;

	for (i = 0; i < run->setup.nb_ports; i++)
		if (run->setup.ports[i].port_id == port_id)
			break;
	return i;
}

/* Registry order (run.h): run port index, then queue id. */
static int
qkey_cmp(int pa, int qa, int pb, int qb)
{
	return pa != pb ? pa - pb : qa - qb;
}

static int
txq_cmp(const void *a, const void *b)
{
	const struct wr_txq *x = *(const struct wr_txq *const *)a;
	const struct wr_txq *y = *(const struct wr_txq *const *)b;

	return qkey_cmp(x->pidx, x->queue, y->pidx, y->queue);
}

static int
rxq_cmp(const void *a, const void *b)
{
	const struct wr_rxq *x = *(const struct wr_rxq *const *)a;
	const struct wr_rxq *y = *(const struct wr_rxq *const *)b;

	return qkey_cmp(x->pidx, x->queue, y->pidx, y->queue);
}

/* Zeroed memory for a queue on socket, cache-line aligned. */
static void *
queue_alloc(const char *name, size_t size, int socket)
{
	return rte_zmalloc_socket(name, size, RTE_CACHE_LINE_SIZE, socket);
}

static struct wr_txq *
make_txq(struct wr_run *run, const struct wr_qref *r, int socket)
{
	struct wr_txq *q = queue_alloc("wr_txq", sizeof(*q), socket);

	if (q == NULL)
		return NULL;
	q->port = r->port;
	q->queue = r->queue;
	q->pidx = (uint16_t)wr_run_port_index(run, r->port);
	q->burst_pkts = run->setup.cfg->burst_pkts;
	q->sport_base = run->setup.cfg->src_udp;
	q->nb_flows = run->setup.cfg->nb_flows;
	q->limit_pkts = UINT64_MAX;
	q->stamp = run->setup.cfg->stamp;
	wr_txq_reset(q);
	run->setup.q.tx[run->setup.q.nb_tx++] = q;
	return q;
}

static struct wr_rxq *
make_rxq(struct wr_run *run, const struct wr_qref *r, int socket)
{
	struct wr_rxq *q = queue_alloc("wr_rxq", sizeof(*q), socket);

	if (q == NULL)
		return NULL;
	wr_rxq_reset(q);
	q->burst_pkts = run->setup.cfg->burst_pkts;
	q->pidx = (uint16_t)wr_run_port_index(run, r->port);
	q->queue = r->queue;
	q->port = r->port;
	run->setup.q.rx[run->setup.q.nb_rx++] = q;
	return q;
}

static int
make_worker(struct wr_run *run, const struct wr_plan_worker *pw,
		struct wr_worker **out, struct wr_error *err)
{
	int socket = pw->socket < 0 ? SOCKET_ID_ANY : pw->socket;
	struct wr_worker *w = rte_zmalloc_socket("wr_worker", sizeof(*w),
		RTE_CACHE_LINE_SIZE, socket);
	uint16_t i;

	*out = w;
	if (w == NULL)
		return wr_err_env(err, -ENOMEM, "no memory for lcore %u", pw->lcore);
	w->lcore = pw->lcore;
	w->mode = run->setup.cfg->reflect ? WR_WORKER_REFLECT : WR_WORKER_GEN;
	w->ctl = &run->live.ctl;
	for (i = 0; i < pw->nb_tx; i++) {
		w->tx[i] = make_txq(run, &pw->tx[i], socket);
		if (w->tx[i] == NULL)
			return wr_err_env(err, -ENOMEM, "no memory for the queues of "
				"lcore %u", pw->lcore);
		w->nb_tx++;
	}
	for (i = 0; i < pw->nb_rx; i++) {
		w->rx[i] = make_rxq(run, &pw->rx[i], socket);
		if (w->rx[i] == NULL)
			return wr_err_env(err, -ENOMEM, "no memory for the queues of "
				"lcore %u", pw->lcore);
		w->nb_rx++;
	}
	return 0;
}

static int
make_workers(struct wr_run *run, struct wr_error *err)
{
	unsigned int i;
	int rc;

	for (i = 0; i < run->setup.plan.nb_workers; i++) {
		rc = make_worker(run, &run->setup.plan.w[i], &run->setup.workers[i], err);
		if (rc != 0)
			return rc;
	}
	qsort(run->setup.q.tx, run->setup.q.nb_tx, sizeof(run->setup.q.tx[0]), txq_cmp);
	qsort(run->setup.q.rx, run->setup.q.nb_rx, sizeof(run->setup.q.rx[0]), rxq_cmp);
	for (i = 0; i < run->setup.q.nb_rx; i++) {
		struct wr_rxq *rq = run->setup.q.rx[i];

		rq->count_lat = wr_run_lat_possible(run);
		rq->clock_any = run->setup.cfg->rx_clock == WR_RX_CLOCK_ANY;
	}
	return 0;
}

/* --capture: a copy pool for the run, a capture state per RX queue. */
static int
capture_setup(struct wr_run *run, struct wr_error *err)
{
	unsigned int i, n = run->setup.q.nb_rx;
	struct wr_rxq *rq;

	if (run->setup.cfg->capture.path[0] == '\0')
		return 0;
	run->setup.cap = wr_capture_create(&run->setup.cfg->capture, n, run->setup.cfg->frame_size);
	if (run->setup.cap == NULL)
		return wr_err_env(err, -ENOMEM, "--capture: no memory for the copy pool "
			"(%u RX queues): %s", n, rte_strerror(rte_errno));
	WR_RUN_FOREACH_RXQ(run, i, rq) {
		rq->cap = wr_capture_queue(run->setup.cap, rq->port, rq->queue,
			run->setup.ports[rq->pidx].socket);
		if (rq->cap == NULL)
			return wr_err_env(err, -ENOMEM, "--capture: no memory for "
				"port %u RX queue %u: %s", rq->port, rq->queue,
				rte_strerror(rte_errno));
	}
	return 0;
}

/* Put the --impair fixture in front of every RX queue of the run. */
static int
impair_install(struct wr_run *run, struct wr_error *err)
{
	unsigned int i;
	struct wr_rxq *rq;

	if (!wr_impair_active(&run->setup.cfg->impair))
		return 0;
	WR_RUN_FOREACH_RXQ(run, i, rq) {
		rq->impair = rte_zmalloc("wr_impair", sizeof(*rq->impair),
			RTE_CACHE_LINE_SIZE);
		if (rq->impair == NULL)
			return wr_err_env(err, -ENOMEM, "no memory for --impair");
		rq->impair->spec = run->setup.cfg->impair;
		rq->impair_cb = rte_eth_add_rx_callback(rq->port, rq->queue,
			wr_impair_rx, rq->impair);
		if (rq->impair_cb == NULL)
			return wr_err_env(err, -ENOTSUP, "--impair: port %u queue "
				"%u: RX callbacks unavailable: %s", rq->port, rq->queue,
				rte_strerror(rte_errno));
	}
	return 0;
}

/* After the workers returned: detach the fixture, free what it held. */
static void
impair_remove(struct wr_run *run)
{
	unsigned int i;
	struct wr_rxq *rq;

	WR_RUN_FOREACH_RXQ(run, i, rq) {
		if (rq->impair_cb != NULL) {
			rte_eth_remove_rx_callback(rq->port, rq->queue, rq->impair_cb);
			rte_free((void *)(uintptr_t)rq->impair_cb);
			rq->impair_cb = NULL;
		}
		if (rq->impair != NULL)
			wr_impair_flush(rq->impair);
	}
}

static int
alloc_series(struct wr_run *run, struct wr_error *err)
{
	size_t n = run->setup.nb_ports;

	run->live.last = calloc(n, sizeof(*run->live.last));
	run->live.nic = calloc(n, sizeof(*run->live.nic));
	run->res.total = calloc(n, sizeof(*run->res.total));
	if (run->live.last == NULL || run->live.nic == NULL || run->res.total == NULL)
		return wr_err_env(err, -ENOMEM, "no memory for counters");
	return 0;
}

int
wr_setup_create(const struct wr_config *cfg, const char *cmdline,
		struct wr_portkeep *keep, struct wr_run **out, struct wr_error *err)
{
	struct wr_run *run = calloc(1, sizeof(*run));
	int rc;

	*out = NULL;
	if (run == NULL)
		return wr_err_env(err, -ENOMEM, "no memory for the run");
	run->setup.cfg = cfg;
	run->setup.keep = keep;
	run->setup.tsc_hz = rte_get_tsc_hz();
	if ((cfg->lat_mode == WR_LAT_TSC || cfg->lat_mode == WR_LAT_SYNC) &&
			!wr_cpuinfo_has_flags(WR_CPUINFO_PATH, "constant_tsc nonstop_tsc")) {
		free(run);
		return wr_err_usage(err, -EINVAL, "--latency %s: this CPU's TSC is "
			"not invariant (no constant_tsc and nonstop_tsc flags), so "
			"another process's TX stamps cannot be compared; use auto",
			cfg->lat_mode == WR_LAT_TSC ? "tsc" : "sync");
	}
	snprintf(run->setup.cmdline, sizeof(run->setup.cmdline), "%s", cmdline);
	/* Before the ports: the daemon's tool runs while nothing polls. */
	wr_clockread(cfg, &run->setup.clock);
	wr_clock_anchor(&run->setup.anchor0);
	rc = wr_portkeep_ring_pairs(keep, cfg, err);
	if (rc == 0)
		rc = probe_ports(run, err);
	if (rc == 0)
		rc = make_plan(run, err);
	if (rc == 0)
		rc = alloc_series(run, err);
	if (rc == 0)
		rc = setup_ports(run, err);
	if (rc == 0)
		rc = wr_resolve_run(run, err);
	if (rc == 0)
		rc = make_workers(run, err);
	if (rc == 0)
		rc = wr_svc_setup(run, err);
	if (rc == 0)
		rc = wr_connsetup(run, err);
	if (rc == 0)
		rc = wr_replay_setup(run, err);
	if (rc == 0)
		rc = capture_setup(run, err);
	if (rc == 0)
		rc = impair_install(run, err);
	if (rc != 0) {
		wr_setup_destroy(run);
		return rc;
	}
	*out = run;
	return 0;
}

/*
 * The kernel's side of the TX loop of the worker sending on port index p
 * that it took the most from: the loop time it did not give the thread
 * (span less CPU time, 0 when it got it all) and the time it spent in the
 * thread's context. Both come from that one worker. Over all the port's
 * workers: their voluntary context switches, and the longest time one
 * slept in a call (off its CPU, not waiting on a run queue).
 */
static void
port_kernel_s(const struct wr_run *run, unsigned int p,
		struct wr_rate_check *out)
{
	unsigned int i, j;
	double off, sys, runq, slept;

	for (i = 0; i < run->setup.plan.nb_workers; i++) {
		const struct wr_worker *w = run->setup.workers[i];
		uint64_t rq = wr_counter_read(&w->st.loop_runq_ns);

		for (j = 0; j < w->nb_tx && w->tx[j]->pidx != p; j++)
			;
		if (j == w->nb_tx)
			continue;
		off = wr_run_seconds(run, 0, wr_counter_read(&w->st.loop_tsc)) -
			(double)wr_counter_read(&w->st.loop_cpu_ns) * 1e-9;
		off = off > 0.0 ? off : 0.0;
		sys = (double)wr_counter_read(&w->st.loop_sys_ns) * 1e-9;
		runq = rq == UINT64_MAX ? 0.0 : (double)rq * 1e-9;
		slept = off > runq ? off - runq : 0.0;
		out->nb_blocked += wr_counter_read(&w->st.loop_nvcsw);
		if (slept > out->slept_s)
			out->slept_s = slept;
		if (off + sys > out->off_cpu_s + out->in_kernel_s) {
			out->off_cpu_s = off;
			out->in_kernel_s = sys;
		}
	}
}

/*
 * The port held the worker back: it blocked in a call, and the time it
 * slept there accounts for at least half the frames the port fell short
 * by. A sleep that explains less (a page fault's) leaves the shortfall to
 * the generator.
 */
static bool
port_blocked(const struct wr_rate_check *rc, double dur)
{
	double missing = (rc->requested_pps - rc->achieved_pps) * dur;

	return rc->nb_blocked != 0 &&
		rc->slept_s * rc->requested_pps >= 0.5 * missing;
}

/* Add the pacer of one TX queue to a port's rate check. */
static void
rate_check_queue(const struct wr_run *run, const struct wr_pace *pc,
		struct wr_rate_check *out)
{
	double stall = wr_run_seconds(run, 0, pc->max_stall_tsc);
	double window = wr_run_seconds(run, 0, pc->max_step_tsc);
	double gaps = wr_run_seconds(run, 0, pc->stall_gap_tsc);

	out->clamped_pkts += pc->nb_clamped_pkts;
	out->backlog_pkts += wr_pace_backlog_pkts(pc);
	out->stall_clamped_pkts += pc->stall_clamped_pkts;
	out->nb_stalls += pc->nb_stalls;
	if (stall > out->longest_stall_s)
		out->longest_stall_s = stall;
	if (gaps > out->stalled_s)
		out->stalled_s = gaps;
	if (pc->cost != 0 && (out->catchup_s == 0.0 || window < out->catchup_s))
		out->catchup_s = window;
}

bool
wr_run_rate_check(const struct wr_run *run, unsigned int p,
		struct wr_rate_check *out)
{
	const struct wr_port_counters *c = &run->res.total[p];
	double dur = wr_run_seconds(run, run->live.start_tsc, run->live.tx_stop_tsc);
	const struct wr_txq *tq;
	unsigned int i;

	memset(out, 0, sizeof(*out));
	if (run->setup.ports[p].rate_pps <= 0.0)
		return false;
	WR_RUN_FOREACH_TXQ_OF(run, p, i, tq)
		rate_check_queue(run, &tq->pace, out);
	port_kernel_s(run, p, out);
	out->requested_pps = run->setup.ports[p].rate_pps;
	out->achieved_pps = dur > 0 ? (double)c->tx_pkts / dur : 0.0;
	out->shortfall_pct = 100.0 * (1.0 - out->achieved_pps / out->requested_pps);
	if (out->shortfall_pct < 0)
		out->shortfall_pct = 0;
	out->reached = out->shortfall_pct <= WR_RUN_RATE_TOLERANCE_PCT &&
		out->clamped_pkts == 0;
	if (out->reached)
		return true;
	out->port_blocked = port_blocked(out, dur);
	if (c->tx_full_pkts != 0)
		out->reason = "TX ring full: the port did not take frames as fast";
	else if (out->port_blocked)
		out->reason = "TX blocked: the port held the worker back "
			"(back-pressure)";
	else if (c->tx_alloc_fail != 0)
		out->reason = "mempool empty: frames not back from the port in time";
	else if (out->clamped_pkts != 0 &&
			out->stall_clamped_pkts == out->clamped_pkts)
		out->reason = "stalled: the worker was off its CPU longer than the "
			"pacer catches up";
	else if (out->clamped_pkts != 0)
		out->reason = "CPU bound: the worker could not keep up with the pacer";
	else
		out->reason = "the run ended before the rate settled";
	return true;
}

bool
wr_run_tx_done(const struct wr_run *run)
{
	const struct wr_txq *t;
	unsigned int i;

	WR_RUN_FOREACH_TXQ(run, i, t)
		if (t->limit_pkts == UINT64_MAX ||
				__atomic_load_n(&t->done, __ATOMIC_RELAXED) == 0)
			return false;
	return run->setup.q.nb_tx > 0;
}


void
wr_setup_close(struct wr_run *run)
{
	unsigned int i;

	if (run->res.closed)
		return;
	run->res.closed = true;
	impair_remove(run);
	for (i = 0; i < run->setup.nb_ports; i++)
		wr_port_close(&run->setup.ports[i]);
	/* Service frames and replies still on a ring go back to their pools. */
	wr_svc_teardown(run);
	/* Frames in a ring pair nobody read are ours to return. */
	run->res.nb_stranded_pkts = wr_port_drain_ring_pairs(run->setup.cfg->nb_ring_pairs,
		RTE_MAX(run->setup.cfg->nb_txq, run->setup.cfg->nb_rxq));
	/* Kept ports stay up when the run's TX mbufs are all back. */
	for (i = 0; i < run->setup.nb_ports; i++)
		wr_portkeep_park(run->setup.keep, &run->setup.ports[i]);
	run->res.mbufs_missing = wr_replay_release(run);
	for (i = 0; i < run->setup.nb_ports; i++)
		run->res.mbufs_missing += wr_port_mbufs_missing(&run->setup.ports[i]);
	wr_xcheck_mbufs(&run->res.xcheck, run->res.mbufs_missing);
}

void
wr_setup_destroy(struct wr_run *run)
{
	unsigned int i;

	if (run == NULL)
		return;
	wr_setup_close(run);
	wr_capture_destroy(run->setup.cap);
	wr_replay_teardown(run);
	wr_connsetup_teardown(run);
	for (i = 0; i < run->setup.plan.nb_workers; i++)
		rte_free(run->setup.workers[i]);
	for (i = 0; i < run->setup.q.nb_tx; i++)
		rte_free(run->setup.q.tx[i]);
	for (i = 0; i < run->setup.q.nb_rx; i++) {
		rte_free(run->setup.q.rx[i]->impair);
		rte_free(run->setup.q.rx[i]);
	}
	for (i = 0; i < run->setup.nb_ports; i++)
		wr_port_teardown(&run->setup.ports[i]);
	free(run->res.streams);
	free(run->live.pubread);
	free(run->live.last);
	free(run->live.nic);
	free(run->res.total);
	free(run);
}
