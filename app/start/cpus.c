/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The CPUs an EAL lcore list (-l, --lcores) or core mask (-c, --coremask)
 * names, against those this
 * process may run on (its affinity mask: the machine's CPUs, less what a
 * cgroup or taskset keeps from it). A list naming a CPU outside them is
 * refused before EAL starts, naming the option, the CPUs asked and the
 * CPUs available; `wirerate check` says the same. A list this reader does
 * not follow is left to EAL. A --main-lcore outside the lcores is refused
 * too (EAL would refuse it only after taking its hugepages).
 */
#include <ctype.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmdline.h"

/* Read one CPU number at *p; -1 when there is none or it is too big. */
static int
read_cpu(const char **p)
{
	char *end;
	long v;

	if (!isdigit((unsigned char)**p))
		return -1;
	v = strtol(*p, &end, 10);
	if (v < 0 || v >= CPU_SETSIZE)
		return -1;
	*p = end;
	return (int)v;
}

/* A number or a range a-b at *p, added to set; -1 when it is neither. */
static int
read_range(const char **p, cpu_set_t *set)
{
	int a, b, i;

	a = read_cpu(p);
	if (a < 0)
		return -1;
	b = a;
	if (**p == '-') {
		(*p)++;
		b = read_cpu(p);
		if (b < a)
			return -1;
	}
	for (i = a; i <= b; i++)
		CPU_SET(i, set);
	return 0;
}

/* One element: a range, or a parenthesised comma list of ranges. */
static int
read_group(const char **p, cpu_set_t *set)
{
	if (**p != '(')
		return read_range(p, set);
	do {
		(*p)++;
		if (read_range(p, set) != 0)
			return -1;
	} while (**p == ',');
	if (**p != ')')
		return -1;
	(*p)++;
	return 0;
}

/* The CPUs a lcore list is judged against, instead of this process's. */
#define APP_CHECK_CPUS_ENV "WR_CHECK_CPUS"

/*
 * The CPUs list s names into set: for -l, ranges and numbers; for
 * --lcores, also "lcores@cpus" (the CPUs are those after @). The lcore
 * ids into lcores when it is not NULL (for -l, the CPUs). -1 when the
 * list is not one this reader follows.
 */
static int
list_cpus(const char *s, bool lcores_form, cpu_set_t *set, cpu_set_t *lcores)
{
	const char *p = s;
	cpu_set_t ids;

	CPU_ZERO(set);
	if (lcores != NULL)
		CPU_ZERO(lcores);
	for (;;) {
		CPU_ZERO(&ids);
		if ((lcores_form ? read_group(&p, &ids) : read_range(&p, &ids)) != 0)
			return -1;
		if (lcores != NULL)
			CPU_OR(lcores, lcores, &ids);
		if (lcores_form && *p == '@') {
			p++;
			CPU_ZERO(&ids);
			if (read_group(&p, &ids) != 0)
				return -1;
		}
		CPU_OR(set, set, &ids);
		if (*p == '\0')
			return 0;
		if (*p != ',')
			return -1;
		p++;
	}
}

/* The CPUs of a hexadecimal core mask ("0xff", "ff"); -1 when s is none. */
static int
mask_cpus(const char *s, cpu_set_t *set)
{
	size_t n, k;
	int v, b;

	CPU_ZERO(set);
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	n = strlen(s);
	if (n == 0)
		return -1;
	for (k = 0; k < n; k++) {
		char c = s[n - 1 - k];

		if (!isxdigit((unsigned char)c))
			return -1;
		v = isdigit((unsigned char)c) ? c - '0' : tolower((unsigned char)c) - 'a' + 10;
		for (b = 0; b < 4; b++)
			if ((v >> b) & 1) {
				if (4 * k + (size_t)b >= CPU_SETSIZE)
					return -1;
				CPU_SET(4 * k + (size_t)b, set);
			}
	}
	return 0;
}

/* Print set as a list of ranges ("0-1,4"). */
static void
put_set(FILE *f, const cpu_set_t *set)
{
	const char *sep = "";
	int i, j;

	for (i = 0; i < CPU_SETSIZE; i = j) {
		if (!CPU_ISSET(i, set)) {
			j = i + 1;
			continue;
		}
		for (j = i + 1; j < CPU_SETSIZE && CPU_ISSET(j, set); j++)
			;
		if (j - 1 == i)
			fprintf(f, "%s%d", sep, i);
		else
			fprintf(f, "%s%d-%d", sep, i, j - 1);
		sep = ",";
	}
}

/*
 * The lcore list or core mask of argv[i] (-l LIST, -lLIST, --lcores
 * LIST, --lcores=LIST, -c MASK, -cMASK, --coremask MASK, --coremask=MASK)
 * in *list with its option's name in *opt; 0 when argv[i] is no such
 * option.
 */
