/* SPDX-License-Identifier: BSD-3-Clause */
/* The sender's JSON-RPC connection to its far end (peer_rpc.h). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "peer_rpc.h"

static uint64_t
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* Wait until fd is ready for events, until deadline (ms). 0 or -ETIMEDOUT. */
static int
wait_fd(int fd, short events, uint64_t deadline)
{
	struct pollfd p = { .fd = fd, .events = events };
	uint64_t now;
	int n;

	for (;;) {
		now = now_ms();
		if (now >= deadline)
			return -ETIMEDOUT;
		n = poll(&p, 1, (int)(deadline - now));
		if (n > 0)
			return 0;
		if (n < 0 && errno != EINTR)
			return -errno;
	}
}

/* A non-blocking connect to one address, until deadline. 0 or -errno. */
static int
connect_addr(int fd, const struct sockaddr *sa, socklen_t len, uint64_t deadline)
{
	int soerr = 0, rc;
	socklen_t sl = sizeof(soerr);

	if (connect(fd, sa, len) == 0)
		return 0;
	if (errno != EINPROGRESS)
		return -errno;
	rc = wait_fd(fd, POLLOUT, deadline);
	if (rc != 0)
		return rc;
	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl) != 0)
		return -errno;
	return -soerr;
}

/* A socket of family connected to spec's address. fd or -errno. */
static int
open_tcp(const char *spec, uint64_t deadline, char *why, size_t len)
{
	char host[256], port[8];
	const char *hp = spec + 4, *colon = strrchr(hp, ':');
	struct addrinfo hints, *ai = NULL, *a;
	size_t n = (size_t)(colon - hp);
	int fd = -1, rc = -EINVAL;

	if (hp[0] == '[' && n >= 2 && hp[n - 1] == ']') {
		hp++;
		n -= 2;
	}
	if (n >= sizeof(host) || strlen(colon + 1) >= sizeof(port))
		return -EINVAL;
	memcpy(host, hp, n);
	host[n] = '\0';
	strcpy(port, colon + 1);
	memset(&hints, 0, sizeof(hints));
	hints.ai_socktype = SOCK_STREAM;
	rc = getaddrinfo(host, port, &hints, &ai);
	if (rc != 0) {
		snprintf(why, len, "%s", gai_strerror(rc));
		return -EHOSTUNREACH;
	}
	rc = -EHOSTUNREACH;
	for (a = ai; a != NULL && fd < 0; a = a->ai_next) {
		fd = socket(a->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
		if (fd < 0)
			continue;
		rc = connect_addr(fd, a->ai_addr, a->ai_addrlen, deadline);
		if (rc != 0) {
			close(fd);
			fd = -1;
		}
	}
	freeaddrinfo(ai);
	if (fd < 0)
		snprintf(why, len, "%s", strerror(-rc));
	return fd >= 0 ? fd : rc;
}

static int
open_unix(const char *path, uint64_t deadline, char *why, size_t len)
{
	struct sockaddr_un sa;
	int fd, rc;

	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sa.sun_path)) {
		snprintf(why, len, "the path is too long");
		return -ENAMETOOLONG;
	}
	strcpy(sa.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	rc = connect_addr(fd, (const struct sockaddr *)&sa, sizeof(sa), deadline);
	if (rc != 0) {
		snprintf(why, len, "%s", strerror(-rc));
		close(fd);
		return rc;
	}
	return fd;
}

/* The secret of path: its first line. 0 or -errno with err. */
static int
read_token(const char *path, char *tok, size_t size, struct wr_error *err)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (f == NULL)
		return wr_err_usage(err, -errno, "--peer-token %s: %s", path,
			strerror(errno));
	if (fgets(tok, (int)size, f) == NULL)
		tok[0] = '\0';
	fclose(f);
	n = strcspn(tok, "\r\n");
	tok[n] = '\0';
	if (n == 0)
		return wr_err_usage(err, -EINVAL, "--peer-token %s: empty", path);
	return 0;
}

static int
send_all(struct app_peer_conn *pc, const char *s, size_t n, uint64_t deadline)
{
	ssize_t w;
	int rc;

	while (n > 0) {
		w = send(pc->fd, s, n, MSG_NOSIGNAL);
		if (w > 0) {
			s += w;
			n -= (size_t)w;
			continue;
		}
		if (w < 0 && errno != EAGAIN && errno != EINTR)
			return -errno;
		rc = wait_fd(pc->fd, POLLOUT, deadline);
		if (rc != 0)
			return rc;
	}
	return 0;
}

/* The next line from the peer, until deadline. 1, or -errno (0: closed). */
static int
read_line(struct app_peer_conn *pc, char **line, uint64_t deadline)
{
	char buf[65536];
	size_t len;
	ssize_t r;
	int rc;

	for (;;) {
		rc = wr_rpc_reader_next(&pc->rd, line, &len);
		if (rc != 0)
			return rc;
		rc = wait_fd(pc->fd, POLLIN, deadline);
		if (rc != 0)
			return rc;
		r = recv(pc->fd, buf, sizeof(buf), 0);
		if (r == 0)
			return 0;
		if (r < 0 && errno != EAGAIN && errno != EINTR)
			return -errno;
		if (r > 0 && wr_rpc_reader_push(&pc->rd, buf, (size_t)r) != 0)
			return -ENOMEM;
	}
}

/*
 * True when line is an answer to another request than id: a JSON object
 * whose "id" is a number other than id. Anything else (id, or a line
 * that is not JSON-RPC) is this request's answer, judged by take_reply.
 */
