/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Command-line options after "--" into a struct wr_config. Pure: no EAL,
 * no printing; errors come back as text naming the option, the value and
 * what is accepted.
 */
#ifndef WR_OPTS_H
#define WR_OPTS_H

#include <stddef.h>

#include "config.h"

enum wr_opts_action {
	WR_OPTS_RUN = 0,     /* run with the parsed configuration */
	WR_OPTS_HELP = 1,    /* --help was given */
	WR_OPTS_VERSION = 2, /* --version was given */
};

/*
 * Parse argv[0..argc-1] (argv[0] is the program name) into cfg, which the
 * caller has filled with defaults (or a profile). Returns an enum
 * wr_opts_action, or -EINVAL with a message in err.
 */
int wr_opts_parse(int argc, char **argv, struct wr_config *cfg,
		char *err, size_t errlen);

/*
 * Parse a port list ("0,2", "0-3", "all") into a bit mask. Returns 0 or
 * -EINVAL (bad syntax) / -ERANGE (port >= WR_MAX_PORTS).
 */
int wr_opts_parse_portlist(const char *s, uint64_t *mask);

/*
 * Parse one lcore map "LCORE:Q[,Q...]" where Q is tx<port>.<queue> or
 * rx<port>.<queue>. Returns 0 or -EINVAL with a message in err.
 */
int wr_opts_parse_map(const char *s, struct wr_map *map, char *err, size_t errlen);

#endif /* WR_OPTS_H */
