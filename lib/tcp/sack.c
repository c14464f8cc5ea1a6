/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The SACK sender's scoreboard and its pool (sack.h). Offsets from
 * snd_una (a 32-bit difference) order sequence numbers, so the window
 * may straddle 2^32.
 */
#include <errno.h>
#include <string.h>

#include "tcp/sack.h"
#include "tcp/seq.h"

size_t
wr_tcp_sb_mem_bytes(uint32_t nb_sbs, uint32_t nb_conns)
{
	return (size_t)nb_sbs * sizeof(struct wr_tcp_sb) +
		(size_t)nb_sbs * sizeof(uint16_t) +
		(size_t)nb_conns * sizeof(uint16_t);
}

int
wr_tcp_sb_pool_init(struct wr_tcp_sb_pool *p, void *mem, uint32_t nb_sbs,
	const struct wr_tcp_conn *conns, uint32_t nb_conns,
	struct wr_error *err)
{
	uint32_t i;

	if (nb_sbs == 0 || nb_sbs >= WR_TCP_SB_NONE)
		return wr_err_usage(err, -EINVAL,
			"tcp scoreboards: %u, want 1 to %u", nb_sbs,
			WR_TCP_SB_NONE - 1);
	p->sbs = mem;
	p->free_idx = (uint16_t *)(p->sbs + nb_sbs);
	p->of_conn = p->free_idx + nb_sbs;
	p->nb_sbs = nb_sbs;
	p->conns = conns;
	p->nb_conns = nb_conns;
	p->nb_taken = 0;
	p->nb_refused = 0;
	for (i = 0; i < nb_sbs; i++)
		p->free_idx[i] = (uint16_t)(nb_sbs - 1 - i);
	p->nb_free = nb_sbs;
	for (i = 0; i < nb_conns; i++)
		p->of_conn[i] = WR_TCP_SB_NONE;
	return 0;
}

struct wr_tcp_sb *
wr_tcp_sb_hold(struct wr_tcp_sb_pool *p, uint32_t conn_idx,
	uint32_t snd_una)
{
	struct wr_tcp_sb *sb;
	uint16_t i = p->of_conn[conn_idx];

	if (i != WR_TCP_SB_NONE)
		return &p->sbs[i];
	if (p->nb_free == 0)
		return NULL;
	i = p->free_idx[--p->nb_free];
	p->of_conn[conn_idx] = i;
	sb = &p->sbs[i];
	memset(sb, 0, sizeof(*sb));
	sb->high_rxt = snd_una;
	sb->lost_to = snd_una;
	sb->rxt_mark = snd_una;
	return sb;
}

struct wr_tcp_sb *
wr_tcp_sb_take(struct wr_tcp_sb_pool *p, uint32_t conn_idx,
	uint32_t snd_una)
{
	struct wr_tcp_sb *sb = wr_tcp_sb_hold(p, conn_idx, snd_una);

	if (sb == NULL) {
		p->nb_refused++;
		return NULL;
	}
	p->nb_taken++;
	sb->high_rxt = snd_una;
	sb->lost_to = snd_una;
	sb->rxt_mark = snd_una;
	return sb;
}

struct wr_tcp_sb *
wr_tcp_sb_of(const struct wr_tcp_sb_pool *p, uint32_t conn_idx)
{
	uint16_t i = p->of_conn[conn_idx];

	return i == WR_TCP_SB_NONE ? NULL : &p->sbs[i];
}

void
wr_tcp_sb_give(struct wr_tcp_sb_pool *p, uint32_t conn_idx)
{
	uint16_t i = p->of_conn[conn_idx];

	if (i == WR_TCP_SB_NONE)
		return;
	p->free_idx[p->nb_free++] = i;
	p->of_conn[conn_idx] = WR_TCP_SB_NONE;
}

