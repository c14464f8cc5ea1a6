/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <rte_cycles.h>

#include "clockread.h"

extern char **environ;

/* How long a tool may take to answer before it is stopped. */
#define TOOL_TIMEOUT_MS 2000
#define TOOL_MAX_ARGS 12

static int64_t
now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* Read fd into buf until EOF or the deadline; returns bytes read or -ETIMEDOUT. */
static ssize_t
read_until(int fd, char *buf, size_t len, int64_t deadline)
{
	size_t got = 0;

	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int64_t left = deadline - now_ms();
		ssize_t n;

		if (left <= 0)
			return -ETIMEDOUT;
		if (poll(&p, 1, (int)left) <= 0)
			continue;
		n = read(fd, buf + got, len - 1 - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0 || got + (size_t)n >= len - 1) {
			got += n > 0 ? (size_t)n : 0;
			buf[got] = '\0';
			return (ssize_t)got;
		}
		got += (size_t)n;
	}
}

/*
 * Run argv (PATH search), its stdout into buf (stderr discarded). Returns
 * its exit status, -ENOENT when the tool is not installed, -ETIMEDOUT.
 */
static int
run_tool(const char *const args[], char *buf, size_t len)
{
	/* posix_spawnp takes char *const argv[]: writable copies. */
	char store[TOOL_MAX_ARGS][WR_CLOCK_PATH_LEN], *argv[TOOL_MAX_ARGS + 1];
	posix_spawn_file_actions_t fa;
	int fds[2], status = 0, rc;
	unsigned int i;
	ssize_t n;
	pid_t pid;

	for (i = 0; i < TOOL_MAX_ARGS && args[i] != NULL; i++) {
		snprintf(store[i], sizeof(store[i]), "%s", args[i]);
		argv[i] = store[i];
	}
	argv[i] = NULL;
	buf[0] = '\0';
	if (pipe2(fds, O_CLOEXEC) != 0)
		return -errno;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO);
	posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
	rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	if (rc != 0) {
		close(fds[0]);
		return -rc;
	}
	n = read_until(fds[0], buf, len, now_ms() + TOOL_TIMEOUT_MS);
	close(fds[0]);
	if (n < 0)
		kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (n < 0)
		return (int)n;
	/* posix_spawnp's child that could not exec exits 127. */
	return WIFEXITED(status) ? WEXITSTATUS(status) : -ECHILD;
}

static bool
is_socket(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISSOCK(st.st_mode);
}

static void
read_ptp(const char *sock, struct wr_clocksync *cs)
{
	char out[8192];
	const char *const argv[] = { "pmc", "-u", "-b", "0", "-s", sock,
		"GET TIME_STATUS_NP", "GET PORT_DATA_SET", "GET CURRENT_DATA_SET",
		"GET PORT_PROPERTIES_NP", NULL };
	int rc = run_tool(argv, out, sizeof(out));

	if (rc == 127 || rc == -ENOENT)
		wr_clocksync_unsynced(cs, WR_CLOCKSYNC_PTP, "ptp: pmc is not installed "
			"(Debian package linuxptp)");
	else if (rc < 0)
		wr_clocksync_unsynced(cs, WR_CLOCKSYNC_PTP, "ptp: pmc -s %s: %s", sock,
			strerror(-rc));
	else if (wr_clocksync_parse_pmc(out, cs) != 0)
		wr_clocksync_unsynced(cs, WR_CLOCKSYNC_PTP, "ptp: no answer from ptp4l "
			"at %s (pmc exit %d)", sock, rc);
}

static void
read_chrony(const char *sock, struct wr_clocksync *cs)
{
	char out[1024];
	const char *const argv[] = { "chronyc", "-n", "-c", "-h", sock,
		"tracking", NULL };
	int rc = run_tool(argv, out, sizeof(out));

	if (rc == 127 || rc == -ENOENT)
		wr_clocksync_unsynced(cs, WR_CLOCKSYNC_CHRONY, "chrony: chronyc is not "
			"installed (Debian package chrony)");
	else if (rc < 0)
		wr_clocksync_unsynced(cs, WR_CLOCKSYNC_CHRONY, "chrony: chronyc -h %s: %s",
			sock, strerror(-rc));
	else if (rc != 0)
		wr_clocksync_unsynced(cs, WR_CLOCKSYNC_CHRONY, "chrony: no chronyd "
			"answering at %s (chronyc exit %d)", sock, rc);
	else
		wr_clocksync_parse_chrony(out, cs);
}

void
wr_clockread(const struct wr_config *cfg, struct wr_clocksync *cs)
{
	const char *path = cfg->clock_sync_path;

	memset(cs, 0, sizeof(*cs));
	switch (cfg->clock_sync) {
	case WR_CLOCK_SYNC_NONE:
		wr_clocksync_unsynced(cs, WR_CLOCKSYNC_NONE, "not read (--clock-sync none)");
		return;
	case WR_CLOCK_SYNC_PTP:
		read_ptp(path[0] ? path : WR_CLOCKREAD_PTP_SOCK, cs);
		return;
	case WR_CLOCK_SYNC_CHRONY:
		read_chrony(path[0] ? path : WR_CLOCKREAD_CHRONY_SOCK, cs);
		return;
	default:
		break;
	}
	if (is_socket(WR_CLOCKREAD_PTP_SOCK))
		read_ptp(WR_CLOCKREAD_PTP_SOCK, cs);
	else if (is_socket(WR_CLOCKREAD_CHRONY_SOCK))
		read_chrony(WR_CLOCKREAD_CHRONY_SOCK, cs);
	else
		wr_clocksync_unsynced(cs, WR_CLOCKSYNC_NONE, "no clock daemon found "
			"(--clock-sync auto: neither ptp4l's %s nor chronyd's %s)",
			WR_CLOCKREAD_PTP_SOCK, WR_CLOCKREAD_CHRONY_SOCK);
}

void
wr_clock_anchor(struct wr_clock_anchor *a)
{
	struct timespec t;
	uint64_t t0, t1, hz = rte_get_tsc_hz();

	t0 = rte_rdtsc_precise();
	clock_gettime(CLOCK_REALTIME, &t);
	t1 = rte_rdtsc_precise();
	a->tsc = t0 + (t1 - t0) / 2;
	a->realtime_ns = (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
	a->read_ns = hz != 0 ? (double)(t1 - t0) / 2 * 1e9 / (double)hz : 0;
}
