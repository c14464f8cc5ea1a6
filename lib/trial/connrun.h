/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A connection run's life on the stats core (docs/tcp.md): the engines'
 * books summed over the workers, live (the copies published for the
 * interval's request) or exact once the workers returned; the drain at
 * the end (no new connection, the open ones finish); whether every
 * engine is done. app/run/connrun.c drives these between wr_run_start
 * and wr_run_stop.
 */
#ifndef WR_TRIAL_CONNRUN_H
#define WR_TRIAL_CONNRUN_H

#include <stdbool.h>

#include "conn/engine.h"
#include "setup/run.h"
#include "stats/snapshot.h"

/* Whether run is a connection run (--conn). Can't fail. */
bool wr_run_is_conn(const struct wr_run *run);

/* wr_run_conn_books (by role): stats/snapshot.h. */

/*
 * Whether every client engine made all of its starts (--conn-count:
 * attempted, or not started for want of a slot, a tuple or a TX
 * buffer, wr_conn_books_starts) and has none open, by the last
 * published books; false without a count, and for a run of servers
 * only. Stats core only.
 */
bool wr_run_conn_done(const struct wr_run *run);

/*
 * wr_run_conn_done on books published now (the workers asked for a copy
 * of their books, as an interval does), for a run whose workers are all
 * connection workers; false otherwise (a frame worker's copies are read
 * once an interval) and when a copy did not come in time. Stats core only.
 */
bool wr_run_conn_done_now(struct wr_run *run);

/* Ask every engine to open no new connection. Can't fail. */
void wr_run_conn_drain(struct wr_run *run);

/* The drain, and every engine that holds connections (--mode
 * conn-capacity) releases them. Can't fail. */
void wr_run_conn_release(struct wr_run *run);

/* Whether every drained engine has nothing open. Can't fail. */
bool wr_run_conn_idle(const struct wr_run *run);

/*
 * A rate search's next trial opens at cps connections a second on every
 * client engine (connworker.h trial_cps): call between trials, with the
 * workers stopped, before wr_run_start. Can't fail.
 */
void wr_run_conn_rate(struct wr_run *run, uint64_t cps);

/*
 * --mode conn-load's next trial keeps conc connections open at once on
 * every client engine (connworker.h trial_conc), opening them as fast as
 * that allows; every engine (a server's too) opens again after the last
 * trial's drain. As wr_run_conn_rate: between trials. Can't fail.
 */
void wr_run_conn_concurrency(struct wr_run *run, uint32_t conc);

/*
 * --mode conn-teardown: the drain, and every engine closes its held
 * connections at the trial's close rate (wr_run_conn_close_rate;
 * wr_conn_engine_teardown). Workers running. Can't fail.
 */
void wr_run_conn_teardown(struct wr_run *run);

/*
 * --mode conn-teardown's next trial closes at cps a second on every
 * client engine (connworker.h trial_close_cps): as wr_run_conn_rate,
 * between trials. Can't fail.
 */
void wr_run_conn_close_rate(struct wr_run *run, uint64_t cps);

/* How many client engines the run has. Can't fail. */
unsigned int wr_run_conn_clients(const struct wr_run *run);

/*
 * Drain (wr_run_conn_drain) and wait up to ms for every engine to have
 * nothing open, answering ARP and NS meanwhile. Returns whether all
 * ended. Stats core only, workers running.
 */
bool wr_run_conn_settle(struct wr_run *run, uint64_t ms);

/*
 * After the workers returned: frames of the connection workers that
 * were not the engines' (other), that the PMD refused (refused, freed)
 * and pool refusals. Can't fail.
 */
void wr_run_conn_port_counts(const struct wr_run *run, uint64_t *other,
		uint64_t *refused, uint64_t *alloc_fail);

#endif /* WR_TRIAL_CONNRUN_H */
