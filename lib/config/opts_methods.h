/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Options of the measurement methods beyond RFC 2544: --capture and its
 * knobs (capture.h), --goals and --mlr-initial (mlr.h), --lat-loads and
 * --lat-trial (latency under load). Pure: opts.c dispatches to these; their names and
 * help are in the option table (optab.c).
 */
#ifndef WR_OPTS_METHODS_H
#define WR_OPTS_METHODS_H

#include <stddef.h>

#include "config.h"
#include "optab.h"
#include "base/error.h"

/* Defaults of these options. This function can't fail. */
void wr_opts_methods_defaults(struct wr_config *cfg);

/*
 * Apply option c with value v. Returns 0, 1 when c is not one of these,
 * or -EINVAL with a message naming the option and value.
 */
int wr_opts_methods(int c, const char *v, struct wr_config *cfg, struct wr_error *err);

/*
 * Cross-option rules of these options, and defaults that depend on the
 * mode (--mode mlr: --trial 1s unless given). Returns 0 or -EINVAL.
 */
int wr_opts_methods_check(struct wr_config *cfg, struct wr_error *err);

#endif /* WR_OPTS_METHODS_H */