static int
lcore_option(int dd, char **argv, int i, const char **opt, const char **list)
{
	const char *a = argv[i];

	if (strcmp(a, "-c") == 0 || strcmp(a, "--coremask") == 0) {
		if (i + 1 >= dd)
			return 0;
		*opt = a;
		*list = argv[i + 1];
		return 2;
	}
	if (strncmp(a, "-c", 2) == 0 && isxdigit((unsigned char)a[2])) {
		*opt = "-c";
		*list = a + 2;
		return 1;
	}
	if (strncmp(a, "--coremask=", 11) == 0) {
		*opt = "--coremask";
		*list = a + 11;
		return 1;
	}
	if (strcmp(a, "-l") == 0 || strcmp(a, "--lcores") == 0) {
		if (i + 1 >= dd)
			return 0;
		*opt = a;
		*list = argv[i + 1];
		return 2;
	}
	if (strncmp(a, "-l", 2) == 0 && isdigit((unsigned char)a[2])) {
		*opt = "-l";
		*list = a + 2;
		return 1;
	}
	if (strncmp(a, "--lcores=", 9) == 0) {
		*opt = "--lcores";
		*list = a + 9;
		return 1;
	}
	return 0;
}

/*
 * Refuse the list of opt when it names CPUs outside avail; its lcore ids
 * into lcores (left empty for a list this reader does not follow).
 */
static int
check_list(const char *opt, const char *list, const cpu_set_t *avail,
	   cpu_set_t *lcores)
{
	cpu_set_t asked, missing;
	bool mask = opt[1] == 'c' || strcmp(opt, "--coremask") == 0;

	CPU_ZERO(lcores);
	if ((mask ? mask_cpus(list, &asked) :
			list_cpus(list, strcmp(opt, "--lcores") == 0, &asked,
				  lcores)) != 0) {
		CPU_ZERO(lcores);
		return 0;    /* EAL's syntax, EAL's message */
	}
	if (mask)
		CPU_OR(lcores, lcores, &asked);
	CPU_XOR(&missing, &asked, avail);
	CPU_AND(&missing, &missing, &asked);
	if (CPU_COUNT(&missing) == 0)
		return 0;
	fprintf(stderr, "wirerate: error: %s %s: CPUs ", opt, list);
	put_set(stderr, &asked);
	fputs(" asked, this machine has CPUs ", stderr);
	put_set(stderr, avail);
	fputs(" (no CPU ", stderr);
	put_set(stderr, &missing);
	fputs(")\n", stderr);
	return -1;
}

/* The --main-lcore value of argv[i] into *v: 1 or 2 words taken, 0 none. */
static int
main_option(int dd, char **argv, int i, const char **v)
{
	if (strcmp(argv[i], "--main-lcore") == 0 && i + 1 < dd) {
		*v = argv[i + 1];
		return 2;
	}
	if (strncmp(argv[i], "--main-lcore=", 13) == 0) {
		*v = argv[i] + 13;
		return 1;
	}
	return 0;
}

/*
 * Refuse a --main-lcore that is not one of the lcores: those of the lcore
 * option (opt, NULL when none: every CPU of avail is an lcore then).
 */
static int
check_main(const char *main_v, const char *opt, const char *list,
	   const cpu_set_t *lcores)
{
	const char *p = main_v;
	int m = read_cpu(&p);

	if (m < 0 || *p != '\0' || CPU_COUNT(lcores) == 0 ||
	    CPU_ISSET(m, lcores))
		return 0;    /* EAL's syntax, EAL's message; or fine */
	fprintf(stderr, "wirerate: error: --main-lcore %s: not one of the "
		"lcores ", main_v);
	put_set(stderr, lcores);
	if (opt != NULL)
		fprintf(stderr, " of %s %s\n", opt, list);
	else
		fputs(" (no -l, -c or --lcores: one lcore a CPU this process "
		      "may run on)\n", stderr);
	return -1;
}

int
app_cpus_check(int argc, char **argv, int dd)
{
	const char *opt, *list, *lopt = NULL, *llist = NULL, *main_v = NULL;
	cpu_set_t avail, lcores;
	int i, n;

	(void)argc;
	if (getenv(APP_CHECK_CPUS_ENV) != NULL) {
		/* A command meant for another machine (a lab's guest, a
		 * page's example): judged against that machine's CPUs. */
		if (list_cpus(getenv(APP_CHECK_CPUS_ENV), false, &avail,
			      NULL) != 0) {
			fprintf(stderr, "wirerate: error: %s=%s: expected a CPU "
				"list such as 0-3 or 0,2\n", APP_CHECK_CPUS_ENV,
				getenv(APP_CHECK_CPUS_ENV));
			return -1;
		}
	} else if (sched_getaffinity(0, sizeof(avail), &avail) != 0) {
		return 0;    /* nothing to judge by: EAL will say */
	}
	lcores = avail;
	for (i = 1; i < dd; i += n > 0 ? n : 1) {
		n = main_option(dd, argv, i, &main_v);
		if (n > 0)
			continue;
		n = lcore_option(dd, argv, i, &opt, &list);
		if (n == 0)
			continue;
		if (check_list(opt, list, &avail, &lcores) != 0)
			return -1;
		lopt = opt;
		llist = list;
	}
	return main_v != NULL ? check_main(main_v, lopt, llist, &lcores) : 0;
}
