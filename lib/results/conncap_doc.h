/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The "capacity" object of a --mode conn-capacity result
 * (docs/conncap.md), written here alone; methods/conncap.c fills the
 * figures.
 */
#ifndef WR_RESULTS_CONNCAP_DOC_H
#define WR_RESULTS_CONNCAP_DOC_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/error.h"

/* A capacity run's figures, plain values. */
struct wr_conncap_doc {
	const char *phase;         /* "fill", "settle", "check", "done" */
	const char *ended_by;      /* "failure", "ceiling", "stopped", "none" */
	bool found;                /* the capacity was read */
	bool settled;              /* with no handshake open then */
	uint64_t capacity;         /* connections held (found) */
	uint64_t ceiling;
	uint64_t rate_cps;
	double syn_timeout_s;
	double fill_s;             /* the fill's end, since the start */
	uint64_t attempted;        /* when read (else at the end) */
	uint64_t failed;
	uint64_t failed_syn;       /* SYN timeouts and refusals */
	uint64_t held_peak;
	uint64_t checks_ok;        /* held ones whose check got a 2xx */
	bool running;              /* read during the fill (a checkpoint) */
	uint64_t held_now;         /* held at that reading (running) */
};

/* Put d into doc as "capacity". Returns 0, or -ENOMEM with err filled. */
int wr_results_conncap_put(json_t *doc, const struct wr_conncap_doc *d,
	struct wr_error *err);

#endif /* WR_RESULTS_CONNCAP_DOC_H */
