/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Inside lib/tcp: what the response parser (http.c) and the request
 * counter (http_req.c) share.
 */
#ifndef WR_TCP_HTTP_LINE_H
#define WR_TCP_HTTP_LINE_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tcp/http.h"

/*
 * The rest of a line at once: up to and with its '\n' (*lf then true), or
 * all len bytes; *n the bytes taken, counted in *line_bytes as the
 * byte-at-a-time paths count them (with the '\n', which then resets it):
 * -EBADMSG past WR_HTTP_LINE_MAX_BYTES.
 */
static inline int
wr_http_line_rest(uint16_t *line_bytes, const uint8_t *p, size_t len,
	size_t *n, bool *lf)
{
	const uint8_t *nl = memchr(p, '\n', len);

	*n = nl != NULL ? (size_t)(nl - p) + 1 : len;
	*lf = nl != NULL;
	if (*line_bytes + *n > WR_HTTP_LINE_MAX_BYTES)
		return -EBADMSG;
	*line_bytes = *lf ? 0 : (uint16_t)(*line_bytes + *n);
	return 0;
}

#endif /* WR_TCP_HTTP_LINE_H */
