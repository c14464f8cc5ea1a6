/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Command-line options after "--" into a struct wr_config. Pure: no EAL,
 * no printing; errors come back as text naming the option, the value and
 * what is accepted.
 */
#ifndef WR_OPTS_H
#define WR_OPTS_H

#include <stdbool.h>
#include <stddef.h>

#include "config.h"
#include "base/error.h"

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
		struct wr_error *err);

/*
 * Parse a port list ("0,2", "0-3", "all") into a bit mask. Returns 0 or
 * -EINVAL (bad syntax) / -ERANGE (port >= WR_MAX_PORTS).
 */
int wr_opts_parse_portlist(const char *s, uint64_t *mask);

/*
 * Parse one lcore map "LCORE:Q[,Q...]" where Q is tx<port>.<queue> or
 * rx<port>.<queue>. Returns 0 or -EINVAL with a message in err.
 */
int wr_opts_parse_map(const char *s, struct wr_map *map, struct wr_error *err);

/*
 * Find --profile FILE in argv (same syntax rules as wr_opts_parse) without
 * acting on any other option. *path is the file or NULL. Returns 0, or
 * -EINVAL with a message when --profile is given more than once.
 */
int wr_opts_find_profile(int argc, char **argv, const char **path,
		struct wr_error *err);

/*
 * Apply one option by its long name as if "--name value" were given
 * (value NULL for options without one), e.g. from a profile. Returns 0,
 * -ENOENT when there is no such option (or it cannot be set this way:
 * help, version, profile), or -EINVAL with a message in err that starts
 * "--name value: ".
 */
int wr_opts_set(const char *name, const char *value, struct wr_config *cfg,
		struct wr_error *err);

/*
 * The cross-option rules wr_opts_parse checks last, for a configuration
 * made without a command line. Returns 0 or -EINVAL with a message.
 */
int wr_opts_check(struct wr_config *cfg, struct wr_error *err);

/*
 * Whether arg ("name" or "name=value", without the leading --) is a
 * wirerate option by its full name; *has_arg says whether it takes a
 * value. Returns 0, or -ENOENT.
 */
int wr_opts_lookup(const char *arg, bool *has_arg);

/*
 * The option name closest to arg ("name" or "name=value", without the
 * leading --), or NULL when none is close (see wr_suggest_init).
 */
const char *wr_opts_closest(const char *arg);

#endif /* WR_OPTS_H */
