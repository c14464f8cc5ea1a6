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
 * Add m to the result of the size the rfc2889 object o's trials are at
 * (the last of its "results", wr_mesh_found_json wrote it). Returns 0, or -ENOMEM, or -EINVAL when o has no result.
 */
int wr_fwd_max_json(json_t *o, const struct wr_fwd_max *m);

/*
 * Add 5.6's forward pressure trial f as "forward_pressure" to the
 * result of the size the rfc2889 object o's trials are at: link_bps, frame_len, gap_bits (88),
 * legal_gap_bits (96), offered_pps, legal_pps, found, port (the port
 * furthest above the legal rate, or null) and ports (index,
 * forwarding_rate_pps, above_legal). Returns 0, -ENOMEM, or -EINVAL
 * when o has no result.
 */
int wr_fwd_press_json(json_t *o, const struct wr_fwd_press *f);

#endif /* WR_FWDJSON_H */
