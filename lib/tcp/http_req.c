/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * HTTP/1.1 heads written (http.h): a client's request (a GET, or a POST
 * with a body of a given length) and a server's response head; and a
 * server's request parser, the message parser of http.c started on a
 * request line (F_REQUEST).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "tcp/http.h"
#include "tcp/http_priv.h"

int
wr_http_req_write(char *buf, size_t room, const char *path,
	const char *host, int keep_alive, uint64_t body_bytes)
{
	char len[96] = "";
	int n;

	if (body_bytes > 0)
		snprintf(len, sizeof(len), "Content-Type: application/"
			"octet-stream\r\nContent-Length: %" PRIu64 "\r\n",
			body_bytes);
	n = snprintf(buf, room,
		"%s %s HTTP/1.1\r\nHost: %s\r\nUser-Agent: wirerate\r\n"
		"Accept: */*\r\n%sConnection: %s\r\n\r\n",
		body_bytes > 0 ? "POST" : "GET", path, host, len,
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

void
wr_http_req_init(struct wr_http_req *q)
{
	memset(q, 0, sizeof(*q));
	q->m.state = S_REQ_START;
	q->m.flags = F_REQUEST;
}

int
wr_http_req_feed(struct wr_http_req *q, const uint8_t *p, size_t len,
	uint64_t *nb_done)
{
	struct wr_http_counts c = { 0 };
	int rc = wr_http_resp_feed(&q->m, p, len, &c);

	*nb_done += c.nb_responses;
	return rc;
}

int
wr_http_req_skip(struct wr_http_req *q, uint64_t len, uint64_t *nb_done)
{
	struct wr_http_counts c = { 0 };
	int rc = wr_http_msg_skip(&q->m, len, &c);

	*nb_done += c.nb_responses;
	return rc;
}

int
wr_http_req_continue_due(struct wr_http_req *q)
{
	if (!(q->m.flags & F_CONTINUE))
		return 0;
	q->m.flags &= (uint8_t)~F_CONTINUE;
	return 1;
}
