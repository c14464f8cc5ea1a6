/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for lib/tcp/http.c and http_req.c: a stream of responses
 * shaped as nginx sends them (200 with Content-Length, 404, chunked with
 * extensions and a trailer, one delimited by the close) fed split at
 * every byte position, with counts worked by hand here; the same stream
 * mutated, read alike whole and in pieces; malformed status lines; huge
 * and overflowing Content-Length; bad chunk sizes; pipelined requests on
 * the server side; the writers' text.
 */
#include <errno.h>

#include "tcp/http.h"
#include "wr_test.h"

#define NGINX_200 \
	"HTTP/1.1 200 OK\r\nServer: nginx/1.22.1\r\n" \
	"Date: Fri, 04 Dec 2026 04:00:00 GMT\r\nContent-Type: text/html\r\n" \
	"Content-Length: 615\r\n" \
	"Last-Modified: Mon, 02 Nov 2026 10:00:00 GMT\r\n" \
	"Connection: keep-alive\r\nETag: \"6367-267\"\r\n" \
	"Accept-Ranges: bytes\r\n\r\n"
#define NGINX_404 \
	"HTTP/1.1 404 Not Found\r\nServer: nginx/1.22.1\r\n" \
	"Content-Type: text/html\r\ncontent-length:   153\r\n" \
	"Connection: keep-alive\r\n\r\n"
#define CHUNKED \
	"HTTP/1.1 200 OK\r\nServer: nginx/1.22.1\r\n" \
	"Transfer-Encoding: chunked\r\nConnection: keep-alive\r\n\r\n" \
	"1A;name=value\r\nabcdefghijklmnopqrstuvwxyz\r\n" \
	"3\r\nxyz\r\n0\r\nX-Trailer: 1\r\n\r\n"
#define CLOSED \
	"HTTP/1.0 200 OK\r\nServer: nginx/1.22.1\r\nConnection: close\r\n\r\n" \
	"the body runs to the close"

static uint8_t stream[8192];

/* The four responses in a row; returns the length. */
static size_t
make_stream(void)
{
	size_t n = 0;

	memcpy(stream + n, NGINX_200, strlen(NGINX_200));
	n += strlen(NGINX_200);
	memset(stream + n, 'a', 615);
	n += 615;
	memcpy(stream + n, NGINX_404, strlen(NGINX_404));
	n += strlen(NGINX_404);
	memset(stream + n, 'b', 153);
	n += 153;
	memcpy(stream + n, CHUNKED, strlen(CHUNKED));
	n += strlen(CHUNKED);
	memcpy(stream + n, CLOSED, strlen(CLOSED));
	return n + strlen(CLOSED);
}

/* Feed the stream in two pieces cut at cut, then the close. */
static void
feed_split(size_t n, size_t cut, struct wr_http_counts *c)
{
	struct wr_http_resp r;

	memset(c, 0, sizeof(*c));
	wr_http_resp_init(&r);
	WR_CHECK(wr_http_resp_feed(&r, stream, cut, c) == 0);
	WR_CHECK(wr_http_resp_feed(&r, stream + cut, n - cut, c) == 0);
	WR_CHECK(wr_http_resp_eof(&r, c) == 0);
}

static void
test_split_everywhere(void)
{
	size_t n = make_stream(), cut, nb_bad = 0;
	struct wr_http_counts c;

	for (cut = 0; cut <= n; cut++) {
		feed_split(n, cut, &c);
		/* 4 responses, the 404 failed, one chunked; bodies
		 * 615 + 153 + 26 + 3 + 26 ("the body runs to the close") */
		nb_bad += c.nb_responses != 4 || c.nb_failed != 1 ||
			c.nb_chunked != 1 || c.nb_malformed != 0 ||
			c.nb_body_bytes != 615 + 153 + 26 + 3 + 26;
	}
	WR_CHECK_U64(nb_bad, 0);
}

