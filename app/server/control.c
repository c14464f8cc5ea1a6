/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The control socket's thread (control.h; its state: state.h): accept
 * clients, read their lines (base/rpc.h: at most WR_RPC_MAX_LINE bytes
 * held per line), answer each request in order. A client that leaves
 * changes nothing: runs are the main lcore's, not the connection's. A
 * reply is written with a bounded wait, so a client that stops reading
 * is dropped, never waited for. The UNIX socket and TCP have slots of
 * their own, and a TCP client that has not authenticated within
 * AUTH_WAIT_MS is closed: connections anyone can open never lock the
 * owner out.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <rte_common.h>

#include "common/exitcode.h"
#include "base/rpc.h"
#include "clock.h"
#include "control.h"
#include "control_methods.h"
#include "control_tcp.h"

/* How long a reply may wait for a client to read, in milliseconds. */
#define WRITE_WAIT_MS 5000
/* How long a TCP client may stay without auth, in milliseconds. */
#define AUTH_WAIT_MS 5000
#define READ_CHUNK 65536
/* Polled besides the clients: the wake pipe, the UNIX and TCP sockets. */
#define NB_FIXED 3
/* Client slots: [0, APP_CTL_MAX_CLIENTS) the UNIX socket's, the rest TCP's. */
#define NB_SLOTS (2 * APP_CTL_MAX_CLIENTS)

struct client {
	int fd;                    /* -1: free slot */
	bool authed;               /* UNIX socket, or TCP after auth */
	uint64_t deadline_ms;      /* not authed: closed at this
	                            * app_ctl_now_ms() */
	struct wr_rpc_reader rd;
};

/* Write all of s to fd, waiting at most WRITE_WAIT_MS for room each time. */
static int
write_all(int fd, const char *s, size_t n)
{
	struct pollfd p = { .fd = fd, .events = POLLOUT };
	ssize_t w;

	while (n > 0) {
		w = send(fd, s, n, MSG_DONTWAIT | MSG_NOSIGNAL);
		if (w > 0) {
			s += w;
			n -= (size_t)w;
			continue;
		}
		if (w < 0 && errno != EAGAIN && errno != EINTR)
			return -1;
		if (poll(&p, 1, WRITE_WAIT_MS) <= 0)
			return -1;
	}
	return 0;
}

/*
 * Send line (freed) to fd; NULL, a reply that could not be built (no
 * memory), sends a fixed error instead: a request is never left without
 * a reply. Returns -1 when the client is gone or stuck.
 */
static int
send_line(int fd, char *line)
{
	/* -32603: WR_RPC_INTERNAL. */
	static const char no_reply[] = "{\"jsonrpc\":\"2.0\",\"id\":null,"
		"\"error\":{\"code\":-32603,\"message\":\"the reply could not "
		"be built (no memory)\"}}\n";
	int rc;

	if (line == NULL)
		return write_all(fd, no_reply, sizeof(no_reply) - 1);
	rc = write_all(fd, line, strlen(line));
	free(line);
	return rc;
}

/*
 * auth, and every request of a TCP client before it: the secret lets the
 * client in; anything else is refused and the client dropped (-1).
 */
static int
authenticate(struct app_ctl *c, struct client *cl, struct wr_rpc_req *req)
{
	if (strcmp(req->method, "auth") == 0 &&
			(cl->authed || app_ctl_token_ok(c, req->params))) {
		cl->authed = true;
		return req->id == NULL ? 0 : send_line(cl->fd, wr_rpc_result(req->id,
			json_pack("{s:b}", "authenticated", true)));
	}
	send_line(cl->fd, wr_rpc_error(req->id, WR_RPC_DENIED, "send auth "
		"with the --control-token secret first: "
		"{\"method\": \"auth\", \"params\": {\"token\": ...}}"));
	return -1;
}

/* Answer one request line. Returns -1 when the client must be dropped. */
static int
answer(struct app_ctl *c, struct client *cl, const char *line, size_t len)
{
	int fd = cl->fd;
	struct wr_rpc_req req;
	struct wr_error err;
	json_t *result = NULL;
	char msg[WR_ERROR_MSG_LEN];
	int code, rc;

	if (len == 0)
		return 0;
	wr_err_clear(&err);
	code = wr_rpc_parse(line, len, &req, &err);
	if (code != 0) {
		rc = send_line(fd, wr_rpc_error(req.id, code, err.msg));
		wr_rpc_req_free(&req);
		return rc;
	}
	if (!cl->authed || strcmp(req.method, "auth") == 0) {
		rc = authenticate(c, cl, &req);
		wr_rpc_req_free(&req);
		return rc;
	}
	msg[0] = '\0';
	code = app_ctl_call(c, req.method, req.params, &result, msg, sizeof(msg));
	rc = 0;
	if (req.id != NULL)
		rc = send_line(fd, code != 0 ? wr_rpc_error(req.id, code, msg) :
			wr_rpc_result(req.id, result));
	else
		json_decref(result);
	wr_rpc_req_free(&req);
	return rc;
}

