/* SPDX-License-Identifier: BSD-3-Clause */
/* `wirerate report`: tables and plots of one or more results (report.c). */
#ifndef WR_APP_REPORT_H
#define WR_APP_REPORT_H

/* `wirerate report ...` (argv[0] is "report"); returns the exit code. */
int app_report_main(int argc, char **argv);

#endif /* WR_APP_REPORT_H */