/* Byte by byte, the hardest split. */
static void
test_byte_by_byte(void)
{
	size_t n = make_stream(), i;
	struct wr_http_counts c;
	struct wr_http_resp r;

	memset(&c, 0, sizeof(c));
	wr_http_resp_init(&r);
	for (i = 0; i < n; i++)
		WR_CHECK(wr_http_resp_feed(&r, stream + i, 1, &c) == 0);
	WR_CHECK(wr_http_resp_eof(&r, &c) == 0);
	WR_CHECK_U64(c.nb_responses, 4);
	WR_CHECK_U64(c.nb_body_bytes, 823);
}

/* A head that must be refused; counted once, then sticky. */
static void
check_bad(const char *head)
{
	struct wr_http_counts c;
	struct wr_http_resp r;

	memset(&c, 0, sizeof(c));
	wr_http_resp_init(&r);
	if (wr_http_resp_feed(&r, (const uint8_t *)head, strlen(head), &c) !=
		-EBADMSG) {
		fprintf(stderr, "accepted: %s\n", head);
		WR_CHECK(0);
	}
	WR_CHECK(wr_http_resp_feed(&r, (const uint8_t *)"HTTP/1.1 ", 9, &c) ==
		-EBADMSG);
	WR_CHECK_U64(c.nb_malformed, 1);
	WR_CHECK_U64(c.nb_responses, 0);
}

static void
test_malformed(void)
{
	check_bad("HTTP/2 200 OK\r\n\r\n");
	check_bad("HTTX/1.1 200 OK\r\n\r\n");
	check_bad("HTTP/1.1 20 OK\r\n\r\n");
	check_bad("HTTP/1.1 2000 OK\r\n\r\n");
	check_bad("HTTP/1.1 abc OK\r\n\r\n");
	check_bad("HTTP/1.1 099 Low\r\n\r\n");
	check_bad("http/1.1 200 OK\r\n\r\n");
	check_bad("HTTP/1.1 200 OK\r\nno colon here\r\n\r\n");
	check_bad("HTTP/1.1 200 OK\r\nContent-Length: 12x\r\n\r\n");
	check_bad("HTTP/1.1 200 OK\r\nContent-Length:\r\n\r\n");
	check_bad("HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999\r\n");
	check_bad("HTTP/1.1 200 OK\r\nContent-Length: 4611686018427387904\r\n");
	check_bad("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n");
	check_bad("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
		"1\r\nab\r\n");
	check_bad("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
		"ffffffffffffffffff\r\n");
}

/* Feed p[0, n) in pieces of step bytes, then the close: the counts in
 * c; returns 0, or -EBADMSG when a feed or the close refused. */
static int
feed_steps(const uint8_t *p, size_t n, size_t step, struct wr_http_counts *c)
{
	struct wr_http_resp r;
	size_t i, k;
	int rc = 0;

	memset(c, 0, sizeof(*c));
	wr_http_resp_init(&r);
	for (i = 0; i < n && rc == 0; i += k) {
		k = n - i < step ? n - i : step;
		rc = wr_http_resp_feed(&r, p + i, k, c);
	}
	return rc != 0 ? rc : wr_http_resp_eof(&r, c);
}

/*
 * The ways through whole buffers (a status line, a header name or value,
 * the rest of a line) read what the byte path reads: the stream with 1
 * to 4 bytes replaced at random (by bytes the grammar cares about) gives
 * the same answer and counts fed whole, byte by byte and in pieces of 5.
 */
