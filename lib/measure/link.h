/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Link state of a port over a trial, as the stats core sees it: readings
 * (at most once a second, with the NIC counters) of up or down, turned
 * into the number of times the link went down and the time it spent down.
 * A flap shorter than the time between two readings can go unseen. Pure:
 * the caller reads the link and passes TSC values. Written only by the
 * stats core.
 */
#ifndef WR_LINK_H
#define WR_LINK_H

#include <stdbool.h>
#include <stdint.h>

struct wr_link_watch {
	bool up;              /* the last reading */
	uint32_t nb_down;     /* up -> down transitions seen */
	uint64_t down_tsc;    /* TSC cycles between readings that found it down */
	uint64_t last_tsc;    /* TSC of the last reading */
};

/* Start watching from a first reading at now_tsc. This function can't fail. */
void wr_link_watch_start(struct wr_link_watch *w, bool up, uint64_t now_tsc);

/*
 * A reading at now_tsc (not before the previous one). The time since the
 * previous reading counts as down when that reading found the link down.
 * This function can't fail.
 */
void wr_link_watch_update(struct wr_link_watch *w, bool up, uint64_t now_tsc);

#endif /* WR_LINK_H */
