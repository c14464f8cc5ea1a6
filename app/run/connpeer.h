/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A connection client's far end (--conn client --peer, docs/tcp.md): a
 * wirerate serve there runs the connection server this client connects
 * to. Open it before the client's ports come up: the far end is told to
 * start the server (its --port-ip from its own command line), and it
 * must say it runs before a SYN is sent. Close it after the client's
 * drain: the far end's run is stopped and its result fetched; its books
 * go into the client's result as "far", checked against the client's.
 */
#ifndef WR_APP_CONNPEER_H
#define WR_APP_CONNPEER_H

#include <jansson.h>

#include "conn/engine.h"
#include "config/config.h"
#include "methods/modes.h"
#include "peer_rpc.h"

struct app_conn_peer {
	struct app_peer_conn conn;
	const struct wr_config *cfg;
	json_t *start;      /* the far end's start request (a reference) */
	/* --mode conn-rate, conn-load (connpeer_mode.c) */
	struct wr_mode_conn_far hooks;
	json_t *base;       /* the far end's books before the trial */
	uint32_t nb_trials; /* trials judged, and those that disagreed */
	uint32_t nb_bad;
	bool show;
};

/*
 * Connect to cfg's --peer and start the server there; wait until it
 * runs. Returns 0, or the exit code with the message on stderr (1: the
 * far end cannot be reached, does not answer or its run failed; 2: it
 * refused the token or the server's options).
 */
int app_conn_peer_open(struct app_conn_peer *cp, const struct wr_config *cfg);

/*
 * --mode conn-capacity: the far end's books once they hold still with
 * held connections open there, read when the settle ended (before the
 * check): {peer, accepted, open, ok}, ok when open = held and accepted
 * = completed (the client's). A new reference, or NULL with err (lost,
 * not settled within --peer-timeout, no memory).
 */
json_t *app_conn_peer_held(struct app_conn_peer *cp, uint64_t held,
	uint64_t completed, struct wr_error *err);

/*
 * Stop the far end's server, fetch its result and judge it against ours
 * (the client's books). Returns the result's "far" object (NULL when
 * there is no memory), *ok false when the far end's books disagree with
 * ours or could not be had (the reason on stderr). Closes the session.
 */
json_t *app_conn_peer_close(struct app_conn_peer *cp,
		const struct wr_conn_books *ours, bool *ok);

/*
 * The far end's books fb against the client's (b) into far's "checks",
 * far's "judged" false when b's failures or open connections leave
 * nothing to judge. Returns whether they agree (true when not judged);
 * each disagreement named on stderr.
 */
bool app_conn_peer_judge(json_t *far, const json_t *fb,
		const struct wr_conn_books *b);

/* o[key] as a count; -1 when absent. This function can't fail. */
int64_t app_conn_peer_count(const json_t *o, const char *key);

/*
 * A connection mode's far end (connpeer_mode.c): the hooks that judge
 * each trial against the far end's books (cp stays open until
 * app_conn_peer_mode_end). This function can't fail.
 */
const struct wr_mode_conn_far *app_conn_peer_mode_hooks(
		struct app_conn_peer *cp, bool show);

/*
 * After a connection mode: stop the far end and fetch its result; doc's
 * "far" gets the session, its exit code and the trials judged. Returns
 * code, or APP_EXIT_FAILED when a trial's books disagreed or the far end
 * failed (the reason on stderr). Closes the session.
 */
int app_conn_peer_mode_end(struct app_conn_peer *cp, json_t *doc, int code);

#endif /* WR_APP_CONNPEER_H */
