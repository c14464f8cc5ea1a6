/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdint.h>
#include <string.h>

#include <rte_common.h>

#include "suggest.h"

/*
 * Optimal string alignment: insertions, deletions, substitutions and
 * swaps of two neighbours ("szie" is one edit from "size").
 */
unsigned int
wr_suggest_distance(const char *a, size_t la, const char *b)
{
	unsigned int d[WR_SUGGEST_MAX_LEN + 1][WR_SUGGEST_MAX_LEN + 1];
	size_t lb = strlen(b), i, j;
	unsigned int best;

	if (la > WR_SUGGEST_MAX_LEN || lb > WR_SUGGEST_MAX_LEN)
		return UINT32_MAX;
	for (i = 0; i <= la; i++)
		d[i][0] = (unsigned int)i;
	for (j = 0; j <= lb; j++)
		d[0][j] = (unsigned int)j;
	for (i = 1; i <= la; i++) {
		for (j = 1; j <= lb; j++) {
			best = RTE_MIN(d[i - 1][j] + 1, d[i][j - 1] + 1);
			best = RTE_MIN(best, d[i - 1][j - 1] + (a[i - 1] != b[j - 1]));
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
					a[i - 2] == b[j - 1])
				best = RTE_MIN(best, d[i - 2][j - 2] + 1);
			d[i][j] = best;
		}
	}
	return d[la][lb];
}

void
wr_suggest_init(struct wr_suggest *s, const char *word, size_t len)
{
	s->word = word;
	s->word_len = len;
	s->best = NULL;
	s->best_d = RTE_MAX(1u, (unsigned int)len / 3) + 1;
}

void
wr_suggest_try(struct wr_suggest *s, const char *cand)
{
	unsigned int d = wr_suggest_distance(s->word, s->word_len, cand);

	if (d < s->best_d) {
		s->best_d = d;
		s->best = cand;
	}
}
