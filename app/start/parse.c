/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The wirerate options parsed before EAL starts, so that their errors
 * come first and alone: defaults, then the --profile file if any, then
 * the command line (and the output files checked; a connection run's
 * pools against the hugepages). For a run, `wirerate serve` and
 * `wirerate check`; also --version and the signals of a run.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_version.h>

#include "common/exitcode.h"
#include "run/results.h"
#include "base/wr_version.h"
#include "config/opts.h"
#include "config/opts_conn.h"
#include "config/profile.h"
#include "cmdline.h"
#include "parse.h"
#include "usage.h"

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

void
app_print_version(void)
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
		app_print_version();
		return APP_EXIT_OK;
	}
	if (rc < 0)
		return app_error("wirerate", &err);
	if (app_outputs_check(cfg) != 0)
		return APP_EXIT_USAGE;
	return APP_RUN;
}

/* The value of key ("HugePages_Total:") in /proc/meminfo, or 0. */
static uint64_t
meminfo(const char *key)
{
	char line[256];
	uint64_t v = 0;
	size_t n = strlen(key);
	FILE *f = fopen("/proc/meminfo", "r");

	if (f == NULL)
		return 0;
	while (fgets(line, sizeof(line), f) != NULL)
		if (strncmp(line, key, n) == 0 &&
				sscanf(line + n, "%" SCNu64, &v) == 1)
			break;
	fclose(f);
	return v;
}

uint64_t
app_connmem_avail_bytes(int dd, char **argv)
{
	int i;

	for (i = 1; i < dd; i++)
		if (strcmp(argv[i], "--no-huge") == 0)
			return meminfo("MemTotal:") * 1024;
	return meminfo("HugePages_Total:") * meminfo("Hugepagesize:") * 1024;
}

/*
 * A closed connection keeps its pool slot for its TIME_WAIT: a client
 * whose rate fills the pool within the run starts no more than the pool
 * over TIME_WAIT a second after that (the rest counted as not started,
 * pool). Said before EAL (and by `wirerate check`), with what would hold
 * the rate.
 */
static void
pool_note(const struct wr_config *cfg)
{
	const struct wr_conn_cfg *c = &cfg->conn.cfg;
	uint64_t hold_us = c->time_wait_us;
	double need;
	unsigned int p;
	bool client = false;

	for (p = 0; p < WR_MAX_PORTS; p++)
		client = client || wr_opts_conn_port_role(cfg, p) == WR_CONN_CLIENT;
	if (!client || c->cps == 0 || cfg->mode != WR_MODE_RUN)
		return;
	if (cfg->duration_ms != 0 && cfg->duration_ms * 1000 < hold_us)
		hold_us = cfg->duration_ms * 1000;
	/* In doubles: a rate of 10^9 times a TIME_WAIT of hours. */
	need = (double)c->cps * (double)hold_us / 1e6;
	if (c->nb_conns != 0 && (double)c->nb_conns < need)
		need = (double)c->nb_conns;
	if (need <= (double)c->max_open)
		return;
	fprintf(stderr, "wirerate: note: --conn-rate %" PRIu64 " with a "
		"TIME_WAIT of %.3g s (--conn-time-wait): a closed connection "
		"keeps its pool slot that long, so the pool of %u a port "
		"(--conn-concurrency) holds %.0f starts a second once full; "
		"the starts it refuses count as not started (pool). Holding "
		"the rate takes --conn-concurrency %.0f or more, or a "
		"shorter --conn-time-wait\n", c->cps,
		(double)c->time_wait_us / 1e6, c->max_open,
		(double)c->max_open * 1e6 / (double)c->time_wait_us, ceil(need));
}

int
app_connmem_check(const struct wr_config *cfg, int dd, char **argv)
{
	struct wr_error err;
	uint64_t avail;
	unsigned int nb_ports = cfg->tx_ports_set ?
		(unsigned int)__builtin_popcountll(cfg->tx_port_mask) : 1;

	if (cfg->conn.cfg.role == 0)
		return APP_RUN;
	pool_note(cfg);
	avail = app_connmem_avail_bytes(dd, argv);
	wr_err_clear(&err);
	if (avail != 0 && wr_opts_conn_mem_check(cfg, nb_ports, avail, &err) != 0)
		return app_error("wirerate", &err);
	return APP_RUN;
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
	if (rc == APP_RUN)
		rc = app_connmem_check(cfg, dd < argc ? dd : argc, argv);
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
