/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The sender's connection to its far end (--peer, docs/twoended.md):
 * JSON-RPC 2.0 lines on TCP (after auth with --peer-token's secret) or a
 * UNIX socket, every wait bounded by --peer-timeout. Used by the main
 * lcore between trials only, never while the TX workers send.
 */
#ifndef WR_APP_PEER_RPC_H
#define WR_APP_PEER_RPC_H

#include <stdint.h>

#include <jansson.h>

#include "base/error.h"
#include "base/rpc.h"

struct app_peer_conn {
	int fd;                  /* -1: not connected */
	const char *spec;        /* --peer, for messages */
	uint64_t timeout_ms;     /* each exchange at most */
	uint64_t next_id;
	struct wr_rpc_reader rd;
};

/*
 * Connect to spec (tcp:HOST:PORT or unix:PATH) and, on TCP, authenticate
 * with the secret in token_path. Returns 0, or a negative errno with err
 * naming the peer: WR_ERR_ENV when it cannot be reached or does not
 * answer, WR_ERR_USAGE when it refuses the token (or the token file
 * cannot be read).
 */
int app_peer_connect(struct app_peer_conn *pc, const char *spec,
		const char *token_path, uint64_t timeout_ms, struct wr_error *err);

/*
 * One request, method with params (stolen; NULL: none), and its result
 * in *result (the caller frees it). Returns 0; a negative errno with err
 * (WR_ERR_FAIL: the peer went away or did not answer in time; an error
 * reply: its message, with *code the reply's code) otherwise. code may
 * be NULL.
 */
int app_peer_request(struct app_peer_conn *pc, const char *method,
		json_t *params, json_t **result, int *code, struct wr_error *err);

/*
 * The same, for an answer the far end gives only after a wait it was told
 * of (peer_end: its RX grace, --grace): the exchange may take wait_ms
 * longer than --peer-timeout.
 */
int app_peer_request_after(struct app_peer_conn *pc, const char *method,
		json_t *params, uint64_t wait_ms, json_t **result, int *code,
		struct wr_error *err);

/* Close the connection; safe when not connected. Can't fail. */
void app_peer_disconnect(struct app_peer_conn *pc);

#endif /* WR_APP_PEER_RPC_H */
