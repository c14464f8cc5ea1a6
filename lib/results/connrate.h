/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --mode conn-rate (docs/tcp.md "Connection modes"): the figures of one
 * trial of the maximum connection establishment rate search (RFC 9693),
 * taken as the difference of the engines' books at the trial's start and
 * end, what the search is told of it, the verdict, and their JSON; the
 * point report and compare read back (metric conn_max_cps). Pure: no EAL.
 */
#ifndef WR_RESULTS_CONNRATE_H
#define WR_RESULTS_CONNRATE_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/error.h"
#include "conn/engine.h"
#include "results/figures.h"
#include "results/kinds.h"

/* One trial: connections opened at cps per port for duration_s. */
struct wr_connrate_trial {
	double cps;                /* intended, per port */
	double duration_s;         /* opening time, measured */
	uint64_t nb_attempted;     /* SYNs of new connections sent */
	uint64_t nb_completed;     /* completed by the trial's end + grace */
	uint64_t nb_failed;        /* attempted and not completed by then */
	uint64_t nb_unsent;        /* starts the generator could not make */
	uint64_t nb_unsent_pool;   /* its pool was full */
	uint64_t nb_unsent_tuples; /* no free source tuple */
	uint64_t nb_unsent_tx;     /* no TX buffer for the SYN */
	uint64_t nb_unsent_late;   /* skipped: its lcore was held up */
	uint64_t nb_syn_rtx;       /* segments resent after an RTO */
	uint64_t nb_tx_refused;    /* frames the port refused (freed; TCP
	                            * resends them): the generator's limit */
};

/*
 * t from the books before and after the trial (every lcore summed): the
 * trial's attempted, completed and unsent are differences; failed is
 * attempted - completed (a connection still open at the end failed).
 * This function can't fail.
 */
void wr_connrate_trial_of(const struct wr_conn_books *before,
		const struct wr_conn_books *after, double cps, double duration_s,
		struct wr_connrate_trial *t);

/* Whether t is the generator's limit: starts it could not make, or
 * frames its port refused. This function can't fail. */
bool wr_connrate_limited(const struct wr_connrate_trial *t);

/*
 * What the search (search.h) is told of t: *sent starts due (attempted
 * + unsent, at least 1) and the returned loss. A trial that is the
 * generator's limit (wr_connrate_limited) counts as lossy beyond every
 * ratio (all *sent), never as a pass. This function can't fail.
 */
uint64_t wr_connrate_loss(const struct wr_connrate_trial *t, uint64_t *sent);

/* The trial as a "trials" entry ("what": "conn-rate"); NULL: no memory. */
json_t *wr_connrate_trial_json(const struct wr_connrate_trial *t);

/* Append t, passed or not, to trials. Without memory nothing is added. */
void wr_connrate_trial_record(json_t *trials, const struct wr_connrate_trial *t,
		bool pass);

/* Who limits the rate found (the verdict's "limit"). */
enum wr_connrate_limit {
	WR_CONNRATE_DEVICE = 0,  /* connections failed just above it */
	WR_CONNRATE_GENERATOR,   /* the generator could not start them all */
	WR_CONNRATE_TOP,         /* none failed up to --conn-rate */
};

/* The search's answer, with the trial at its upper bound (NULL: none). */
struct wr_connrate_verdict {
	double top_cps;
	double pdr_ratio;          /* tolerated failure ratio; 0: none */
	struct wr_search_result r;
	const struct wr_connrate_trial *upper; /* the first failing trial */
	uint32_t nb_limited;       /* trials with unsent starts */
	enum wr_connrate_limit limit;
};

/*
 * The verdict of r over nb trials (in order): who limits, and the trial
 * at the NDR's upper bound. This function can't fail.
 */
void wr_connrate_judge(struct wr_connrate_verdict *v,
		const struct wr_connrate_trial *trials, uint32_t nb);

/* The doc's "conn_rate" object of v, with its sentence; NULL: no memory. */
json_t *wr_connrate_json(const struct wr_connrate_verdict *v);

/* doc's "conn_rate" := wr_connrate_json(v). This function can't fail. */
void wr_connrate_put(json_t *doc, const struct wr_connrate_verdict *v);

/* The verdict in one sentence into buf. This function can't fail. */
void wr_connrate_sentence(const struct wr_connrate_verdict *v, char *buf,
		size_t len);

/*
 * kinds.c: the point of a conn-rate result (conn_max_cps, and
 * conn_max_cps_pdr with a ratio), none while the search runs. Returns 0
 * or -EINVAL with err.
 */
int wr_connrate_points(const json_t *doc, struct wr_points *out,
		struct wr_error *err);

#endif /* WR_RESULTS_CONNRATE_H */
