/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * One run from its configuration to its result (run.c), for main() and
 * for each run `wirerate serve` is asked for; and the small interface by
 * which another thread (the control socket, server/) follows the run
 * without run.c knowing it.
 */
#ifndef WR_APP_RUN_H
#define WR_APP_RUN_H

#include <stdbool.h>

#include <jansson.h>

#include "config/config.h"
#include "setup/portkeep.h"
#include "setup/run.h"

/*
 * Who follows a run from another thread: filled by its owner (the control
 * socket, server/control.c), called by app_run_all() on the main lcore.
 */
struct app_run_watch {
	struct wr_portkeep *keep;   /* serve: the ports kept up between runs,
	                             * or NULL */
	/* true before the run sets its ports up or closes them, false after */
	void (*ports_hold)(struct app_run_watch *w, bool hold);
	/* run is the live run; NULL once it is destroyed */
	void (*live)(struct app_run_watch *w, struct wr_run *run);
};

/*
 * One run of cfg from set-up to close: a plain run's trials or a test
 * mode, the live view and progress on stdout, the result files. A trial
 * ends early once *stop is non-zero. With doc, the result document is
 * handed to *doc (NULL when the run failed before it had one; the caller
 * frees it). With w, the run is handed to its watcher while it lives.
 * Returns the exit code.
 */
int app_run_all(const struct wr_config *cfg, const char *cmdline,
		const volatile int *stop, json_t **doc,
		struct app_run_watch *w);

#endif /* WR_APP_RUN_H */
