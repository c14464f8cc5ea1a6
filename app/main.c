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
#include "progress.h"
#include "subcmds.h"
#include "base/wr_version.h"
#include "config/opts.h"
#include "config/profile.h"
#include "datapath/capture.h"
#include "methods/modes.h"
#include "results/result.h"
#include "stats/telemetry.h"

static volatile int stop_signals;  /* int: sig_atomic_t on Linux */

/* parse_app: go on and run (not an exit code). */
#define APP_RUN (-1)

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
install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	/* The flag is polled: no system call needs to fail with EINTR. */
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/*
	 * A closed pipe (stdout into head, a vhost-user peer gone) is an
	 * error to handle, not a reason to die with the results unwritten.
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

struct live {
	bool on;
	bool in_place;
	struct app_progress prog;
};

static void
show_interval(const struct wr_run *run, const struct wr_interval *iv, void *arg)
{
	struct live *l = arg;

	if (l->on)
		app_view_interval(stdout, run, iv, l->in_place);
	else
		app_progress_tick(&l->prog);
}

/* --linger: the peer closes its end of the link first (docs/testbeds.md). */
static void
linger(struct wr_run *run)
{
	const struct wr_config *cfg = wr_run_cfg(run);

	if (cfg->linger_ms == 0 || wr_run_linger(run, &stop_signals))
		return;
	if (stop_signals == 0)
		fprintf(stderr, "wirerate: note: a link was still up after --linger "
			"%" PRIu64 " ms; closing the ports anyway\n", cfg->linger_ms);
}

static int
finish(struct wr_run *run, json_t *trials)
{
	int rc = APP_EXIT_OK;

	app_view_summary(stdout, run);
	if (app_results_write(run, trials, stdout) != 0)
		rc = APP_EXIT_FAILED;
	if (wr_run_res(run)->mbufs_missing != 0) {
		fprintf(stderr, "wirerate: error: %" PRIu64 " mbufs were not "
			"returned to their pools\n", wr_run_res(run)->mbufs_missing);
		rc = APP_EXIT_FAILED;
	}
	return rc;
}

/* Print err and give the exit code its class means. */
static int
failed(const struct wr_error *err)
{
	return app_error("wirerate", err);
}

/* Trial of a repeated run starts, left more after it: publish and show. */
static void
repeat_progress(struct app_progress *ap, struct wr_progress *p,
		const struct wr_trial *tr, unsigned int left)
{
	wr_progress_trial(p, "trial", (double)tr->duration_ms / 1e3, left, 0,
		rte_rdtsc());
	wr_telemetry_progress(p);
	app_progress_trial(ap, p);
}

/* --warmup trials, then --repeat counted ones of the configured trial. */
static int
run_single(struct wr_run *run, const struct wr_config *cfg)
{
	struct live l = { !cfg->quiet, isatty(STDOUT_FILENO) && !cfg->plain, { 0 } };
	unsigned int t, nb = cfg->nb_warmup + cfg->nb_repeat;
	struct wr_progress prog;
	enum wr_stop_reason why = WR_STOP_NONE;
	json_t *trials = nb > 1 ? json_array() : NULL;
	/* The finished trials, in each checkpoint of the next ones. */
	json_t *done = trials != NULL ? json_pack("{s:O}", "trials", trials) : NULL;
	struct wr_trial tr;
	struct wr_error err;
	bool unrecorded = false;
	int rc = 0;

	wr_err_clear(&err);
	wr_trial_from_config(cfg, &tr);
	app_progress_init(&l.prog, cfg);
	/* The live view redraws its frame below a plain progress line. */
	l.prog.in_place = false;
	wr_progress_begin(&prog, "repeat", 1, rte_rdtsc(), rte_get_tsc_hz());
	wr_progress_lengths(&prog, (double)tr.duration_ms / 1e3, 0);
	for (t = 0; t < nb && why != WR_STOP_SIGNAL; t++) {
		if (nb > 1)
			repeat_progress(&l.prog, &prog, &tr, nb - t - 1);
		rc = wr_run_trial(run, &tr, &err);
		if (rc == 0)
			rc = wr_run_start(run, &err);
		if (rc != 0)
			break;
		/* --start-on-rx: RX polls now; tell a script it may send. */
		if (cfg->start_on_rx) {
			printf("waiting for the first frame (--start-on-rx)\n");
			fflush(stdout);
		}
		why = wr_run_wait(run, &stop_signals, show_interval, &l);
		wr_run_stop(run, why);
		if (trials != NULL && app_trial_done(stdout, run, t, trials) != 0) {
			unrecorded = true;
			break;
		}
		if (json_array_size(trials) != 0)
			wr_result_checkpoint_keep(run, done);
	}
	wr_result_checkpoint_keep(run, NULL);
	json_decref(done);
	/* Before the ports close: the file describes them. */
	if (app_capture_write(run, stdout) != 0)
		unrecorded = true;
	linger(run);
	wr_run_close(run);
	if (rc != 0) {
		rc = failed(&err);
	} else if (unrecorded) {
		/* What could not be recorded was said when it failed. */
		wr_err_fail(&err, -EIO, "cannot record the trial or the capture");
		rc = failed(&err);
	} else {
		rc = finish(run, trials);
	}
	json_decref(trials);
	return rc;
}

