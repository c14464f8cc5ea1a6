/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * JSON-RPC 2.0 over a byte stream, one request per line (docs/api.md):
 * a line reader that never holds more than WR_RPC_MAX_LINE bytes of one
 * line, the request envelope check and the reply envelopes. Pure: no EAL,
 * no sockets, no printing.
 */
#ifndef WR_RPC_H
#define WR_RPC_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "error.h"

/* Longest request line, without its '\n': longer ones are dropped. */
#define WR_RPC_MAX_LINE (1u << 20)

/* JSON-RPC 2.0 error codes (section 5.1), and the server's own. */
enum wr_rpc_code {
	WR_RPC_PARSE_ERROR = -32700,     /* not JSON */
	WR_RPC_INVALID_REQUEST = -32600, /* JSON, not a request */
	WR_RPC_NO_METHOD = -32601,
	WR_RPC_BAD_PARAMS = -32602,      /* bad params: the CLI's message */
	WR_RPC_INTERNAL = -32603,
	WR_RPC_BAD_STATE = -32000,       /* e.g. start while a run is on */
	WR_RPC_RUN_FAILED = -32001,      /* the run could not start or failed */
	WR_RPC_TOO_LONG = -32002,        /* a line over WR_RPC_MAX_LINE */
	WR_RPC_DENIED = -32003,          /* TCP without the token */
	WR_RPC_MISMATCH = -32004,        /* peer: other version or schema */
	WR_RPC_HELD = -32005,            /* a port held by another lease */
	WR_RPC_LEASE_GONE = -32006,      /* the lease given ended or is unknown */
};

/*
 * Bytes of one connection, cut into lines. Written only by the thread
 * serving that connection.
 */
struct wr_rpc_reader {
	char *buf;       /* complete lines, then the start of the next one */
	size_t start;    /* first byte not handed out yet */
	size_t len;      /* bytes in buf (read ones included) */
	size_t cap;      /* bytes allocated */
	size_t part;     /* bytes of the unfinished line at the end */
	unsigned int nb_lines;   /* complete lines from start on */
	unsigned int nb_dropped; /* lines over the limit not yet reported */
	bool skipping;   /* inside a line over the limit: drop to its '\n' */
};

/* An empty reader. This function can't fail. */
void wr_rpc_reader_init(struct wr_rpc_reader *r);

/* Free the reader's buffer; it may be initialised again. */
void wr_rpc_reader_free(struct wr_rpc_reader *r);

/*
 * Append n bytes read from the connection. A line longer than
 * WR_RPC_MAX_LINE is dropped as it arrives (never buffered whole) and
 * counted for wr_rpc_reader_next. Linear time in n whatever the pieces a
 * line arrives in. Returns 0 or -ENOMEM.
 */
int wr_rpc_reader_push(struct wr_rpc_reader *r, const char *data, size_t n);

/*
 * The next complete line: returns 1 with *line (NUL-terminated, without
 * its "\n" or "\r\n", valid until the next call) and *len; -E2BIG once per
 * line that was over the limit; 0 when no complete line is buffered.
 */
int wr_rpc_reader_next(struct wr_rpc_reader *r, char **line, size_t *len);

/* One request, as parsed; doc owns the other fields. */
struct wr_rpc_req {
	json_t *doc;
	json_t *id;           /* NULL: a notification (no reply) */
	const char *method;
	json_t *params;       /* an object (empty when absent) */
};

/*
 * Parse one line as a JSON-RPC 2.0 request. Returns 0, or an enum
 * wr_rpc_code with a message in err; req->id is then the request's id
 * when it could be read (for the error reply), else NULL. Free with
 * wr_rpc_req_free either way.
 */
int wr_rpc_parse(const char *line, size_t len, struct wr_rpc_req *req,
		struct wr_error *err);

/* Release what wr_rpc_parse made. Safe on a zeroed or freed req. */
void wr_rpc_req_free(struct wr_rpc_req *req);

/*
 * The reply line to a request with id (NULL: JSON null): a result
 * (stolen), or an error with code and message (one that is not UTF-8 is
 * replaced by a fixed message). Returns a malloc'd, NUL-terminated line
 * ending in '\n', or NULL without memory (or a NULL result).
 */
char *wr_rpc_result(json_t *id, json_t *result);
char *wr_rpc_error(json_t *id, int code, const char *msg);

#endif /* WR_RPC_H */
