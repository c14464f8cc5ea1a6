/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --mode conn-teardown (RFC 9693's connection tear-down rate,
 * docs/connteardown.md): the rules of its options and the engine's
 * settings it implies.
 */
#ifndef WR_CONFIG_OPTS_CONNTEAR_H
#define WR_CONFIG_OPTS_CONNTEAR_H

#include "base/error.h"

struct wr_config;

/* The fill's opening rate (connections/s per port), conn-capacity's
 * safe rate: the table fills before each trial's closes. */
#define WR_CONNTEAR_FILL_CPS 1000u
/* A close not complete this long fails, by default (--conn-timeout):
 * under the shortest retransmission timeout (tcp/rto.h, 200 ms, as
 * Linux's), so a close that lost a segment on the way fails rather than
 * completing late. */
#define WR_CONNTEAR_CLOSE_TIMEOUT_US 150000u
/* The client's TIME_WAIT by default (--conn-time-wait): short, so that
 * the slots of a trial's closed connections serve the next fill; the
 * source ports still turn over (tcp/srcport.h). */
#define WR_CONNTEAR_TIME_WAIT_US 1000u

/*
 * With --mode conn-teardown: an HTTP client (--conn client, --conn-app
 * http, no --conn-requests), --conn-rate (the highest close rate tried,
 * at least 1) and --conn-count (the connections each trial fills and
 * closes, at most --conn-concurrency) given, no --peer. Sets hold, two
 * requests a connection (the first; the second never sent), the SYN
 * timeout, the close deadline (--conn-timeout, else 150 ms) and
 * TIME_WAIT when not given. Returns 0
 * (also for another mode) or -EINVAL naming the option.
 */
int wr_opts_conntear_check(struct wr_config *cfg, struct wr_error *err);

#endif /* WR_CONFIG_OPTS_CONNTEAR_H */