/* Read what cl sent and answer its complete lines; -1: drop it. */
static int
serve_client(struct app_ctl *c, struct client *cl)
{
	static char buf[READ_CHUNK];
	ssize_t n = recv(cl->fd, buf, sizeof(buf), MSG_DONTWAIT);
	char *line;
	size_t len;
	int rc;

	if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
		return -1;
	if (n < 0)
		return 0;
	if (wr_rpc_reader_push(&cl->rd, buf, (size_t)n) != 0)
		return -1;
	while ((rc = wr_rpc_reader_next(&cl->rd, &line, &len)) != 0) {
		if (rc == -E2BIG) {
			snprintf(buf, sizeof(buf), "request longer than %u bytes: dropped",
				WR_RPC_MAX_LINE);
			rc = send_line(cl->fd, wr_rpc_error(NULL, WR_RPC_TOO_LONG, buf));
		} else {
			rc = answer(c, cl, line, len);
		}
		if (rc != 0)
			return -1;
	}
	return 0;
}

static void
drop(struct client *cl)
{
	close(cl->fd);
	cl->fd = -1;
	wr_rpc_reader_free(&cl->rd);
}

/*
 * A new connection on lfd: a free slot among the nb of cls (that
 * socket's own), or an error reply and close.
 */
static void
accept_client(int lfd, bool authed, struct client *cls, unsigned int nb)
{
	int fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
	unsigned int i;

	if (fd < 0)
		return;
	for (i = 0; i < nb; i++) {
		if (cls[i].fd < 0) {
			cls[i].fd = fd;
			cls[i].authed = authed;
			cls[i].deadline_ms = app_ctl_now_ms() + AUTH_WAIT_MS;
			wr_rpc_reader_init(&cls[i].rd);
			return;
		}
	}
	send_line(fd, wr_rpc_error(NULL, WR_RPC_BAD_STATE, "too many clients "
		"connected: try again later"));
	close(fd);
}

/*
 * Close the clients of cls (nb) not authenticated by their deadline.
 * Returns the milliseconds until the next deadline, -1 when none.
 */
static int
expire_unauthed(struct client *cls, unsigned int nb)
{
	uint64_t now = app_ctl_now_ms(), next = UINT64_MAX;
	unsigned int i;

	for (i = 0; i < nb; i++) {
		if (cls[i].fd < 0 || cls[i].authed)
			continue;
		if (now < cls[i].deadline_ms) {
			next = RTE_MIN(next, cls[i].deadline_ms - now);
			continue;
		}
		send_line(cls[i].fd, wr_rpc_error(NULL, WR_RPC_DENIED, "no auth "
			"within the first " RTE_STR(AUTH_WAIT_MS) " ms: closed"));
		drop(&cls[i]);
	}
	return next == UINT64_MAX ? -1 : (int)next;
}

/* Poll the wake pipe, the listening sockets and the clients until woken. */
static void *
ctl_thread(void *arg)
{
	struct app_ctl *c = arg;
	struct client cls[NB_SLOTS], *tcp = cls + APP_CTL_MAX_CLIENTS;
	struct pollfd p[NB_SLOTS + NB_FIXED];
	unsigned int i;
	int wait_ms = -1;

	for (i = 0; i < NB_SLOTS; i++)
		cls[i].fd = -1;
	for (;;) {
		p[0] = (struct pollfd){ .fd = c->wake_fd[0], .events = POLLIN };
		p[1] = (struct pollfd){ .fd = c->listen_fd, .events = POLLIN };
		p[2] = (struct pollfd){ .fd = c->tcp_fd, .events = POLLIN };
		for (i = 0; i < NB_SLOTS; i++)
			p[i + NB_FIXED] = (struct pollfd){ .fd = cls[i].fd, .events = POLLIN };
		if (poll(p, RTE_DIM(p), wait_ms) < 0 && errno != EINTR)
			break;
		if (p[0].revents != 0)
			break;
		if (p[1].revents & POLLIN)
			accept_client(c->listen_fd, true, cls, APP_CTL_MAX_CLIENTS);
		if (p[2].revents & POLLIN)
			accept_client(c->tcp_fd, false, tcp, APP_CTL_MAX_CLIENTS);
		for (i = 0; i < NB_SLOTS; i++)
			if (cls[i].fd >= 0 && p[i + NB_FIXED].revents != 0 &&
					serve_client(c, &cls[i]) != 0)
				drop(&cls[i]);
		wait_ms = expire_unauthed(tcp, APP_CTL_MAX_CLIENTS);
	}
	for (i = 0; i < NB_SLOTS; i++)
		if (cls[i].fd >= 0)
			drop(&cls[i]);
	return NULL;
}

