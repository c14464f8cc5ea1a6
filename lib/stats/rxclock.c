/* SPDX-License-Identifier: BSD-3-Clause */
#include <rte_cycles.h>

#include "base/counter.h"
#include "rxclock.h"
#include "setup/svc.h"

#define WAIT_TICK_US 10000u

/* The earliest first arrival (first) or the latest last one; 0: none. */
static uint64_t
rx_tsc(const struct wr_run *run, bool first)
{
	uint64_t out = 0, t;
	const struct wr_rxq *rq;
	unsigned int i;

	WR_RUN_FOREACH_RXQ(run, i, rq) {
		t = wr_counter_read(first ? &rq->st.first_tsc : &rq->st.last_tsc);
		if (t != 0 && (out == 0 || (first ? t < out : t > out)))
			out = t;
	}
	return out;
}

uint64_t
wr_rxclock_first_tsc(const struct wr_run *run)
{
	return rx_tsc(run, true);
}

uint64_t
wr_rxclock_last_tsc(const struct wr_run *run)
{
	return rx_tsc(run, false);
}

bool
wr_rxclock_started(struct wr_run *run)
{
	uint64_t first;

	if (!run->setup.cfg->start_on_rx || run->live.rx_clock_started)
		return true;
	first = wr_rxclock_first_tsc(run);
	if (first == 0)
		return false;
	run->live.start_tsc = first;
	run->live.last_tsc = first;
	run->live.rx_clock_started = true;
	return true;
}

bool
wr_rxclock_wait(struct wr_run *run, const volatile int *signals)
{
	while (!wr_rxclock_started(run)) {
		if (signals != NULL && *signals != 0)
			return false;
		rte_delay_us_sleep(WAIT_TICK_US);
		wr_svc_poll(run, false);  /* the responder answers meanwhile */
	}
	return true;
}

bool
wr_rxclock_idle(const struct wr_run *run, uint64_t now_tsc)
{
	uint64_t last;

	if (run->setup.cfg->idle_timeout_ms == 0)
		return false;
	last = wr_rxclock_last_tsc(run);
	/* A worker may stamp a burst after the caller read its clock. */
	if (last == 0 || last >= now_tsc)
		return false;
	return now_tsc - last >= run->setup.cfg->idle_timeout_ms * (run->setup.tsc_hz / 1000);
}