static void
test_whole_as_bytes(void)
{
	static const char alphabet[] = " \t\r\n:0123456789HTTP/.chunkedclose"
		"CONTENT-LENGTHx;";
	static uint8_t mut[sizeof(stream)];
	struct wr_http_counts whole, bytes, fives;
	size_t n = make_stream(), k, nb_bad = 0, nb_refused = 0;
	uint64_t s = 7;
	int i, rc;

	for (i = 0; i < 20000; i++) {
		memcpy(mut, stream, n);
		for (k = 0; k <= (size_t)(i % 4); k++) {
			s = s * 6364136223846793005ULL + 1442695040888963407ULL;
			/* the first 700 bytes: the 200's head and body, the
			 * 404's head, where most fast ways are */
			mut[(s >> 33) % 700] = (uint8_t)alphabet[(s >> 20) %
				(sizeof(alphabet) - 1)];
		}
		rc = feed_steps(mut, n, n, &whole);
		nb_refused += rc != 0;
		nb_bad += rc != feed_steps(mut, n, 1, &bytes) ||
			rc != feed_steps(mut, n, 5, &fives) ||
			memcmp(&whole, &bytes, sizeof(whole)) != 0 ||
			memcmp(&whole, &fives, sizeof(whole)) != 0;
	}
	WR_CHECK_U64(nb_bad, 0);
	/* the mutations reach the refusals, and not only them */
	WR_CHECK(nb_refused > 1000 && nb_refused < 19000);
}

/* Feed a request stream p[0, n) in pieces of step bytes: its result,
 * the requests counted in *done. */
static int
req_steps(const uint8_t *p, size_t n, size_t step, uint64_t *done)
{
	struct wr_http_req q;
	size_t i, k;
	int rc = 0;

	*done = 0;
	wr_http_req_init(&q);
	for (i = 0; i < n && rc == 0; i += k) {
		k = n - i < step ? n - i : step;
		rc = wr_http_req_feed(&q, p + i, k, done);
	}
	return rc;
}

/*
 * The same for requests (the method, a line skipped by its first byte,
 * a header name whole): pipelined requests, 1 to 4 bytes replaced at
 * random, read alike whole, byte by byte and in pieces of 5.
 */
static void
test_req_whole_as_bytes(void)
{
	static const char alphabet[] = " \t\r\n:0123456789GETPOST/.chunked"
		"CONTENT-LENGTHtransfer-encodingx;";
	static const char req[] =
		"POST /a HTTP/1.1\r\nHost: h\r\nContent-Length: 12\r\n"
		"Connection: keep-alive\r\n\r\nGET / HTTP/1"
		"PUT /b HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
		"5\r\nGET /\r\n0\r\n\r\n"
		"GET /c HTTP/1.1\r\nAccept: */*\r\ncookie: x\r\n\r\n"
		"DELETE /d HTTP/1.1\r\nTE: trailers\r\n\r\n";
	static uint8_t mut[sizeof(req)];
	const size_t n = sizeof(req) - 1;
	size_t k, nb_bad = 0, nb_refused = 0;
	uint64_t s = 11, whole, bytes, fives;
	int i, rc;

	WR_CHECK(req_steps((const uint8_t *)req, n, n, &whole) == 0);
	WR_CHECK_U64(whole, 4);
	for (i = 0; i < 20000; i++) {
		memcpy(mut, req, n);
		for (k = 0; k <= (size_t)(i % 4); k++) {
			s = s * 6364136223846793005ULL + 1442695040888963407ULL;
			mut[(s >> 33) % n] = (uint8_t)alphabet[(s >> 20) %
				(sizeof(alphabet) - 1)];
		}
		rc = req_steps(mut, n, n, &whole);
		nb_refused += rc != 0;
		nb_bad += rc != req_steps(mut, n, 1, &bytes) ||
			rc != req_steps(mut, n, 5, &fives) ||
			whole != bytes || whole != fives;
	}
	WR_CHECK_U64(nb_bad, 0);
	WR_CHECK(nb_refused > 1000 && nb_refused < 19000);
}

/* A status line without a reason phrase, or ending in a bare '\n'. */
static void
test_status_ends(void)
{
	const char *h[] = {
		"HTTP/1.1 204\r\n\r\n",
		"HTTP/1.1 200\nContent-Length: 2\n\nok",
		"HTTP/1.0 503 \r\nContent-Length: 0\r\n\r\n",
	};
	const uint64_t failed[] = { 0, 0, 1 };
	struct wr_http_counts c;
	size_t i;

	for (i = 0; i < 3; i++) {
		WR_CHECK(feed_steps((const uint8_t *)h[i], strlen(h[i]),
			strlen(h[i]), &c) == 0);
		WR_CHECK_U64(c.nb_responses, 1);
		WR_CHECK_U64(c.nb_failed, failed[i]);
	}
}

