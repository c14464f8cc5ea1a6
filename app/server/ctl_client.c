/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A control client's buffers (ctl_client.h). Input: the line reader
 * (base/rpc.h) holds at most one line of WR_RPC_MAX_LINE bytes plus one
 * read's worth. Output: replies wait in out[] while the socket's own
 * buffer is full; a client that lets CTL_OUT_MAX bytes wait is not
 * reading and is dropped. Nothing here waits: every socket call is
 * non-blocking.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ctl_client.h"

/* Bytes read and dropped at most before a last word's close. */
#define DRAIN_MAX 65536

/* The reply sent when the real one could not be built (-32603). */
static const char no_reply[] = "{\"jsonrpc\":\"2.0\",\"id\":null,"
	"\"error\":{\"code\":-32603,\"message\":\"the reply could not "
	"be built (no memory)\"}}\n";

void
ctl_client_init(struct ctl_client *cl, int fd, bool authed, uint64_t now_ms,
		uint64_t auth_wait_ms)
{
	static uint64_t nb_accepted;   /* the control thread's only */

	memset(cl, 0, sizeof(*cl));
	cl->serial = ++nb_accepted;
	cl->fd = fd;
	cl->authed = authed;
	cl->since_ms = now_ms;
	cl->deadline_ms = now_ms + auth_wait_ms;
	wr_rpc_reader_init(&cl->rd);
}

void
ctl_client_close(struct ctl_client *cl)
{
	if (cl->fd >= 0)
		close(cl->fd);
	wr_rpc_reader_free(&cl->rd);
	free(cl->out);
	memset(cl, 0, sizeof(*cl));
	cl->fd = -1;
}

bool
ctl_client_has_line(const struct ctl_client *cl)
{
	return cl->rd.nb_lines > 0 || cl->rd.nb_dropped > 0;
}

size_t
ctl_client_pending(const struct ctl_client *cl)
{
	return cl->len - cl->off;
}

int
ctl_client_read(struct ctl_client *cl)
{
	static char buf[CTL_READ_CHUNK];  /* the control thread's alone */
	ssize_t n = recv(cl->fd, buf, sizeof(buf), MSG_DONTWAIT);

	if (n < 0)
		return errno == EAGAIN || errno == EINTR ? 0 : -1;
	if (n == 0)
		return -1;
	return wr_rpc_reader_push(&cl->rd, buf, (size_t)n) == 0 ? 0 : -1;
}

int
ctl_client_flush(struct ctl_client *cl)
{
	ssize_t w;

	while (cl->off < cl->len) {
		w = send(cl->fd, cl->out + cl->off, cl->len - cl->off,
			MSG_DONTWAIT | MSG_NOSIGNAL);
		if (w < 0)
			return errno == EAGAIN || errno == EINTR ? 0 : -1;
		cl->off += (size_t)w;
	}
	cl->off = cl->len = 0;
	return 0;
}

/* Append n bytes of s to out[] (moved to the front first). 0 or -1. */
static int
append(struct ctl_client *cl, const char *s, size_t n)
{
	size_t cap = cl->cap != 0 ? cl->cap : 4096;
	char *b;

	if (cl->off > 0) {
		memmove(cl->out, cl->out + cl->off, cl->len - cl->off);
		cl->len -= cl->off;
		cl->off = 0;
	}
	while (cap < cl->len + n)
		cap *= 2;
	if (cap != cl->cap) {
		b = realloc(cl->out, cap);
		if (b == NULL)
			return -1;
		cl->out = b;
		cl->cap = cap;
	}
	memcpy(cl->out + cl->len, s, n);
	cl->len += n;
	return 0;
}

/* Queue line (freed) whatever is waiting. 0, or -1 without memory. */
static int
queue(struct ctl_client *cl, char *line)
{
	int rc;

	if (line == NULL)
		return append(cl, no_reply, sizeof(no_reply) - 1);
	rc = append(cl, line, strlen(line));
	free(line);
	return rc;
}

int
ctl_client_send(struct ctl_client *cl, char *line)
{
	if (ctl_client_pending(cl) >= CTL_OUT_MAX) {
		free(line);
		return -1;
	}
	if (queue(cl, line) != 0)
		return -1;
	return ctl_client_flush(cl);
}

void
ctl_client_last_word(struct ctl_client *cl, char *line)
{
	static char sink[4096];
	size_t drained = 0;
	ssize_t n;

	if (queue(cl, line) == 0)
		ctl_client_flush(cl);
	while (drained < DRAIN_MAX) {
		n = recv(cl->fd, sink, sizeof(sink), MSG_DONTWAIT);
		if (n <= 0)
			break;
		drained += (size_t)n;
	}
	shutdown(cl->fd, SHUT_WR);
	ctl_client_close(cl);
}
