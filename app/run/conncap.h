/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --mode conn-capacity on the stats core (docs/conncap.md): the fill
 * watched at each interval, then the settle and the check polled until
 * nothing is open, progress lines and the result's "capacity" object.
 * The phases themselves are methods/conncap.h's.
 */
#ifndef APP_RUN_CONNCAP_H
#define APP_RUN_CONNCAP_H

#include <jansson.h>
#include <stdbool.h>

#include "methods/conncap.h"
#include "setup/run.h"

struct app_conn_peer;

/* A capacity run of cfg: the phases' state set up. */
void app_conncap_init(struct wr_conncap *c, const struct wr_config *cfg);

/*
 * At an interval at t_s with the books b: one step of the fill. Returns
 * true when the fill ended (the opening is stopped: wr_run_wait may
 * return). Stats core only.
 */
bool app_conncap_interval(struct wr_run *run, struct wr_conncap *c,
	const struct wr_conn_books *b, double t_s, bool stop, bool show);

/*
 * After wr_run_wait: the fill's end if not yet (stopped), the settle,
 * the release and the check, polled until nothing is open or their
 * limits pass (the settle's, then the larger of --grace and 2 s plus
 * --conn-timeout). t0_tsc: the run's start. With cp (--peer), the far
 * end's books when the settle ends, before the release, into *far_held
 * (app_conn_peer_held; NULL with the message on stderr when they could
 * not be read). Returns whether nothing is open.
 */
bool app_conncap_finish(struct wr_run *run, struct wr_conncap *c,
	const struct wr_config *cfg, uint64_t t0_tsc, bool show,
	struct app_conn_peer *cp, json_t **far_held);

/*
 * At an interval of the fill, with --json and --checkpoint: *keep (the
 * "capacity" object so far, held_now the count held at b) replaced and merged into the checkpoint written now, so a
 * run killed during the fill leaves a labelled partial result. Stats
 * core only; *keep is the caller's to free after
 * wr_result_checkpoint_keep(run, NULL). No memory: no checkpoint.
 */
void app_conncap_checkpoint(struct wr_run *run, const struct wr_conncap *c,
	const struct wr_conn_books *b, json_t **keep);

/* The summary line and the result's "capacity" object (doc may be
 * NULL: only the line). Returns 0 or -ENOMEM with err filled. */
int app_conncap_report(const struct wr_conncap *c,
	const struct wr_conn_books *b, const struct wr_config *cfg,
	json_t *doc, struct wr_error *err);

#endif /* APP_RUN_CONNCAP_H */
