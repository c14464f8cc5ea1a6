/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * TSC pacer for one TX queue, owned by one worker lcore. Pure: the caller
 * passes the TSC value and frequency; nothing here reads a clock.
 *
 * Budget. The pacer earns frames at the target rate from the TSC given to
 * wr_pace_init(): after T seconds it has earned floor(rate * T) frames
 * (less what the clamp below took). wr_pace_grant() says how many the
 * worker may send now; wr_pace_commit() takes off the frames actually sent.
 * A TX ring that accepts fewer frames than granted costs nothing: the
 * unsent budget stays for the next call.
 *
 * Fixed point, exact. With F fractional bits, the rate is held as
 * earn = round(pps * 2^F) units per TSC cycle and a frame costs
 * cost = tsc_hz * 2^F units. Both are integers, so the credit is exact:
 * the sum of elapsed * earn over the calls is (now - start) * earn whatever
 * the calling pattern, and the budget after T seconds is exactly
 * floor(earn * T / 2^F) frames. There is no drift; the only error is the
 * rounding of the rate to 2^-(F+1) pps, none at all for integer rates or
 * rates such as 0.5 pps. F is the largest in [16, 32] that keeps
 * max(backlog, burst) * tsc_hz * 2^F below 2^62: at 3 GHz, F = 25 for 32
 * frames (an off-grid rate is then off by at most 0.0013 frame a day),
 * F = 19 for 2048 frames (0.08 frame a day), F = 16 for the largest
 * backlog accepted, 23456 frames (0.66 frame a day).
 *
 * No division or floating point per call: credit / cost is a multiply by
 * a precomputed 32-bit reciprocal plus one exact correction.
 *
 * Bursts and catch-up. A grant never exceeds max_burst. The unspent credit
 * is clamped to max_backlog_pkts frames (default: one burst, max_burst):
 * after a stall, or while the TX ring refuses frames, the worker keeps at
 * most that backlog, may send it straight away (in grants of at most
 * max_burst), then the target rate resumes. The
 * budget the clamp takes is counted in nb_clamped_pkts: a non-zero value
 * means the target rate was not reached. Sent + clamped + credit always
 * adds up to what was earned, exactly.
 *
 * Stalls. A clamp in a grant that came at least a sixteenth of the backlog
 * window (max_step_tsc / WR_PACE_STALL_DIV, at least a quarter of a burst's
 * time) after the previous one happened because the worker did not run
 * (the OS or the hypervisor took its CPU, or took it again while the
 * worker caught up), not because it ran too slowly: such grants count in
 * nb_stalls, the longest gap in max_stall_tsc and their sum in
 * stall_gap_tsc; their clamps, and any
 * clamp up to one backlog window after them (the worker catching up, or
 * taken off its CPU again for less), also count in stall_clamped_pkts. A
 * worker too slow for the rate, or a TX ring refusing frames, clamps in
 * grants about a burst apart, away from stalls.
 *
 * Unpaced mode (pps = WR_PACE_UNLIMITED): grant returns min(want,
 * max_burst) after one test, commit does nothing.
 *
 * TX loop (one pacer per queue, written only by the owning lcore):
 *	n = wr_pace_grant(&pace, rte_rdtsc(), burst);
 *	if (n == 0)
 *		continue;
 *	(fill pkts[0..n-1])
 *	sent = rte_eth_tx_burst(port, queue, pkts, n);
 *	wr_pace_commit(&pace, sent);
 *	(keep or free pkts[sent..n-1]: their budget is not lost)
 * A grant reserves nothing, so skipping the commit is committing 0.
 */
#ifndef WR_PACE_H
#define WR_PACE_H

#include <math.h>
#include <stdint.h>

#include <rte_branch_prediction.h>

