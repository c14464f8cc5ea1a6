/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --mode conn-teardown (docs/connteardown.md): the figures of one trial
 * of the connection tear-down rate search (RFC 9693), taken as the
 * difference of the engines' tear-down books (conn/engine.h nb_close_*)
 * at the trial's start and end, what the search is told of it, the
 * verdict and their JSON; the point report and compare read back
 * (metric conn_teardown_cps). Pure: no EAL.
 */
#ifndef WR_RESULTS_CONNTEAR_H
#define WR_RESULTS_CONNTEAR_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/error.h"
#include "conn/engine.h"
#include "results/figures.h"
#include "results/kinds.h"

/* One trial: a table of nb_target filled, then closed at cps per port. */
struct wr_conntear_trial {
	double cps;                /* close rate asked, per port */
	double fill_s;             /* seconds the fill took */
	double close_s;            /* seconds from the first close asked to
	                            * the last ended (or the trial's limit) */
	uint64_t nb_target;        /* connections the fill was to hold */
	uint64_t nb_held;          /* held when the closes began */
	uint64_t nb_attempted;     /* closes: FINs the pass sent */
	uint64_t nb_done;          /* FIN acked and the peer's FIN received */
	uint64_t nb_failed;        /* RST, FIN not acked, or too late */
	uint64_t nb_timeout;       /* of the failed: not complete in time */
	uint64_t nb_open;          /* still closing at the trial's end */
	uint64_t nb_unsent;        /* held ones the pass did not close
	                            * (the generator's limit) */
	uint64_t nb_tx_refused;    /* frames the port refused (the
	                            * generator's limit) */
};

/*
 * t's closes from the books before and after the trial (every lcore
 * summed). Closes still open before the trial fail as it starts (the
 * engine resets them, wr_conn_engine_reopen): they count in before's
 * failed, not in t's. held: held when the closes began. Returns whether
 * the books close (attempted = done + failed + open). Can't fail.
 */
bool wr_conntear_trial_of(const struct wr_conn_books *before,
		const struct wr_conn_books *after, uint64_t held,
		struct wr_conntear_trial *t);

/* Whether t is the generator's limit: held ones not closed, or frames
 * its port refused. Can't fail. */
bool wr_conntear_limited(const struct wr_conntear_trial *t);

/*
 * What the search (search.h) is told of t: *sent the closes due (held,
 * at least 1) and the returned loss: failed + open, or all *sent for
 * the generator's limit or an empty trial. Can't fail.
 */
uint64_t wr_conntear_loss(const struct wr_conntear_trial *t, uint64_t *sent);

/* Append t, passed or not, to trials ("what": "conn-teardown"). Without
 * memory nothing is added. */
void wr_conntear_trial_record(json_t *trials, const struct wr_conntear_trial *t,
		bool pass);

/* The search's answer (max_cps < 0: none found). */
struct wr_conntear_verdict {
	double top_cps;
	uint64_t nb_conns;         /* --conn-count, per port */
	struct wr_search_result r;
	uint32_t nb_limited;       /* trials of the generator's limit */
	bool fill_short;           /* a fill held fewer than nb_conns */
};

/* doc's "conn_teardown" object of v, with its sentence. Can't fail
 * (without memory the object is left out). */
void wr_conntear_put(json_t *doc, const struct wr_conntear_verdict *v,
		const struct wr_conntear_trial *trials, uint32_t nb);

/*
 * kinds.c: the point of a conn-teardown result (conn_teardown_cps),
 * none while the search runs. Returns 0 or -EINVAL with err.
 */
int wr_conntear_points(const json_t *doc, struct wr_points *out,
		struct wr_error *err);

#endif /* WR_RESULTS_CONNTEAR_H */
