/* SPDX-License-Identifier: BSD-3-Clause */
/* The wirerate program: messages, display and exit codes. */
#ifndef WR_APP_H
#define WR_APP_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "config/config.h"
#include "common/exitcode.h"
#include "methods/modes.h"
#include "setup/run.h"


/* app_parse_before_eal: go on and run (not an exit code). */
#define APP_RUN (-1)

/*
 * The wirerate options of argv (after the first --, argv[dd]: defaults,
 * then --profile, then the options) into cfg, before EAL starts. Returns
 * APP_RUN, or the exit code (0 after --help or --version; an error's
 * class's, said on stderr).
 */
int app_parse_before_eal(int argc, char **argv, int dd, struct wr_config *cfg);

/*
 * SIGINT and SIGTERM to handler (SA_RESTART: the flag it sets is polled),
 * SIGPIPE ignored. This function can't fail.
 */
void app_signals_install(void (*handler)(int sig));

/* Print --help to f. */
void app_usage(FILE *f, const char *prog);

/* Describe ports, adaptations and the lcore plan before the run. */
void app_view_plan(FILE *f, const struct wr_run *run);

/* Show one interval: in place on a terminal, plain lines otherwise. */
void app_view_interval(FILE *f, const struct wr_run *run,
		const struct wr_interval *iv, bool in_place);

/* One line per trial of a test mode: progress on long runs. */
void app_view_trial(FILE *f, const struct wr_run *run, const char *what,
		const struct wr_trial_summary *s);

/* The table of a test mode's results, from its JSON document. */
void app_view_mode(FILE *f, json_t *doc);

/* The final summary: per-port totals, streams, accounting. */
void app_view_summary(FILE *f, const struct wr_run *run);

/*
 * After trial t (0-based, warm-ups first) of a repeated run: say so on f
 * and, for a counted trial, append its result to trials. Returns 0, or -1
 * with a message on stderr.
 */
int app_trial_done(FILE *f, const struct wr_run *run, unsigned int t,
		json_t *trials);

/*
 * Build the result (with trials and their summary when trials is not
 * NULL), print the trials' summary on f, and write --json and --csv.
 * With keep, the document is also handed to *keep (the caller frees it).
 * Returns 0, or -1 with a message on stderr.
 */
int app_results_write(const struct wr_run *run, json_t *trials, FILE *f,
		json_t **keep);

/*
 * One run of cfg from set-up to close (run.c): a plain run's trials or a
 * test mode, the live view and progress on stdout, the result files.
 * A trial ends early once *stop is non-zero. With doc, the result
 * document is handed to *doc (NULL when the run failed before it had
 * one; the caller frees it). With ctl, the run is handed to the control
 * socket while it lives (control.h). Returns the exit code.
 */
struct app_ctl;
int app_run_all(const struct wr_config *cfg, const char *cmdline,
		const volatile int *stop, json_t **doc, struct app_ctl *ctl);

/*
 * wirerate serve [EAL options] -- --control PATH [options]: EAL up once,
 * runs on request through the control socket (serve.c, docs/api.md).
 * argv[0] is the program. Returns the exit code.
 */
int app_serve_main(int argc, char **argv);

/*
 * wirerate ctl [--timeout SECONDS] PATH METHOD [key=value...]: one
 * request to a control socket, its reply on stdout (ctl.c). Returns the
 * exit code: 0 a result, 1 an error reply, no server or no reply within
 * the timeout, 2 bad usage.
 */
int app_ctl_main(int argc, char **argv);

/* Write s escaped for XML or HTML text and attributes. */
void app_markup_text(FILE *f, const char *s);
/*
 * wr_result_write_json() with SIGINT and SIGTERM held until the file is in
 * place, so that a second signal (a quick exit) cannot leave the temporary
 * file behind. Returns 0 or a negative errno with a message in err.
 */
int app_write_json(json_t *doc, const char *path, struct wr_error *err);

/*
 * --capture: write the kept frames to the pcapng file atomically (signals
 * held) and say so on f. Returns 0 (also without --capture) or -1 with a
 * message on stderr.
 */
int app_capture_write(const struct wr_run *run, FILE *f);

/* The --mode mlr table: per size and goal (view_methods.c). */
void app_view_mlr(FILE *f, const json_t *results);

/* Latency under load per size, when the results have it. */
void app_view_lat_load(FILE *f, const json_t *results);

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
 * or no hugetlbfs; 2: an EAL option or device EAL refused), 0 otherwise.
 */
int app_eal_init(int argc, char **argv, int *exit_code);

/*
 * Before EAL: the index of "--" in argv (argc when there is none) in *dd.
 * Returns 0, or -1 with a message on stderr when a wirerate option comes
 * before -- (the message shows the command line that works) or an
 * unknown option there is close to a known one ("did you mean").
 */
int app_cmdline_check(int argc, char **argv, int *dd);

/*
 * rte_eal_cleanup(), then, in a primary process, remove what the EAL left
 * of this --file-prefix: hugepage files (kept with --single-file-segments)
 * and the runtime directory. This function can't fail.
 */
void app_eal_cleanup(void);

/* Once EAL is up: list the runtime directory for app_eal_quick_cleanup(). */
void app_eal_note_files(void);

/*
 * Remove the runtime directory listed by app_eal_note_files() with
 * async-signal-safe calls only (for a signal handler about to _exit).
 * Hugepage files need nothing: --huge-unlink, or --in-memory.
 */
void app_eal_quick_cleanup(void);

/*
 * Before any traffic: --json and --csv name a writable file or a file that
 * can be created (the directory exists and is writable), so a run never
 * ends without its results. Returns 0, or -1 with a message on stderr.
 */
int app_outputs_check(const struct wr_config *cfg);

/* `wirerate compare ...` (argv[0] is "compare"); returns the exit code. */
int app_compare_main(int argc, char **argv);

/* `wirerate report ...` (argv[0] is "report"); returns the exit code. */
int app_report_main(int argc, char **argv);

/*
 * wirerate merge SENDER.json RECEIVER.json [--json OUT]: the balance of a
 * two-ended run. argv[0] is "merge". Returns the exit code: 0 balanced,
 * 1 not balanced, 2 bad usage or input.
 */
int app_merge_main(int argc, char **argv);

/*
 * wirerate check [EAL options] -- [wirerate options]: the command line
 * checked as a run checks it, nothing started. argv[0] is the program.
 * Returns the exit code: 0 valid, 2 bad usage or input.
 */
int app_check_main(int argc, char **argv);

#endif /* WR_APP_H */
