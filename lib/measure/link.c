/* SPDX-License-Identifier: BSD-3-Clause */
#include <string.h>

#include "link.h"

void
wr_link_watch_start(struct wr_link_watch *w, bool up, uint64_t now_tsc)
{
	memset(w, 0, sizeof(*w));
	w->up = up;
	w->last_tsc = now_tsc;
}

void
wr_link_watch_update(struct wr_link_watch *w, bool up, uint64_t now_tsc)
{
	if (now_tsc < w->last_tsc)
		now_tsc = w->last_tsc;
	if (!w->up)
		w->down_tsc += now_tsc - w->last_tsc;
	if (w->up && !up)
		w->nb_down++;
	w->up = up;
	w->last_tsc = now_tsc;
}
