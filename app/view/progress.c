/* SPDX-License-Identifier: BSD-3-Clause */
/* The progress line (progress.h): composed from lib's struct, then shown. */
#include <math.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>

#include "progress.h"
#include "view.h"

/* Columns of a progress line piped: a log or a CI console. */
#define PROGRESS_PIPE_COLS 80u

/* Detail levels of the line, most first; the last is cut to the width. */
enum progress_level {
	PROGRESS_FULL,
	PROGRESS_SHORT,
	PROGRESS_TERSE,
	PROGRESS_NB_LEVELS,
};

static bool
is_repeat(const struct wr_progress *p)
{
	return strcmp(p->mode, "repeat") == 0;
}

/* "size 2/7 (128 B), " or nothing for --repeat and a connection mode
 * (no frame size: 0). */
static void
size_part(const struct wr_progress *p, enum progress_level lv, char *b, size_t n)
{
	if (is_repeat(p) || p->frame_size == 0)
		b[0] = '\0';
	else
		snprintf(b, n, lv == PROGRESS_FULL ? "size %u/%u (%u B), " :
			"size %u/%u %u B, ", p->size_idx, p->nb_sizes, p->frame_size);
}

/* "trial 14 of at most 54 (search, NDR)" and shorter forms. */
static void
trial_part(const struct wr_progress *p, enum progress_level lv, char *b, size_t n)
{
	bool known = p->trials_left != WR_PROGRESS_UNKNOWN;
	unsigned int all = known ? p->trial + p->trials_left : 0;
	const char *sep = p->phase[0] != '\0' ? " " : "";
	int k;

	if (lv == PROGRESS_FULL)
		k = known ? snprintf(b, n, "trial %u of %s%u", p->trial,
			is_repeat(p) ? "" : "at most ", all) :
			snprintf(b, n, "trial %u", p->trial);
	else
		k = known ? snprintf(b, n, "trial %u/%s%u", p->trial,
			is_repeat(p) ? "" : "<=", all) : snprintf(b, n, "trial %u", p->trial);
	if (k < 0 || (size_t)k >= n || is_repeat(p) || lv == PROGRESS_TERSE)
		return;
	/* Short: the method's step alone says enough ("NDR", "goal 1/2 short"). */
	if (lv == PROGRESS_FULL)
		snprintf(b + k, n - (size_t)k, " (%s%s%s)", p->what, sep, p->phase);
	else
		snprintf(b + k, n - (size_t)k, " %s", p->phase[0] != '\0' ?
			p->phase : p->what);
}

/* "elapsed 1m02s, at most 12m30s left" and shorter forms. */
static void
time_part(const struct wr_progress *p, uint64_t now, enum progress_level lv,
		char *b, size_t n)
{
	double left = wr_progress_left_s(p, now);
	char el[16], lf[16];

	/* Whole seconds gone by; the bound of what is left rounds up. */
	wr_progress_hms(floor(wr_progress_elapsed_s(p, now)), el, sizeof(el));
	if (left < 0)
		snprintf(b, n, lv == PROGRESS_FULL ? "elapsed %s, time left not "
			"known yet" : "elapsed %s, left ?", el);
	else
		snprintf(b, n, lv == PROGRESS_FULL ? "elapsed %s, at most %s left" :
			"elapsed %s, left <=%s", el,
			wr_progress_hms(left, lf, sizeof(lf)));
}

const char *
app_progress_line(const struct wr_progress *p, uint64_t now_tsc,
		unsigned int width, char *buf, size_t len)
{
	char sz[48], tr[96], tm[80];
	unsigned int lv;

	for (lv = 0; lv < PROGRESS_NB_LEVELS; lv++) {
		size_part(p, lv, sz, sizeof(sz));
		trial_part(p, lv, tr, sizeof(tr));
		time_part(p, now_tsc, lv, tm, sizeof(tm));
		snprintf(buf, len, "progress: %s%s, %s", sz, tr, tm);
		if (strlen(buf) <= width)
			return buf;
	}
	if (width < len)
		buf[width] = '\0';
	return buf;
}

void
app_progress_init(struct app_progress *ap, const struct wr_config *cfg)
{
	memset(ap, 0, sizeof(*ap));
	ap->on = !cfg->quiet;
	ap->in_place = isatty(STDOUT_FILENO) && !cfg->plain;
}

/* The line on stdout: redrawn in place, or a plain line. */
static void
show(struct app_progress *ap)
{
	char line[256];
	unsigned int width = ap->in_place ? view_width(stdout) - 1 :
		PROGRESS_PIPE_COLS;

	app_progress_line(ap->p, rte_rdtsc(), width, line, sizeof(line));
	if (ap->in_place) {
		printf("\r\033[K%s", line);
		ap->drawn = true;
	} else {
		printf("%s\n", line);
	}
	fflush(stdout);
}

void
app_progress_trial(struct app_progress *ap, const struct wr_progress *p)
{
	ap->p = p;
	if (ap->on)
		show(ap);
}

void
app_progress_tick(struct app_progress *ap)
{
	if (ap->on && ap->in_place && ap->p != NULL)
		show(ap);
}

void
app_progress_clear(struct app_progress *ap)
{
	if (!ap->drawn)
		return;
	printf("\r\033[K");
	fflush(stdout);
	ap->drawn = false;
}
