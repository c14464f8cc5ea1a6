/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --mode conn-load's options (docs/connload.md): --conn-concurrency as a
 * list of concurrencies, one trial each, and what the mode needs of the
 * other options, checked before EAL (exit 2 naming the option).
 */
#ifndef WR_OPTS_CONNLOAD_H
#define WR_OPTS_CONNLOAD_H

#include "base/error.h"
#include "config.h"

/*
 * --conn-concurrency N or N,M,...: each 1..WR_CONN_MAX_OPEN, at most
 * WR_CONN_LOAD_MAX of them, into co->load_conc; co->cfg.max_open (the
 * pool) takes the largest. Returns 0 or -EINVAL naming the value.
 */
int wr_opts_connload_conc(const char *v, struct wr_conn_opts *co,
		struct wr_error *err);

/*
 * Slots for the connections that end within a trial (after
 * --conn-requests answers): each stays in TIME_WAIT, holding its slot,
 * for --conn-time-wait.
 */
#define WR_CONN_LOAD_TW_SLOTS 65536u

/*
 * The pool of a conn-load client: the largest concurrency, a slot for
 * each connection a drain ends (they stay in TIME_WAIT, holding theirs):
 * the sum of the values more, and WR_CONN_LOAD_TW_SLOTS for those that
 * end within a trial; at most WR_CONN_MAX_OPEN. Can't fail.
 */
uint32_t wr_opts_connload_pool(const struct wr_conn_opts *co);

/*
 * --mode conn-load with the rest: a client (or a run of both roles), no
 * --conn-rate, no --conn-count, no --peer. Returns 0 or -EINVAL with err
 * naming the option.
 */
int wr_opts_connload_check(const struct wr_config *cfg, struct wr_error *err);

#endif /* WR_OPTS_CONNLOAD_H */
