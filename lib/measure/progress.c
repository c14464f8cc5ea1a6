/* SPDX-License-Identifier: BSD-3-Clause */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "progress.h"

/* Halvings wr_progress_halvings() counts at most (2^64 is past any rate). */
#define PROGRESS_MAX_HALVINGS 64u

static void
copy_name(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src != NULL ? src : "");
}

void
wr_progress_begin(struct wr_progress *p, const char *mode, uint32_t nb_sizes,
		uint64_t now_tsc, uint64_t tsc_hz)
{
	memset(p, 0, sizeof(*p));
	copy_name(p->mode, sizeof(p->mode), mode);
	p->nb_sizes = nb_sizes;
	p->start_tsc = now_tsc;
	p->trial_tsc = now_tsc;
	p->tsc_hz = tsc_hz;
}

void
wr_progress_lengths(struct wr_progress *p, double trial_s, double size_extra_s)
{
	p->later_trial_s = trial_s;
	p->size_extra_s = size_extra_s;
}

void
wr_progress_size(struct wr_progress *p, uint32_t idx, uint32_t frame_size)
{
	p->size_idx = idx;
	p->frame_size = frame_size;
	p->phase[0] = '\0';
}

static double
secs(const struct wr_progress *p, uint64_t from_tsc, uint64_t to_tsc)
{
	if (p->tsc_hz == 0 || to_tsc <= from_tsc)
		return 0.0;
	return (double)(to_tsc - from_tsc) / (double)p->tsc_hz;
}

void
wr_progress_trial(struct wr_progress *p, const char *what, double trial_s,
		uint32_t size_left, uint32_t per_size, uint64_t now_tsc)
{
	uint32_t later = p->nb_sizes > p->size_idx ? p->nb_sizes - p->size_idx : 0;
	double gap;

	/* The time the previous trial took beyond its length: set-up, drain. */
	if (p->trial > 0) {
		gap = secs(p, p->trial_tsc, now_tsc) - p->trial_s;
		if (gap > p->gap_s)
			p->gap_s = gap;
	}
	copy_name(p->what, sizeof(p->what), what);
	p->trial++;
	p->trial_s = trial_s;
	p->trial_tsc = now_tsc;
	p->size_trials_left = size_left;
	if (size_left == WR_PROGRESS_UNKNOWN || (later > 0 &&
			per_size == WR_PROGRESS_UNKNOWN))
		p->trials_left = WR_PROGRESS_UNKNOWN;
	else
		p->trials_left = size_left + later * per_size;
}

double
wr_progress_elapsed_s(const struct wr_progress *p, uint64_t now_tsc)
{
	return secs(p, p->start_tsc, now_tsc);
}

double
wr_progress_left_s(const struct wr_progress *p, uint64_t now_tsc)
{
	uint32_t later = p->nb_sizes > p->size_idx ? p->nb_sizes - p->size_idx : 0;
	double cur;

	if (p->trials_left == WR_PROGRESS_UNKNOWN)
		return -1.0;
	/* Trials by count: their length is known once one has run. */
	if (p->later_trial_s <= 0.0 && p->trial <= 1 && p->trials_left > 0)
		return -1.0;
	cur = p->trial_s - secs(p, p->trial_tsc, now_tsc);
	if (cur < 0.0)
		cur = 0.0;
	return cur + p->gap_s + (double)p->trials_left *
		(p->later_trial_s + p->gap_s) + (double)later * p->size_extra_s;
}

uint32_t
wr_progress_halvings(double width, double res)
{
	uint32_t n = 0;

	if (!(res > 0.0) || !isfinite(width))
		return PROGRESS_MAX_HALVINGS;
	while (width > res && n < PROGRESS_MAX_HALVINGS) {
		width /= 2.0;
		n++;
	}
	return n;
}

const char *
wr_progress_hms(double seconds, char *buf, unsigned int len)
{
	unsigned long s = seconds > 0.0 ? (unsigned long)ceil(seconds) : 0;

	if (s < 60)
		snprintf(buf, len, "%lus", s);
	else if (s < 3600)
		snprintf(buf, len, "%lum%02lus", s / 60, s % 60);
	else
		snprintf(buf, len, "%luh%02lum", (s + 59) / 3600, (s + 59) / 60 % 60);
	return buf;
}
