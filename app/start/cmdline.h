/* SPDX-License-Identifier: BSD-3-Clause */
/* The command line before EAL: where -- is, what came before it (cmdline.c). */
#ifndef WR_APP_CMDLINE_H
#define WR_APP_CMDLINE_H

/*
 * Before EAL: the index of "--" in argv (argc when there is none) in *dd.
 * Returns 0, or -1 with a message on stderr when a wirerate option comes
 * before -- (the message shows the command line that works) or an
 * unknown option there is close to a known one ("did you mean"), or when
 * an lcore list names CPUs the machine does not have.
 */
int app_cmdline_check(int argc, char **argv, int *dd);

/*
 * An EAL lcore list before argv[dd] (-l, --lcores) naming CPUs this
 * process cannot run on: -1 with a message naming the option, the CPUs
 * asked and the CPUs available; else 0 (cpus.c).
 */
int app_cpus_check(int argc, char **argv, int dd);

#endif /* WR_APP_CMDLINE_H */
