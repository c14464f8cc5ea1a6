/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * JSON-RPC 2.0 lines (rpc.h). The reader keeps at most one line over the
 * limit's worth of bytes: what a client sends beyond WR_RPC_MAX_LINE
 * without a newline is dropped as it arrives, so a client cannot make
 * the server hold more than about that per connection.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rpc.h"

void
wr_rpc_reader_init(struct wr_rpc_reader *r)
{
	memset(r, 0, sizeof(*r));
}

void
wr_rpc_reader_free(struct wr_rpc_reader *r)
{
	free(r->buf);
	wr_rpc_reader_init(r);
}

/* Move the bytes not handed out yet to the front (once per push). */
static void
compact(struct wr_rpc_reader *r)
{
	if (r->start == 0)
		return;
	memmove(r->buf, r->buf + r->start, r->len - r->start);
	r->len -= r->start;
	r->start = 0;
}

static int
append(struct wr_rpc_reader *r, const char *data, size_t n)
{
	size_t cap = r->cap != 0 ? r->cap : 4096;
	char *b;

	while (cap < r->len + n + 1)
		cap *= 2;
	if (cap != r->cap) {
		b = realloc(r->buf, cap);
		if (b == NULL)
			return -ENOMEM;
		r->buf = b;
		r->cap = cap;
	}
	memcpy(r->buf + r->len, data, n);
	r->len += n;
	return 0;
}

/* One piece of at most one line (chunk bytes, ending with '\n' if nl). */
static int
take_piece(struct wr_rpc_reader *r, const char *data, size_t chunk, bool nl)
{
	size_t line = r->part + (nl ? chunk - 1 : chunk);

	if (r->skipping) {
		r->skipping = !nl;
		return 0;
	}
	if (line > WR_RPC_MAX_LINE) {
		r->len -= r->part;
		r->part = 0;
		r->nb_dropped++;
		r->skipping = !nl;
		return 0;
	}
	if (append(r, data, chunk) != 0)
		return -ENOMEM;
	r->part = nl ? 0 : r->part + chunk;
	r->nb_lines += nl;
	return 0;
}

int
wr_rpc_reader_push(struct wr_rpc_reader *r, const char *data, size_t n)
{
	const char *nl;
	size_t chunk;

	compact(r);
	while (n > 0) {
		nl = memchr(data, '\n', n);
		chunk = nl != NULL ? (size_t)(nl - data) + 1 : n;
		if (take_piece(r, data, chunk, nl != NULL) != 0)
			return -ENOMEM;
		data += chunk;
		n -= chunk;
	}
	return 0;
}

int
wr_rpc_reader_next(struct wr_rpc_reader *r, char **line, size_t *len)
{
	char *s, *nl;

	if (r->nb_dropped > 0) {
		r->nb_dropped--;
		return -E2BIG;
	}
	if (r->nb_lines == 0)
		return 0;
	s = r->buf + r->start;
	nl = memchr(s, '\n', r->len - r->start);
	r->nb_lines--;
	r->start += (size_t)(nl - s) + 1;
	*nl = '\0';
	if (nl > s && nl[-1] == '\r')
		*--nl = '\0';
	*line = s;
	*len = (size_t)(nl - s);
	return 1;
}

/* The id, when it is one JSON-RPC allows (string, number, null). */
static json_t *
request_id(json_t *doc)
{
	json_t *id = json_object_get(doc, "id");

	if (id == NULL || !(json_is_string(id) || json_is_number(id) ||
			json_is_null(id)))
		return NULL;
	return id;
}

int
wr_rpc_parse(const char *line, size_t len, struct wr_rpc_req *req,
		struct wr_error *err)
{
	json_error_t jerr;
	json_t *v;

	memset(req, 0, sizeof(*req));
	req->doc = json_loadb(line, len, JSON_REJECT_DUPLICATES, &jerr);
	if (req->doc == NULL) {
		wr_err_usage(err, -EINVAL, "not JSON: %s at character %d",
			jerr.text, jerr.position);
		return WR_RPC_PARSE_ERROR;
	}
	if (!json_is_object(req->doc)) {
		wr_err_usage(err, -EINVAL, "a request is a JSON object");
		return WR_RPC_INVALID_REQUEST;
	}
	req->id = request_id(req->doc);
	v = json_object_get(req->doc, "jsonrpc");
	if (!json_is_string(v) || strcmp(json_string_value(v), "2.0") != 0) {
		wr_err_usage(err, -EINVAL, "\"jsonrpc\": \"2.0\" is missing");
		return WR_RPC_INVALID_REQUEST;
	}
	if (json_object_get(req->doc, "id") != NULL && req->id == NULL) {
		wr_err_usage(err, -EINVAL, "\"id\": a string, a number or null");
		return WR_RPC_INVALID_REQUEST;
	}
	v = json_object_get(req->doc, "method");
	if (!json_is_string(v)) {
		wr_err_usage(err, -EINVAL, "\"method\": a string is expected");
		return WR_RPC_INVALID_REQUEST;
	}
	req->method = json_string_value(v);
	req->params = json_object_get(req->doc, "params");
	if (req->params == NULL) {
		req->params = json_object();
		json_object_set_new(req->doc, "params", req->params);
	}
	if (!json_is_object(req->params)) {
		wr_err_usage(err, -EINVAL, "\"params\": an object by name is expected");
		return WR_RPC_BAD_PARAMS;
	}
	return 0;
}

void
wr_rpc_req_free(struct wr_rpc_req *req)
{
	json_decref(req->doc);
	memset(req, 0, sizeof(*req));
}

/* Serialise reply (consumed) as one line. */
static char *
line_of(json_t *reply)
{
	char *s, *out;
	size_t n;

	if (reply == NULL)
		return NULL;
	s = json_dumps(reply, JSON_COMPACT);
	json_decref(reply);
	if (s == NULL)
		return NULL;
	n = strlen(s);
	out = realloc(s, n + 2);
	if (out == NULL) {
		free(s);
		return NULL;
	}
	out[n] = '\n';
	out[n + 1] = '\0';
	return out;
}

char *
wr_rpc_result(json_t *id, json_t *result)
{
	if (result == NULL)
		return NULL;
	return line_of(json_pack("{s:s, s:O, s:o}", "jsonrpc", "2.0", "id",
		id != NULL ? id : json_null(), "result", result));
}

char *
wr_rpc_error(json_t *id, int code, const char *msg)
{
	json_t *m = json_string(msg);

	/* Not UTF-8 (JSON carries nothing else): the code, a fixed message. */
	if (m == NULL)
		m = json_string("the error message is not valid UTF-8");
	return line_of(json_pack("{s:s, s:O, s:{s:i, s:o}}", "jsonrpc", "2.0",
		"id", id != NULL ? id : json_null(), "error", "code", code,
		"message", m));
}