/* 2^62 - 1 bytes of body accepted; the parser only counts down. */
static void
test_huge_length(void)
{
	const char *h = "HTTP/1.1 200 OK\r\n"
		"Content-Length: 4611686018427387903\r\n\r\n";
	static uint8_t mb[1 << 20];
	struct wr_http_counts c;
	struct wr_http_resp r;
	int i;

	memset(&c, 0, sizeof(c));
	wr_http_resp_init(&r);
	WR_CHECK(wr_http_resp_feed(&r, (const uint8_t *)h, strlen(h), &c) == 0);
	WR_CHECK_U64(r.left_bytes, 4611686018427387903ULL);
	for (i = 0; i < 8; i++)
		WR_CHECK(wr_http_resp_feed(&r, mb, sizeof(mb), &c) == 0);
	WR_CHECK_U64(r.left_bytes, 4611686018427387903ULL - (8 << 20));
	WR_CHECK_U64(c.nb_body_bytes, 8 << 20);
	WR_CHECK(wr_http_resp_eof(&r, &c) == -EBADMSG);   /* cut short */
	WR_CHECK_U64(c.nb_responses, 0);
}

/* Server: three pipelined requests, split everywhere; a bad one. */
static void
test_requests(void)
{
	char req[3 * 256];
	size_t n = 0, cut, nb_bad = 0;
	struct wr_http_req q;
	uint64_t nb;
	int i, w;

	for (i = 0; i < 3; i++) {
		w = wr_http_req_write(req + n, sizeof(req) - n, "/index.html",
			"10.0.1.1", i < 2, 0);
		WR_CHECK(w > 0);
		n += (size_t)w;
	}
	for (cut = 0; cut <= n; cut++) {
		nb = 0;
		wr_http_req_init(&q);
		nb_bad += wr_http_req_feed(&q, (uint8_t *)req, cut, &nb) != 0;
		nb_bad += wr_http_req_feed(&q, (uint8_t *)req + cut, n - cut,
			&nb) != 0;
		nb_bad += nb != 3;
	}
	WR_CHECK_U64(nb_bad, 0);
	nb = 0;
	wr_http_req_init(&q);
	WR_CHECK(wr_http_req_feed(&q, (const uint8_t *)"get / HTTP/1.1\r\n", 16,
		&nb) == -EBADMSG);
	WR_CHECK_U64(nb, 0);
}

/*
 * Requests with bodies, pipelined: a POST of 5 bytes by Content-Length, a
 * chunked one of 3 + 10 bytes with a trailer, a GET, a POST of 0 bytes;
 * the body bytes are made of what a head would hold ("GET / HTTP/1.1")
 * so that a parser reading them as a head would count one more. Split
 * everywhere, and byte by byte: 4 requests.
 */
static void
test_request_bodies(void)
{
	static const char *const reqs[] = {
		"POST /a HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\n"
		"GET /",
		"POST /b HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
		"3\r\n\r\n\r\na;x=1\r\nGET / HTTP\r\n0\r\nT: v\r\n\r\n",
		"GET /c HTTP/1.1\r\n\r\n",
		"POST /d HTTP/1.1\r\ncontent-length: 0\r\n\r\n",
	};
	char req[512];
	size_t ends[4], n = 0, cut, i, nb_bad = 0;
	struct wr_http_req q;
	uint64_t nb, want;

	for (i = 0; i < 4; i++) {
		n += (size_t)sprintf(req + n, "%s", reqs[i]);
		ends[i] = n;
	}
	for (cut = 0; cut <= n; cut++) {
		for (want = 0, i = 0; i < 4; i++)
			want += ends[i] <= cut;
		nb = 0;
		wr_http_req_init(&q);
		nb_bad += wr_http_req_feed(&q, (const uint8_t *)req, cut, &nb) != 0;
		nb_bad += nb != want;
		nb_bad += wr_http_req_feed(&q, (const uint8_t *)req + cut, n - cut,
			&nb) != 0;
		nb_bad += nb != 4;
	}
	WR_CHECK_U64(nb_bad, 0);
	nb = 0;
	wr_http_req_init(&q);
	for (i = 0; i < n; i++)
		WR_CHECK(wr_http_req_feed(&q, (const uint8_t *)req + i, 1, &nb) == 0);
	WR_CHECK_U64(nb, 4);
}

