/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Where a run of many trials stands (a test mode, --repeat) and an upper
 * bound of the time it may still take, as data: lib/methods fills it
 * before each trial, app/ prints it and telemetry publishes it. Time comes
 * in as TSC readings; nothing here reads a clock or prints.
 *
 * The bound: what is left of the current trial, then every trial the
 * method may still run (its own bound: a binary search's remaining width
 * over the resolution, MLRsearch's trial cap, the steps of a sweep or a
 * loss sequence) at the longest trial length it may use, each with the
 * longest gap between two trials seen so far, and each size not started
 * its own extra time (a calibration trial longer than the others). A
 * trial run again because
 * the generator stalled is not in it (it could not be foreseen).
 */
#ifndef WR_PROGRESS_H
#define WR_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

/* trials_left when no bound is known yet (b2b before its calibration). */
#define WR_PROGRESS_UNKNOWN UINT32_MAX

/* Written only by the main lcore (the thread running the trials). */
struct wr_progress {
	char mode[16];             /* --mode name, or "repeat" */
	char what[16];             /* the current trial's kind: "search", ... */
	char phase[32];            /* the method's own step: "NDR", "goal 1/2" */
	uint32_t size_idx;         /* frame size being tried, 1-based; 0: none yet */
	uint32_t nb_sizes;
	uint32_t frame_size;       /* bytes */
	uint32_t trial;            /* trials started, the current one included */
	uint32_t size_trials_left; /* at most, after the current one, this size */
	uint32_t trials_left;      /* at most, after the current one, in all;
	                            * WR_PROGRESS_UNKNOWN when not known */
	double trial_s;            /* length of the current trial; 0: by count */
	double later_trial_s;      /* longest a later trial may last */
	double size_extra_s;       /* a size not started may take this much more */
	double gap_s;              /* longest time between two trials so far */
	uint64_t start_tsc;        /* the first trial's start */
	uint64_t trial_tsc;        /* the current trial's start */
	uint64_t tsc_hz;
};

/*
 * Start p for a run of nb_sizes sizes under mode at now_tsc. This function
 * can't fail.
 */
void wr_progress_begin(struct wr_progress *p, const char *mode,
		uint32_t nb_sizes, uint64_t now_tsc, uint64_t tsc_hz);

/*
 * Later trials last at most trial_s, and each size not started may take
 * size_extra_s more. This function can't fail.
 */
void wr_progress_lengths(struct wr_progress *p, double trial_s,
		double size_extra_s);

/* Size idx (1-based) of frame_size bytes starts. This function can't fail. */
void wr_progress_size(struct wr_progress *p, uint32_t idx, uint32_t frame_size);

/*
 * A trial of kind what lasting trial_s (0: until a count) starts at
 * now_tsc; after it, at most size_left more at this size and per_size at
 * each later size (WR_PROGRESS_UNKNOWN: not known). This function can't
 * fail.
 */
void wr_progress_trial(struct wr_progress *p, const char *what, double trial_s,
		uint32_t size_left, uint32_t per_size, uint64_t now_tsc);

/* Seconds since the first trial began, at now_tsc. This function can't fail. */
double wr_progress_elapsed_s(const struct wr_progress *p, uint64_t now_tsc);

/*
 * Upper bound of the seconds left at now_tsc (see above); a negative value
 * when no bound is known (trials_left unknown, or trials that run until a
 * count before the first one ended). This function can't fail.
 */
double wr_progress_left_s(const struct wr_progress *p, uint64_t now_tsc);

/*
 * Trials a binary search needs to shrink an interval of width to at most
 * res (both in one unit, res > 0): halvings, at most 64. This function
 * can't fail.
 */
uint32_t wr_progress_halvings(double width, double res);

/*
 * seconds as "42s", "12m05s" or "3h07m" into buf (len bytes, 8 at least).
 * Returns buf. This function can't fail.
 */
const char *wr_progress_hms(double seconds, char *buf, unsigned int len);

#endif /* WR_PROGRESS_H */