/* Rate that turns pacing off. */
#define WR_PACE_UNLIMITED INFINITY
/* Largest max_burst accepted (rte_eth_tx_burst takes a uint16_t count). */
#define WR_PACE_MAX_BURST 4096u
/* Largest max_backlog_pkts accepted. */
#define WR_PACE_MAX_BACKLOG 65536u
/* A clamping grant this fraction of the backlog window late: a stall. */
#define WR_PACE_STALL_DIV 16u
/* Range of TSC frequencies accepted, in Hz. */
#define WR_PACE_MIN_TSC_HZ 1000000ULL
#define WR_PACE_MAX_TSC_HZ (1ULL << 40)
/* Fractional bits of the rate: at least this many, so split shares fit. */
#define WR_PACE_MIN_FRAC_BITS 16
#define WR_PACE_MAX_FRAC_BITS 32

/* What wr_pace_init() needs. */
struct wr_pace_conf {
	double pps;		   /* target rate (> 0), or WR_PACE_UNLIMITED */
	uint64_t tsc_hz;	   /* TSC frequency, WR_PACE_MIN/MAX_TSC_HZ */
	uint32_t max_burst;	   /* most frames per grant, 1..MAX_BURST */
	uint32_t max_backlog_pkts; /* most unspent frames kept; 0: max_burst */
};

/*
 * Pacer state. Every field is written only by the owning lcore; others
 * may read nb_clamped_pkts as a statistic (a torn read is harmless on
 * 64-bit targets).
 */
struct wr_pace {
	/* Read or written by every grant. */
	uint64_t credit;	/* unspent budget, cost units a frame */
	uint64_t last_tsc;	/* TSC up to which credit was earned */
	uint64_t earn;		/* units earned per TSC cycle */
	uint64_t cost;		/* units per frame; 0 when unpaced */
	uint64_t cap_units;	/* most credit kept: max_backlog_pkts frames */
	uint64_t max_step_tsc;	/* longest gap earned inline: cap / earn */
	uint64_t recip;		/* floor(2^(31 + recip_shift) / cost) */
	uint32_t recip_shift;	/* bit length of cost */
	uint32_t max_burst;	/* most frames per grant */
	/* Written on the rare paths only. */
	uint64_t nb_clamped_pkts; /* frames the cap took off the budget */
	uint64_t clamp_units;	/* clamped units short of a whole frame */
	uint64_t stall_clamped_pkts; /* of those, clamped after a stall */
	uint64_t nb_stalls;	/* clamping grants after a stall-long gap */
	uint64_t max_stall_tsc;	/* longest such gap */
	uint64_t stall_gap_tsc;	/* those gaps added up */
	uint64_t stall_tsc;	/* TSC of the last such grant */
	uint32_t frac_bits;	/* F: earn = round(pps * 2^F) */
	uint32_t max_backlog_pkts;
};

/*
 * Set p up for conf, starting with no credit at now_tsc: the first frame
 * is granted 1/pps seconds later.
 * Returns 0; -EINVAL for a NULL argument, a rate that is NaN, zero or
 * negative, or a burst, backlog or TSC frequency out of range; -ERANGE
 * when the rate is at least one frame per TSC cycle, below 2^-F pps, or
 * max(backlog, burst) * tsc_hz is too large for 16 fractional bits
 * (2^46 or more: above 23456 frames at 3 GHz).
 * On error *p is untouched.
 */
int wr_pace_init(struct wr_pace *p, const struct wr_pace_conf *conf,
		uint64_t now_tsc);

/*
 * A new rate for a pacer in use (a live update): p set up for conf as
 * wr_pace_init does, keeping what it counted so far (nb_clamped_pkts,
 * stall_clamped_pkts, nb_stalls, max_stall_tsc, stall_gap_tsc and
 * stall_tsc): a run's clamps and stalls are the sum over its rates. A
 * clamped fraction of a frame (clamp_units, in the old rate's units) goes.
 * Returns what wr_pace_init returns; on error *p is untouched.
 */
int wr_pace_rerate(struct wr_pace *p, const struct wr_pace_conf *conf,
		uint64_t now_tsc);

/*
 * The rate p actually paces at, after rounding to 2^-F pps; INFINITY when
 * unpaced. This function can't fail.
 */
double wr_pace_rate_pps(const struct wr_pace *p);

