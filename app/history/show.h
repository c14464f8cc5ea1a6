/* SPDX-License-Identifier: BSD-3-Clause */
/* `history show` and `history check` (show.c). */
#ifndef WR_APP_HIST_SHOW_H
#define WR_APP_HIST_SHOW_H

#include <stdbool.h>

#include "args.h"

/* show (check false) or check: print every series; the exit code. */
int hist_show_check(const struct hist_args *a, struct hist_db *db, bool check);

/* check's --junit and --json on bad input (msg), as compare does. */
void hist_report_bad_input(const struct hist_args *a, const char *msg);

#endif /* WR_APP_HIST_SHOW_H */
