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

#include "datapath/capture.h"
#include "base/errmsg.h"
#include "run.h"

bool
wr_run_lat_valid(const struct wr_run *run, bool sender_in_run)
{
	switch (run->cfg->lat_mode) {
	case WR_LAT_TSC: return true;
	case WR_LAT_OFF: return false;
	default: return sender_in_run;
	}
}

/* A TSC that ticks at a constant rate in every state: stamps compare. */
static bool
tsc_invariant(void)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[4096];
	bool ok = false;

	if (f == NULL)
		return false;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (strncmp(line, "flags", 5) != 0)
			continue;
		ok = strstr(line, " constant_tsc") != NULL &&
			strstr(line, " nonstop_tsc") != NULL;
		break;
	}
	fclose(f);
	return ok;
}

/* Drivers whose reported link speed is a label, not a measurement. */
bool
wr_run_speed_is_label(const struct wr_port *p)
{
	static const char *const virt[] = {
		"net_vmxnet3", "net_e1000_em", "net_virtio", "net_virtio_user",
		"net_vhost", "net_ring", "net_null", "net_memif", "net_tap",
		"net_af_packet", "net_af_xdp", "net_pcap",
	};
	unsigned int i;

	for (i = 0; i < RTE_DIM(virt); i++)
		if (strcmp(p->driver, virt[i]) == 0)
			return true;
	return false;
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
check_mask(uint64_t mask, const char *opt, char *err, size_t el)
{
	unsigned int p;

	for (p = 0; p < WR_MAX_PORTS; p++)
		if ((mask & (1ULL << p)) && !rte_eth_dev_is_valid_port((uint16_t)p))
			return wr_err(-EINVAL, err, el, "--%s: port %u does not exist "
				"(%u port%s probed; add --vdev or bind a NIC)", opt, p,
				rte_eth_dev_count_avail(),
				rte_eth_dev_count_avail() == 1 ? "" : "s");
	return 0;
}

/* Probe every port that has a role in this run. */
static int
probe_ports(struct wr_run *run, char *err, size_t el)
{
	const struct wr_config *cfg = run->cfg;
	uint64_t all = 0, txm, rxm;
	uint16_t pid;
	int rc;

	RTE_ETH_FOREACH_DEV(pid)
		if (pid < WR_MAX_PORTS)
			all |= 1ULL << pid;
	if (all == 0)
		return wr_err(-EINVAL, err, el, "no ports: give EAL a --vdev (e.g. "
			"--vdev net_null0) or bind a NIC to vfio-pci/uio");
	rc = check_mask(cfg->tx_port_mask, "tx-ports", err, el);
	if (rc == 0)
		rc = check_mask(cfg->rx_port_mask, "rx-ports", err, el);
	if (rc != 0)
		return rc;
	rxm = cfg->rx_ports_set ? cfg->rx_port_mask : all;
	/* A reflector transmits on its RX ports (paired queues), nowhere else. */
	txm = cfg->reflect ? rxm : cfg->tx_ports_set ? cfg->tx_port_mask : all;
	for (pid = 0; pid < WR_MAX_PORTS; pid++) {
		bool tx = (txm >> pid) & 1, rx = (rxm >> pid) & 1;

		if (!tx && !rx)
			continue;
		rc = wr_port_probe(&run->ports[run->nb_ports], pid, tx, rx, cfg, err, el);
		if (rc != 0)
			return rc;
		run->nb_ports++;
	}
	return 0;
}

/* Peers follow testpmd's paired topology: 0-1, 2-3; a last odd port loops. */
static const struct wr_port *
peer_of(const struct wr_run *run, unsigned int i)
{
	unsigned int j = (i % 2 == 0) ? i + 1 : i - 1;

	return j < run->nb_ports ? &run->ports[j] : &run->ports[i];
}

static int
make_plan(struct wr_run *run, char *err, size_t el)
{
	struct wr_plan_port pp[WR_MAX_PORTS];
	struct wr_plan_lcore lc[WR_PLAN_MAX_WORKERS];
	unsigned int i, nb_lc = 0, lcore;

	for (i = 0; i < run->nb_ports; i++) {
		pp[i].port_id = run->ports[i].port_id;
		pp[i].socket = run->ports[i].socket;
		/* Reflecting workers own RX queues; the paired TX queue follows. */
		pp[i].nb_txq = run->ports[i].tx && !run->cfg->reflect ?
			run->ports[i].nb_txq : 0;
		pp[i].nb_rxq = run->ports[i].rx ? run->ports[i].nb_rxq : 0;
	}
	RTE_LCORE_FOREACH_WORKER(lcore) {
		if (nb_lc == WR_PLAN_MAX_WORKERS)
			break;
		lc[nb_lc].id = lcore;
		lc[nb_lc].socket = (int)rte_lcore_to_socket_id(lcore);
		nb_lc++;
	}
	if (run->cfg->nb_maps > 0)
		return wr_plan_from_maps(run->cfg->maps, run->cfg->nb_maps, pp,
			run->nb_ports, lc, nb_lc, &run->plan, err, el);
	return wr_plan_auto(pp, run->nb_ports, lc, nb_lc, &run->plan, err, el);
}

static int
setup_ports(struct wr_run *run, char *err, size_t el)
{
	unsigned int i;
	int rc;

	for (i = 0; i < run->nb_ports; i++) {
		run->ports[i].peer = peer_of(run, i)->port_id;
		rc = wr_port_setup(&run->ports[i], run->cfg, err, el);
		if (rc != 0)
			return rc == -EINVAL ? -EIO : rc;
	}
	for (i = 0; i < run->nb_ports; i++)
		wr_port_wait_link(&run->ports[i], run->cfg->link_timeout_ms);
	return 0;
}

unsigned int
wr_run_port_index(const struct wr_run *run, uint16_t port_id)
{
	unsigned int i;

	for (i = 0; i < run->nb_ports; i++)
		if (run->ports[i].port_id == port_id)
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

static struct wr_txq *
make_txq(struct wr_run *run, const struct wr_qref *r, int socket)
{
	unsigned int pi = wr_run_port_index(run, r->port);
	struct wr_txq *q = rte_zmalloc_socket("wr_txq", sizeof(*q),
		RTE_CACHE_LINE_SIZE, socket);

	if (q == NULL)
		return NULL;
	q->port = r->port;
	q->queue = r->queue;
	q->pidx = (uint16_t)pi;
	q->burst_pkts = run->cfg->burst_pkts;
	q->sport_base = run->cfg->src_udp;
	q->nb_flows = run->cfg->nb_flows;
	q->limit_pkts = UINT64_MAX;
	q->stamp = run->cfg->stamp;
	wr_txq_reset(q);
	run->q.tx[run->q.nb_tx++] = q;
	return q;
}

static struct wr_rxq *
make_rxq(struct wr_run *run, const struct wr_qref *r, int socket)
{
	unsigned int pi = wr_run_port_index(run, r->port);
	struct wr_rxq *q = rte_zmalloc_socket("wr_rxq", sizeof(*q),
		RTE_CACHE_LINE_SIZE, socket);

	if (q == NULL)
		return NULL;
	q->port = r->port;
	q->queue = r->queue;
	q->pidx = (uint16_t)pi;
	q->burst_pkts = run->cfg->burst_pkts;
	wr_rxq_reset(q);
	run->q.rx[run->q.nb_rx++] = q;
	return q;
}

static int
make_worker(struct wr_run *run, const struct wr_plan_worker *pw,
		struct wr_worker **out, char *err, size_t el)
{
	int socket = pw->socket < 0 ? SOCKET_ID_ANY : pw->socket;
	struct wr_worker *w = rte_zmalloc_socket("wr_worker", sizeof(*w),
		RTE_CACHE_LINE_SIZE, socket);
	uint16_t i;

	*out = w;
	if (w == NULL)
		return wr_err(-ENOMEM, err, el, "no memory for lcore %u", pw->lcore);
	w->lcore = pw->lcore;
	w->mode = run->cfg->reflect ? WR_WORKER_REFLECT : WR_WORKER_GEN;
	w->ctl = &run->ctl;
	for (i = 0; i < pw->nb_tx; i++) {
		w->tx[i] = make_txq(run, &pw->tx[i], socket);
		if (w->tx[i] == NULL)
			return wr_err(-ENOMEM, err, el, "no memory for the queues of "
				"lcore %u", pw->lcore);
		w->nb_tx++;
	}
	for (i = 0; i < pw->nb_rx; i++) {
		w->rx[i] = make_rxq(run, &pw->rx[i], socket);
		if (w->rx[i] == NULL)
			return wr_err(-ENOMEM, err, el, "no memory for the queues of "
				"lcore %u", pw->lcore);
		w->nb_rx++;
	}
	return 0;
}

static int
make_workers(struct wr_run *run, char *err, size_t el)
{
	unsigned int i;
	int rc;

	for (i = 0; i < run->plan.nb_workers; i++) {
		rc = make_worker(run, &run->plan.w[i], &run->workers[i], err, el);
		if (rc != 0)
			return rc;
	}
	qsort(run->q.tx, run->q.nb_tx, sizeof(run->q.tx[0]), txq_cmp);
	qsort(run->q.rx, run->q.nb_rx, sizeof(run->q.rx[0]), rxq_cmp);
	return 0;
}

/* --capture: a copy pool for the run, a capture state per RX queue. */
static int
capture_setup(struct wr_run *run, char *err, size_t el)
{
	unsigned int i, n = run->q.nb_rx;
	struct wr_rxq *rq;

	if (run->cfg->capture.path[0] == '\0')
		return 0;
	run->cap = wr_capture_create(&run->cfg->capture, n, run->cfg->frame_size);
	if (run->cap == NULL)
		return wr_err(-ENOMEM, err, el, "--capture: no memory for the copy pool "
			"(%u RX queues): %s", n, rte_strerror(rte_errno));
	WR_RUN_FOREACH_RXQ(run, i, rq) {
		rq->cap = wr_capture_queue(run->cap, rq->port, rq->queue,
			run->ports[rq->pidx].socket);
		if (rq->cap == NULL)
			return wr_err(-ENOMEM, err, el, "--capture: no memory for "
				"port %u RX queue %u: %s", rq->port, rq->queue,
				rte_strerror(rte_errno));
	}
	return 0;
}

/* Put the --impair fixture in front of every RX queue of the run. */
static int
impair_install(struct wr_run *run, char *err, size_t el)
{
	unsigned int i;
	struct wr_rxq *rq;

	if (!wr_impair_active(&run->cfg->impair))
		return 0;
	WR_RUN_FOREACH_RXQ(run, i, rq) {
		rq->impair = rte_zmalloc("wr_impair", sizeof(*rq->impair),
			RTE_CACHE_LINE_SIZE);
		if (rq->impair == NULL)
			return wr_err(-ENOMEM, err, el, "no memory for --impair");
		rq->impair->spec = run->cfg->impair;
		rq->impair_cb = rte_eth_add_rx_callback(rq->port, rq->queue,
			wr_impair_rx, rq->impair);
		if (rq->impair_cb == NULL)
			return wr_err(-ENOTSUP, err, el, "--impair: port %u queue "
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
alloc_series(struct wr_run *run, char *err, size_t el)
{
	size_t n = run->nb_ports;

	run->last = calloc(n, sizeof(*run->last));
	run->nic = calloc(n, sizeof(*run->nic));
	run->total = calloc(n, sizeof(*run->total));
	if (run->last == NULL || run->nic == NULL || run->total == NULL)
		return wr_err(-ENOMEM, err, el, "no memory for counters");
	return 0;
}

int
wr_setup_create(const struct wr_config *cfg, const char *cmdline,
		struct wr_run **out, char *err, size_t errlen)
{
	struct wr_run *run = calloc(1, sizeof(*run));
	int rc;

	*out = NULL;
	if (run == NULL)
		return wr_err(-ENOMEM, err, errlen, "no memory for the run");
	run->cfg = cfg;
	run->tsc_hz = rte_get_tsc_hz();
	if (cfg->lat_mode == WR_LAT_TSC && !tsc_invariant()) {
		free(run);
		return wr_err(-EINVAL, err, errlen, "--latency tsc: this CPU's TSC is "
			"not invariant (no constant_tsc and nonstop_tsc flags), so "
			"another process's TX stamps cannot be compared; use auto");
	}
	snprintf(run->cmdline, sizeof(run->cmdline), "%s", cmdline);
	rc = cfg->nb_ring_pairs == 0 ? 0 : wr_port_make_ring_pairs(
		cfg->nb_ring_pairs, RTE_MAX(cfg->nb_txq, cfg->nb_rxq), err, errlen);
	if (rc == 0)
		rc = probe_ports(run, err, errlen);
	if (rc == 0)
		rc = make_plan(run, err, errlen);
	if (rc == 0)
		rc = alloc_series(run, err, errlen);
	if (rc == 0)
		rc = setup_ports(run, err, errlen);
	if (rc == 0)
		rc = make_workers(run, err, errlen);
	if (rc == 0)
		rc = capture_setup(run, err, errlen);
	if (rc == 0)
		rc = impair_install(run, err, errlen);
	if (rc != 0) {
		wr_setup_destroy(run);
		return rc;
	}
	*out = run;
	return 0;
}


bool
wr_run_rate_check(const struct wr_run *run, unsigned int p,
		struct wr_rate_check *out)
{
	const struct wr_port_counters *c = &run->total[p];
	double dur = wr_run_seconds(run, run->start_tsc, run->tx_stop_tsc);
	const struct wr_txq *tq;
	unsigned int i;

	memset(out, 0, sizeof(*out));
	if (run->ports[p].rate_pps <= 0.0)
		return false;
	WR_RUN_FOREACH_TXQ_OF(run, p, i, tq) {
		out->clamped_pkts += tq->pace.nb_clamped_pkts;
		out->backlog_pkts += wr_pace_backlog_pkts(&tq->pace);
	}
	out->requested_pps = run->ports[p].rate_pps;
	out->achieved_pps = dur > 0 ? (double)c->tx_pkts / dur : 0.0;
	out->shortfall_pct = 100.0 * (1.0 - out->achieved_pps / out->requested_pps);
	if (out->shortfall_pct < 0)
		out->shortfall_pct = 0;
	out->reached = out->shortfall_pct <= WR_RUN_RATE_TOLERANCE_PCT &&
		out->clamped_pkts == 0;
	if (out->reached)
		return true;
	if (c->tx_full_pkts != 0)
		out->reason = "TX ring full: the port did not take frames as fast";
	else if (c->tx_alloc_fail != 0)
		out->reason = "mempool empty: frames not back from the port in time";
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
	return run->q.nb_tx > 0;
}


void
wr_setup_close(struct wr_run *run)
{
	unsigned int i;

	if (run->closed)
		return;
	run->closed = true;
	impair_remove(run);
	for (i = 0; i < run->nb_ports; i++)
		wr_port_close(&run->ports[i]);
	/* Frames in a ring pair nobody read are ours to return. */
	run->nb_stranded_pkts = wr_port_drain_ring_pairs(run->cfg->nb_ring_pairs,
		RTE_MAX(run->cfg->nb_txq, run->cfg->nb_rxq));
	run->mbufs_missing = 0;
	for (i = 0; i < run->nb_ports; i++)
		run->mbufs_missing += wr_port_mbufs_missing(&run->ports[i]);
	wr_xcheck_mbufs(&run->xcheck, run->mbufs_missing);
}

void
wr_setup_destroy(struct wr_run *run)
{
	unsigned int i;

	if (run == NULL)
		return;
	wr_setup_close(run);
	wr_capture_destroy(run->cap);
	for (i = 0; i < run->plan.nb_workers; i++)
		rte_free(run->workers[i]);
	for (i = 0; i < run->q.nb_tx; i++)
		rte_free(run->q.tx[i]);
	for (i = 0; i < run->q.nb_rx; i++) {
		rte_free(run->q.rx[i]->impair);
		rte_free(run->q.rx[i]);
	}
	for (i = 0; i < run->nb_ports; i++)
		wr_port_teardown(&run->ports[i]);
	free(run->streams);
	free(run->lat_prev);
	free(run->last);
	free(run->nic);
	free(run->total);
	free(run);
}