/*
 * A socket file already at path: in use (someone answers: refuse), or
 * left by a server that died (remove it). Returns 0 or -1 with a message.
 */
static int
clear_stale(const struct sockaddr_un *sa, const char *path)
{
	struct stat st;
	int fd, rc;

	if (lstat(path, &st) != 0)
		return 0;
	if (!S_ISSOCK(st.st_mode)) {
		fprintf(stderr, "wirerate: error: --control %s: exists and is not "
			"a socket\n", path);
		return -1;
	}
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	rc = fd >= 0 ? connect(fd, (const struct sockaddr *)sa, sizeof(*sa)) : -1;
	if (fd >= 0)
		close(fd);
	if (rc == 0) {
		fprintf(stderr, "wirerate: error: --control %s: another server "
			"answers on it\n", path);
		return -1;
	}
	unlink(path);
	return 0;
}

/* Bind and listen on path, mode 0600 from the start (umask). */
static int
listen_on(struct app_ctl *c, const char *path)
{
	struct sockaddr_un sa;
	mode_t old;
	int rc;

	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sa.sun_path)) {
		fprintf(stderr, "wirerate: error: --control %s: longer than %zu "
			"characters (a UNIX socket path)\n", path, sizeof(sa.sun_path) - 1);
		return -1;
	}
	strcpy(sa.sun_path, path);
	if (clear_stale(&sa, path) != 0)
		return -1;
	c->listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (c->listen_fd < 0)
		return -1;
	old = umask(0177);
	rc = bind(c->listen_fd, (const struct sockaddr *)&sa, sizeof(sa));
	umask(old);
	if (rc != 0) {
		fprintf(stderr, "wirerate: error: --control %s: %s\n", path,
			strerror(errno));
		close(c->listen_fd);
		c->listen_fd = -1;
		return -1;
	}
	rc = chmod(path, 0600);
	if (rc == 0)
		rc = listen(c->listen_fd, 16);
	if (rc != 0)
		fprintf(stderr, "wirerate: error: --control %s: %s\n", path,
			strerror(errno));
	return rc;
}

/*
 * The run's side of ports_lock (run/run.h): held before a run sets its
 * ports up or closes them, released after. This function can't fail.
 */
static void
watch_ports_hold(struct app_run_watch *w, bool hold)
{
	struct app_ctl *c = container_of(w, struct app_ctl, watch);

	if (hold)
		pthread_mutex_lock(&c->ports_lock);
	else
		pthread_mutex_unlock(&c->ports_lock);
}

/* The live run (NULL once it is destroyed), for the methods. Can't fail. */
static void
watch_live(struct app_run_watch *w, struct wr_run *run)
{
	struct app_ctl *c = container_of(w, struct app_ctl, watch);

	pthread_mutex_lock(&c->lock);
	c->run = run;
	pthread_mutex_unlock(&c->lock);
}

int
app_ctl_open(struct app_ctl *c, const struct wr_config *cfg)
{
	const char *path = cfg->control_path;
	int rc;

	c->watch.ports_hold = watch_ports_hold;
	c->watch.live = watch_live;
	c->listen_fd = -1;
	c->tcp_fd = -1;
	c->wake_fd[0] = c->wake_fd[1] = -1;
	pthread_mutex_init(&c->lock, NULL);
	pthread_mutex_init(&c->ports_lock, NULL);
	pthread_cond_init(&c->cond, NULL);
	rc = app_ctl_tcp_open(c, cfg);
	if (rc != 0)
		return rc;
	if (listen_on(c, path) != 0)
		return APP_EXIT_FAILED;
	if (pipe2(c->wake_fd, O_CLOEXEC) != 0 ||
			pthread_create(&c->thread, NULL, ctl_thread, c) != 0) {
		fprintf(stderr, "wirerate: error: --control %s: cannot start its "
			"thread: %s\n", path, strerror(errno));
		return APP_EXIT_FAILED;
	}
	c->started = true;
	return 0;
}

void
app_ctl_close(struct app_ctl *c, const char *path)
{
	if (c->started) {
		if (write(c->wake_fd[1], "", 1) != 1)
			pthread_cancel(c->thread);
		pthread_join(c->thread, NULL);
		c->started = false;
	}
	if (c->wake_fd[0] >= 0) {
		close(c->wake_fd[0]);
		close(c->wake_fd[1]);
	}
	if (c->listen_fd >= 0) {
		close(c->listen_fd);
		unlink(path);
	}
	if (c->tcp_fd >= 0)
		close(c->tcp_fd);
	c->listen_fd = -1;
	c->tcp_fd = -1;
	c->wake_fd[0] = c->wake_fd[1] = -1;
}
