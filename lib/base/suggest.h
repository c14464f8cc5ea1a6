/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * "Did you mean": the known name closest to a misspelt one, for option
 * names on the command line and keys in profiles. Pure.
 */
#ifndef WR_SUGGEST_H
#define WR_SUGGEST_H

#include <stddef.h>

/* Names longer than this are never suggested nor matched. */
#define WR_SUGGEST_MAX_LEN 63u

struct wr_suggest {
	const char *word;    /* the misspelt name, not owned */
	size_t word_len;     /* its length (a name may end before a '=') */
	const char *best;    /* the closest candidate so far, or NULL */
	unsigned int best_d; /* its edit distance; a candidate must beat it */
};

/*
 * Start a search for the name closest to the first len bytes of word. A
 * candidate is close at most one edit per three characters (at least
 * one), so "durtion" finds "duration" but "rate" does not find "grace".
 * This function can't fail.
 */
void wr_suggest_init(struct wr_suggest *s, const char *word, size_t len);

/* Offer one candidate name. This function can't fail. */
void wr_suggest_try(struct wr_suggest *s, const char *cand);

/* Edit (Levenshtein) distance of a[0..la) and b; UINT32_MAX when long. */
unsigned int wr_suggest_distance(const char *a, size_t la, const char *b);

#endif /* WR_SUGGEST_H */
