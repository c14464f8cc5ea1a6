/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Options of two-ended runs (docs/twoended.md): --peer names the far end
 * that counts the frames (a wirerate serve), --peer-token its secret,
 * --peer-timeout the longest wait for its answers. Pure: opts.c
 * dispatches to these; names and help are in the option table (optab.c).
 */
#ifndef WR_OPTS_PEER_H
#define WR_OPTS_PEER_H

#include "config.h"
#include "base/error.h"

/* Defaults of these options. This function can't fail. */
void wr_opts_peer_defaults(struct wr_config *cfg);

/*
 * Apply option c with value v. Returns 0, 1 when c is not one of these,
 * or -EINVAL with a message naming the option and value.
 */
int wr_opts_peer(int c, const char *v, struct wr_config *cfg, struct wr_error *err);

/*
 * Cross-option rules: --peer-token only with a tcp: --peer, and always
 * with one; no --replay, --reflect or --stamp none with --peer (the far
 * end counts by sequence). Returns 0 or -EINVAL with a message.
 */
int wr_opts_peer_check(const struct wr_config *cfg, struct wr_error *err);

#endif /* WR_OPTS_PEER_H */