/*
 * Expect: 100-continue (RFC 9110 10.1.1): a 100 Continue is due once a
 * head that asks for it has ended and until its body ends; not for a
 * request without a body, another expectation, another header or an
 * HTTP/1.0 request (whose expectation a server ignores), however its
 * target reads. Cut everywhere: due after the first piece exactly where
 * the cut falls in such a body; fed byte by byte: due once for each of
 * the three.
 */
static void
test_request_expect(void)
{
	static const char *const reqs[] = {
		"POST /a HTTP/1.1\r\nExpect: 100-continue\r\n"
		"Content-Length: 5\r\n\r\n", "12345",
		"PUT /b HTTP/1.1\r\nEXPECT:100-Continue\r\n"
		"Transfer-Encoding: chunked\r\n\r\n", "3\r\nabc\r\n0\r\n\r\n",
		"POST /HTTP/1.0 HTTP/1.1\r\nExpect: 100-continue\r\n"
		"Content-Length: 3\r\n\r\n", "abc",
		"POST /c HTTP/1.1\r\nExpect: 100-continue\r\n"
		"Content-Length: 0\r\n\r\n", "",
		"GET /d HTTP/1.1\r\nExpect: 100-continue\r\n\r\n", "",
		"POST /e HTTP/1.1\r\nExpected: 100-continue\r\n"
		"Content-Length: 2\r\n\r\n", "xy",
		"POST /f HTTP/1.1\r\nExpect: 200-ok\r\n"
		"Content-Length: 2\r\n\r\n", "xy",
		"POST /g HTTP/1.1\r\nX-Expect: 100-continue\r\n"
		"Content-Length: 2\r\n\r\n", "xy",
		"POST /h HTTP/1.0\r\nExpect: 100-continue\r\n"
		"Content-Length: 2\r\n\r\n", "xy",
		"POST /HHTTP/1.0x?HTTP/1.1 HTTP/1.0\nExpect: 100-continue\n"
		"Content-Length: 2\n\n", "xy",
	};
	char req[1024];
	size_t heads[3], bodies[3], n = 0, cut, i, nb_bad = 0, nb_due = 0;
	struct wr_http_req q;
	uint64_t nb;
	int due;

	for (i = 0; i < 20; i++) {
		n += (size_t)sprintf(req + n, "%s", reqs[i]);
		if (i < 6)
			*(i % 2 ? &bodies[i / 2] : &heads[i / 2]) = n;
	}
	for (cut = 0; cut <= n; cut++) {
		for (due = 0, i = 0; i < 3; i++)
			due |= cut >= heads[i] && cut < bodies[i];
		nb = 0;
		wr_http_req_init(&q);
		nb_bad += wr_http_req_feed(&q, (const uint8_t *)req, cut, &nb) != 0;
		nb_bad += wr_http_req_continue_due(&q) != due;
		nb_bad += wr_http_req_continue_due(&q) != 0;    /* once */
		nb_bad += wr_http_req_feed(&q, (const uint8_t *)req + cut, n - cut,
			&nb) != 0;
		nb_bad += wr_http_req_continue_due(&q) != 0 || nb != 10;
	}
	WR_CHECK_U64(nb_bad, 0);
	nb = 0;
	wr_http_req_init(&q);
	for (i = 0; i < n; i++) {
		WR_CHECK(wr_http_req_feed(&q, (const uint8_t *)req + i, 1, &nb) == 0);
		nb_due += (size_t)wr_http_req_continue_due(&q);
	}
	WR_CHECK_U64(nb_due, 3);
	WR_CHECK_U64(nb, 10);
}