/*
 * Share idx of total_pps over n_workers, such that the shares add up
 * exactly to total_pps rounded to 1/65536 pps: the total is counted in
 * units of 2^-16 pps, every worker gets total / n units, and the first
 * total % n workers one unit more. Every share is exactly representable by
 * the pacer, so the workers together earn exactly the rounded total (each
 * floors its own budget, so together at most n_workers - 1 frames below).
 * Returns the share in pps, WR_PACE_UNLIMITED for an unlimited total, or 0
 * when the arguments are invalid (n_workers 0, idx >= n_workers, total NaN,
 * not positive or above 2^46 pps) or the share is below one unit: such a
 * worker must not transmit.
 */
double wr_pace_split(double total_pps, unsigned int n_workers,
		unsigned int idx);

/*
 * Rare path of wr_pace_grant(): the credit went above the cap gap_tsc
 * after the last call. Moves the excess to nb_clamped_pkts (and counts a
 * stall for a long gap). This function can't fail.
 */
void wr_pace_clamp(struct wr_pace *p, uint64_t gap_tsc);

/*
 * Rare path of wr_pace_grant(): now_tsc is more than max_step_tsc after
 * the last call (a stall: the credit is then full and the rest clamped),
 * or before it (the TSC went backwards: nothing is earned and the pacer
 * waits until the TSC passes the last value again). Can't fail.
 */
void wr_pace_catch_up(struct wr_pace *p, uint64_t now_tsc);

/*
 * Whole frames of unspent credit, floor(credit / cost), without dividing.
 * 0 when unpaced. This function can't fail.
 */
static inline uint64_t
wr_pace_backlog_pkts(const struct wr_pace *p)
{
	uint64_t q;

	if (p->credit < p->cost || p->cost == 0)
		return 0;
	/* Never above the true quotient, and at most one below it. */
	q = ((p->credit >> 31) * p->recip) >> p->recip_shift;
	if ((q + 1) * p->cost <= p->credit)
		q++;
	return q;
}

/*
 * Frames the worker may send at now_tsc: at most want, at most max_burst,
 * at most the whole frames earned and not yet committed. now_tsc must come
 * from the TSC whose frequency was given to wr_pace_init(). Nothing is
 * reserved: commit what was sent. This function can't fail.
 */
static inline uint32_t
wr_pace_grant(struct wr_pace *p, uint64_t now_tsc, uint32_t want)
{
	uint64_t elapsed_tsc = now_tsc - p->last_tsc;
	uint32_t lim = want < p->max_burst ? want : p->max_burst;

	if (p->cost == 0)
		return lim;
	if (likely(elapsed_tsc <= p->max_step_tsc)) {
		/* No overflow: elapsed * earn <= cap_units < 2^62. */
		p->last_tsc = now_tsc;
		p->credit += elapsed_tsc * p->earn;
		if (unlikely(p->credit > p->cap_units))
			wr_pace_clamp(p, elapsed_tsc);
	} else {
		wr_pace_catch_up(p, now_tsc);
	}
	if (p->credit >= (uint64_t)lim * p->cost)
		return lim;
	return (uint32_t)wr_pace_backlog_pkts(p);
}

/*
 * The end of the run at end_tsc (the TSC the stop was given at): earn up
 * to it as a grant would, sending nothing. A worker taken off its CPU just
 * before the end never made the late grant that clamps, so the frames it
 * owed would be missing from sent + clamped + credit; after this call they
 * are counted (as a stall's when the gap is a stall). Nothing when the
 * pacer is unpaced, or already past end_tsc (a grant earns nothing then:
 * wr_pace_catch_up). This function can't fail.
 */
static inline void
wr_pace_settle(struct wr_pace *p, uint64_t end_tsc)
{
	(void)wr_pace_grant(p, end_tsc, 0);
}

/*
 * Take sent frames off the budget: the number rte_eth_tx_burst() accepted,
 * at most what the last grant returned (more is a caller bug: the credit
 * then stops at 0 instead of wrapping). This function can't fail.
 */
static inline void
wr_pace_commit(struct wr_pace *p, uint32_t sent)
{
	uint64_t used = (uint64_t)sent * p->cost;

	p->credit = p->credit > used ? p->credit - used : 0;
}

#endif /* WR_PACE_H */
