/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * wirerate serve [EAL options] -- --control PATH [options]: EAL comes up
 * once; runs start on request through the control socket (control.c,
 * docs/api.md), one at a time, each from the server's options plus the
 * request's. Ports come up with the first run that uses them and stay up
 * (setup/portkeep.h): a later run whose port configuration differs sets
 * them up again, and its result's port notes say why. Ends on the shutdown
 * method, SIGINT or SIGTERM: exit 0, or 1 when EAL or the socket failed.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/exitcode.h"
#include "run/run.h"
#include "start/cmdline.h"
#include "start/eal.h"
#include "start/parse.h"
#include "web/web.h"
#include "stats/telemetry.h"
#include "clock.h"
#include "control.h"
#include "peer.h"
#include "serve.h"

static volatile int serve_signals;  /* int: sig_atomic_t on Linux */
static volatile int run_stop;       /* the run's stop flag (app_ctl.stop) */

/* A signal ends the run in progress and then the server. */
static void
on_signal(int sig)
{
	(void)sig;
	serve_signals = 1;
	run_stop = 1;
}

/* The usage, naming the program wirerate, not argv[0] (the man page). */
static int
usage(void)
{
	printf("Usage: wirerate serve [EAL options] -- --control PATH [options]\n"
		"\nBring EAL and the ports up once and run on request: JSON-RPC\n"
		"2.0 requests, one per line, on the UNIX socket PATH (mode 0600):\n"
		"ports, start, status, update, stop, result, shutdown; port\n"
		"leases: acquire, renew, release, leases (docs/lab-sharing.md;\n"
		"--lease-log FILE: their audit log); and\n"
		"peer_open, peer_trial, peer_end, peer_close for a sender's\n"
		"--peer (docs/api.md, docs/twoended.md). The options after -- are those of a run (wirerate\n"
		"--help): each run starts from them, then applies the options of\n"
		"its start request. A port stays up between runs and is set up\n"
		"again when a run needs it otherwise (queues, descriptors, MTU).\n"
		"With --web [ADDR:]PORT (and --control-token) a web page too, on\n"
		"127.0.0.1 unless ADDR is given (docs/web.md).\n\n"
		"  -h, --help\n"
		"  --version  wirerate's and DPDK's versions\n\n"
		"Exit status: 0 shut down as asked, 1 EAL or the socket failed,\n"
		"2 bad usage or input.\n");
	return APP_EXIT_OK;
}

/*
 * Wait for a run asked for; NULL once shutdown is asked (or a signal).
 * *peer: it is a two-ended session's (peer.h), not a run's.
 */
static struct wr_config *
next_run(struct app_ctl *c, char *cmdline, size_t len, bool *peer)
{
	struct wr_config *cfg = NULL;

	pthread_mutex_lock(&c->lock);
	*peer = false;
	while (c->next == NULL && c->peer.op != APP_PEER_OPEN && !c->shutdown &&
			serve_signals == 0)
		app_ctl_wait_100ms(&c->cond, &c->lock);
	if (!c->shutdown && serve_signals == 0 && c->next == NULL) {
		/* peer_open: the session's options, the op left to it. */
		cfg = c->peer.cfg;
		c->peer.cfg = NULL;
		*peer = true;
	} else if (!c->shutdown && serve_signals == 0) {
		cfg = c->next;
		c->next = NULL;
		snprintf(cmdline, len, "%s", c->next_cmdline);
		c->state = APP_CTL_RUNNING;
		c->start_ms = app_ctl_now_ms();
	}
	pthread_mutex_unlock(&c->lock);
	return cfg;
}

/* The runs, one after another, until shutdown. */
static void
serve_runs(struct app_ctl *c)
{
	static char cmdline[sizeof(c->next_cmdline)];
	struct wr_config *cfg;
	json_t *doc;
	int code;

	bool peer;

	while ((cfg = next_run(c, cmdline, sizeof(cmdline), &peer)) != NULL) {
		if (peer) {
			pthread_mutex_lock(&c->lock);
			c->peer.op = APP_PEER_NONE;
			pthread_mutex_unlock(&c->lock);
			app_peer_serve(c, cfg, &serve_signals);
			continue;
		}
		doc = NULL;
		code = app_run_all(cfg, cmdline, c->stop, &doc, &c->watch);
		fflush(stdout);
		pthread_mutex_lock(&c->lock);
		json_decref(c->result);
		c->result = doc;
		c->exit_code = code;
		c->state = code == APP_EXIT_OK ? APP_CTL_DONE : APP_CTL_FAILED;
		pthread_mutex_unlock(&c->lock);
		free(cfg);
	}
}

/* --web: the page, its calls through the control socket's methods. */
static int
start_web(struct app_ctl *c, const struct wr_config *cfg, struct app_web **web)
{
	const struct app_web_ops ops = {
		.call = app_ctl_call_shared, .ctx = c,
		.token = c->token, .token_len = c->token_len,
	};
	int rc = app_web_start(web, cfg, &ops);

	if (rc == 0 && *web != NULL)
		printf("wirerate: web page on http://%s%s%s:%u/\n",
			strchr(cfg->web_addr, ':') != NULL ? "[" : "", cfg->web_addr,
			strchr(cfg->web_addr, ':') != NULL ? "]" : "", cfg->web_port);
	return rc;
}

/* EAL up, the socket open, runs until shutdown, everything undone. */
static int
serve(int argc, char **argv, const struct wr_config *cfg)
{
	static struct app_ctl c;
	static struct wr_portkeep keep;
	struct app_web *web = NULL;
	int n, rc;

	memset(&c, 0, sizeof(c));
	memset(&keep, 0, sizeof(keep));
	c.watch.keep = &keep;
	c.base = cfg;
	c.serve = true;
	c.stop = &run_stop;
	app_peer_init(&c.peer);
	app_signals_install(on_signal);
	argv = app_eal_argv(&argc, argv);
	n = app_eal_init(argc, argv, &rc);
	if (n < 0)
		return rc;
	app_eal_note_files();
	if (wr_telemetry_register() != 0)
		fprintf(stderr, "wirerate: warning: /wirerate/ telemetry commands "
			"not registered\n");
	rc = app_ctl_open(&c, cfg);
	if (rc == 0)
		rc = start_web(&c, cfg, &web);
	if (rc == 0) {
		printf("wirerate: serving on %s\n", cfg->control_path);
		fflush(stdout);
		serve_runs(&c);
	}
	app_web_stop(web);
	app_ctl_close(&c, cfg->control_path);
	json_decref(c.result);
	free(c.next);
	wr_portkeep_release(&keep);
	app_eal_cleanup();
	return rc;
}

int
app_serve_main(int argc, char **argv)
{
	static struct wr_config cfg;
	int dd, rc;

	if (argc == 2 && (strcmp(argv[1], "--help") == 0 ||
			strcmp(argv[1], "-h") == 0))
		return usage();
	if (app_cmdline_check(argc, argv, &dd) != 0)
		return APP_EXIT_USAGE;
	rc = app_parse_before_eal(argc, argv, dd, &cfg);
	if (rc != APP_RUN)
		return rc;
	if (cfg.control_path[0] == '\0') {
		fprintf(stderr, "wirerate: error: serve: --control PATH is missing "
			"(after --: wirerate serve [EAL options] -- --control PATH)\n");
		return APP_EXIT_USAGE;
	}
	return serve(argc, argv, &cfg);
}
