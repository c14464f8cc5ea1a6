/* SPDX-License-Identifier: BSD-3-Clause */
/* Inter-arrival accounting, folded once per burst (iat.h). */
#include "iat.h"

void
wr_iat_fold(struct wr_rx_iat *a, uint64_t now_tsc, uint32_t nb_pkts)
{
	uint64_t gap = now_tsc - a->last_tsc;
	unsigned int bin;

	/* The first frame ever has no gap; the rest of its burst have 0. */
	if (a->last_tsc == 0) {
		a->last_tsc = now_tsc;
		a->bins[0] += nb_pkts - 1;
		a->nb += nb_pkts - 1;
		return;
	}
	a->last_tsc = now_tsc;
	bin = gap == 0 ? 0 : 64u - (unsigned int)__builtin_clzll(gap);
	a->bins[bin < WR_IAT_BINS ? bin : WR_IAT_BINS - 1]++;
	a->bins[0] += nb_pkts - 1;
	a->nb += nb_pkts;
	a->sum_tsc += gap;
	/* Zero gaps add nothing to the sums. */
	a->sumsq_tsc += (double)gap * (double)gap;
}
