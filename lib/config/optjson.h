/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A run's options as a JSON object by long name, for the control socket
 * (docs/api.md): {"rate": "1Mpps", "duration": "2s", "quiet": true}.
 * Each member is applied as its command-line option would be, by the
 * same code (wr_opts_set, then wr_opts_check), so the errors are the
 * CLI's. Pure: no EAL, no printing.
 */
#ifndef WR_OPTJSON_H
#define WR_OPTJSON_H

#include <jansson.h>

#include "config.h"
#include "base/error.h"

/*
 * Apply the members of opts to cfg (already holding defaults or a base
 * configuration), then the cross-option checks. A member's value: a
 * string or a number (the option's argument), true (an option without
 * argument; false leaves it out), or an array of those (a repeatable
 * option, once per element). "profile" loads that file first, as
 * --profile does. Returns 0, or -EINVAL with the CLI's message in err
 * (an unknown name gets "did you mean").
 */
int wr_opts_from_json(const json_t *opts, struct wr_config *cfg,
		struct wr_error *err);

#endif /* WR_OPTJSON_H */
