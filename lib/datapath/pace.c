/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Set-up and rare paths of the TSC pacer; the hot path is inline in pace.h.
 * The rare paths need 128-bit products (a stall of hours at 100 Mpps earns
 * more than 2^64 units); they are done in two 64-bit words so the module
 * builds wherever DPDK does.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "pace.h"

/* Credit and burst limits stay below this many units, so 2 * cap fits. */
#define PACE_UNITS_LIMIT (1ULL << 62)
/* Fractional bits of a split share. */
#define PACE_SPLIT_FRAC_BITS 16

/* *hi:*lo = a * b. */
static void
pace_mul_u64(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
	uint64_t a_lo = a & 0xffffffffu, a_hi = a >> 32;
	uint64_t b_lo = b & 0xffffffffu, b_hi = b >> 32;
	uint64_t ll = a_lo * b_lo, lh = a_lo * b_hi;
	uint64_t hl = a_hi * b_lo, hh = a_hi * b_hi;
	uint64_t mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);

	*lo = (mid << 32) | (ll & 0xffffffffu);
	*hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}

/*
 * (hi:lo) / d with the remainder in *rem; needs hi < d, so the quotient
 * fits in 64 bits. Shift-and-subtract, one bit per round: rare path only.
 */
static uint64_t
pace_div128(uint64_t hi, uint64_t lo, uint64_t d, uint64_t *rem)
{
	uint64_t q = 0, top;
	int i;

	for (i = 0; i < 64; i++) {
		top = hi >> 63;
		hi = (hi << 1) | (lo >> 63);
		lo <<= 1;
		q <<= 1;
		if (top != 0 || hi >= d) {
			hi -= d;
			q |= 1;
		}
	}
	*rem = hi;
	return q;
}

/* Bit length of v > 0: the k with 2^(k-1) <= v < 2^k. */
static uint32_t
pace_bit_len(uint64_t v)
{
	return 64u - (uint32_t)__builtin_clzll(v);
}

/* Check conf; the rate range is checked by pace_fixed_point(). */
static int
pace_check_conf(const struct wr_pace_conf *conf)
{
	if (conf->max_burst == 0 || conf->max_burst > WR_PACE_MAX_BURST)
		return -EINVAL;
	if (conf->max_backlog_pkts > WR_PACE_MAX_BACKLOG)
		return -EINVAL;
	if (conf->tsc_hz < WR_PACE_MIN_TSC_HZ ||
			conf->tsc_hz > WR_PACE_MAX_TSC_HZ)
		return -EINVAL;
	if (isnan(conf->pps) || !(conf->pps > 0.0))
		return -EINVAL;
	return 0;
}

/*
 * Pick F, the largest number of fractional bits for which every limit
 * (backlog or burst) in units stays below 2^62, and fill earn, cost, cap,
 * the inline step limit and the reciprocal. Returns 0 or -ERANGE.
 */
static int
pace_fixed_point(struct wr_pace *p, double pps, uint64_t tsc_hz)
{
	uint64_t lim_pkts = p->max_backlog_pkts > p->max_burst ?
		p->max_backlog_pkts : p->max_burst;
	uint64_t num_hi, num_lo, rem;
	int f = WR_PACE_MAX_FRAC_BITS;

	if (pps >= (double)tsc_hz)
		return -ERANGE;
	/* lim_pkts * tsc_hz < 2^57: no overflow before the shift. */
	while (f >= WR_PACE_MIN_FRAC_BITS &&
			lim_pkts * tsc_hz >= (PACE_UNITS_LIMIT >> f))
		f--;
	if (f < WR_PACE_MIN_FRAC_BITS)
		return -ERANGE;
	p->frac_bits = (uint32_t)f;
	p->earn = (uint64_t)llround(ldexp(pps, f));
	p->cost = tsc_hz << f;
	if (p->earn == 0 || p->earn >= p->cost)
		return -ERANGE;
	p->cap_units = p->max_backlog_pkts * p->cost;
	p->max_step_tsc = p->cap_units / p->earn;
	/* cost >= 2^35 (tsc_hz >= 2^19, f >= 16): the estimate is q or q-1. */
	p->recip_shift = pace_bit_len(p->cost);
	num_hi = p->recip_shift + 31 >= 64 ?
		1ULL << (p->recip_shift + 31 - 64) : 0;
	num_lo = p->recip_shift + 31 >= 64 ? 0 : 1ULL << (p->recip_shift + 31);
	p->recip = pace_div128(num_hi, num_lo, p->cost, &rem);
	return 0;
}

