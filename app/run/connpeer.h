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
#include "peer_rpc.h"

struct app_conn_peer {
	struct app_peer_conn conn;
	const struct wr_config *cfg;
	json_t *start;      /* the far end's start request (a reference) */
};

/*
 * Connect to cfg's --peer and start the server there; wait until it
 * runs. Returns 0, or the exit code with the message on stderr (1: the
 * far end cannot be reached, does not answer or its run failed; 2: it
 * refused the token or the server's options).
 */
int app_conn_peer_open(struct app_conn_peer *cp, const struct wr_config *cfg);

/*
 * Stop the far end's server, fetch its result and judge it against ours
 * (the client's books). Returns the result's "far" object (NULL when
 * there is no memory), *ok false when the far end's books disagree with
 * ours or could not be had (the reason on stderr). Closes the session.
 */
json_t *app_conn_peer_close(struct app_conn_peer *cp,
		const struct wr_conn_books *ours, bool *ok);

#endif /* WR_APP_CONNPEER_H */
