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

/*
 * wr_file_write without the fsyncs: as atomic against a crash of the
 * process (the kernel keeps what it was given, and the rename), not
 * against a power cut; for files rewritten often whose durable copy comes
 * at a slower pace. Returns 0 or a negative errno with err naming path.
 */
int wr_file_write_nosync(const char *path, wr_file_fill_t fill, const void *ctx,
		struct wr_error *err);

/*
 * Create path afresh for writing, for a file appended to as a run goes:
 * whatever is at the name (a file, or a hard or symbolic link planted in a
 * shared directory) is unlinked, never opened or truncated, and a new file
 * is made with O_EXCL and O_NOFOLLOW, mode 0644 less the umask. Returns the
 * descriptor or a negative errno (-EEXIST when something was planted again
 * in between).
 */
int wr_file_create(const char *path);

#endif /* WR_FILEIO_H */
