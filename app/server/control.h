/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The control socket (docs/api.md): JSON-RPC 2.0, one request per line,
 * on a UNIX stream socket. One thread (control.c) accepts clients and
 * answers them; the main lcore runs the runs (serve.c, or the one run of
 * a plain command line) and hands each run to the controller while it
 * lives, so that status, update and stop reach it.
 */
#ifndef WR_APP_CONTROL_H
#define WR_APP_CONTROL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "config/config.h"
#include "setup/portkeep.h"
#include "setup/run.h"

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
	struct wr_portkeep *keep;     /* serve: the ports kept up between
	                               * runs (main lcore; counters atomic) */

	/* Held by the main lcore while it sets ports up or closes them (a
	 * run's set-up and close: app_ctl_ports_hold); the ports method
	 * reads ethdev only when it can take it. */
	pthread_mutex_t ports_lock;

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
};

/*
 * Listen on cfg's --control path (mode 0600; a stale socket nobody
 * answers on is replaced) and, with --control-listen, on TCP with the
 * secret of --control-token; start the control thread. Returns 0, or
 * the exit code with a message on stderr (2: a token file others can
 * read or that is empty; 1: the machine).
 */
int app_ctl_open(struct app_ctl *c, const struct wr_config *cfg);

/*
 * Stop the control thread, close the clients and remove the socket
 * file at path. Safe after a failed open. This function can't fail.
 */
void app_ctl_close(struct app_ctl *c, const char *path);

/*
 * The main lcore's side: run (NULL once it is destroyed) is the live
 * run. This function can't fail.
 */
void app_ctl_run(struct app_ctl *c, struct wr_run *run);

/*
 * With --control-listen: read the --control-token secret and listen on
 * TCP (control_tcp.c); c->tcp_fd is -1 without. Returns 0 or the exit
 * code with a message on stderr.
 */
int app_ctl_tcp_open(struct app_ctl *c, const struct wr_config *cfg);

/* Whether params' "token" is the secret. This function can't fail. */
bool app_ctl_token_ok(const struct app_ctl *c, const json_t *params);

/* CLOCK_MONOTONIC in milliseconds (start_ms). This function can't fail. */
uint64_t app_ctl_now_ms(void);

/*
 * The main lcore's side of ports_lock: hold (true) before a run sets its
 * ports up or closes them, release (false) after. c NULL (no control
 * socket): nothing. This function can't fail.
 */
void app_ctl_ports_hold(struct app_ctl *c, bool hold);

/*
 * The methods: fill *result (a new reference) or return an enum
 * wr_rpc_code with a message in msg (len bytes). Called by the control
 * thread with c->lock not held (control_methods.c).
 */
int app_ctl_call(struct app_ctl *c, const char *method, json_t *params,
		json_t **result, char *msg, size_t len);

#endif /* WR_APP_CONTROL_H */
