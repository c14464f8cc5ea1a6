/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The HTTP response parser (lib/tcp/http.c), fed arbitrary bytes three
 * ways: whole (header names matched whole where their ':' is in the
 * piece), cut in two at a place the first byte picks, and one byte at a
 * time (every name read byte by byte). Property: the three agree on
 * every count (responses, failures, chunked, malformed, body bytes),
 * on whether the stream was refused and on what the close says; the
 * parser never counts more body bytes than it was given.
 */
#include <errno.h>

#include "tcp/http.h"
#include "fuzz.h"

#define FUZZ_MAX_INPUT 4096

struct outcome {
	struct wr_http_counts c;
	int refused;
	int eof;
};

static void
feed(const uint8_t *d, size_t n, size_t piece, struct outcome *o)
{
	struct wr_http_resp r;
	size_t at, k;
	int rc;

	memset(o, 0, sizeof(*o));
	wr_http_resp_init(&r);
	for (at = 0; at < n; at += k) {
		k = n - at < piece ? n - at : piece;
		rc = wr_http_resp_feed(&r, d + at, k, &o->c);
		FUZZ_CHECK(rc == 0 || rc == -EBADMSG);
		if (rc != 0)
			o->refused = 1;
	}
	o->eof = wr_http_resp_eof(&r, &o->c);
	FUZZ_CHECK(o->eof == 0 || o->eof == -EBADMSG);
	FUZZ_CHECK(o->c.nb_body_bytes <= n);
	FUZZ_CHECK(o->c.nb_failed <= o->c.nb_responses);
}

static int
same(const struct outcome *a, const struct outcome *b)
{
	return memcmp(&a->c, &b->c, sizeof(a->c)) == 0 &&
		a->refused == b->refused && a->eof == b->eof;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct outcome whole, cut, bytes;
	size_t at;

	if (size < 1 || size > FUZZ_MAX_INPUT)
		return 0;
	at = data[0] % size;
	data++;
	size--;
	feed(data, size, size == 0 ? 1 : size, &whole);
	feed(data, size, 1, &bytes);
	FUZZ_CHECK(same(&whole, &bytes));
	/* two pieces: the first at bytes, the rest whole */
	{
		struct wr_http_resp r;
		int rc1, rc2;

		memset(&cut, 0, sizeof(cut));
		wr_http_resp_init(&r);
		rc1 = wr_http_resp_feed(&r, data, at, &cut.c);
		rc2 = wr_http_resp_feed(&r, data + at, size - at, &cut.c);
		cut.refused = (at > 0 && rc1 != 0) || (size > at && rc2 != 0);
		cut.eof = wr_http_resp_eof(&r, &cut.c);
	}
	FUZZ_CHECK(same(&whole, &cut));
	return 0;
}
