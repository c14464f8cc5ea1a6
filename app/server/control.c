/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The control socket opened and closed (control.h; its state: state.h),
 * and the hooks a run calls. The thread that serves it is ctl_loop.c: an
 * epoll loop that never waits on one client (buffers: ctl_client.c; who
 * is served and who gives way: ctl_policy.c). A client that leaves
 * changes nothing: runs are the main lcore's, not the connection's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <rte_common.h>

#include "common/exitcode.h"
#include "control.h"
#include "control_methods.h"
#include "control_tcp.h"
#include "ctl_loop.h"
#include "leases.h"

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
		rc = listen(c->listen_fd, CONTROL_BACKLOG);
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
app_ctl_call_shared(void *ctx, const char *method, json_t *params,
		json_t **result, char *msg, size_t len)
{
	struct app_ctl *c = ctx;
	int rc;

	pthread_mutex_lock(&c->call_lock);
	c->caller = 0;
	c->caller_id = NULL;  /* an acquire from here cannot wait (wait_s) */
	rc = app_ctl_call(c, method, params, result, msg, len);
	pthread_mutex_unlock(&c->call_lock);
	return rc;
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
	pthread_mutex_init(&c->call_lock, NULL);
	pthread_cond_init(&c->cond, NULL);
	rc = app_ctl_tcp_open(c, cfg);
	if (rc == 0 && c->serve)
		rc = app_lease_open(c, cfg->lease_log_path);
	if (rc != 0)
		return rc;
	if (listen_on(c, path) != 0)
		return APP_EXIT_FAILED;
	if (pipe2(c->wake_fd, O_CLOEXEC) != 0 ||
			pthread_create(&c->thread, NULL, ctl_loop_thread, c) != 0) {
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
	app_lease_close(c);
	c->listen_fd = -1;
	c->tcp_fd = -1;
	c->wake_fd[0] = c->wake_fd[1] = -1;
}
