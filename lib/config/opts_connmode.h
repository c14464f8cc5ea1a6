/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The test modes of a connection run (docs/tcp.md "Connection modes"):
 * which --mode values are for connections, and what each needs of the
 * other options, checked before EAL (exit 2 naming the option).
 */
#ifndef WR_OPTS_CONNMODE_H
#define WR_OPTS_CONNMODE_H

#include <stdbool.h>

#include "base/error.h"
#include "config.h"

/* Whether mode is a test mode of a connection run. Can't fail. */
bool wr_opts_connmode_is(enum wr_mode mode);

/*
 * --mode and --conn together: a connection mode needs a client with
 * --conn-rate (the search's top) and no --conn-count; a frame mode is
 * refused with --conn. Returns 0 or -EINVAL with err naming the option.
 */
int wr_opts_connmode_check(const struct wr_config *cfg, struct wr_error *err);

#endif /* WR_OPTS_CONNMODE_H */
