/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The result of a run as JSON (schema in docs/results.md), written
 * atomically: a temporary file in the same directory, fsync, rename.
 */
#ifndef WR_RESULT_H
#define WR_RESULT_H

#include <stddef.h>

#include <jansson.h>

#include "run.h"

#define WR_RESULT_SCHEMA "wirerate-result/1"

/* Build the whole result; NULL on memory exhaustion. Caller json_decref()s. */
json_t *wr_result_build(const struct wr_run *run);

/*
 * Write the result of run to path atomically. Returns 0, or a negative
 * errno with a message naming the path.
 */
int wr_result_write(const struct wr_run *run, const char *path,
		char *err, size_t errlen);

/*
 * Write any JSON document to path atomically (temporary file, fsync,
 * rename). Returns 0 or a negative errno with a message.
 */
int wr_result_write_json(json_t *doc, const char *path, char *err, size_t errlen);

#endif /* WR_RESULT_H */
