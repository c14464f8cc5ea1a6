/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * HTTP/1.1 heads written (http.h): a client's request (a GET, or a POST
 * with a body of a given length) and a server's response head. The
 * parser of both directions: http.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "tcp/http.h"
#include "tcp/http_line.h"

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
