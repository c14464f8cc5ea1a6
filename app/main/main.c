/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * wirerate [EAL options] -- [wirerate options]
 * wirerate SUBCOMMAND ... (common/subcmds.h: each one's main)
 *
 * Owns messages and exit codes: 0 ran as asked, 1 the run failed (or the
 * machine could not do it), 2 bad usage or input. A lib/ error's class
 * picks the code, in app_exit_code (common/exitcode.c).
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>

#include "base/suggest.h"
#include "common/exitcode.h"
#include "common/subcmds.h"
#include "history/history.h"
#include "report/compare.h"
#include "report/merge.h"
#include "report/report.h"
#include "run/run.h"
#include "server/control.h"
#include "server/ctl.h"
#include "server/serve.h"
#include "start/cmdline.h"
#include "start/eal.h"
#include "start/memifwait.h"
#include "start/parse.h"
#include "start/usage.h"
#include "stats/telemetry.h"

static volatile int stop_signals;  /* int: sig_atomic_t on Linux */


/* First signal: stop cleanly. Second: leave now (results are atomic). */
static void
on_signal(int sig)
{
	(void)sig;
	if (++stop_signals >= 2) {
		app_eal_quick_cleanup();
		_exit(APP_EXIT_FAILED);
	}
}

/*
 * SIG_BLOCK or SIG_UNBLOCK SIGINT and SIGTERM in this thread. Blocked
 * while EAL starts its threads, which inherit the mask: the signals then
 * always reach the main thread, and holding them there (app_write_json)
 * holds them for the whole process.
 */
static void
mask_stop_signals(int how)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	pthread_sigmask(how, &set, NULL);
}

static void
join_cmdline(int argc, char **argv, char *buf, size_t len)
{
	size_t used = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < argc && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
			i ? " " : "", argv[i]);
}


/*
 * The run, with its --control socket when asked: status, update and stop
 * reach it from another terminal (server/control.h) while it runs.
 */
static int
run_controlled(const struct wr_config *cfg, const char *cmdline)
{
	static struct app_ctl c;
	int rc;

	if (cfg->control_path[0] == '\0')
		return app_run_all(cfg, cmdline, &stop_signals, NULL, NULL);
	memset(&c, 0, sizeof(c));
	c.base = cfg;
	c.stop = &stop_signals;
	c.state = APP_CTL_RUNNING;
	c.run_id = 1;
	rc = app_ctl_open(&c, cfg);
	if (rc == 0)
		rc = app_run_all(cfg, cmdline, &stop_signals, NULL, &c.watch);
	app_ctl_close(&c, cfg->control_path);
	return rc;
}

/* --help and --version work without EAL (no hugepages needed). */
static int
early_opts(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			app_usage(stdout, argv[0]);
			return 0;
		}
		if (strcmp(argv[i], "--version") == 0) {
			app_print_version();
			return 0;
		}
	}
	return -1;
}

/*
 * `wirerate SUBCOMMAND ...`: its main, or --version for any of them (an
 * argument "--version" before any "--"). A first word that is neither a
 * subcommand nor an option (a run starts with EAL's options or --) is
 * refused, with the closest subcommand. Returns -1 when argv[1] is an
 * option, else the exit code.
 */
static int
subcommand(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*main)(int argc, char **argv);
	} subs[] = {
#define SUB(name, summary) { #name, app_##name##_main },
		APP_SUBCMDS(SUB)
#undef SUB
	};
	unsigned int i;
	int j;

	for (i = 0; argc > 1 && i < RTE_DIM(subs); i++) {
		if (strcmp(argv[1], subs[i].name) != 0)
			continue;
		for (j = 2; j < argc && strcmp(argv[j], "--") != 0; j++) {
			if (strcmp(argv[j], "--version") == 0) {
				app_print_version();
				return APP_EXIT_OK;
			}
		}
		argv[1] = argv[0];      /* messages name the program */
		return subs[i].main(argc - 1, argv + 1);
	}
	if (argc > 1 && argv[1][0] != '-' && argv[1][0] != '\0') {
		struct wr_suggest sg;
		char list[128] = "", near[48] = "";
		size_t at = 0;

		wr_suggest_init(&sg, argv[1], strlen(argv[1]));
		for (i = 0; i < RTE_DIM(subs); i++) {
			int w = at < sizeof(list) ? snprintf(list + at, sizeof(list) - at,
				"%s%s", i == 0 ? "" : i + 1 == RTE_DIM(subs) ? " or " :
				", ", subs[i].name) : 0;

			wr_suggest_try(&sg, subs[i].name);
			at += w > 0 ? (size_t)w : 0;
		}
		if (sg.best != NULL)
			snprintf(near, sizeof(near), "; did you mean %s?", sg.best);
		return app_usage_error("wirerate", "%s: not a subcommand%s (the "
			"subcommands: %s; a run: wirerate [EAL options] -- [options])",
			argv[1], near, list);
	}
	return -1;
}

int
main(int argc, char **argv)
{
	static struct wr_config cfg;
	char cmdline[1024];
	int dd, n, rc;

	rc = subcommand(argc, argv);
	if (rc >= 0)
		return rc;
	if (early_opts(argc, argv) == 0)
		return APP_EXIT_OK;
	if (app_cmdline_check(argc, argv, &dd) != 0)
		return APP_EXIT_USAGE;
	rc = app_parse_before_eal(argc, argv, dd, &cfg);
	if (rc != APP_RUN)
		return rc;
	join_cmdline(argc, argv, cmdline, sizeof(cmdline));
	app_signals_install(on_signal);
	mask_stop_signals(SIG_BLOCK);
	argv = app_eal_argv(&argc, argv);
	n = app_eal_init(argc, argv, &rc);
	if (n >= 0)
		app_eal_note_files();   /* before a pending signal can be taken */
	mask_stop_signals(SIG_UNBLOCK);
	if (n < 0)
		return rc;
	/* Without the socket (--no-telemetry) the commands are simply unused. */
	if (wr_telemetry_register() != 0)
		fprintf(stderr, "wirerate: warning: /wirerate/ telemetry commands "
			"not registered\n");
	/* A memif client started with (or before) its server: no race. */
	rc = app_memif_wait(&stop_signals);
	if (rc == APP_EXIT_OK)
		rc = run_controlled(&cfg, cmdline);
	app_eal_cleanup();
	return rc;
}
