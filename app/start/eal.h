/* SPDX-License-Identifier: BSD-3-Clause */
/* EAL start-up (eal.c, eal_why.c: its failures explained) and clean-up. */
#ifndef WR_APP_EAL_H
#define WR_APP_EAL_H

/*
 * The EAL arguments to use: argv with --huge-unlink added when the user's
 * EAL options allow it (no --in-memory, --no-huge, --huge-unlink,
 * --single-file-segments or --proc-type), so that no hugepage file
 * outlives the process, even one killed. *argc is updated. Returns argv
 * itself when nothing is added (or memory ran out).
 */
char **app_eal_argv(int *argc, char **argv);

/*
 * rte_eal_init() with its log held back: shown only when it fails (or
 * when the user gave --log-level), followed by the cause wirerate can name
 * (the --file-prefix in use by another process, no hugetlbfs mounted) and
 * what to do. Returns what rte_eal_init() returns; *exit_code is the exit
 * status a failure calls for (1: the machine, such as a busy --file-prefix
 * or no hugetlbfs; 2: an EAL option or device EAL refused), 0 otherwise
 * (eal_why.c).
 */
int app_eal_init(int argc, char **argv, int *exit_code);

/*
 * Before EAL: for each af_packet --vdev in argv (before --), whether the
 * kernel would refuse its sockets the fanout group the PMD takes for
 * them (another process holds that id for another interface of this
 * network namespace); if so, says so on stderr and returns 1 (start
 * again: the id comes from the process id), else 0 (afpacket.c).
 */
int app_afpacket_check(int argc, char **argv);

/*
 * rte_eal_cleanup(), then, in a primary process, remove what the EAL left
 * of this --file-prefix: hugepage files (kept with --single-file-segments)
 * and the runtime directory. This function can't fail.
 */
void app_eal_cleanup(void);

/*
 * Once EAL is up: list the runtime directory and the hugetlbfs mount
 * points for app_eal_quick_cleanup().
 */
void app_eal_note_files(void);

/*
 * Remove this --file-prefix's hugepage files (one can be caught between
 * its creation and --huge-unlink's unlink) and the runtime directory
 * listed by app_eal_note_files(), with system calls only (for a signal
 * handler about to _exit).
 */
void app_eal_quick_cleanup(void);

#endif /* WR_APP_EAL_H */
