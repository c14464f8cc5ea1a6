/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The control socket's request reader (base/rpc.h) and the options a
 * start request carries (config/optjson.h). Input: byte 0 picks the size
 * of the pieces the stream arrives in (1..256 bytes); byte 1 with its top
 * bit set puts a run of 'x' just over or under WR_RPC_MAX_LINE in the
 * middle; the rest is the stream. Properties: the reader returns exactly
 * the stream's complete lines (without "\n" or "\r\n") that fit the
 * limit, in order, and one -E2BIG per line over it, whatever the pieces;
 * a parsed request has a method and an object of params, a refused one
 * a JSON-RPC code and a message; every reply is one line of JSON; a
 * start's options are accepted or refused with a usage message.
 */
#include <errno.h>

#include <jansson.h>

#include "base/rpc.h"
#include "config/optjson.h"
#include "config/opts.h"
#include "fuzz.h"

/* The stream the input describes; *n its length. NULL without memory. */
static char *
make_stream(const uint8_t *d, size_t size, size_t *n)
{
	size_t half = size / 2, run = 0;
	char *s;

	if (size > 1 && (d[1] & 0x80) != 0)
		run = WR_RPC_MAX_LINE - 4 + (d[1] & 7u);
	s = malloc(size + run + 1);
	if (s == NULL)
		return NULL;
	memcpy(s, d, half);
	memset(s + half, 'x', run);
	memcpy(s + half + run, d + half, size - half);
	*n = size + run;
	return s;
}

/* A parsed request: check it; a start's params applied as options. */
static void
check_request(const char *line, size_t len)
{
	struct wr_rpc_req req;
	struct wr_config cfg;
	struct wr_error err;
	char *reply;
	int code;

	wr_err_clear(&err);
	code = wr_rpc_parse(line, len, &req, &err);
	if (code != 0) {
		FUZZ_CHECK(code <= -32000 && fuzz_error_ok(&err));
		reply = wr_rpc_error(req.id, code, err.msg);
	} else {
		FUZZ_CHECK(req.method != NULL && json_is_object(req.params));
		reply = wr_rpc_result(req.id, json_object());
		/* No file reads from fuzz input: --profile is left out. */
		json_object_del(req.params, "profile");
		if (strcmp(req.method, "start") == 0) {
			wr_config_defaults(&cfg);
			wr_err_clear(&err);
			if (wr_opts_from_json(req.params, &cfg, &err) != 0)
				FUZZ_CHECK(fuzz_error_ok(&err) && err.cls == WR_ERR_USAGE);
		}
	}
	FUZZ_CHECK(reply != NULL);
	FUZZ_CHECK(strchr(reply, '\n') == reply + strlen(reply) - 1);
	json_decref(json_loads(reply, 0, NULL));
	free(reply);
	wr_rpc_req_free(&req);
}

/* Line k of the stream as the reader must return it: the next one. */
struct expect {
	const char *s;
	size_t n, pos;
	unsigned int dropped;    /* lines over the limit passed so far */
};

/* The next complete line that fits, or NULL; counts those over it. */
static const char *
next_expected(struct expect *e, size_t *len)
{
	const char *nl, *line;

	while (e->pos < e->n) {
		nl = memchr(e->s + e->pos, '\n', e->n - e->pos);
		if (nl == NULL)
			return NULL;
		line = e->s + e->pos;
		*len = (size_t)(nl - line);
		e->pos += *len + 1;
		if (*len > WR_RPC_MAX_LINE) {
			e->dropped++;
			continue;
		}
		if (*len > 0 && line[*len - 1] == '\r')
			(*len)--;
		return line;
	}
	return NULL;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct expect e = { NULL, 0, 0, 0 };
	struct wr_rpc_reader rd;
	size_t piece, off, n, len, want_len;
	unsigned int dropped = 0;
	const char *want;
	char *line, *s;
	int rc;

	if (size < 2)
		return 0;
	piece = (size_t)data[0] + 1;
	s = make_stream(data + 2, size - 2, &n);
	if (s == NULL)
		return 0;
	e.s = s;
	e.n = n;
	wr_rpc_reader_init(&rd);
	for (off = 0; off < n; off += piece) {
		FUZZ_CHECK(wr_rpc_reader_push(&rd, s + off,
			RTE_MIN(piece, n - off)) == 0);
		while ((rc = wr_rpc_reader_next(&rd, &line, &len)) != 0) {
			if (rc == -E2BIG) {
				dropped++;
				continue;
			}
			FUZZ_CHECK(rc == 1 && len <= WR_RPC_MAX_LINE &&
				memchr(line, '\n', len) == NULL && line[len] == '\0');
			want = next_expected(&e, &want_len);
			FUZZ_CHECK(want != NULL && want_len == len &&
				memcmp(want, line, len) == 0);
			if (len < 4096)
				check_request(line, len);
		}
		/* Never more than one line over the limit held. */
		FUZZ_CHECK(rd.len <= WR_RPC_MAX_LINE + n);
	}
	FUZZ_CHECK(next_expected(&e, &want_len) == NULL);
	/* A last line without its "\n" over the limit is dropped already. */
	FUZZ_CHECK(dropped == e.dropped + (n - e.pos > WR_RPC_MAX_LINE));
	wr_rpc_reader_free(&rd);
	free(s);
	return 0;
}
