/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Incremental HTTP/1.1 (http.h), the message parser: a byte-at-a-time
 * state machine for heads (RFC 9112 4, 5) with a fast way through what a
 * buffer holds whole (the status line's version and code, a header name
 * and its ':', the value of a header it reads, the rest of a line it
 * does not read: memchr), bodies skipped in bulk by Content-Length (RFC
 * 9112 6.3), by chunks (7.1) or up to the close. The same machine reads
 * requests (F_REQUEST): a request line first, and a body only by
 * Content-Length or chunks (6.3, item 6). The writers and the request
 * parser's entry points: http_req.c; what both share: http_priv.h.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "tcp/http.h"
#include "tcp/http_priv.h"

_Static_assert(sizeof(struct wr_http_resp) == 16, "wr_http_resp: 16 bytes");

/*
 * The headers the parser knows, by bit of wr_http_resp.cand while a name
 * is read; then cand holds the index of the one whose value S_VAL_WORD
 * reads (a word: hdr_words[i], flag hdr_word_flags[i] once found).
 * Connection only in responses, Expect only in requests (name_found).
 */
#define HDR_LEN "content-length"
#define HDR_TE "transfer-encoding"
#define HDR_CONN "connection"
#define HDR_EXPECT "expect"
static const char *const hdr_names[] = { HDR_LEN, HDR_TE, HDR_CONN,
	HDR_EXPECT };
static const size_t hdr_lens[] = {
	sizeof(HDR_LEN) - 1, sizeof(HDR_TE) - 1, sizeof(HDR_CONN) - 1,
	sizeof(HDR_EXPECT) - 1,
};
/* No word repeats its first letter: word_byte's restart relies on it. */
static const char *const hdr_words[] = { "", "chunked", "close",
	"100-continue" };
static const uint8_t hdr_word_flags[] = { 0, F_CHUNKED, F_CLOSE, F_EXPECT };
#define HDR_I_CONN 2
#define HDR_I_EXPECT 3
#define NB_HDRS 4
#define ALL_HDRS 15

static const char version[] = "HTTP/1.";

static int
hex_val(uint8_t ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	ch = wr_http_lower(ch);
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	return -1;
}

void
wr_http_resp_init(struct wr_http_resp *r)
{
	memset(r, 0, sizeof(*r));
	r->state = S_VERSION;
}

static int
resp_bad(struct wr_http_resp *r, struct wr_http_counts *c)
{
	r->state = S_ERROR;
	c->nb_malformed++;
	return -EBADMSG;
}

/* Wait for the next message's first line. */
static void
msg_restart(struct wr_http_resp *r)
{
	bool req = (r->flags & F_REQUEST) != 0;

	memset(r, 0, sizeof(*r));
	r->state = req ? S_REQ_START : S_VERSION;
	r->flags = req ? F_REQUEST : 0;
}

/* One message complete: count it, wait for the next. */
static void
resp_done(struct wr_http_resp *r, struct wr_http_counts *c)
{
	c->nb_responses++;
	if (!(r->flags & F_REQUEST) && (r->status < 200 || r->status > 299))
		c->nb_failed++;
	if (r->flags & F_CHUNKED)
		c->nb_chunked++;
	msg_restart(r);
}

/* The empty line after the headers: how the body is delimited. */
static void
headers_end(struct wr_http_resp *r, struct wr_http_counts *c)
{
	bool req = (r->flags & F_REQUEST) != 0;

	if (!req && r->status >= 100 && r->status <= 199) {
		wr_http_resp_init(r);       /* interim: the final one follows */
		return;
	}
	if (req && (r->flags & F_EXPECT) && !(r->flags & F_V10))
		r->flags |= F_CONTINUE;     /* until the body ends: resp_done */
	if (!req && (r->status == 204 || r->status == 304)) {
		resp_done(r, c);
	} else if (r->flags & F_CHUNKED) {
		r->state = S_CHUNK_SIZE;
		r->left_bytes = 0;
	} else if (r->flags & F_HAVE_LEN) {
		r->state = S_BODY;
		if (r->left_bytes == 0)
			resp_done(r, c);
	} else if (req) {
		resp_done(r, c);            /* no length: no body */
	} else {
		r->state = S_BODY_EOF;
	}
}

