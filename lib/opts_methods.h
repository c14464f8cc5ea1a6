/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Options of the measurement methods beyond RFC 2544: --capture and its
 * knobs (capture.h). Pure: opts.c dispatches to these.
 */
#ifndef WR_OPTS_METHODS_H
#define WR_OPTS_METHODS_H

#include <getopt.h>
#include <stddef.h>

#include "config.h"

/* Option ids; above those of opts.c. */
enum {
	WR_OPT_CAPTURE = 1024,
	WR_OPT_CAPTURE_WHAT,
	WR_OPT_CAPTURE_AROUND,
	WR_OPT_CAPTURE_LAST,
	WR_OPT_CAPTURE_MAX,
	WR_OPT_CAPTURE_SNAPLEN,
};

/* The getopt_long entries, for opts.c's table. */
#define WR_OPTS_METHODS_LONG \
	{ "capture", required_argument, NULL, WR_OPT_CAPTURE }, \
	{ "capture-what", required_argument, NULL, WR_OPT_CAPTURE_WHAT }, \
	{ "capture-around", required_argument, NULL, WR_OPT_CAPTURE_AROUND }, \
	{ "capture-last", required_argument, NULL, WR_OPT_CAPTURE_LAST }, \
	{ "capture-max", required_argument, NULL, WR_OPT_CAPTURE_MAX }, \
	{ "capture-snaplen", required_argument, NULL, WR_OPT_CAPTURE_SNAPLEN }

/* Defaults of these options. This function can't fail. */
void wr_opts_methods_defaults(struct wr_config *cfg);

/*
 * Apply option c with value v. Returns 0, 1 when c is not one of these,
 * or -EINVAL with a message naming the option and value.
 */
int wr_opts_methods(int c, const char *v, struct wr_config *cfg, char *err,
		size_t errlen);

/* Cross-option rules of these options. Returns 0 or -EINVAL. */
int wr_opts_methods_check(const struct wr_config *cfg, char *err,
		size_t errlen);

#endif /* WR_OPTS_METHODS_H */
