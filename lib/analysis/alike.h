/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What makes two results comparable: the set-up keys whose difference
 * changes what the figures mean, listed in the table wr_alike_keys
 * (alike.c), the one source of the keys, their help and their messages.
 * `wirerate compare` refuses results that differ in one, unless the
 * comparison allows it by name (--allow-diff KEY). Pure: jansson only,
 * no EAL, never prints.
 */
#ifndef WR_ALIKE_H
#define WR_ALIKE_H

#include <stddef.h>

#include <jansson.h>

#include "base/error.h"

/* One key of the configuration that must match. */
struct wr_alike_key {
	const char *name;      /* --allow-diff NAME */
	const char *what;      /* "frame size mix (--mix)" */
	const char *path;      /* in the result document (wr_metrics_get) */
	const char *field;     /* non-NULL: path is an array, compare each
	                        * element's field */
	const char *absent;    /* the value when the key is absent: JSON
	                        * where it reads as JSON ("1"), else text */
};

extern const struct wr_alike_key wr_alike_keys[];
extern const unsigned int wr_nb_alike_keys;

#define WR_ALIKE_TEXT_LEN 96u

/* One difference found between two results. */
struct wr_alike_diff {
	unsigned int key;                  /* index in wr_alike_keys */
	char base[WR_ALIKE_TEXT_LEN];      /* the baseline's value, in words */
	char cur[WR_ALIKE_TEXT_LEN];
};

/*
 * Set the bit of key name in *mask. Returns 0, or -EINVAL (usage) naming
 * name and listing the keys accepted.
 */
int wr_alike_allow(const char *name, unsigned int *mask, struct wr_error *err);

/*
 * The keys in which base and cur differ, into diffs (at most max): the
 * values are compared, their words (cut to WR_ALIKE_TEXT_LEN) are only for
 * the message. Returns their number, or -EINVAL with err naming the file
 * (base_name, cur_name) and the field that is missing or ill-typed, or
 * -ENOMEM.
 */
int wr_alike_diffs(const json_t *base, const char *base_name, const json_t *cur,
		const char *cur_name, struct wr_alike_diff *diffs, unsigned int max,
		struct wr_error *err);

/*
 * Key k (an index of wr_alike_keys) of doc (named name) as results are
 * compared on it, into *out (a new reference): what the key means, not how
 * it is written (an absent key is its default). Returns 0, or -EINVAL
 * naming the field missing or ill-typed, or -ENOMEM.
 */
int wr_alike_value(const json_t *doc, const char *name, unsigned int k,
		json_t **out, struct wr_error *err);

#endif /* WR_ALIKE_H */