/* The header name hdr_names[i] ended (NB_HDRS: another one): which
 * value parser, if any (a request's Connection, a response's Expect:
 * none). */
static void
name_found(struct wr_http_resp *r, unsigned int i)
{
	bool req = (r->flags & F_REQUEST) != 0;

	r->state = S_LINE_SKIP;
	r->pos = 0;
	if ((i == HDR_I_CONN && req) || (i == HDR_I_EXPECT && !req))
		return;
	if (i == 0) {
		r->state = S_VAL_LEN;
		r->left_bytes = 0;
		r->flags &= (uint8_t)~F_HAVE_LEN;
	} else if (i < NB_HDRS) {
		r->state = S_VAL_WORD;
		r->cand = (uint8_t)i;
	}
}

/* ':' ends a header name read byte by byte. */
static void
name_end(struct wr_http_resp *r)
{
	unsigned int i;

	for (i = 0; i < NB_HDRS; i++)
		if ((r->cand & (1u << i)) && hdr_names[i][r->pos] == '\0')
			break;
	name_found(r, i);
}

/*
 * Whether p[0, m) is name (m bytes of lower-case letters and '-') in any
 * case, eight bytes at a time (the last eight overlapping) from eight
 * bytes on: a byte ORed with 0x20 is a given lower-case letter only when
 * it is that letter in either case; a '-' (bit 6 clear: no 0x20 in the
 * mask) must be equal.
 */
static bool
name_is(const uint8_t *p, size_t m, const char *name)
{
	const uint64_t bit6 = UINT64_C(0x4040404040404040);
	uint64_t x, y;
	size_t k = 0;

	if (m < 8) {
		for (; k < m; k++)
			if ((p[k] | (name[k] & 0x40) >> 1) != (uint8_t)name[k])
				return false;
		return true;
	}
	for (;;) {
		if (k + 8 > m)
			k = m - 8;
		memcpy(&x, p + k, sizeof(x));
		memcpy(&y, name + k, sizeof(y));
		if ((x | (y & bit6) >> 1) != y)
			return false;
		if (k + 8 >= m)
			return true;
		k += 8;
	}
}

/*
 * A whole header name and its ':' in p[0, len) at a line's start, matched
 * at once, as name_byte and name_end would; *n the bytes taken. False,
 * nothing taken, when the ':' is not there, a '\n' comes first or the
 * line would pass WR_HTTP_LINE_MAX_BYTES: the byte path decides then.
 */
static bool
name_whole(struct wr_http_resp *r, const uint8_t *p, size_t len, size_t *n)
{
	const uint8_t *colon;
	unsigned int i;
	size_t m;

	if (len == 0 || p[0] == '\r' || p[0] == '\n')
		return false;
	colon = memchr(p, ':', len);
	if (colon == NULL)
		return false;
	m = (size_t)(colon - p);
	if (r->line_bytes + m + 1 > WR_HTTP_LINE_MAX_BYTES ||
		memchr(p, '\n', m) != NULL)
		return false;
	for (i = 0; i < NB_HDRS; i++)
		if (hdr_lens[i] == m && name_is(p, m, hdr_names[i]))
			break;
	r->line_bytes = (uint16_t)(r->line_bytes + m + 1);
	name_found(r, i);
	*n = m + 1;
	return true;
}

/* One byte of a header name. */
static void
name_byte(struct wr_http_resp *r, uint8_t ch)
{
	unsigned int i;

	/* only live candidates are read: pos is within their names */
	for (i = 0; i < NB_HDRS; i++)
		if ((r->cand & (1u << i)) &&
			(hdr_names[i][r->pos] == '\0' ||
			hdr_names[i][r->pos] != (char)wr_http_lower(ch)))
			r->cand &= (uint8_t)~(1u << i);
	if (r->cand != 0)
		r->pos++;
}

