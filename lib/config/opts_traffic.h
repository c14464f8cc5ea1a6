/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Options of the traffic a TX queue sends beyond one fixed-size IPv4
 * stream: --mix (frame size mixes, mix.h), --ipv6, --src-ip6, --dst-ip6.
 * Pure: no EAL; opts.c dispatches to it by option id.
 */
#ifndef WR_OPTS_TRAFFIC_H
#define WR_OPTS_TRAFFIC_H

#include <stddef.h>

#include "config.h"
#include "base/error.h"

/*
 * Apply option id (optab.h) with value v to cfg.
 * Returns 0, 1 when id is not one of these options, or -EINVAL with a
 * message naming the option and what was expected.
 */
int wr_opts_traffic(int id, const char *v, struct wr_config *cfg,
		struct wr_error *err);

/*
 * Rules across options once all are known: a mix against --vlan/--ipv6
 * minimum sizes, the test modes and --size; sizes against IPv6's minimum.
 * Sets cfg->frame_size to the mix's largest size (ports are set up for
 * it). Returns 0 or -EINVAL with a message.
 */
int wr_opts_traffic_check(struct wr_config *cfg, struct wr_error *err);

#endif /* WR_OPTS_TRAFFIC_H */
