/* SPDX-License-Identifier: BSD-3-Clause */
/* `wirerate history` (history.c). */
#ifndef WR_APP_HISTORY_H
#define WR_APP_HISTORY_H

/* The subcommand's main (common/subcmds.h). */
int app_history_main(int argc, char **argv);

#endif /* WR_APP_HISTORY_H */
