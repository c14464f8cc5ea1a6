/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A sender's far end (--peer, docs/twoended.md): the session with a
 * wirerate serve that counts this run's frames, trial by trial. Open it
 * before the run's ports come up (the handshake: both versions and result
 * schemas); each trial is told to it before it sends and judged on its
 * counts after its stop (struct wr_mode_far); frames of a trial that
 * arrive during a later one amend that trial's record; close it after the
 * last trial (a settle period for the last late frames). The result's
 * "far" object holds the far end's environment, ports and per-trial
 * counts (a hook for what else the far end reports, e.g. its clock).
 */
#ifndef WR_APP_PEER_CLIENT_H
#define WR_APP_PEER_CLIENT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "base/error.h"
#include "methods/modes.h"
#include "measure/seq.h"
#include "results/oneway.h"
#include "peer_rpc.h"

/* A trial whose record late frames may still amend. */
struct app_peer_rec {
	uint16_t tag;
	json_t *far;       /* its "far" counts (a reference) */
	json_t *rec;       /* its record in the mode's trials, or NULL */
};

struct app_peer_session {
	struct app_peer_conn conn;
	const struct wr_config *cfg;
	json_t *far;       /* the result's "far" (a reference) */
	json_t *trials;    /* far.trials: each trial's counts */
	json_t *pending;   /* the trial judged last, until noted */
	uint16_t tag;      /* the trial in progress (or last) */
	uint32_t frame_size;
	double up_pps;     /* both directions: the far end's rate now */
	bool counting;     /* the far end counts trial tag now */
	struct app_peer_rec recent[WR_SEQ_TAG_PREV + 1];
	struct wr_mode_far hooks;  /* arg: this session */
	struct wr_oneway oneway;   /* the far end's latency of our frames,
	                            * as judged at the last trial */
};

/*
 * Connect to cfg's --peer and open a session on it: the versions and
 * schemas of both ends compared there. Returns 0, or the exit code with
 * the message on stderr (1: unreachable, no answer; 2: token refused,
 * versions or schemas differ, the far end refused the options).
 */
int app_peer_open(struct app_peer_session *ps, const struct wr_config *cfg);

/*
 * Before a trial of a plain run (the modes call ps->hooks themselves):
 * as wr_mode_far's begin and judge (up NULL: not wanted). Return 0 or a
 * negative errno.
 */
int app_peer_begin(struct app_peer_session *ps, struct wr_run *run,
		const struct wr_trial *t, double up_pps, struct wr_error *err);
int app_peer_judge(struct app_peer_session *ps, struct wr_run *run,
		struct wr_trial_summary *s, struct wr_trial_summary *up,
		struct wr_error *err);

/*
 * Both directions (--peer-rate): the far end's rate per TX port for
 * frames of size bytes; 0 when one way. This function can't fail.
 */
double app_peer_up_pps(const struct app_peer_session *ps, uint32_t size);

/*
 * A trial could not be judged (the far end lost): the result's
 * far.lost names it and the reason. This function can't fail.
 */
void app_peer_lost(struct app_peer_session *ps, const struct wr_error *err);

/*
 * The result doc marked invalid when the far end's answers failed their
 * checks (far.invalid, set where a check failed): the same object as the
 * doc's top-level "invalid" ({"field", "reason"}), which history add
 * refuses. doc or far may be NULL. This function can't fail.
 */
void app_peer_mark(json_t *doc, json_t *far);

/*
 * The far end's figures of the trial judged last, one line on f: what it
 * received of what was sent, the loss. Nothing before a trial was judged.
 */
void app_peer_show(FILE *f, const struct app_peer_session *ps);

/*
 * During a trial, the far end's counts of it so far (its `status`:
 * telemetry's live block, its last interval's RX rate and the trial's own
 * frames), as a line into buf (len bytes). Returns true when buf holds
 * one; false when the far end is not counting a trial or did not answer
 * (a far end that does not answer within --peer-timeout is lost: the
 * trial's peer_end says so).
 */
bool app_peer_live(struct app_peer_session *ps, char *buf, size_t len);

/*
 * After the last trial: the settle period for late frames, then the far
 * end's close; far.closed says what it said. Returns 0, -EIO when the
 * far end's books do not close (a trial's sent != received + lost), or
 * -ENODATA when it received none of the frames the trials sent (nothing
 * was measured: a wrong path or address), or -EPIPE when the settle pass
 * failed (the last trial's late frames uncounted: far.settle.error,
 * app_peer_settle_error). Then free the session. Can't fail otherwise.
 */
int app_peer_close(struct app_peer_session *ps);

/* Why the settle pass failed (far.settle.error), or NULL. */
const char *app_peer_settle_error(const struct app_peer_session *ps);

#endif /* WR_APP_PEER_CLIENT_H */
