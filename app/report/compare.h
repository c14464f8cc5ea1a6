/* SPDX-License-Identifier: BSD-3-Clause */
/* `wirerate compare`: a result judged against a baseline (compare.c). */
#ifndef WR_APP_COMPARE_H
#define WR_APP_COMPARE_H

/* `wirerate compare ...` (argv[0] is "compare"); returns the exit code. */
int app_compare_main(int argc, char **argv);

#endif /* WR_APP_COMPARE_H */
