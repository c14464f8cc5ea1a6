/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Parse a command line in a unit test: PARSE(&cfg, "--size", "64") fills
 * cfg from the defaults and the options, leaves any message in err.msg, and
 * returns wr_opts_parse's result.
 */
#ifndef WR_TEST_OPTS_H
#define WR_TEST_OPTS_H

#include <stdint.h>

#include "config/opts.h"

static struct wr_error err;

static inline int
parse(struct wr_config *cfg, int argc, const char **argv)
{
	wr_config_defaults(cfg);
	err.msg[0] = '\0';
	return wr_opts_parse(argc, (char **)(uintptr_t)argv, cfg, &err);
}

#define PARSE(cfg, ...) ({ \
	const char *a_[] = { "wirerate", __VA_ARGS__ }; \
	parse(cfg, (int)RTE_DIM(a_), a_); })

#endif /* WR_TEST_OPTS_H */
