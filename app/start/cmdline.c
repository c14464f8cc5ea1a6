/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The command line before EAL sees it. wirerate options given before --
 * (or with no -- at all) are named, with the command line that works; an
 * unknown option close to a wirerate or EAL option gets a "did you mean",
 * one that no supported DPDK's EAL has is refused, and so is a word that
 * no option takes. All exit 2 before EAL starts (by `wirerate check`
 * too), without EAL's usage text.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>

#include "base/suggest.h"
#include "config/opts.h"
#include "cmdline.h"

/*
 * The long EAL options of every DPDK wirerate builds against (22.11 to
 * 25.11: lib/eal/common/eal_options.h, from 25.11 eal_option_list.h):
 * never mistaken for misspelt ones. One that a version lacks is left to
 * its EAL; one that none has is refused before EAL starts.
 */
static const char *const eal_long[] = {
	"allow", "base-virtaddr", "block", "coremask", "create-uio-dev",
	"driver-path", "file-prefix", "force-max-simd-bitwidth", "help",
	"huge-dir", "huge-unlink", "huge-worker-stack", "in-memory",
	"iova-mode", "lcores", "legacy-mem", "log-color", "log-level",
	"log-timestamp", "main-lcore", "match-allocations",
	"mbuf-pool-ops-name", "memory-channels", "memory-ranks", "memory-size",
	"no-hpet", "no-huge", "no-pci", "no-shconf", "no-telemetry",
	"numa-limit", "numa-mem", "proc-type", "remap-lcore-ids",
	"service-corelist", "service-coremask", "single-file-segments",
	"socket-limit", "socket-mem", "syslog", "telemetry", "trace",
	"trace-bufsz", "trace-dir", "trace-mode", "vdev", "version",
	"vfio-intr", "vfio-vf-token", "vmware-tsc-map",
};

/*
 * Those that take a value (required or optional) in any of these
 * versions, and the short ones that do: the next word may be theirs.
 */
static const char *const eal_long_value[] = {
	"allow", "base-virtaddr", "block", "coremask", "driver-path",
	"file-prefix", "force-max-simd-bitwidth", "huge-dir", "huge-unlink",
	"huge-worker-stack", "iova-mode", "lcores", "log-color", "log-level",
	"log-timestamp", "main-lcore", "mbuf-pool-ops-name", "memory-channels",
	"memory-ranks", "memory-size", "numa-limit", "numa-mem", "proc-type",
	"remap-lcore-ids", "service-corelist", "service-coremask",
	"socket-limit", "socket-mem", "syslog", "trace", "trace-bufsz",
	"trace-dir", "trace-mode", "vdev", "vfio-intr", "vfio-vf-token",
};
static const char eal_short_value[] = "abcdlmnrsS";

/* Print s for a shell: quoted when it holds anything but plain characters. */
static void
put_word(FILE *f, const char *s)
{
	const char *p;

	if (s[0] != '\0' && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN"
			"OPQRSTUVWXYZ0123456789-_=.,:/@%+") == strlen(s)) {
		fprintf(f, " %s", s);
		return;
	}
	fputs(" '", f);
	for (p = s; *p != '\0'; p++)
		if (*p == '\'')
			fputs("'\\''", f);
		else
			fputc(*p, f);
	fputc('\'', f);
}

/*
 * How many words the wirerate option at argv[i] spans (1 or 2 with its
 * value), or 0 when argv[i] is not a wirerate option.
 */
static int
app_words(int argc, char **argv, int i)
{
	bool has_arg;

	if (strncmp(argv[i], "--", 2) != 0 || argv[i][2] == '\0' ||
			wr_opts_lookup(argv[i] + 2, &has_arg) != 0)
		return 0;
	return has_arg && strchr(argv[i], '=') == NULL && i + 1 < argc ? 2 : 1;
}

/* Name the misplaced options and print the command line that works. */
static void
show_fixed(FILE *f, int argc, char **argv, int dd, int first)
{
	int i, n;

	fprintf(f, "wirerate: error: %s is a wirerate option; wirerate options "
		"go after --, EAL options before it:\n ", argv[first]);
	put_word(f, argv[0]);
	for (i = 1; i < dd; i += RTE_MAX(n, 1)) {     /* EAL words stay */
		n = app_words(dd, argv, i);
		if (n == 0)
			put_word(f, argv[i]);
	}
	fputs(" --", f);
	for (i = 1; i < dd; i += RTE_MAX(n, 1)) {     /* wirerate words move */
		n = app_words(dd, argv, i);
		if (n >= 1)
			put_word(f, argv[i]);
		if (n == 2)
			put_word(f, argv[i + 1]);
	}
	for (i = dd + 1; i < argc; i++)
		put_word(f, argv[i]);
	fputc('\n', f);
}

