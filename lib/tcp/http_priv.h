/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Inside lib/tcp: what the message parser (http.c) and the request
 * parser's entry points (http_req.c) share: the parser's states and
 * flags, and the pieces of a line it reads on every message, inline.
 */
#ifndef WR_TCP_HTTP_PRIV_H
#define WR_TCP_HTTP_PRIV_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tcp/http.h"

/* The parser's states. */
enum resp_state {
	S_VERSION = 0,  /* "HTTP/1.x " */
	S_CODE,         /* three digits */
	S_LINE_SKIP,    /* the rest of a line */
	S_HDR_START,
	S_NAME,
	S_VAL_LEN,
	S_VAL_WORD,     /* Transfer-Encoding or Connection: a word */
	S_HDR_END_LF,
	S_BODY,
	S_BODY_EOF,
	S_CHUNK_SIZE,
	S_CHUNK_EXT,
	S_CHUNK_DATA,
	S_CHUNK_CR,
	S_CHUNK_LF,
	S_TRAILER_START,
	S_TRAILER_SKIP,
	S_TRAILER_END_LF,
	S_ERROR,
	S_REQ_START,    /* before a request line (empty lines skipped) */
	S_METHOD,       /* its method, capitals up to a space */
	S_REQ_REST,     /* the rest of a request line: its version read */
};

/* Flags of struct wr_http_resp. */
enum resp_flag {
	F_HAVE_LEN = 1 << 0,
	F_CHUNKED = 1 << 1,
	F_CLOSE = 1 << 2,
	F_DIGITS = 1 << 3,      /* a chunk size has a digit */
	F_EXPECT = 1 << 4,      /* a request's "Expect: 100-continue" */
	F_REQUEST = 1 << 5,     /* requests, not responses (kept across them) */
	F_CONTINUE = 1 << 6,    /* its head ended with F_EXPECT and a body
				 * to come: a 100 Continue is due (until
				 * the caller takes it, or the body ends) */
	F_V10 = 1 << 7,         /* a request line of HTTP/1.0 */
};

static inline uint8_t
wr_http_lower(uint8_t ch)
{
	return ch >= 'A' && ch <= 'Z' ? (uint8_t)(ch + 32) : ch;
}

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

/* One byte of a request line's start: its method and the space. */
static inline int
wr_http_method_byte(struct wr_http_resp *r, uint8_t ch)
{
	if (r->state == S_REQ_START && (ch == '\r' || ch == '\n'))
		return 0;           /* RFC 9112 2.2 */
	if (r->state == S_METHOD && ch == ' ') {
		r->state = S_REQ_REST;
		r->pos = 0;
		return 0;
	}
	if (ch < 'A' || ch > 'Z')
		return -EBADMSG;
	r->state = S_METHOD;
	return 0;
}

/*
 * A request line's method and its space in p[0, len) at once, as
 * wr_http_method_byte would read them; *n the bytes taken. False,
 * nothing taken, when they are not all there or not all good, or the
 * line would pass WR_HTTP_LINE_MAX_BYTES: the byte path decides.
 */
static inline bool
wr_http_method_whole(struct wr_http_resp *r, const uint8_t *p, size_t len,
	size_t *n)
{
	size_t k;

	for (k = 0; k < len && k < 16 && p[k] >= 'A' && p[k] <= 'Z'; k++)
		;
	if (k == 0 || k == len || p[k] != ' ' ||
		r->line_bytes + k + 1 > WR_HTTP_LINE_MAX_BYTES)
		return false;
	r->state = S_REQ_REST;
	r->pos = 0;
	r->line_bytes = (uint16_t)(r->line_bytes + k + 1);
	*n = k + 1;
	return true;
}

/* How an HTTP/1.0 request line ends (before its CR or LF), and the
 * most bytes that can hold it with its CR and LF. */
#define WR_HTTP_V10 " HTTP/1.0"
#define WR_HTTP_V10_LEN (sizeof(WR_HTTP_V10) - 1)
#define WR_HTTP_V10_TAIL (WR_HTTP_V10_LEN + 2)

/*
 * One byte of a request line after its method: r->pos follows how much
 * of " HTTP/1.0" (then 10: and its CR) ends the bytes so far; a
 * mismatch restarts at 0 (a match starts at the space before the
 * version, which no byte of a target is). At the '\n' the line is
 * HTTP/1.0 (F_V10) when it ended so, and the headers follow.
 */
static inline void
wr_http_req_line_byte(struct wr_http_resp *r, uint8_t ch)
{
	if (ch == '\n') {
		if (r->pos >= WR_HTTP_V10_LEN)
			r->flags |= F_V10;
		r->state = S_HDR_START;
		r->pos = 0;
	} else if (r->pos < WR_HTTP_V10_LEN &&
		ch == (uint8_t)WR_HTTP_V10[r->pos]) {
		r->pos++;
	} else if (r->pos == WR_HTTP_V10_LEN && ch == '\r') {
		r->pos++;
	} else {
		r->pos = 0;
	}
}

/*
 * n bytes of a request line after its method at once (the rest of the
 * line up to and with its '\n', or all there is: wr_http_line_rest):
 * only the last 11 can hold the version's match, its CR and the '\n'.
 * A line whose end is all there (the usual case) is compared at once.
 */
static inline void
wr_http_req_line_tail(struct wr_http_resp *r, const uint8_t *p, size_t n)
{
	size_t k = 0, cr;

	if (n >= WR_HTTP_V10_TAIL && p[n - 1] == '\n') {
		cr = p[n - 2] == '\r';
		if (memcmp(p + n - 1 - cr - WR_HTTP_V10_LEN, WR_HTTP_V10,
			WR_HTTP_V10_LEN) == 0)
			r->flags |= F_V10;
		r->state = S_HDR_START;
		r->pos = 0;
		return;
	}
	if (n > WR_HTTP_V10_TAIL) {
		k = n - WR_HTTP_V10_TAIL;
		r->pos = 0;
	}
	for (; k < n; k++)
		wr_http_req_line_byte(r, p[k]);
}

/*
 * A request's header line that is neither Content-Length,
 * Transfer-Encoding nor Expect by its first byte in p[0, len): skipped
 * whole as the rest of a line (a server reads only those three). False,
 * nothing done, for a response, no byte, or a line that may be one of
 * them or the end of the head.
 */
static inline bool
wr_http_req_line_other(struct wr_http_resp *r, const uint8_t *p, size_t len)
{
	uint8_t ch;

	if (!(r->flags & F_REQUEST) || len == 0)
		return false;
	ch = wr_http_lower(p[0]);
	if (ch == 'c' || ch == 't' || ch == 'e' || ch == '\r' || ch == '\n')
		return false;
	r->state = S_LINE_SKIP;
	return true;
}

/* Skip len bytes that were not kept (body bytes only, else -EBADMSG:
 * counted malformed, sticky). */
int wr_http_msg_skip(struct wr_http_resp *r, uint64_t len,
	struct wr_http_counts *c);

#endif /* WR_TCP_HTTP_PRIV_H */
