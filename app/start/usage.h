/* SPDX-License-Identifier: BSD-3-Clause */
/* `wirerate --help`, from the option table and the subcommands (usage.c). */
#ifndef WR_APP_USAGE_H
#define WR_APP_USAGE_H

#include <stdio.h>

/* Print --help to f. */
void app_usage(FILE *f, const char *prog);

#endif /* WR_APP_USAGE_H */
