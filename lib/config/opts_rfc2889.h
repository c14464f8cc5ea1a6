/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Options of the RFC 2889 address modes (rfc2889cfg.h): --addr-ports,
 * --addr-count, --addr-rate, --learn-rates, --fdb-reset, --aging,
 * --addr-settle, --addr-plan. Pure: opts.c dispatches to these; their
 * names and help are in the option table (optab.c).
 */
#ifndef WR_OPTS_RFC2889_H
#define WR_OPTS_RFC2889_H

#include "config.h"
#include "base/error.h"

/* Defaults of these options. This function can't fail. */
void wr_opts_rfc2889_defaults(struct wr_config *cfg);

/*
 * Apply option c with value v. Returns 0, 1 when c is not one of these,
 * or -EINVAL with a message naming the option and value.
 */
int wr_opts_rfc2889(int c, const char *v, struct wr_config *cfg,
		struct wr_error *err);

/*
 * Rules across these options and --mode: an address mode needs
 * --fdb-reset; its address range and rates must fit. Returns 0 or
 * -EINVAL with a message naming the option.
 */
int wr_opts_rfc2889_check(const struct wr_config *cfg, struct wr_error *err);

#endif /* WR_OPTS_RFC2889_H */