int
wr_pace_init(struct wr_pace *p, const struct wr_pace_conf *conf,
		uint64_t now_tsc)
{
	struct wr_pace tmp;
	int rc;

	if (p == NULL || conf == NULL)
		return -EINVAL;
	rc = pace_check_conf(conf);
	if (rc < 0)
		return rc;
	memset(&tmp, 0, sizeof(tmp));
	tmp.last_tsc = now_tsc;
	tmp.max_burst = conf->max_burst;
	tmp.max_backlog_pkts = conf->max_backlog_pkts != 0 ?
		conf->max_backlog_pkts : conf->max_burst;
	if (!isinf(conf->pps)) {
		rc = pace_fixed_point(&tmp, conf->pps, conf->tsc_hz);
		if (rc < 0)
			return rc;
	}
	*p = tmp;
	return 0;
}

int
wr_pace_rerate(struct wr_pace *p, const struct wr_pace_conf *conf,
		uint64_t now_tsc)
{
	struct wr_pace tmp;
	int rc;

	if (p == NULL)
		return -EINVAL;
	rc = wr_pace_init(&tmp, conf, now_tsc);
	if (rc < 0)
		return rc;
	tmp.nb_clamped_pkts = p->nb_clamped_pkts;
	tmp.stall_clamped_pkts = p->stall_clamped_pkts;
	tmp.nb_stalls = p->nb_stalls;
	tmp.max_stall_tsc = p->max_stall_tsc;
	tmp.stall_gap_tsc = p->stall_gap_tsc;
	tmp.stall_tsc = p->stall_tsc;
	*p = tmp;
	return 0;
}

double
wr_pace_rate_pps(const struct wr_pace *p)
{
	if (p->cost == 0)
		return WR_PACE_UNLIMITED;
	return ldexp((double)p->earn, -(int)p->frac_bits);
}

double
wr_pace_split(double total_pps, unsigned int n_workers, unsigned int idx)
{
	uint64_t units, share;

	if (n_workers == 0 || idx >= n_workers || isnan(total_pps) ||
			!(total_pps > 0.0))
		return 0.0;
	if (isinf(total_pps))
		return WR_PACE_UNLIMITED;
	if (total_pps > ldexp(1.0, 46))
		return 0.0;
	units = (uint64_t)llround(ldexp(total_pps, PACE_SPLIT_FRAC_BITS));
	share = units / n_workers + (idx < units % n_workers ? 1 : 0);
	return ldexp((double)share, -PACE_SPLIT_FRAC_BITS);
}

/*
 * A clamp of n frames in the grant at last_tsc, gap_tsc after the one
 * before: a stall if long, or in the window after one.
 */
static void
pace_note_stall(struct wr_pace *p, uint64_t gap_tsc, uint64_t n)
{
	if (gap_tsc >= p->max_step_tsc / WR_PACE_STALL_DIV) {
		p->nb_stalls++;
		p->stall_gap_tsc += gap_tsc;
		p->stall_tsc = p->last_tsc;
		if (gap_tsc > p->max_stall_tsc)
			p->max_stall_tsc = gap_tsc;
	} else if (p->nb_stalls == 0 ||
			p->last_tsc - p->stall_tsc > p->max_step_tsc) {
		return;
	}
	p->stall_clamped_pkts += n;
}

void
wr_pace_clamp(struct wr_pace *p, uint64_t gap_tsc)
{
	/* credit <= 2 * cap < 2^63 and clamp_units < cost < 2^62: no wrap. */
	uint64_t excess = p->credit - p->cap_units + p->clamp_units;

	p->nb_clamped_pkts += excess / p->cost;
	p->clamp_units = excess % p->cost;
	p->credit = p->cap_units;
	pace_note_stall(p, gap_tsc, excess / p->cost);
}

void
wr_pace_catch_up(struct wr_pace *p, uint64_t now_tsc)
{
	uint64_t elapsed_tsc = now_tsc - p->last_tsc;
	uint64_t hi, lo, add, rem, n;

	if (elapsed_tsc > (uint64_t)INT64_MAX)
		return; /* the TSC went backwards: earn nothing */
	p->last_tsc = now_tsc;
	/*
	 * elapsed > max_step, so elapsed * earn > cap: the credit ends full
	 * and the excess, credit + earned + clamp_units - cap, is clamped.
	 */
	pace_mul_u64(elapsed_tsc, p->earn, &hi, &lo);
	add = p->credit + p->clamp_units; /* < 2^63 */
	lo += add;
	hi += lo < add;
	hi -= lo < p->cap_units;
	lo -= p->cap_units;
	n = pace_div128(hi, lo, p->cost, &rem);
	p->nb_clamped_pkts += n;
	p->clamp_units = rem;
	p->credit = p->cap_units;
	pace_note_stall(p, elapsed_tsc, n);
}
