/* SPDX-License-Identifier: BSD-3-Clause */
/* Options that take field ranges (range.h), and --vary. Pure: no EAL. */
#ifndef WR_OPTS_RANGE_H
#define WR_OPTS_RANGE_H

#include <stdint.h>

#include "config.h"
#include "range.h"
#include "base/error.h"

/*
 * Apply option id (optab.h) with value v to cfg: the field's first value
 * and cfg->ranges. Returns 0, 1 when id is not one of these options, or
 * -EINVAL with a message naming the option, the value and what was
 * expected.
 */
int wr_opts_range(int id, const char *v, struct wr_config *cfg,
		struct wr_error *err);

/*
 * With any range in r, fold *nb_flows (--flows, flows=) into r as a
 * source port range and set it to 1; who names the origin in the message
 * ("--flows", "--stream 2"). Returns 0, or -EINVAL when r has a source
 * port range as well.
 */
int wr_opts_range_flows(struct wr_ranges *r, uint32_t *nb_flows, const char *who,
		struct wr_error *err);

#endif /* WR_OPTS_RANGE_H */
