/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The control socket's thread (ctl_loop.h): one epoll loop, every socket
 * non-blocking, so no client is ever waited for. Each turn reads at most
 * CTL_READ_CHUNK bytes and answers at most LINES_PER_TURN lines of each
 * client, so a client that sends fast does not delay the others; replies
 * wait in the client's own buffer (ctl_client.c); deadlines and who
 * gives way are the policy's (ctl_policy.c). epoll_wait sleeps until an
 * event, the next auth deadline or the next lease deadline (leases.h: a
 * lease's end, a waiter's), and not at all while lines wait.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <rte_common.h>

#include "clock.h"
#include "ctl_client.h"
#include "ctl_loop.h"
#include "ctl_policy.h"
#include "leases.h"

/* Client slots: [0, APP_CTL_MAX_CLIENTS) the UNIX socket's, the rest TCP's. */
#define NB_SLOTS (2 * APP_CTL_MAX_CLIENTS)
/* epoll tags of the fixed sockets, after the slots' indexes. */
#define TAG_WAKE NB_SLOTS
#define TAG_UNIX (NB_SLOTS + 1)
#define TAG_TCP (NB_SLOTS + 2)
/* Requests answered per client per turn. */
#define LINES_PER_TURN 16
/* Connections accepted per listening socket per turn. */
#define ACCEPTS_PER_TURN 32

struct loop {
	struct app_ctl *c;
	int ep;                           /* the epoll instance */
	struct ctl_client cls[NB_SLOTS];
	bool out_armed[NB_SLOTS];         /* EPOLLOUT asked for */
};

/* Add fd to the epoll set with tag. 0 or -1. */
static int
watch(struct loop *l, int fd, uint32_t tag)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.u32 = tag };

	if (fd < 0)
		return 0;
	return epoll_ctl(l->ep, EPOLL_CTL_ADD, fd, &ev);
}

/*
 * Ask for EPOLLOUT while replies wait, and no longer once they are sent.
 * This function can't fail (a failed change shows as the client's error).
 */
static void
arm(struct loop *l, unsigned int i)
{
	struct ctl_client *cl = &l->cls[i];
	bool want = cl->fd >= 0 && ctl_client_pending(cl) > 0;
	struct epoll_event ev = { .data.u32 = i };

	if (cl->fd < 0 || want == l->out_armed[i])
		return;
	ev.events = EPOLLIN | (want ? EPOLLOUT : 0);
	epoll_ctl(l->ep, EPOLL_CTL_MOD, cl->fd, &ev);
	l->out_armed[i] = want;
}

/* Close slot i if its client is still there; its waiters leave. */
static void
drop(struct loop *l, unsigned int i)
{
	if (l->cls[i].fd >= 0) {
		app_lease_gone(l->c, l->cls[i].serial, 0);
		ctl_client_close(&l->cls[i]);
	}
	l->out_armed[i] = false;
}

/*
 * New connections on lfd into the slots from first (nb), at most
 * ACCEPTS_PER_TURN: between two turns the clients already in are read,
 * so a flood of connections cannot evict one before its auth is read.
 */
static void
accept_some(struct loop *l, int lfd, unsigned int first, bool authed)
{
	unsigned int k;
	int fd, i;

	for (k = 0; k < ACCEPTS_PER_TURN; k++) {
		fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
		if (fd < 0)
			return;
		i = ctl_policy_slot(l->cls + first, APP_CTL_MAX_CLIENTS);
		if (i < 0) {
			ctl_policy_refuse(fd);
			continue;
		}
		i += (int)first;
		l->out_armed[i] = false;
		ctl_client_init(&l->cls[i], fd, authed, app_ctl_now_ms(),
			CTL_AUTH_WAIT_MS);
		if (watch(l, fd, (uint32_t)i) != 0)
			drop(l, (unsigned int)i);
	}
}

/* An event of slot i: send what waits, read when no line does. */
static void
serve_event(struct loop *l, unsigned int i, uint32_t events)
{
	struct ctl_client *cl = &l->cls[i];

	if (cl->fd < 0)
		return;
	if ((events & EPOLLOUT) && ctl_client_flush(cl) != 0) {
		drop(l, i);
		return;
	}
	if ((events & (EPOLLIN | EPOLLHUP | EPOLLERR)) && !ctl_client_has_line(cl) &&
			ctl_client_read(cl) != 0)
		drop(l, i);
}