/*
 * Body bytes that were not kept (wr_http_req_skip): a POST's body of 1 GB
 * skipped in pieces ends it; the next request's head then read; bytes
 * not kept where a head is due are refused, and stay refused.
 */
static void
test_request_skip(void)
{
	static const char post[] =
		"POST / HTTP/1.1\r\nContent-Length: 1000000000\r\n\r\n";
	static const char get[] = "GET / HTTP/1.1\r\n\r\n";
	struct wr_http_req q;
	uint64_t nb = 0;

	wr_http_req_init(&q);
	WR_CHECK(wr_http_req_feed(&q, (const uint8_t *)post, sizeof(post) - 1,
		&nb) == 0);
	WR_CHECK(wr_http_req_skip(&q, 999999999, &nb) == 0);
	WR_CHECK_U64(nb, 0);
	WR_CHECK(wr_http_req_feed(&q, (const uint8_t *)"x", 1, &nb) == 0);
	WR_CHECK_U64(nb, 1);
	WR_CHECK(wr_http_req_feed(&q, (const uint8_t *)get, sizeof(get) - 1,
		&nb) == 0);
	WR_CHECK_U64(nb, 2);
	WR_CHECK(wr_http_req_feed(&q, (const uint8_t *)post, sizeof(post) - 1,
		&nb) == 0);
	/* the body's last byte and one more: a head byte not kept */
	WR_CHECK(wr_http_req_skip(&q, 1000000001, &nb) == -EBADMSG);
	WR_CHECK_U64(nb, 3);
	WR_CHECK(wr_http_req_feed(&q, (const uint8_t *)get, sizeof(get) - 1,
		&nb) == -EBADMSG);
	WR_CHECK_U64(nb, 3);
	WR_CHECK(wr_http_req_skip(&q, 1, &nb) == -EBADMSG);
	/* a bad Content-Length in a request */
	wr_http_req_init(&q);
	WR_CHECK(wr_http_req_feed(&q, (const uint8_t *)
		"PUT / HTTP/1.1\r\nContent-Length: 1x\r\n\r\n", 38, &nb) ==
		-EBADMSG);
	WR_CHECK_U64(sizeof(struct wr_http_req), 16);
}

/* The writers' text, and a response head read back by the client. */
static void
test_writers(void)
{
	char buf[256];
	struct wr_http_counts c;
	struct wr_http_resp r;
	static uint8_t body[100000];
	int n;

	n = wr_http_req_write(buf, sizeof(buf), "/x", "h", 0, 0);
	WR_CHECK_U64(n, strlen(buf));
	WR_CHECK_STR(buf, "GET /x HTTP/1.1\r\nHost: h\r\n");
	WR_CHECK_STR(buf, "Connection: close\r\n\r\n");
	WR_CHECK(strstr(buf, "Content-Length") == NULL);
	WR_CHECK(wr_http_req_write(buf, 20, "/x", "h", 1, 0) == -ENOSPC);
	n = wr_http_req_write(buf, sizeof(buf), "/x", "h", 1, 1000000000);
	WR_CHECK_U64(n, strlen(buf));
	WR_CHECK_STR(buf, "POST /x HTTP/1.1\r\nHost: h\r\n");
	WR_CHECK_STR(buf, "Content-Length: 1000000000\r\n");
	WR_CHECK_STR(buf, "Connection: keep-alive\r\n\r\n");
	WR_CHECK(wr_http_req_write(buf, 120, "/x", "h", 1, 5) == -ENOSPC);
	n = wr_http_resp_head_write(buf, sizeof(buf), 100000, 1);
	WR_CHECK_STR(buf, "HTTP/1.1 200 OK\r\n");
	WR_CHECK_STR(buf, "Content-Length: 100000\r\n");
	WR_CHECK_STR(buf, "Connection: keep-alive\r\n\r\n");
	memset(&c, 0, sizeof(c));
	wr_http_resp_init(&r);
	WR_CHECK(wr_http_resp_feed(&r, (uint8_t *)buf, (size_t)n, &c) == 0);
	WR_CHECK(wr_http_resp_feed(&r, body, sizeof(body), &c) == 0);
	WR_CHECK_U64(c.nb_responses, 1);
	WR_CHECK_U64(c.nb_failed, 0);
	WR_CHECK(wr_http_resp_head_write(buf, 30, 1, 1) == -ENOSPC);
	WR_CHECK_U64(sizeof(struct wr_http_resp), 16);
}

