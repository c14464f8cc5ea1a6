/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Small readers of the files of two-ended results (jsonpath.c): a merge
 * names its ends' files relative to itself, a cell its merge.
 */
#ifndef WR_APP_JSONPATH_H
#define WR_APP_JSONPATH_H

#include <stddef.h>

#include <jansson.h>

/* The string o[key], or dflt when absent or not a string. */
const char *rep_str_of(const json_t *o, const char *key, const char *dflt);

/* path resolved against the directory of the file base (when relative). */
void rep_sibling(char *out, size_t len, const char *base, const char *path);

#endif /* WR_APP_JSONPATH_H */
