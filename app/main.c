/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * wirerate [EAL options] -- [wirerate options]
 *
 * Owns messages and exit codes: 0 ran as asked, 1 the run failed, 2 bad
 * usage or input.
 */
#include <errno.h>
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
#include "opts.h"
#include "result.h"

#define TICK_US 10000u

static volatile sig_atomic_t stop_signals;

/* First signal: stop cleanly. Second: leave now (results are atomic). */
static void
on_signal(int sig)
{
	(void)sig;
	if (++stop_signals >= 2)
		_exit(APP_EXIT_FAILED);
}

static void
install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
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

/* Why the run should end now, or WR_STOP_NONE. */
static enum wr_stop_reason
should_stop(const struct wr_run *run, uint64_t now)
{
	uint64_t dur = run->cfg->duration_ms;

	if (stop_signals != 0)
		return WR_STOP_SIGNAL;
	if (dur != 0 && now - run->start_tsc >= dur * (run->tsc_hz / 1000))
		return WR_STOP_DURATION;
	if (wr_run_tx_done(run))
		return WR_STOP_COUNT;
	return WR_STOP_NONE;
}

/* The stats core: sleep between intervals, never spin. */
static enum wr_stop_reason
stats_loop(struct wr_run *run, bool live, bool in_place)
{
	uint64_t step = run->cfg->interval_ms * (run->tsc_hz / 1000);
	uint64_t next = run->start_tsc + step, now;
	const struct wr_interval *iv;
	enum wr_stop_reason why;

	for (;;) {
		rte_delay_us_sleep(TICK_US);
		now = rte_rdtsc();
		why = should_stop(run, now);
		if (why != WR_STOP_NONE)
			return why;
		if (now < next)
			continue;
		next += step;
		iv = wr_run_tick(run);
		if (iv != NULL && live)
			app_view_interval(stdout, run, iv, in_place);
	}
}

static int
finish(struct wr_run *run, const struct wr_config *cfg)
{
	char err[512];
	int rc = APP_EXIT_OK;

	app_view_summary(stdout, run);
	if (cfg->json_path[0] != '\0' &&
			wr_result_write(run, cfg->json_path, err, sizeof(err)) != 0) {
		fprintf(stderr, "wirerate: error: %s\n", err);
		rc = APP_EXIT_FAILED;
	}
	if (run->mbufs_missing != 0) {
		fprintf(stderr, "wirerate: error: %" PRIu64 " mbufs were not "
			"returned to their pools\n", run->mbufs_missing);
		rc = APP_EXIT_FAILED;
	}
	return rc;
}

static int
run_all(const struct wr_config *cfg, const char *cmdline)
{
	struct wr_run *run;
	char err[512];
	bool in_place = isatty(STDOUT_FILENO) && !cfg->plain;
	int rc;

	rc = wr_run_create(cfg, cmdline, &run, err, sizeof(err));
	if (rc != 0) {
		fprintf(stderr, "wirerate: error: %s\n", err);
		return rc == -EINVAL ? APP_EXIT_USAGE : APP_EXIT_FAILED;
	}
	if (!cfg->quiet)
		app_view_plan(stdout, run);
	if (wr_run_start(run, err, sizeof(err)) != 0) {
		fprintf(stderr, "wirerate: error: %s\n", err);
		wr_run_destroy(run);
		return APP_EXIT_FAILED;
	}
	wr_run_stop(run, stats_loop(run, !cfg->quiet, in_place));
	rc = finish(run, cfg);
	wr_run_destroy(run);
	return rc;
}

static int
parse_app(int argc, char **argv, struct wr_config *cfg, const char *prog)
{
	char err[512];
	int rc;

	wr_config_defaults(cfg);
	rc = wr_opts_parse(argc, argv, cfg, err, sizeof(err));
	if (rc == WR_OPTS_HELP) {
		app_usage(stdout, prog);
		return 0;
	}
	if (rc == WR_OPTS_VERSION) {
		printf("wirerate %s (%s)\n", WR_VERSION, rte_version());
		return 0;
	}
	if (rc < 0) {
		fprintf(stderr, "wirerate: error: %s\n", err);
		return -1;
	}
	return 1;
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
			printf("wirerate %s (%s)\n", WR_VERSION, rte_version());
			return 0;
		}
	}
	return -1;
}

int
main(int argc, char **argv)
{
	static struct wr_config cfg;
	char cmdline[1024];
	int n, rc;

	if (early_opts(argc, argv) == 0)
		return APP_EXIT_OK;
	join_cmdline(argc, argv, cmdline, sizeof(cmdline));
	install_signals();
	n = rte_eal_init(argc, argv);
	if (n < 0) {
		fprintf(stderr, "wirerate: error: EAL initialisation failed: %s "
			"(check the EAL options before --, hugepages, and that no "
			"other DPDK process uses the same --file-prefix)\n",
			rte_strerror(rte_errno));
		return APP_EXIT_USAGE;
	}
	argv[n] = argv[0];
	rc = parse_app(argc - n, argv + n, &cfg, argv[0]);
	if (rc <= 0) {
		rte_eal_cleanup();
		return rc == 0 ? APP_EXIT_OK : APP_EXIT_USAGE;
	}
	rc = run_all(&cfg, cmdline);
	rte_eal_cleanup();
	return rc;
}