/* Drop the ranges snd_una passed, cut the one it is inside. */
static void
sb_advance(struct wr_tcp_sb *sb, uint32_t snd_una)
{
	uint32_t i = 0, n = sb->nb_ranges;

	while (i < n && wr_tcp_seq_le(sb->r[i].end, snd_una))
		i++;
	if (i > 0) {
		memmove(&sb->r[0], &sb->r[i], (n - i) * sizeof(sb->r[0]));
		n -= i;
	}
	if (n > 0 && wr_tcp_seq_lt(sb->r[0].start, snd_una))
		sb->r[0].start = snd_una;
	sb->nb_ranges = (uint16_t)n;
	if (wr_tcp_seq_lt(sb->high_rxt, snd_una))
		sb->high_rxt = snd_una;
	if (wr_tcp_seq_lt(sb->lost_to, snd_una))
		sb->lost_to = snd_una;
	if (wr_tcp_seq_lt(sb->rxt_mark, snd_una))
		sb->rxt_mark = snd_una;
	if (sb->forgot && wr_tcp_seq_ge(snd_una, sb->forgot_from))
		sb->forgot = 0;
}

/* A range starting at s was forgotten (the scoreboard full). */
static void
sb_forget(struct wr_tcp_sb *sb, uint32_t una, uint32_t s)
{
	if (!sb->forgot || s - una < sb->forgot_from - una)
		sb->forgot_from = s;
	sb->forgot = 1;
}

/* Range g is kept: if it covers where the forgotten ranges began, the
 * scoreboard knows that part again. */
static void
sb_kept(struct wr_tcp_sb *sb, uint32_t una, const struct wr_tcp_range *g)
{
	if (sb->forgot && g->start - una <= sb->forgot_from - una &&
		sb->forgot_from - una < g->end - una)
		sb->forgot = 0;
}

/* Insert [s, e) (offsets from una ordered), merging with neighbours. */
static void
sb_add(struct wr_tcp_sb *sb, uint32_t una, uint32_t s, uint32_t e)
{
	struct wr_tcp_range *r = sb->r;
	uint32_t i, j, n = sb->nb_ranges;

	for (i = 0; i < n && r[i].end - una < s - una; i++)
		;
	if (i < n && r[i].start - una <= e - una) {
		/* overlaps or touches range i: merge, then absorb the next */
		if (s - una < r[i].start - una)
			r[i].start = s;
		if (e - una > r[i].end - una)
			r[i].end = e;
		j = i + 1;
		while (j < n && r[j].start - una <= r[i].end - una) {
			if (r[j].end - una > r[i].end - una)
				r[i].end = r[j].end;
			j++;
		}
		memmove(&r[i + 1], &r[j], (n - j) * sizeof(r[0]));
		sb->nb_ranges = (uint16_t)(n - (j - i - 1));
		sb_kept(sb, una, &r[i]);
		return;
	}
	if (n == WR_TCP_SB_RANGES) {
		/* full: the highest is forgotten (a later block repeats it) */
		if (i == n) {
			sb_forget(sb, una, s);
			return;
		}
		sb_forget(sb, una, r[n - 1].start);
		n--;
	}
	memmove(&r[i + 1], &r[i], (n - i) * sizeof(r[0]));
	r[i].start = s;
	r[i].end = e;
	sb->nb_ranges = (uint16_t)(n + 1);
	sb_kept(sb, una, &r[i]);
}

void
wr_tcp_sb_update(struct wr_tcp_sb *sb, uint32_t snd_una, uint32_t snd_max,
	const struct wr_tcp_sack_blk *blk, unsigned int nb)
{
	unsigned int k;

	sb_advance(sb, snd_una);
	for (k = 0; k < nb; k++) {
		uint32_t s = blk[k].left, e = blk[k].right;

		if (!wr_tcp_seq_lt(s, e) || wr_tcp_seq_le(e, snd_una) ||
			wr_tcp_seq_gt(e, snd_max))
			continue;
		if (wr_tcp_seq_lt(s, snd_una))
			s = snd_una;
		sb_add(sb, snd_una, s, e);
	}
}

uint32_t
wr_tcp_sb_sacked(const struct wr_tcp_sb *sb)
{
	uint32_t i, n = 0;

	for (i = 0; i < sb->nb_ranges; i++)
		n += sb->r[i].end - sb->r[i].start;
	return n;
}

