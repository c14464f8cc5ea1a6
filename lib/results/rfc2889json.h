/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The "rfc2889" object of a --mode addr-capacity or addr-learning result
 * (docs/rfc2889.md, docs/results.md): the settings, each trial's counts
 * and the figure found. The method (methods/mode_rfc2889.c) hands over
 * the structs below; only this file writes their keys. Pure: no EAL.
 */
#ifndef WR_RFC2889JSON_H
#define WR_RFC2889JSON_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "kinds.h"
#include "config/config.h"

/* One address trial as recorded. */
struct wr_rfc2889_trial_rec {
	uint32_t nb;			/* addresses learned */
	double learn_pps;		/* learning frames' rate */
	double test_pps;		/* test frames' rate */
	uint64_t learn_sent_pkts;	/* at the learning port */
	uint64_t test_sent_pkts;	/* at the test port */
	uint64_t test_rx_pkts;		/* test frames back at the learning port */
	uint64_t flooded_pkts;		/* test frames at the monitoring port */
	uint64_t learn_flooded_pkts;	/* learning frames at the monitoring port */
	double reset_s;			/* the --fdb-reset command's time */
	double duration_s;		/* first learning frame to the last count */
	bool pass;
};

/* What a search found (5.7: on addresses; 5.8: on the learning rate). */
struct wr_rfc2889_found {
	bool found;		/* a pass below every failure */
	bool converged;		/* resolved before the trial cap */
	bool at_max;		/* the top of the range passed */
	uint32_t capacity_nb;	/* 5.7: largest count that passed */
	uint32_t fail_nb;	/* 5.7: smallest count that failed, 0: none */
	uint32_t nb;		/* 5.8: the addresses of each trial */
	double rate_pps;	/* 5.8: fastest learning rate that passed */
	double fail_pps;	/* 5.8: slowest that failed, 0: none */
};

/*
 * The "rfc2889" object of doc for cfg's mode: its settings (ports by run
 * index with macs[], each port's MAC; the address plan; the rates) and
 * an empty "trials"; NULL without memory. Owned by doc.
 */
json_t *wr_rfc2889_doc(json_t *doc, const struct wr_config *cfg,
		const struct rte_ether_addr macs[3]);

/* Append trial t to o's "trials". This function can't fail. */
void wr_rfc2889_trial_json(json_t *o, const struct wr_rfc2889_trial_rec *t);

/*
 * Set o's "result" from f (addr-capacity: capacity keys; addr-learning:
 * rate keys). This function can't fail.
 */
void wr_rfc2889_found_json(json_t *o, enum wr_mode mode,
		const struct wr_rfc2889_found *f);

/*
 * The one point of an addr-capacity or addr-learning result doc (for
 * compare and report, kinds.h): 64-byte frames, its capacity or its
 * learning rate; none while the search runs or when it found nothing.
 * Returns 0 or -EINVAL with err naming the missing field.
 */
int wr_rfc2889_points(const json_t *doc, struct wr_points *out,
		struct wr_error *err);

#endif /* WR_RFC2889JSON_H */
