/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Result files are written atomically: a temporary file in the same
 * directory is filled, fsync'ed and renamed, so a reader (or a crash, or a
 * second SIGINT) never sees half a file.
 */
#ifndef WR_FILEIO_H
#define WR_FILEIO_H

#include <stddef.h>
#include <stdio.h>

#include "error.h"

/* Fills f; returns 0 or a negative errno. */
typedef int (*wr_file_fill_t)(FILE *f, const void *ctx);

/*
 * Create path atomically: fill a temporary file in the same directory,
 * fsync, rename. A path that exists and is not a regular file (/dev/null,
 * /dev/stdout, a FIFO) is written in place instead, never replaced.
 * Returns 0 or a negative errno with err (class environment) naming path.
 */
int wr_file_write(const char *path, wr_file_fill_t fill, const void *ctx,
		struct wr_error *err);

#endif /* WR_FILEIO_H */
