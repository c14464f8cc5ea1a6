/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A run's life around its trials: create (the set-up of setup/run.c plus
 * the stats core's CPU tracking), start the workers, stop them (TX first,
 * RX drained for the grace period, final counters), close and destroy.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <rte_cycles.h>
#include <rte_launch.h>
#include <rte_lcore.h>

#include "base/error.h"
#include "datapath/capture.h"
#include "results/series.h"
#include "setup/svc.h"
#include "stats/collect.h"
#include "stats/cputrack.h"
#include "stats/rxclock.h"
#include "stats/telemetry.h"
#include "connrun.h"
#include "trial.h"

int
wr_run_create(const struct wr_config *cfg, const char *cmdline,
		struct wr_portkeep *keep, struct wr_run **out, struct wr_error *err)
{
	int rc = wr_setup_create(cfg, cmdline, keep, out, err);

	if (rc != 0)
		return rc;
	(*out)->live.cpu = wr_cpu_track_create(*out);
	if ((*out)->live.cpu == NULL) {
		wr_setup_destroy(*out);
		*out = NULL;
		return wr_err_env(err, -ENOMEM, "no memory for CPU counters");
	}
	return 0;
}

int
wr_run_start(struct wr_run *run, struct wr_error *err)
{
	unsigned int i;
	int rc;

	wr_collect_ports(run, run->live.last);
	run->live.start_tsc = rte_rdtsc();
	for (i = 0; i < run->setup.nb_ports; i++)
		wr_link_watch_start(&run->live.link[i],
			wr_collect_link_up(run->setup.ports[i].port_id), run->live.start_tsc);
	run->live.last_tsc = run->live.start_tsc;
	run->live.nic_read_tsc = run->live.start_tsc;
	for (i = 0; i < run->setup.plan.nb_workers; i++) {
		rc = rte_eal_remote_launch(wr_worker_main, run->setup.workers[i],
			run->setup.workers[i]->lcore);
		if (rc != 0) {
			wr_run_stop(run, WR_STOP_ERROR);
			return wr_err_env(err, -EBUSY, "lcore %u is busy: cannot "
				"launch its worker", run->setup.workers[i]->lcore);
		}
		__atomic_store_n(&run->live.launched, true, __ATOMIC_RELEASE);
	}
	wr_telemetry_publish(run, NULL, WR_SNAP_RUNNING);
	return 0;
}

/*
 * Let RX drain: poll until the grace ends, or earlier once nothing arrived
 * for 50 ms and at least as many own frames came in as were sent. Without
 * that second condition a path that delivers late in bulk looks finished:
 * QEMU's e1000 model holds what it receives for 1 s after every RCTL write
 * (port start, promiscuous mode) and then delivers it all at once.
 */
static void
grace(struct wr_run *run)
{
	uint64_t ms_tsc = run->setup.tsc_hz / 1000;
	uint64_t start = rte_rdtsc(), quiet_since = start, last, own;
	uint64_t now, cur;
	uint64_t quiet = RTE_MIN(run->setup.cfg->grace_ms, (uint64_t)50);

	/* TX only: frames in flight go to a peer in another process or host,
	 * which may still be reading them from a shared ring; linger. */
	if (run->setup.q.nb_rx == 0) {
		rte_delay_us_sleep((unsigned int)RTE_MIN(run->setup.cfg->grace_ms,
			60000u) * 1000u);
		return;
	}
	wr_collect_rx_seen(run, &last, &own);
	for (;;) {
		rte_delay_us_sleep(5000);
		wr_svc_poll(run, false);
		now = rte_rdtsc();
		wr_collect_rx_seen(run, &cur, &own);
		if (cur != last) {
			last = cur;
			quiet_since = now;
		}
		if (now - start >= run->setup.cfg->grace_ms * ms_tsc)
			break;
		if (now - quiet_since >= quiet * ms_tsc && own >= wr_collect_tx_sent(run))
			break;
	}
}

void
wr_run_stop(struct wr_run *run, enum wr_stop_reason why)
{
	unsigned int i;

	if (run->live.stopped)
		return;
	/* The controller reads it (live.c): no update from now on. */
	__atomic_store_n(&run->live.stopped, true, __ATOMIC_RELEASE);
	run->res.stop_reason = why;
	run->live.tx_stop_tsc = rte_rdtsc();
	run->live.ctl.tx_stop_tsc = run->live.tx_stop_tsc;
	__atomic_store_n(&run->live.ctl.tx_stop, 1, __ATOMIC_RELEASE);
	wr_telemetry_publish(run, NULL, WR_SNAP_STOPPING);
	/* A connection run's grace is its drain, before the stop (its
	 * engines open nothing new and the open ones end: connrun.h). */
	if (run->live.launched && run->setup.cfg->grace_ms > 0 &&
			!wr_run_is_conn(run))
		grace(run);
	__atomic_store_n(&run->live.ctl.rx_stop, 1, __ATOMIC_RELEASE);
	for (i = 0; i < run->setup.plan.nb_workers; i++)
		rte_eal_wait_lcore(run->setup.workers[i]->lcore);
	run->live.end_tsc = rte_rdtsc();
	wr_svc_stopped(run);
	wr_capture_drain(run->setup.cap);
	/* Stopped by silence: the measured window ends at the clock's last
	 * frame (own, unless --rx-clock any); foreign frames after it are
	 * counted, not timed. */
	if (why == WR_STOP_IDLE && wr_rxclock_last_tsc(run) > run->live.start_tsc)
		run->live.tx_stop_tsc = wr_rxclock_last_tsc(run);
	wr_collect_final(run);
	wr_telemetry_publish(run, NULL, WR_SNAP_DONE);
}

static bool
any_link_up(const struct wr_run *run)
{
	unsigned int i;

	for (i = 0; i < run->setup.nb_ports; i++)
		if (wr_collect_link_up(run->setup.ports[i].port_id))
			return true;
	return false;
}

bool
wr_run_linger(struct wr_run *run, const volatile int *signals)
{
	uint64_t start = rte_rdtsc();
	uint64_t span = run->setup.cfg->linger_ms * (run->setup.tsc_hz / 1000);

	if (run->setup.cfg->linger_ms == 0 || run->res.closed)
		return false;
	while (any_link_up(run)) {
		if (rte_rdtsc() - start >= span || *signals != 0)
			return false;
		rte_delay_us_sleep(10000);
	}
	return true;
}

void
wr_run_close(struct wr_run *run)
{
	if (run->live.launched && !run->live.stopped && !run->res.closed)
		wr_run_stop(run, WR_STOP_ERROR);
	wr_setup_close(run);
}

void
wr_run_destroy(struct wr_run *run)
{
	if (run == NULL)
		return;
	wr_run_close(run);
	wr_collect_free_series(run);
	wr_series_close(run);
	wr_cpu_track_free(run->live.cpu);
	wr_setup_destroy(run);
}