/*
 * first, then a header line of line_len bytes (with its CRLF) the parsers
 * skip, then rest: in a static buffer, its length in *n.
 */
static const uint8_t *
long_head(const char *first, const char *rest, size_t line_len, size_t *n)
{
	static uint8_t h[WR_HTTP_LINE_MAX_BYTES + 64];

	*n = (size_t)sprintf((char *)h, "%sX: ", first);
	memset(h + *n, 'a', line_len - 5);
	*n += line_len - 5;
	*n += (size_t)sprintf((char *)h + *n, "\r\n%s", rest);
	return h;
}

/* A response head with that line, fed in pieces of step bytes: its
 * result (0 or -EBADMSG) and responses. */
static int
long_line(size_t line_len, size_t step, uint64_t *responses)
{
	struct wr_http_counts c;
	struct wr_http_resp r;
	size_t n, i, k;
	const uint8_t *h = long_head("HTTP/1.1 200 OK\r\n",
		"Content-Length: 0\r\n\r\n", line_len, &n);
	int rc = 0;

	memset(&c, 0, sizeof(c));
	wr_http_resp_init(&r);
	for (i = 0; i < n && rc == 0; i += k) {
		k = n - i < step ? n - i : step;
		rc = wr_http_resp_feed(&r, h + i, k, &c);
	}
	*responses = c.nb_responses;
	return rc;
}

/* A request with that line, fed in pieces of step bytes: its result and
 * requests counted. */
static int
long_req_line(size_t line_len, size_t step, uint64_t *done)
{
	size_t n;
	const uint8_t *h = long_head("GET / HTTP/1.1\r\n", "\r\n", line_len, &n);

	return req_steps(h, n, step, done);
}

/* The line limit counts a skipped line's bytes alike whole, byte by
 * byte and cut anywhere: WR_HTTP_LINE_MAX_BYTES taken, one more refused;
 * in a response and in a request. */
static void
test_long_line(void)
{
	const size_t steps[] = { 1, 7, 100, 4096, sizeof(stream) * 2 };
	const size_t max = WR_HTTP_LINE_MAX_BYTES;
	uint64_t nb;
	size_t i;

	for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		WR_CHECK(long_line(max, steps[i], &nb) == 0);
		WR_CHECK_U64(nb, 1);
		WR_CHECK(long_line(max + 1, steps[i], &nb) == -EBADMSG);
		WR_CHECK_U64(nb, 0);
		WR_CHECK(long_req_line(max, steps[i], &nb) == 0);
		WR_CHECK_U64(nb, 1);
		WR_CHECK(long_req_line(max + 1, steps[i], &nb) == -EBADMSG);
		WR_CHECK_U64(nb, 0);
	}
}

int
main(void)
{
	WR_TEST_RUN(test_split_everywhere);
	WR_TEST_RUN(test_byte_by_byte);
	WR_TEST_RUN(test_malformed);
	WR_TEST_RUN(test_whole_as_bytes);
	WR_TEST_RUN(test_req_whole_as_bytes);
	WR_TEST_RUN(test_status_ends);
	WR_TEST_RUN(test_huge_length);
	WR_TEST_RUN(test_long_line);
	WR_TEST_RUN(test_requests);
	WR_TEST_RUN(test_request_bodies);
	WR_TEST_RUN(test_request_skip);
	WR_TEST_RUN(test_request_expect);
	WR_TEST_RUN(test_writers);
	return wr_test_summary();
}
