/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Options of the control socket's listeners (docs/api.md, docs/web.md):
 * --control-listen ADDR:PORT (JSON-RPC on TCP), --web [ADDR:]PORT (the
 * web page of wirerate serve, on loopback unless an address is given),
 * --web-open (its read-only pages without the token) and --web-history
 * (its history charts). Pure: opts.c
 * dispatches to these; names and help are in the option table (optab.c).
 */
#ifndef WR_OPTS_SERVE_H
#define WR_OPTS_SERVE_H

#include "config.h"
#include "base/error.h"

/* The address --web listens on when it names only a port. */
#define WR_WEB_ADDR_DEFAULT "127.0.0.1"

/*
 * Apply option c with value v. Returns 0, 1 when c is not one of these,
 * or -EINVAL with a message naming the option and value.
 */
int wr_opts_serve(int c, const char *v, struct wr_config *cfg, struct wr_error *err);

/*
 * Cross-option rules: --control-listen and --web each need --control
 * PATH and --control-token FILE (neither goes without a token);
 * --web-open and --web-history only with --web. Returns 0 or -EINVAL with a message.
 */
int wr_opts_serve_check(const struct wr_config *cfg, struct wr_error *err);

#endif /* WR_OPTS_SERVE_H */