static bool
stale(const char *line, uint64_t id)
{
	json_t *doc = json_loads(line, 0, NULL);
	json_t *jid = json_is_object(doc) ? json_object_get(doc, "id") : NULL;
	bool other = json_is_number(jid) && !(json_is_integer(jid) &&
		json_integer_value(jid) >= 0 &&
		(uint64_t)json_integer_value(jid) == id);

	json_decref(doc);
	return other;
}

/*
 * The answer to the request just sent (id pc->next_id), until deadline:
 * an answer with another id (a late answer to an earlier request) is
 * dropped, never taken for this one. 1, or as read_line.
 */
static int
read_answer(struct app_peer_conn *pc, char **line, uint64_t deadline)
{
	int rc;

	for (;;) {
		rc = read_line(pc, line, deadline);
		if (rc != 1 || !stale(*line, pc->next_id))
			return rc;
	}
}

/* The reply with id: its result, or its error's code and message. */
static int
take_reply(struct app_peer_conn *pc, const char *method, const char *line,
		json_t **result, int *code, struct wr_error *err)
{
	json_t *doc = json_loads(line, 0, NULL), *e;
	int rc = 0;

	if (doc == NULL || !json_is_object(doc))
		rc = wr_err_fail(err, -EPROTO, "--peer %s: %s: the answer is not "
			"JSON-RPC", pc->spec, method);
	else if ((e = json_object_get(doc, "error")) != NULL) {
		if (code != NULL)
			*code = (int)json_integer_value(json_object_get(e, "code"));
		rc = wr_err_fail(err, -EPROTO, "--peer %s: %s: %s", pc->spec, method,
			json_string_value(json_object_get(e, "message")) != NULL ?
			json_string_value(json_object_get(e, "message")) : "an error");
	} else if (json_object_get(doc, "result") == NULL) {
		rc = wr_err_fail(err, -EPROTO, "--peer %s: %s: no result", pc->spec,
			method);
	} else {
		*result = json_incref(json_object_get(doc, "result"));
	}
	json_decref(doc);
	return rc;
}

int
app_peer_request(struct app_peer_conn *pc, const char *method, json_t *params,
		json_t **result, int *code, struct wr_error *err)
{
	return app_peer_request_after(pc, method, params, 0, result, code, err);
}

int
app_peer_request_after(struct app_peer_conn *pc, const char *method,
		json_t *params, uint64_t wait_ms, json_t **result, int *code,
		struct wr_error *err)
{
	uint64_t deadline = now_ms() + pc->timeout_ms + wait_ms;
	json_t *req = json_pack("{s:s, s:I, s:s, s:o}", "jsonrpc", "2.0", "id",
		(json_int_t)++pc->next_id, "method", method, "params",
		params != NULL ? params : json_object());
	char *text = req != NULL ? json_dumps(req, JSON_COMPACT) : NULL, *line;
	int rc;

	json_decref(req);
	*result = NULL;
	if (code != NULL)
		*code = 0;
	if (text == NULL)
		return wr_err_env(err, -ENOMEM, "no memory for a --peer request");
	if (pc->fd < 0) {
		free(text);
		return wr_err_fail(err, -ENOTCONN, "--peer %s: not connected", pc->spec);
	}
	rc = send_all(pc, text, strlen(text), deadline);
	if (rc == 0)
		rc = send_all(pc, "\n", 1, deadline);
	free(text);
	if (rc == 0)
		rc = read_answer(pc, &line, deadline);
	if (rc == 1)
		return take_reply(pc, method, line, result, code, err);
	app_peer_disconnect(pc);
	if (rc == -ETIMEDOUT)
		return wr_err_fail(err, rc, "--peer %s: %s: no answer within %" PRIu64
			" ms (--peer-timeout%s)", pc->spec, method, pc->timeout_ms + wait_ms,
			wait_ms != 0 ? " and the far end's --grace" : "");
	return wr_err_fail(err, rc == 0 ? -ECONNRESET : rc, "--peer %s: %s: the "
		"peer went away (%s)", pc->spec, method, rc == 0 ?
		"connection closed" : strerror(-rc));
}

int
app_peer_connect(struct app_peer_conn *pc, const char *spec,
		const char *token_path, uint64_t timeout_ms, struct wr_error *err)
{
	uint64_t deadline = now_ms() + timeout_ms;
	bool tcp = strncmp(spec, "tcp:", 4) == 0;
	char why[256] = "", tok[256];
	json_t *res = NULL;
	int code, rc;

	memset(pc, 0, sizeof(*pc));
	pc->fd = -1;
	pc->spec = spec;
	pc->timeout_ms = timeout_ms;
	wr_rpc_reader_init(&pc->rd);
	if (tcp && read_token(token_path, tok, sizeof(tok), err) != 0)
		return -EINVAL;
	rc = tcp ? open_tcp(spec, deadline, why, sizeof(why)) :
		open_unix(spec + 5, deadline, why, sizeof(why));
	if (rc < 0)
		return wr_err_env(err, rc, "--peer %s: cannot connect: %s (is "
			"wirerate serve running there?)", spec, why[0] ? why :
			strerror(-rc));
	pc->fd = rc;
	if (!tcp)
		return 0;
	rc = app_peer_request(pc, "auth", json_pack("{s:s}", "token", tok), &res,
		&code, err);
	memset(tok, 0, sizeof(tok));
	json_decref(res);
	if (rc != 0 && code == WR_RPC_DENIED)
		return wr_err_usage(err, rc, "--peer %s: the peer refused the token "
			"of --peer-token %s", spec, token_path);
	if (rc != 0 && err->cls == WR_ERR_FAIL && code == 0)
		err->cls = WR_ERR_ENV;
	return rc;
}

void
app_peer_disconnect(struct app_peer_conn *pc)
{
	if (pc->fd >= 0)
		close(pc->fd);
	pc->fd = -1;
	wr_rpc_reader_free(&pc->rd);
}
