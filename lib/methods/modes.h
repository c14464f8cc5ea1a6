/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Test modes made of several trials on one set of ports: a frame-size
 * sweep, and the RFC 2544 benchmarks: throughput (26.1, with latency at the
 * throughput rate, 26.2), frame loss rate (26.3) and back-to-back frames
 * (26.4). Each trial is a real traffic phase judged by the receiver's exact
 * accounting (loss = sent - received by sequence numbers).
 */
#ifndef WR_MODES_H
#define WR_MODES_H

#include <stdbool.h>

#include <jansson.h>

#include "base/error.h"
#include "measure/progress.h"
#include "results/connrate.h"
#include "results/figures.h"
#include "trial/trial.h"

/*
 * A far end that counts the frames of each trial (two-ended runs,
 * docs/twoended.md; app/run/peer.c). begin: before the trial's set-up
 * (the run's trial tag, wr_run_seq_tag, and the far end told). judge:
 * after its stop, before it is recorded: s's received and lost become the
 * far end's counts. note: the trial's record (the last of trials) takes
 * what the far end said of it, and earlier records late frames; with both,
 * the far end sends too and --mode throughput searches each direction on
 * its own (mode_both.c). begin and
 * judge return 0 or a negative errno with err set: the trial is then not
 * recorded and the method stops (the trials before it stand).
 */
struct wr_mode_far {
	int (*begin)(struct wr_run *run, const struct wr_trial *t, double up_pps,
			void *arg, struct wr_error *err);
	int (*judge)(struct wr_run *run, struct wr_trial_summary *s,
			struct wr_trial_summary *up, void *arg, struct wr_error *err);
	void (*note)(json_t *trials, void *arg);
	void *arg;
	/*
	 * Both directions: the far end sends to this run too, at up_pps per
	 * TX port (begin), and judge fills up with that direction's trial
	 * (its sent, this run's received). false: up_pps 0, up NULL.
	 */
	bool both;
	/* both: the far end's 100 % for frames of size bytes */
	double (*up_max_pps)(uint32_t size, void *arg);
};

/*
 * --mode conn-rate and conn-load with --peer (app/run/connpeer_mode.c):
 * the far end's server books, trial by trial. begin: before the trial's
 * set-up, the far end's books then. judge: after the trial's drain,
 * with the client's books over the trial (d, its nb_open what is open
 * here now): the far end's books over the trial go into rec (the
 * trial's record) as "far", checked against d. Both return 0 (judge:
 * also when d's failures leave the books unjudged), 1 (judge: the two
 * ends' books disagree; the method goes on) or a negative errno with
 * err (the far end was lost: the method stops; the trials before
 * stand).
 */
struct wr_mode_conn_far {
	int (*begin)(void *arg, struct wr_error *err);
	int (*judge)(const struct wr_conn_books *d, json_t *rec, void *arg,
			struct wr_error *err);
	void *arg;
};

/*
 * Callbacks into app/: trials done, live intervals, the stop signal, and
 * the progress before each trial (p stays valid and is updated in place
 * until wr_mode_run returns; NULL: not wanted).
 */
struct wr_mode_hooks {
	const volatile int *signals;
	wr_run_interval_cb on_interval;
	void (*on_trial)(const struct wr_run *run, const char *what,
			const struct wr_trial_summary *s, void *arg);
	void *arg;
	void (*on_progress)(const struct wr_progress *p, void *arg);
	const struct wr_mode_far *far;  /* NULL: the run receives itself */
	/* --mode conn-rate: a trial done, passed or not (NULL: not wanted). */
	void (*on_conn_trial)(const struct wr_connrate_trial *t, bool pass,
			void *arg);
	/* --mode conn-load: a trial done, its "trials" entry (NULL: not
	 * wanted). */
	void (*on_conn_load)(const json_t *cell, void *arg);
	/* --mode conn-teardown: a trial done, its "trials" entry (NULL: not
	 * wanted). */
	void (*on_conn_tear)(const json_t *trial, void *arg);
	/* --mode conn-rate, conn-load: the far end's books (NULL: none). */
	const struct wr_mode_conn_far *conn_far;
};

/* Summarise the last (stopped) trial of run. This function can't fail. */
void wr_mode_summarize(const struct wr_run *run, struct wr_trial_summary *s);

/*
 * Run run->setup.cfg->mode over every frame size and fill doc (from
 * wr_result_head) with "mode", "trials" and "results". Returns 0, -EINTR
 * when a signal cut it short (doc holds what was done), or a negative errno
 * with a message.
 */
int wr_mode_run(struct wr_run *run, const struct wr_mode_hooks *hooks,
		json_t *doc, struct wr_error *err);

/* Name of a mode, as --mode takes it. */
const char *wr_mode_name(enum wr_mode mode);

#endif /* WR_MODES_H */
