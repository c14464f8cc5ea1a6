/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Connection table capacity (RFC 9693 section 7, --mode conn-capacity,
 * docs/conncap.md), pure: the phases of one capacity run decided from
 * the client's books, read once per interval, and the figures of its
 * "capacity" object in the result (results/conncap_doc.h).
 *
 * fill:   the client opens at its rate and holds every connection
 *         (conn/hold.c) until the first failed connection (a SYN not
 *         answered within the SYN timeout, counted once however often
 *         it was sent; a refusal; any other failure) or the ceiling
 *         (every start made), or a stop (signal, --duration);
 * settle: the opening stopped (the drain); the handshakes under way end
 *         held or failed; then the capacity is the count held;
 * check:  the held ones are released: each sends one more request, and
 *         a 2xx answer proves it still carried traffic; then each closes;
 * done:   nothing open.
 */
#ifndef WR_METHODS_CONNCAP_H
#define WR_METHODS_CONNCAP_H

#include <stdbool.h>
#include <stdint.h>

#include "conn/engine.h"
#include "results/conncap_doc.h"

enum wr_conncap_phase {
	WR_CONNCAP_FILL = 0,
	WR_CONNCAP_SETTLE,
	WR_CONNCAP_CHECK,
	WR_CONNCAP_DONE,
};

/* What ended the fill. */
enum wr_conncap_why {
	WR_CONNCAP_NOT_YET = 0,
	WR_CONNCAP_BY_FAILURE,  /* the first failed connection */
	WR_CONNCAP_BY_CEILING,  /* every connection of the ceiling started */
	WR_CONNCAP_BY_STOP,     /* a signal or --duration */
};

/* What the caller does after a step. */
enum wr_conncap_act {
	WR_CONNCAP_WAIT = 0,
	WR_CONNCAP_DRAIN,       /* stop opening (wr_run_conn_drain) */
	WR_CONNCAP_RELEASE,     /* release the held (wr_run_conn_release) */
	WR_CONNCAP_END,         /* nothing open: the run is over */
};

/* One capacity run; the caller's, on the stats core. */
struct wr_conncap {
	uint64_t ceiling;       /* connections to start at most */
	double settle_max_s;    /* the settle's limit: then held counts */
	uint8_t phase;          /* enum wr_conncap_phase */
	uint8_t why;            /* enum wr_conncap_why */
	bool settled;           /* false: the settle's limit ended it with
				 * handshakes or first requests open */
	double t_stop_s;        /* the opening stopped */
	double t_settled_s;     /* the capacity was read */
	uint64_t capacity;      /* held at t_settled_s */
	uint64_t attempted;     /* connections opened, by t_settled_s */
	uint64_t failed;        /* failed, by t_settled_s (all classes) */
	uint64_t failed_syn;    /* of them: SYN timeout and refused */
};

/* A run of ceiling connections whose settle lasts settle_max_s at
 * most. This function can't fail. */
void wr_conncap_init(struct wr_conncap *c, uint64_t ceiling,
	double settle_max_s);

/*
 * One step at t_s (seconds since the start) from the books b summed
 * over the engines; stop: a signal or the end of --duration. Returns
 * what the caller does now (each act once, in order). This function
 * can't fail.
 */
enum wr_conncap_act wr_conncap_step(struct wr_conncap *c,
	const struct wr_conn_books *b, double t_s, bool stop);

/* The fill's end as a word: "failure", "ceiling", "stopped" or "none". */
const char *wr_conncap_why_name(uint8_t why);

/* The result's figures of c (results/conncap_doc.h) from the final books
 * b, the opening rate cps and the SYN timeout. This function can't fail. */
void wr_conncap_doc(const struct wr_conncap *c, const struct wr_conn_books *b,
	uint64_t cps, uint64_t syn_timeout_us, struct wr_conncap_doc *d);

#endif /* WR_METHODS_CONNCAP_H */