static void
show_trial(const struct wr_run *run, const char *what,
		const struct wr_trial_summary *s, void *arg)
{
	struct live *l = arg;

	app_progress_clear(&l->prog);
	app_view_trial(stdout, run, what, s);
}

static void
show_progress(const struct wr_progress *p, void *arg)
{
	struct live *l = arg;

	app_progress_trial(&l->prog, p);
}

/* A test mode: many trials, a progress line each, a table at the end. */
static int
run_mode(struct wr_run *run, const struct wr_config *cfg)
{
	struct live l = { false, false, { 0 } };
	struct wr_mode_hooks h = { &stop_signals, show_interval, show_trial, &l,
		show_progress };
	json_t *doc = wr_result_head(run);
	struct wr_error fail;
	int rc, code = APP_EXIT_OK;

	if (doc == NULL) {
		wr_err_env(&fail, -ENOMEM, "no memory for the result");
		return failed(&fail);
	}
	app_progress_init(&l.prog, cfg);
	rc = wr_mode_run(run, &h, doc, &fail);
	app_progress_clear(&l.prog);
	if (rc != 0 && rc != -EINTR)
		code = failed(&fail);
	/* Before the ports close: the file describes them. */
	if (app_capture_write(run, stdout) != 0 && code == APP_EXIT_OK)
		code = APP_EXIT_FAILED;
	linger(run);
	wr_run_close(run);
	json_object_set_new(doc, "mbufs_missing", json_integer((json_int_t)wr_run_res(run)->mbufs_missing));
	json_object_set_new(doc, "stranded_pkts", json_integer((json_int_t)wr_run_res(run)->nb_stranded_pkts));
	json_object_set_new(doc, "stop_reason", json_string(rc == -EINTR ? "signal" :
		rc == 0 ? "done" : "error"));
	if (wr_run_capture(run) != NULL)
		json_object_set_new(doc, "capture", wr_capture_json(wr_run_capture(run)));
	app_view_mode(stdout, doc);
	if (cfg->json_path[0] != '\0' &&
			app_write_json(doc, cfg->json_path, &fail) != 0)
		code = failed(&fail);
	if (wr_run_res(run)->mbufs_missing != 0 && code == APP_EXIT_OK) {
		wr_err_fail(&fail, -EIO, "mbufs were not returned to their pools");
		code = failed(&fail);
	}
	json_decref(doc);
	return code;
}

static int
run_all(const struct wr_config *cfg, const char *cmdline)
{
	struct wr_error err;
	struct wr_run *run;
	int rc;

	wr_err_clear(&err);
	rc = wr_run_create(cfg, cmdline, &run, &err);
	if (rc != 0)
		return failed(&err);
	if (!cfg->quiet)
		app_view_plan(stdout, run);
	rc = cfg->mode == WR_MODE_RUN ? run_single(run, cfg) : run_mode(run, cfg);
	wr_run_destroy(run);
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
		return failed(&err);
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
static int
parse_before_eal(int argc, char **argv, int dd, struct wr_config *cfg)
{
	char **app_argv;
	int nb = dd < argc ? argc - dd : 1, rc;

	app_argv = calloc((size_t)nb + 1, sizeof(*app_argv));
	if (app_argv == NULL) {
		struct wr_error err;

		wr_err_env(&err, -ENOMEM, "no memory");
		return failed(&err);
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
	rc = parse_before_eal(argc, argv, dd, &cfg);
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
	rc = parse_before_eal(argc, argv, dd, &cfg);
	if (rc != APP_RUN)
		return rc;
	join_cmdline(argc, argv, cmdline, sizeof(cmdline));
	install_signals();
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
	rc = run_all(&cfg, cmdline);
	app_eal_cleanup();
	return rc;
}