/* One byte of a Content-Length value. */
static int
len_byte(struct wr_http_resp *r, uint8_t ch)
{
	if (ch == ' ' || ch == '\t' || ch == '\r')
		return 0;
	if (ch == '\n') {
		r->state = S_HDR_START;
		return r->flags & F_HAVE_LEN ? 0 : -EBADMSG;
	}
	if (ch < '0' || ch > '9' ||
		r->left_bytes > WR_HTTP_BODY_MAX_BYTES / 10)
		return -EBADMSG;
	r->left_bytes = r->left_bytes * 10 + (uint64_t)(ch - '0');
	if (r->left_bytes >= WR_HTTP_BODY_MAX_BYTES)
		return -EBADMSG;
	r->flags |= F_HAVE_LEN;
	return 0;
}

/* One byte of a Transfer-Encoding, Connection or Expect value: find
 * the word (cand: its header, name_found). */
static void
word_byte(struct wr_http_resp *r, uint8_t ch)
{
	const char *w = hdr_words[r->cand];

	if (ch == '\n') {
		r->state = S_HDR_START;
		return;
	}
	/* neither word repeats its first letter: a restart is enough */
	if (w[r->pos] != '\0' && (char)wr_http_lower(ch) == w[r->pos])
		r->pos++;
	else if (w[r->pos] != '\0')
		r->pos = (char)wr_http_lower(ch) == w[0] ? 1 : 0;
	if (w[r->pos] == '\0')
		r->flags |= hdr_word_flags[r->cand];
}

/* One byte of the status line's start and its code. */
static int
status_byte(struct wr_http_resp *r, uint8_t ch)
{
	if (r->state == S_VERSION) {
		if (r->pos < 7 && ch != (uint8_t)version[r->pos])
			return -EBADMSG;
		if (r->pos == 7 && (ch < '0' || ch > '9'))
			return -EBADMSG;
		if (r->pos == 8) {
			if (ch != ' ')
				return -EBADMSG;
			r->state = S_CODE;
			r->pos = 0;
			return 0;
		}
		r->pos++;
		return 0;
	}
	if (r->pos == 3) {
		/* RFC 9112 4: SP after the code; tolerate a bare end of line */
		if (r->status < 100 || (ch != ' ' && ch != '\r' && ch != '\n'))
			return -EBADMSG;
		r->state = ch == '\n' ? S_HDR_START : S_LINE_SKIP;
		return 0;
	}
	if (ch < '0' || ch > '9')
		return -EBADMSG;
	r->status = (uint16_t)(r->status * 10 + (ch - '0'));
	r->pos++;
	return 0;
}

/* One byte of the head (start line and headers; a value goes through
 * value_rest, which feeds len_byte or word_byte). */
static int
head_byte(struct wr_http_resp *r, uint8_t ch, struct wr_http_counts *c)
{
	switch (r->state) {
	case S_VERSION:
	case S_CODE:
		return status_byte(r, ch);
	case S_REQ_START:
	case S_METHOD:
		return wr_http_method_byte(r, ch);
	case S_LINE_SKIP:
		if (ch == '\n')
			r->state = S_HDR_START;
		return 0;
	case S_REQ_REST:
		wr_http_req_line_byte(r, ch);
		return 0;
	case S_HDR_START:
		if (ch == '\r' || ch == '\n') {
			r->state = S_HDR_END_LF;
			if (ch == '\n')
				headers_end(r, c);
			return 0;
		}
		r->state = S_NAME;
		r->cand = ALL_HDRS;
		r->pos = 0;
		/* fall through */
	case S_NAME:
		if (ch == ':')
			name_end(r);
		else if (ch == '\n')
			return -EBADMSG;
		else
			name_byte(r, ch);
		return 0;
	default:                /* S_HDR_END_LF (a header's value: value_rest) */
		if (ch != '\n')
			return -EBADMSG;
		headers_end(r, c);
		return 0;
	}
}