/* Whether arg ("name[=value]") abbreviates an EAL long option (getopt's rule). */
static bool
abbreviates_eal(const char *arg)
{
	size_t n = strcspn(arg, "=");
	unsigned int i;

	for (i = 0; i < RTE_DIM(eal_long); i++)
		if (n > 0 && strncmp(eal_long[i], arg, n) == 0)
			return true;
	return false;
}

/*
 * An unknown long option before --: say which wirerate or EAL option is
 * close, or that neither has it, and return -1. EAL's own options (and
 * short ones) are left to EAL.
 */
static int
misspelt(const char *arg)
{
	struct wr_suggest sg;
	const char *near;
	unsigned int i;

	if (strncmp(arg, "--", 2) != 0 || arg[2] == '\0' || abbreviates_eal(arg + 2))
		return 0;
	near = wr_opts_closest(arg + 2);
	if (near != NULL) {
		fprintf(stderr, "wirerate: error: %s: unknown option; did you mean "
			"--%s? (a wirerate option: it goes after --)\n", arg, near);
		return -1;
	}
	wr_suggest_init(&sg, arg + 2, strcspn(arg + 2, "="));
	for (i = 0; i < RTE_DIM(eal_long); i++)
		wr_suggest_try(&sg, eal_long[i]);
	if (sg.best == NULL) {
		fprintf(stderr, "wirerate: error: %s: unknown option: no EAL option "
			"(before --) nor wirerate option (after --; see --help)\n", arg);
		return -1;
	}
	fprintf(stderr, "wirerate: error: %s: unknown option; did you mean --%s? "
		"(an EAL option: it goes before --)\n", arg, sg.best);
	return -1;
}

/*
 * Whether the EAL option at arg may take the next word as its value: a
 * long one (or an abbreviation) that takes a value, without '=', or
 * short options ending with one that takes a value.
 */
static bool
takes_next(const char *arg)
{
	size_t n, i;

	if (strncmp(arg, "--", 2) == 0) {
		n = strlen(arg + 2);
		if (n == 0 || strchr(arg, '=') != NULL)
			return false;
		for (i = 0; i < RTE_DIM(eal_long_value); i++)
			if (strncmp(eal_long_value[i], arg + 2, n) == 0)
				return true;
		return false;
	}
	for (i = 1; arg[i] != '\0'; i++)
		if (strchr(eal_short_value, arg[i]) != NULL)
			return arg[i + 1] == '\0';    /* else the rest is its value */
	return false;
}

/*
 * A word before -- that no option takes ("-l 0 1"): EAL would leave it
 * and the run go on without it. Say so and return -1.
 */
static int
stray_word(int dd, char **argv)
{
	int i, opt = 0;     /* the last option's word */

	for (i = 1; i < dd; i++) {
		if (argv[i][0] == '\0')
			continue;   /* a script's empty variable: nothing given */
		if (argv[i][0] == '-' && argv[i][1] != '\0') {
			opt = i;
			if (takes_next(argv[i]) && i + 1 < dd)
				i++;
			continue;
		}
		fprintf(stderr, "wirerate: error: %s: a word no option before -- "
			"takes", argv[i]);
		if (opt > 0)
			fprintf(stderr, " (after %s%s%s)", argv[opt], opt + 1 < i ?
				" " : "", opt + 1 < i ? argv[opt + 1] : "");
		fputs("; a value is one word (-l 0,1), and wirerate options go "
			"after --\n", stderr);
		return -1;
	}
	return 0;
}

int
app_cmdline_check(int argc, char **argv, int *dd)
{
	int i;

	for (*dd = 1; *dd < argc && strcmp(argv[*dd], "--") != 0; (*dd)++)
		;
	for (i = 1; i < *dd; i++) {
		if (app_words(*dd, argv, i) > 0) {
			show_fixed(stderr, argc, argv, *dd, i);
			return -1;
		}
	}
	for (i = 1; i < *dd; i++)
		if (misspelt(argv[i]) != 0)
			return -1;
	if (stray_word(*dd, argv) != 0)
		return -1;
	return app_cpus_check(argc, argv, *dd);
}
