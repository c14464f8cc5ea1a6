/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RFC 2889 5.6's maximum forwarding rate in a mesh result: the
 * "max_forwarding_rate" array of the rfc2889 object's "result", one entry
 * per port (index, mfr_pps, offered_pps: the load per sending port it
 * came at). docs/rfc2889.md.
 */
#ifndef WR_FWDJSON_H
#define WR_FWDJSON_H

#include <jansson.h>

#include "rfc2889fwd.h"

/*
 * Add m to the "result" of the rfc2889 object o (wr_mesh_found_json
 * wrote it). Returns 0, or -ENOMEM, or -EINVAL when o has no result.
 */
int wr_fwd_max_json(json_t *o, const struct wr_fwd_max *m);

#endif /* WR_FWDJSON_H */
