/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * HTTP/1.1 for the other side of the response parser (http.h): the GET
 * and response head writers, and a server's request counter, a
 * byte-at-a-time state machine over request heads (RFC 9112 2.2, 3, 5)
 * that skips the rest of each line in bulk.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "tcp/http.h"
#include "tcp/http_line.h"

int
wr_http_req_write(char *buf, size_t room, const char *path,
	const char *host, int keep_alive)
{
	int n = snprintf(buf, room,
		"GET %s HTTP/1.1\r\nHost: %s\r\nUser-Agent: wirerate\r\n"
		"Accept: */*\r\nConnection: %s\r\n\r\n", path, host,
		keep_alive ? "keep-alive" : "close");

	return n < 0 || (size_t)n >= room ? -ENOSPC : n;
}

int
wr_http_resp_head_write(char *buf, size_t room, uint64_t body_bytes,
	int keep_alive)
{
	int n = snprintf(buf, room,
		"HTTP/1.1 200 OK\r\nServer: wirerate\r\n"
		"Content-Type: application/octet-stream\r\n"
		"Content-Length: %" PRIu64 "\r\nConnection: %s\r\n\r\n",
		body_bytes, keep_alive ? "keep-alive" : "close");

	return n < 0 || (size_t)n >= room ? -ENOSPC : n;
}

/* Request counter states. */
enum req_state {
	Q_START = 0,    /* before a request line (empty lines skipped) */
	Q_METHOD,
	Q_LINE,         /* the rest of a line */
	Q_HDR_START,
	Q_END_LF,
	Q_ERROR,
};

void
wr_http_req_init(struct wr_http_req *q)
{
	memset(q, 0, sizeof(*q));
}

/* One byte of a request head; 1 when it ends the head. */
static int
req_byte(struct wr_http_req *q, uint8_t ch)
{
	switch (q->state) {
	case Q_START:
		if (ch == '\r' || ch == '\n')  /* RFC 9112 2.2 */
			return 0;
		if (ch < 'A' || ch > 'Z')
			return -EBADMSG;
		q->state = Q_METHOD;
		return 0;
	case Q_METHOD:
		if (ch == ' ')
			q->state = Q_LINE;
		else if (ch < 'A' || ch > 'Z')
			return -EBADMSG;
		return 0;
	case Q_LINE:
		if (ch == '\n')
			q->state = Q_HDR_START;
		return 0;
	case Q_HDR_START:
		if (ch == '\n') {
			q->state = Q_START;
			return 1;
		}
		q->state = ch == '\r' ? Q_END_LF : Q_LINE;
		return 0;
	default:                /* Q_END_LF */
		if (ch != '\n')
			return -EBADMSG;
		q->state = Q_START;
		return 1;
	}
}

int
wr_http_req_feed(struct wr_http_req *q, const uint8_t *p, size_t len,
	uint64_t *nb_done)
{
	size_t i, n;
	bool lf;
	int rc;

	for (i = 0; i < len; i++) {
		if (q->state == Q_ERROR)
			return -EBADMSG;
		if (q->state == Q_LINE) {
			if (wr_http_line_rest(&q->line_bytes, p + i, len - i,
				&n, &lf) != 0) {
				q->state = Q_ERROR;
				return -EBADMSG;
			}
			if (lf)
				q->state = Q_HDR_START;
			i += n - 1;     /* the loop adds the last */
			continue;
		}
		if (++q->line_bytes > WR_HTTP_LINE_MAX_BYTES) {
			q->state = Q_ERROR;
			return -EBADMSG;
		}
		if (p[i] == '\n')
			q->line_bytes = 0;
		rc = req_byte(q, p[i]);
		if (rc < 0) {
			q->state = Q_ERROR;
			return -EBADMSG;
		}
		*nb_done += (uint64_t)rc;
	}
	return q->state == Q_ERROR ? -EBADMSG : 0;
}
