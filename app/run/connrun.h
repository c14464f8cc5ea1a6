/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A connection run (--conn, docs/tcp.md) from its start to its result:
 * the engines run for --duration (or until a client's --conn-count
 * connections ended), a row per interval on screen, the drain at the
 * end, the books and the result's "connections" object.
 */
#ifndef APP_RUN_CONNRUN_H
#define APP_RUN_CONNRUN_H

#include <jansson.h>

#include "setup/run.h"
#include "connpeer.h"

/*
 * Run the created connection run run of cfg until its end, *stop turning
 * non-zero (a signal) or its count; write the result (--json) and keep
 * it in *doc when doc is not NULL. cp: the far end's server (--peer),
 * opened, or NULL; closed here after the drain, its books in the result
 * ("far") and judged against ours (exit 1 when they disagree). Returns
 * an exit code.
 */
int app_conn_run(struct wr_run *run, const struct wr_config *cfg,
		const volatile int *stop, json_t **doc, struct app_conn_peer *cp);

#endif /* APP_RUN_CONNRUN_H */
