/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The first value of a key in /proc/cpuinfo ("model name", "flags"): the
 * one reader of that file, for the result's environment and the TSC check.
 */
#ifndef WR_CPUINFO_H
#define WR_CPUINFO_H

#include <stdbool.h>
#include <stddef.h>

#define WR_CPUINFO_PATH "/proc/cpuinfo"

/*
 * Copy the value of the first line "KEY<blanks>: VALUE" of path (normally
 * WR_CPUINFO_PATH) into buf, without the newline (truncated to len - 1).
 * Returns 0, or -ENOENT when the file or the key is not there.
 */
int wr_cpuinfo_get(const char *path, const char *key, char *buf, size_t len);

/*
 * True when the CPU flags of path list every word of words (blank
 * separated), e.g. "constant_tsc nonstop_tsc". False when unreadable.
 */
bool wr_cpuinfo_has_flags(const char *path, const char *words);

#endif /* WR_CPUINFO_H */
