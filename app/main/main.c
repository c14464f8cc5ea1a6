/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * wirerate [EAL options] -- [wirerate options]
 * wirerate check [EAL options] -- [wirerate options]
 *
 * Owns messages and exit codes: 0 ran as asked, 1 the run failed (or the
 * machine could not do it), 2 bad usage or input. A lib/ error's class
 * picks the code, in app_exit_code (exitcode.c).
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_version.h>

#include "app.h"
#include "server/control.h"
#include "view/progress.h"
#include "subcmds.h"
#include "base/wr_version.h"
#include "config/opts.h"
#include "config/profile.h"
#include "datapath/capture.h"
#include "methods/modes.h"
#include "results/result.h"
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

void
app_signals_install(void (*handler)(int sig))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	/* The flag is polled: no system call needs to fail with EINTR. */
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/*
	 * A closed pipe (stdout into head, a vhost-user peer gone, a control
	 * client that left) is an error to handle, not a reason to die with
	 * the results unwritten.
	 */
	signal(SIGPIPE, SIG_IGN);
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
 * reach it from another terminal (control.h) while it runs.
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
		rc = app_run_all(cfg, cmdline, &stop_signals, NULL, &c);
	app_ctl_close(&c, cfg->control_path);
	return rc;
}

/* --version: wirerate's (git describe at build time) and DPDK's. */
static void
print_version(void)
{
	printf("wirerate %s (%s)\n", WR_VERSION, rte_version());
}

/*
 * Defaults, then the --profile file if any, then the command line.
 * Returns APP_RUN, or the exit code (--help, --version: 0; an error: its
 * class's, said on stderr).
 */
static int
parse_app(int argc, char **argv, struct wr_config *cfg, const char *prog)
{
	struct wr_error err;
	const char *profile;
	int rc;

	wr_config_defaults(cfg);
	wr_err_clear(&err);
	rc = wr_opts_find_profile(argc, argv, &profile, &err);
	if (rc == 0 && profile != NULL)
		rc = wr_profile_load(profile, cfg, &err);
	if (rc == 0)
		rc = wr_opts_parse(argc, argv, cfg, &err);
	if (rc == WR_OPTS_HELP) {
		app_usage(stdout, prog);
		return APP_EXIT_OK;
	}
	if (rc == WR_OPTS_VERSION) {
		print_version();
		return APP_EXIT_OK;
	}
	if (rc < 0)
		return app_error("wirerate", &err);
	if (app_outputs_check(cfg) != 0)
		return APP_EXIT_USAGE;
	return APP_RUN;
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
			print_version();
			return 0;
		}
	}
	return -1;
}

/*
 * The wirerate options (after the first --, argv[dd]) parsed before EAL
 * starts, so that their errors come first and alone. APP_RUN: run;
 * otherwise the exit code (0 after --help, an error's said on stderr).
 */
int
app_parse_before_eal(int argc, char **argv, int dd, struct wr_config *cfg)
{
	char **app_argv;
	int nb = dd < argc ? argc - dd : 1, rc;

	app_argv = calloc((size_t)nb + 1, sizeof(*app_argv));
	if (app_argv == NULL) {
		struct wr_error err;

		wr_err_env(&err, -ENOMEM, "no memory");
		return app_error("wirerate", &err);
	}
	app_argv[0] = argv[0];
	if (dd < argc)
		memcpy(app_argv + 1, argv + dd + 1, sizeof(*app_argv) * (size_t)(nb - 1));
	rc = parse_app(nb, app_argv, cfg, argv[0]);
	free(app_argv);
	return rc;
}

/*
 * wirerate check ...: the command line checked as a run checks it before
 * EAL starts (same messages), then exit 0 (valid) or 2, starting nothing:
 * no EAL, no hugepages, no files. For scripts that build command lines.
 */
int
app_check_main(int argc, char **argv)
{
	static struct wr_config cfg;
	int dd, rc;

	if (argc == 2 && (strcmp(argv[1], "--help") == 0 ||
			strcmp(argv[1], "-h") == 0)) {
		printf("Usage: wirerate check [EAL options] -- [wirerate options]\n"
			"\nCheck a command line as a run would (same errors) and start\n"
			"nothing: no EAL, no hugepages, no files. The options are those\n"
			"of a run (wirerate --help).\n\n"
			"  -h, --help\n"
			"  --version  wirerate's and DPDK's versions\n\n"
			"Exit status: 0 valid, 2 bad usage or input.\n");
		return APP_EXIT_OK;
	}
	if (app_cmdline_check(argc, argv, &dd) != 0)
		return APP_EXIT_USAGE;
	rc = app_parse_before_eal(argc, argv, dd, &cfg);
	return rc == APP_RUN ? APP_EXIT_OK : rc;
}

/*
 * `wirerate SUBCOMMAND ...`: its main, or --version for any of them (an
 * argument "--version" before any "--"). Returns -1 when argv[1] is no
 * subcommand, else the exit code.
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
				print_version();
				return APP_EXIT_OK;
			}
		}
		argv[1] = argv[0];      /* messages name the program */
		return subs[i].main(argc - 1, argv + 1);
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
	rc = run_controlled(&cfg, cmdline);
	app_eal_cleanup();
	return rc;
}