/* Answer at most LINES_PER_TURN lines of slot i. Whether more wait. */
static bool
serve_lines(struct loop *l, unsigned int i)
{
	struct ctl_client *cl = &l->cls[i];
	unsigned int k;
	char *line;
	size_t len;
	int rc;

	for (k = 0; k < LINES_PER_TURN && cl->fd >= 0; k++) {
		rc = wr_rpc_reader_next(&cl->rd, &line, &len);
		if (rc == 0)
			return false;
		if (ctl_policy_answer(l->c, cl, rc == 1 ? line : NULL, len) != 0) {
			drop(l, i);
			return false;
		}
	}
	return cl->fd >= 0 && ctl_client_has_line(cl);
}

/* One turn over the clients' lines. Whether any client has more. */
static bool
serve_all(struct loop *l)
{
	bool more = false;
	unsigned int i;

	for (i = 0; i < NB_SLOTS; i++) {
		if (l->cls[i].fd < 0)
			continue;
		more |= serve_lines(l, i);
		arm(l, i);
	}
	return more;
}

/*
 * The lease replies due (a queued acquire granted or given up), each to
 * its connection; a grant nobody can receive is released at once.
 */
static void
deliver(struct loop *l)
{
	uint64_t serial, lease_id;
	unsigned int i;
	char *line;

	while ((line = app_lease_outbox_pop(l->c, &serial, &lease_id)) != NULL) {
		for (i = 0; i < NB_SLOTS; i++)
			if (l->cls[i].fd >= 0 && l->cls[i].serial == serial)
				break;
		if (i == NB_SLOTS) {
			free(line);
			app_lease_gone(l->c, serial, lease_id);
		} else if (ctl_client_send(&l->cls[i], line) != 0) {
			app_lease_gone(l->c, serial, lease_id);
			drop(l, i);
		} else {
			arm(l, i);
		}
	}
}

/* The nearer of two waits in ms (-1: none). */
static int
nearer(int a, int b)
{
	if (a < 0)
		return b;
	return b < 0 ? a : RTE_MIN(a, b);
}

/* Set up the epoll set over c's sockets. 0 or -1. */
static int
loop_init(struct loop *l, struct app_ctl *c)
{
	unsigned int i;

	l->c = c;
	for (i = 0; i < NB_SLOTS; i++) {
		l->cls[i].fd = -1;
		l->out_armed[i] = false;
	}
	if (c->listen_fd >= 0)
		fcntl(c->listen_fd, F_SETFL, fcntl(c->listen_fd, F_GETFL) | O_NONBLOCK);
	if (c->tcp_fd >= 0)
		fcntl(c->tcp_fd, F_SETFL, fcntl(c->tcp_fd, F_GETFL) | O_NONBLOCK);
	l->ep = epoll_create1(EPOLL_CLOEXEC);
	if (l->ep < 0)
		return -1;
	if (watch(l, c->wake_fd[0], TAG_WAKE) != 0 ||
			watch(l, c->listen_fd, TAG_UNIX) != 0 ||
			watch(l, c->tcp_fd, TAG_TCP) != 0) {
		close(l->ep);
		return -1;
	}
	return 0;
}

/* The events of one epoll_wait. Returns false when woken to end. */
static bool
dispatch(struct loop *l, const struct epoll_event *ev, int n)
{
	int k;

	for (k = 0; k < n; k++) {
		switch (ev[k].data.u32) {
		case TAG_WAKE:
			return false;
		case TAG_UNIX:
			accept_some(l, l->c->listen_fd, 0, true);
			break;
		case TAG_TCP:
			accept_some(l, l->c->tcp_fd, APP_CTL_MAX_CLIENTS, false);
			break;
		default:
			serve_event(l, ev[k].data.u32, ev[k].events);
		}
	}
	return true;
}

void *
ctl_loop_thread(void *arg)
{
	struct loop l;
	struct epoll_event ev[NB_SLOTS + 3];
	struct ctl_client *tcp = l.cls + APP_CTL_MAX_CLIENTS;
	unsigned int i;
	bool more = false;
	int n, wait_ms = -1;

	if (loop_init(&l, arg) != 0)
		return NULL;
	for (;;) {
		n = epoll_wait(l.ep, ev, RTE_DIM(ev), more ? 0 : wait_ms);
		if (n < 0 && errno != EINTR)
			break;
		if (n > 0 && !dispatch(&l, ev, n))
			break;
		more = serve_all(&l);
		wait_ms = ctl_policy_expire(tcp, APP_CTL_MAX_CLIENTS, app_ctl_now_ms());
		/* Leases due now (expiry, waiters), then the replies it made. */
		wait_ms = nearer(wait_ms, app_lease_tick(l.c, app_ctl_now_ms()));
		deliver(&l);
	}
	for (i = 0; i < NB_SLOTS; i++)
		drop(&l, i);
	close(l.ep);
	return NULL;
}