/*
 * Walk the holes below the highest SACKed range from max(HighRxt,
 * snd_una): for each, its part not resent yet [*hs, *he) and whether it
 * is lost (more than 2 SMSS SACKed above it). Returns the next hole's
 * number, or 0 at the end.
 */
static uint32_t
sb_hole(const struct wr_tcp_sb *sb, uint32_t una, uint32_t mss,
	uint32_t i, uint32_t *hs, uint32_t *he, bool *lost)
{
	uint32_t from = wr_tcp_seq_max(sb->high_rxt, una), above = 0, k;
	uint32_t lost_to = wr_tcp_seq_max(sb->lost_to, una);
	uint32_t cap = sb->forgot ? sb->forgot_from - una : UINT32_MAX;

	for (; i <= sb->nb_ranges; i++) {
		uint32_t s = i == 0 ? una : sb->r[i - 1].end;
		uint32_t e = i < sb->nb_ranges ? sb->r[i].start : lost_to;

		if (s - una >= cap)
			return 0;   /* forgotten: the receiver may hold it */
		if (e - una > cap)
			e = sb->forgot_from;
		if (e - una <= from - una || e - una <= s - una)
			continue;   /* resent already, or no hole */
		if (s - una < from - una)
			s = from;
		for (k = i; k < sb->nb_ranges; k++)
			above += sb->r[k].end - sb->r[k].start;
		*hs = s;
		*he = e;
		*lost = above > 2u * mss || s - una < lost_to - una;
		return i + 1;
	}
	return 0;
}

bool
wr_tcp_sb_next(const struct wr_tcp_sb *sb, uint32_t snd_una, uint32_t mss,
	uint32_t *seq, uint32_t *len)
{
	uint32_t hs, he;
	bool lost;

	/* SACKed bytes above a hole only shrink further up, and lost_to is
	 * a bound from below: the first hole not resent is the only
	 * candidate */
	if (sb_hole(sb, snd_una, mss, 0, &hs, &he, &lost) == 0 || !lost)
		return false;
	*seq = hs;
	*len = he - hs < mss ? he - hs : mss;
	return true;
}

void
wr_tcp_sb_round(struct wr_tcp_sb *sb, uint32_t snd_una, uint32_t snd_max)
{
	sb->high_rxt = snd_una;
	sb->rxt_mark = snd_max;
}

bool
wr_tcp_sb_rxt_lost(const struct wr_tcp_sb *sb, uint32_t snd_una,
	uint32_t mss)
{
	uint32_t i, above = 0, mark = sb->rxt_mark - snd_una;

	if (!wr_tcp_seq_gt(sb->high_rxt, snd_una))
		return false;
	for (i = 0; i < sb->nb_ranges; i++) {
		uint32_t s = sb->r[i].start - snd_una;
		uint32_t e = sb->r[i].end - snd_una;

		if (e > mark)
			above += e - (s > mark ? s : mark);
	}
	return above > 2u * mss;
}

void
wr_tcp_sb_lose_to(struct wr_tcp_sb *sb, uint32_t seq)
{
	if (wr_tcp_seq_gt(seq, sb->lost_to))
		sb->lost_to = seq;
}

void
wr_tcp_sb_rxt(struct wr_tcp_sb *sb, uint32_t seq, uint32_t len,
	uint32_t snd_max)
{
	if (wr_tcp_seq_gt(seq + len, sb->high_rxt))
		sb->high_rxt = seq + len;
	sb->rxt_mark = snd_max;
}

uint32_t
wr_tcp_sb_pipe(const struct wr_tcp_sb *sb, uint32_t snd_una,
	uint32_t snd_max, uint32_t mss)
{
	uint32_t pipe = snd_max - snd_una - wr_tcp_sb_sacked(sb);
	uint32_t i = 0, hs, he;
	bool lost;

	while ((i = sb_hole(sb, snd_una, mss, i, &hs, &he, &lost)) != 0) {
		if (!lost)
			break;
		pipe -= he - hs;
	}
	return pipe;
}
