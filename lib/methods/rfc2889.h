/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RFC 2889 (LAN switch benchmarking), the pure parts of its address
 * modes: the binary search on the number of addresses (section 5.7,
 * address caching capacity), the judgement of one trial, and the ageing
 * bound every trial must keep. The learning rate (5.8) searches the rate
 * of the learning frames with the RFC 2544 search (search.h) on the same
 * judgement. Nothing here sends, sleeps or prints.
 *
 * A trial (5.7): the switch's table is reset (a command the user names);
 * the learning port sends one learning frame from each of N source
 * addresses; the test port sends one test frame to each of the N; the
 * monitoring port counts what the switch floods. It passes when nothing
 * is flooded to the monitor and every test frame reaches the learning
 * port. Learning and test frames must all be sent inside the switch's
 * ageing time, or the first learned addresses may age out before their
 * test frame: a trial longer than it is refused.
 */
#ifndef WR_RFC2889_H
#define WR_RFC2889_H

#include <stdbool.h>
#include <stdint.h>

#include "base/error.h"
#include "search.h"

/* Most trials a count search records. */
#define WR_COUNT_SEARCH_MAX_TRIALS 64u

/* Parameters of the search on N. */
struct wr_count_search_conf {
	uint32_t min_nb;	/* smallest N tried, >= 1 */
	uint32_t max_nb;	/* first N tried, >= min_nb */
	uint32_t res_nb;	/* resolved when hi - lo <= res_nb, >= 1 */
	uint32_t max_trials;	/* 1..WR_COUNT_SEARCH_MAX_TRIALS */
};

/* One trial as reported. */
struct wr_count_trial {
	uint32_t nb;		/* addresses learned */
	bool pass;
};

/*
 * State of a search on N. Written only by its caller's thread. As the
 * rate search: hi is the smallest N that failed, lo the largest that
 * passed below hi (a pass above a failure is not believed).
 */
struct wr_count_search {
	struct wr_count_search_conf conf;
	uint32_t lo, hi;	/* valid with has_lo, has_hi */
	bool has_lo, has_hi;
	uint32_t next_nb;	/* N of the trial asked, not yet reported */
	uint32_t nb_trials;
	struct wr_count_trial trials[WR_COUNT_SEARCH_MAX_TRIALS];
};

/* What the search found. */
struct wr_count_result {
	bool found;		/* a pass below every failure */
	bool converged;		/* resolved before the trial cap */
	bool at_max;		/* max_nb passed: capacity at least max_nb */
	uint32_t capacity_nb;	/* largest N that passed (found) */
	uint32_t fail_nb;	/* smallest N that failed (0: none) */
};

/*
 * Start search s with conf c. Returns 0, or -EINVAL with err set (usage,
 * naming the bound that is wrong) for a bad conf.
 */
int wr_count_search_init(struct wr_count_search *s,
		const struct wr_count_search_conf *c, struct wr_error *err);

/*
 * The next trial: WR_SEARCH_TRIAL with *nb set, or WR_SEARCH_DONE. The
 * first trial is max_nb; then the midpoint of what is left. This function
 * can't fail.
 */
enum wr_search_step wr_count_search_next(struct wr_count_search *s,
		uint32_t *nb);

/*
 * Report the trial asked last. Returns 0, or -ENOSPC past the trial cap.
 */
int wr_count_search_report(struct wr_count_search *s, bool pass);

/* What search s found so far. This function can't fail. */
void wr_count_search_result(const struct wr_count_search *s,
		struct wr_count_result *r);

/* The counts of one trial of 5.7 or 5.8, each from its own port. */
struct wr_rfc2889_counts {
	uint64_t learn_sent_pkts;	/* learning frames sent */
	uint64_t test_sent_pkts;	/* test frames sent */
	uint64_t test_rx_pkts;		/* test frames at the learning port */
	uint64_t flooded_pkts;		/* test frames at the monitoring port */
};

/*
 * Whether trial c passes (RFC 2889 5.7.3 and 5.8.3): nothing flooded to
 * the monitor and every test frame sent delivered to the learning port.
 * This function can't fail.
 */
bool wr_rfc2889_pass(const struct wr_rfc2889_counts *c);

/* Timing of one trial, for the ageing bound. */
struct wr_rfc2889_timing {
	uint32_t nb;		/* addresses */
	double learn_pps;	/* learning frames' rate, > 0 */
	double test_pps;	/* test frames' rate, > 0 */
	double settle_s;	/* wait between learning and test frames */
};

/* Seconds from the first learning frame to the last test frame. */
double wr_rfc2889_trial_s(const struct wr_rfc2889_timing *t);

/*
 * Refuse trial t when it would outlast ageing time aging_s (the --aging
 * option; 0: unknown, not checked). Returns 0, or -EINVAL with err set
 * (usage, naming --aging, the trial's length and what to change).
 */
int wr_rfc2889_check_aging(const struct wr_rfc2889_timing *t, double aging_s,
		struct wr_error *err);

#endif /* WR_RFC2889_H */