/* The end of a chunk-size line. */
static int
chunk_size_end(struct wr_http_resp *r)
{
	if (!(r->flags & F_DIGITS))
		return -EBADMSG;
	r->flags &= (uint8_t)~F_DIGITS;
	r->state = r->left_bytes == 0 ? S_TRAILER_START : S_CHUNK_DATA;
	return 0;
}

/* One byte of chunk framing (sizes, CRLFs, trailers). */
static int
chunk_byte(struct wr_http_resp *r, uint8_t ch, struct wr_http_counts *c)
{
	int d;

	switch (r->state) {
	case S_CHUNK_SIZE:
		d = hex_val(ch);
		if (d >= 0) {
			if (r->left_bytes >= WR_HTTP_BODY_MAX_BYTES / 16)
				return -EBADMSG;
			r->left_bytes = r->left_bytes * 16 + (uint64_t)d;
			r->flags |= F_DIGITS;
			return 0;
		}
		if (ch == ';' || ch == ' ' || ch == '\t' || ch == '\r')
			r->state = S_CHUNK_EXT;
		else if (ch == '\n')
			return chunk_size_end(r);
		else
			return -EBADMSG;
		return 0;
	case S_CHUNK_EXT:
		return ch == '\n' ? chunk_size_end(r) : 0;
	case S_CHUNK_CR:
		if (ch != '\r' && ch != '\n')
			return -EBADMSG;
		r->state = ch == '\r' ? S_CHUNK_LF : S_CHUNK_SIZE;
		return 0;
	case S_CHUNK_LF:
		if (ch != '\n')
			return -EBADMSG;
		r->state = S_CHUNK_SIZE;
		return 0;
	case S_TRAILER_START:
		if (ch == '\n')
			resp_done(r, c);
		else
			r->state = ch == '\r' ? S_TRAILER_END_LF : S_TRAILER_SKIP;
		return 0;
	case S_TRAILER_SKIP:
		if (ch == '\n')
			r->state = S_TRAILER_START;
		return 0;
	default:                /* S_TRAILER_END_LF */
		if (ch != '\n')
			return -EBADMSG;
		resp_done(r, c);
		return 0;
	}
}

/* Skip body bytes in bulk; returns how many of len were taken. */
static size_t
body_take(struct wr_http_resp *r, size_t len, struct wr_http_counts *c)
{
	size_t n = len;

	if (r->state != S_BODY_EOF && r->left_bytes < n)
		n = (size_t)r->left_bytes;
	c->nb_body_bytes += n;
	if (r->state == S_BODY_EOF)
		return n;
	r->left_bytes -= n;
	if (r->left_bytes == 0) {
		if (r->state == S_CHUNK_DATA)
			r->state = S_CHUNK_CR;
		else
			resp_done(r, c);
	}
	return n;
}

/* Whether ch is a decimal digit. */
static inline bool
digit(uint8_t ch)
{
	return ch >= '0' && ch <= '9';
}

/*
 * A status line's "HTTP/1.x NNN" and the byte after the code in p[0,
 * len) at once, as status_byte would read them; *n the bytes taken.
 * False, nothing taken, when they are not all there or not all good: the
 * byte path decides (and finds the error where there is one).
 */
static bool
status_whole(struct wr_http_resp *r, const uint8_t *p, size_t len, size_t *n)
{
	uint16_t code;

	if (r->pos != 0 || r->status != 0 || len < 13 ||
		memcmp(p, version, 7) != 0 || !digit(p[7]) || p[8] != ' ' ||
		!digit(p[9]) || !digit(p[10]) || !digit(p[11]) ||
		(p[12] != ' ' && p[12] != '\r' && p[12] != '\n'))
		return false;
	code = (uint16_t)((p[9] - '0') * 100 + (p[10] - '0') * 10 + (p[11] - '0'));
	if (code < 100 || r->line_bytes + 13u > WR_HTTP_LINE_MAX_BYTES)
		return false;
	r->status = code;
	r->pos = 3;
	r->state = p[12] == '\n' ? S_HDR_START : S_LINE_SKIP;
	r->line_bytes = p[12] == '\n' ? 0 : (uint16_t)(r->line_bytes + 13);
	*n = 13;
	return true;
}

