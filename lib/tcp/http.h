/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * HTTP/1.1 for the TCP engine's load (RFC 9112), incremental and without
 * buffering: a parser eats bytes in whatever chunks TCP delivers and keeps
 * only a small state, never a copy of a line. Pure: no EAL, no prints.
 *
 * Client: wr_http_req_write writes a GET, or a POST whose body (of a
 * given length) the caller sends after it; a struct wr_http_resp follows
 * the responses (status line; Content-Length, Transfer-Encoding: chunked
 * and Connection: close recognised; the body skipped by its length, its
 * chunks or the end of the connection) and counts them. The state takes
 * 16 bytes, more than the connection's 8 app bytes (conn.h) can hold (a
 * body length of 64 bits alone takes 8): the caller keeps one per
 * connection beside the pool, by index.
 *
 * Server: a struct wr_http_req, the same machine started on a request
 * line, counts requests (pipelined ones too), each complete at the end
 * of its body (by Content-Length or chunks; none without them), says
 * when a request asks for a 100 (Continue) before its body (Expect:
 * 100-continue, RFC 9110 10.1.1), and
 * wr_http_resp_head_write writes a response head for a body of a
 * configured size, whose bytes are the synthetic pattern (wire.h).
 */
#ifndef WR_HTTP_H
#define WR_HTTP_H

#include <stddef.h>
#include <stdint.h>

/* Longest header line accepted, bytes. */
#define WR_HTTP_LINE_MAX_BYTES 8192

/* Content-Length and chunk sizes must stay under 2^62 bytes. */
#define WR_HTTP_BODY_MAX_BYTES (UINT64_C(1) << 62)

/* What a client counts, written by the owning lcore only. */
struct wr_http_counts {
	uint64_t nb_responses;     /* complete responses */
	uint64_t nb_failed;        /* of which status not 2xx */
	uint64_t nb_chunked;       /* of which chunked */
	uint64_t nb_malformed;     /* streams stopped by a parse error */
	uint64_t nb_body_bytes;    /* body bytes skipped (chunked: data) */
};

/* A response parser's state: 16 bytes (tests check it). */
struct wr_http_resp {
	uint64_t left_bytes;    /* body or chunk bytes still to come */
	uint16_t status;        /* the status code being read */
	uint16_t line_bytes;    /* bytes of the current line so far */
	uint8_t state;          /* private */
	uint8_t pos;            /* private: place in a token */
	uint8_t cand;           /* private: header names still matching */
	uint8_t flags;          /* private */
};

/* Start (or restart, at a new connection) a response parser. */
void wr_http_resp_init(struct wr_http_resp *r);

/*
 * Feed len bytes of the response stream. Returns 0, or -EBADMSG when the
 * stream is not HTTP/1.x (a bad status line, a header line over
 * WR_HTTP_LINE_MAX_BYTES, a bad length or chunk size): counted once in
 * nb_malformed, and every later call returns -EBADMSG too.
 */
int wr_http_resp_feed(struct wr_http_resp *r, const uint8_t *p, size_t len,
	struct wr_http_counts *c);

/*
 * The server closed the connection: a body delimited by the close is
 * complete (counted); a response cut short is malformed. Returns 0 or
 * -EBADMSG.
 */
int wr_http_resp_eof(struct wr_http_resp *r, struct wr_http_counts *c);

/*
 * Write "GET path HTTP/1.1" with Host and Connection (keep-alive or
 * close) into buf; with body_bytes above 0 "POST path HTTP/1.1" and its
 * Content-Length (the body is the caller's to send). Returns the bytes
 * written, or -ENOSPC.
 */
int wr_http_req_write(char *buf, size_t room, const char *path,
	const char *host, int keep_alive, uint64_t body_bytes);

/* A server's request parser: 16 bytes, the response parser's. */
struct wr_http_req {
	struct wr_http_resp m;  /* private */
};

/* Start a request parser. */
void wr_http_req_init(struct wr_http_req *q);

/*
 * Feed len bytes of the request stream; *nb_done is increased by the
 * requests that ended in them (head and body). Returns 0, or -EBADMSG
 * for a request line that does not start with a method in capitals and
 * a space, a line over WR_HTTP_LINE_MAX_BYTES or a bad length or chunk
 * size (sticky, as above).
 */
int wr_http_req_feed(struct wr_http_req *q, const uint8_t *p, size_t len,
	uint64_t *nb_done);

/*
 * len bytes of the request stream that were not kept (out of order):
 * taken as body, which they must be (a request's body by its length, or
 * a chunk's data); *nb_done as above. Returns 0, or -EBADMSG where a head
 * or chunk framing byte would be among them (sticky).
 */
int wr_http_req_skip(struct wr_http_req *q, uint64_t len, uint64_t *nb_done);

/*
 * Whether a 100 (Continue) is due: the head of the request being read
 * had "Expect: 100-continue" and its body has not all come yet (a
 * request whose body is there, or that has none, needs none; nor does
 * one of HTTP/1.0, whose expectation is ignored: RFC 9110 10.1.1). Each
 * due one is reported once; the flag ends with its body.
 */
int wr_http_req_continue_due(struct wr_http_req *q);

/*
 * Write a "200 OK" response head for body_bytes of body, keep-alive or
 * close, into buf. Returns the bytes written, or -ENOSPC.
 */
int wr_http_resp_head_write(char *buf, size_t room, uint64_t body_bytes,
	int keep_alive);

#endif /* WR_HTTP_H */
