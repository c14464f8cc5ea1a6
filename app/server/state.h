/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The control socket's state (docs/api.md): JSON-RPC 2.0, one request per
 * line, on a UNIX stream socket. One thread (control.c) accepts clients
 * and answers them (control_methods.c, control_tcp.c); the main lcore runs
 * the runs (serve.c, or the one run of a plain command line) and hands
 * each run to the controller while it lives (watch: run/run.h), so that
 * status, update and stop reach it. Every file of the server reads this
 * struct; its functions each have their module's header.
 */
#ifndef WR_APP_STATE_H
#define WR_APP_STATE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "config/config.h"
#include "run/run.h"
#include "setup/run.h"
#include "peer.h"

struct app_leases;

/*
 * Most clients connected at once on each socket (UNIX, TCP: slots apart);
 * one more on it is told so and closed.
 */
#define APP_CTL_MAX_CLIENTS 16

enum app_ctl_state {
	APP_CTL_IDLE = 0,  /* no run asked for yet */
	APP_CTL_QUEUED,    /* asked for, the main lcore has not taken it */
	APP_CTL_RUNNING,   /* set-up, trials, results */
	APP_CTL_DONE,      /* the last run ended; its result is kept */
	APP_CTL_FAILED,    /* the last run failed (exit code not 0) */
};

/*
 * Shared by the control thread and the main lcore; every field below
 * lock is read and written under it.
 */
struct app_ctl {
	const struct wr_config *base; /* each run starts from these options */
	uint64_t caller;              /* the connection whose request is served
	                               * now (control thread; ctl_client) */
	json_t *caller_id;            /* and that request's id (NULL: none) */
	bool serve;                   /* wirerate serve: start and shutdown */
	int listen_fd;
	int tcp_fd;                   /* --control-listen, or -1 */
	char token[256];              /* --control-token's secret */
	size_t token_len;
	int wake_fd[2];               /* a byte on [1] ends the control thread */
	pthread_t thread;
	bool started;                 /* the thread runs */
	volatile int *stop;           /* non-zero: end the run's trial now;
	                               * the stats core polls it unlocked */
	/* What app_run_all() tells (set by app_ctl_open): keep, the ports
	 * kept up between runs by serve (main lcore; counters atomic), or
	 * NULL; ports_lock held over set-up and close; the live run. */
	struct app_run_watch watch;

	/* Held by the main lcore while it sets ports up or closes them (a
	 * run's set-up and close: watch.ports_hold); the ports method
	 * reads ethdev only when it can take it. */
	pthread_mutex_t ports_lock;

	/* Held over one method call (control_methods.c) but the peer_*
	 * ones, which wait: the control thread and the web page's threads
	 * (--web, app/web) call the methods one at a time. */
	pthread_mutex_t call_lock;

	pthread_mutex_t lock;
	pthread_cond_t cond;          /* signalled on next and shutdown */
	enum app_ctl_state state;
	uint64_t run_id;              /* runs asked for; the last one's id */
	struct wr_config *next;       /* the run asked for, until taken */
	char next_cmdline[1024];      /* what its result records as the
	                               * command line: the start request */
	struct wr_run *run;           /* the live run, NULL between runs */
	uint64_t start_ms;            /* CLOCK_MONOTONIC when it was taken */
	json_t *result;               /* the last run's document, or NULL */
	int exit_code;                /* the last run's exit code */
	bool shutdown;                /* asked to end: no more runs */
	struct app_peer peer;         /* a sender's far end (peer.h) */
	struct app_leases *leases;    /* serve: the port leases (leases.h) */
	uint64_t run_lease_id;        /* the lease the last run started under, 0 */
	uint64_t run_ports;           /* the ports it uses (base/lease.h mask) */
};

#endif /* WR_APP_STATE_H */