/*
 * The value of a Content-Length, Transfer-Encoding, Connection or Expect
 * header line in p[0, len): up to and with its '\n', or all len bytes, each
 * through len_byte or word_byte as the byte path would; *n the bytes
 * taken. Returns 0 or -EBADMSG (a bad length, a line too long).
 */
static int
value_rest(struct wr_http_resp *r, const uint8_t *p, size_t len, size_t *n)
{
	bool lf, is_len = r->state == S_VAL_LEN;
	size_t k;

	if (wr_http_line_rest(&r->line_bytes, p, len, n, &lf) != 0)
		return -EBADMSG;
	for (k = 0; k < *n; k++) {
		if (!is_len)
			word_byte(r, p[k]);
		else if (len_byte(r, p[k]) != 0)
			return -EBADMSG;
	}
	return 0;
}

int
wr_http_resp_feed(struct wr_http_resp *r, const uint8_t *p, size_t len,
	struct wr_http_counts *c)
{
	size_t i = 0, n;
	bool lf;
	int rc;

	while (i < len) {
		if (r->state == S_ERROR)
			return -EBADMSG;
		if (r->state == S_BODY || r->state == S_BODY_EOF ||
			r->state == S_CHUNK_DATA) {
			i += body_take(r, len - i, c);
			continue;
		}
		if (r->state == S_LINE_SKIP || r->state == S_REQ_REST) {
			if (wr_http_line_rest(&r->line_bytes, p + i, len - i,
				&n, &lf) != 0)
				return resp_bad(r, c);
			if (r->state == S_REQ_REST)
				wr_http_req_line_tail(r, p + i, n);
			else if (lf)
				r->state = S_HDR_START;
			i += n;
			continue;
		}
		if (r->state == S_HDR_START &&
			wr_http_req_line_other(r, p + i, len - i))
			continue;
		if ((r->state == S_HDR_START && name_whole(r, p + i, len - i, &n)) ||
			(r->state == S_VERSION && status_whole(r, p + i, len - i, &n)) ||
			(r->state == S_REQ_START &&
			wr_http_method_whole(r, p + i, len - i, &n))) {
			i += n;
			continue;
		}
		if (r->state == S_VAL_LEN || r->state == S_VAL_WORD) {
			if (value_rest(r, p + i, len - i, &n) != 0)
				return resp_bad(r, c);
			i += n;
			continue;
		}
		if (++r->line_bytes > WR_HTTP_LINE_MAX_BYTES)
			return resp_bad(r, c);
		if (p[i] == '\n')
			r->line_bytes = 0;
		rc = r->state >= S_CHUNK_SIZE && r->state <= S_TRAILER_END_LF ?
			chunk_byte(r, p[i], c) : head_byte(r, p[i], c);
		if (rc != 0)
			return resp_bad(r, c);
		i++;
	}
	return r->state == S_ERROR ? -EBADMSG : 0;
}

int
wr_http_msg_skip(struct wr_http_resp *r, uint64_t len,
	struct wr_http_counts *c)
{
	size_t n;

	while (len > 0) {
		if (r->state != S_BODY && r->state != S_BODY_EOF &&
			r->state != S_CHUNK_DATA)
			return r->state == S_ERROR ? -EBADMSG : resp_bad(r, c);
		n = len < SIZE_MAX ? (size_t)len : SIZE_MAX;
		len -= body_take(r, n, c);
	}
	return 0;
}

int
wr_http_resp_eof(struct wr_http_resp *r, struct wr_http_counts *c)
{
	if (r->state == S_BODY_EOF) {
		resp_done(r, c);
		return 0;
	}
	if (r->state == S_VERSION && r->pos == 0)
		return 0;
	if (r->state == S_ERROR)
		return -EBADMSG;
	return resp_bad(r, c);
}
