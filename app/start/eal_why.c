/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * EAL start-up, quiet unless it fails. EAL's own log (device probes that
 * do not concern wirerate, hugepage sizes it found nothing in) is kept in
 * memory and shown only when rte_eal_init() fails, followed by the cause
 * wirerate can name and what to do; with --log-level the user chose what
 * to see and the log goes out as usual, but for the telemetry library's
 * notice about its legacy socket (shown when --log-level names telemetry).
 * rte_eal_init() sets no rte_errno
 * for most of its failures, hence the probes here.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_log.h>

#include "common/exitcode.h"
#include "eal.h"


/* The value of EAL option --name (or --name=value) before --, or NULL. */
static const char *
eal_value(int argc, char **argv, const char *name)
{
	size_t n = strlen(name);
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
		if (strncmp(argv[i], name, n) != 0)
			continue;
		if (argv[i][n] == '=')
			return argv[i] + n + 1;
		if (argv[i][n] == '\0')
			return i + 1 < argc ? argv[i + 1] : "";
	}
	return NULL;
}

/*
 * The process holding the write lock on PREFIX's shared configuration
 * (the primary process of that --file-prefix), or 0 when none does. The
 * path is EAL's: /var/run/dpdk/PREFIX/config for root, else under
 * $XDG_RUNTIME_DIR or /tmp.
 */
static pid_t
prefix_holder(const char *prefix)
{
	const char *base = getenv("XDG_RUNTIME_DIR");
	struct flock lk = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	char path[4096];
	int fd;

	if (getuid() == 0 || base == NULL)
		base = getuid() == 0 ? "/var/run" : "/tmp";
	snprintf(path, sizeof(path), "%s/dpdk/%s/config", base, prefix);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	if (fcntl(fd, F_GETLK, &lk) != 0 || lk.l_type == F_UNLCK)
		lk.l_pid = 0;
	close(fd);
	return lk.l_pid;
}

static bool
hugetlbfs_mounted(void)
{
	char line[1024], type[64];
	bool found = false;
	FILE *f = fopen("/proc/mounts", "r");

	if (f == NULL)
		return true;     /* cannot tell: do not send the user astray */
	while (!found && fgets(line, sizeof(line), f) != NULL)
		found = sscanf(line, "%*s %*s %63s", type) == 1 &&
			strcmp(type, "hugetlbfs") == 0;
	fclose(f);
	return found;
}

/*
 * Print the cause of a failed rte_eal_init() and what to do; return the
 * exit code (docs/reliability.md): the machine (a --file-prefix in use,
 * no hugetlbfs, no memory, no permission) is an environment error, 1; an
 * EAL option or device name EAL refused (EINVAL, ENODEV) is usage, 2.
 */
static int
explain(int argc, char **argv, int err)
{
	const char *prefix = eal_value(argc, argv, "--file-prefix");
	bool in_memory = eal_value(argc, argv, "--in-memory") != NULL ||
		eal_value(argc, argv, "--no-shconf") != NULL;
	bool no_huge = eal_value(argc, argv, "--no-huge") != NULL;
	pid_t pid;

	fputs("wirerate: error: EAL initialisation failed: ", stderr);
	if (prefix == NULL)
		prefix = "rte";
	if (!in_memory && (pid = prefix_holder(prefix)) != 0) {
		fprintf(stderr, "another DPDK process (pid %d) runs with "
			"--file-prefix %s; give this one its own --file-prefix "
			"NAME, or --in-memory\n", (int)pid, prefix);
		return APP_EXIT_FAILED;
	}
	if (!in_memory && !no_huge && !hugetlbfs_mounted()) {
		fputs("no hugetlbfs is mounted; add --in-memory (hugepages without "
			"a mount point), or mount and reserve hugepages: "
			"scripts/lib/setup.sh (wr_hugepages) or dpdk-hugepages.py "
			"-p 2M --setup 1G\n", stderr);
		return APP_EXIT_FAILED;
	}
	if (err != 0)
		fprintf(stderr, "%s; ", rte_strerror(err));
	fputs("EAL's log above says why (check the EAL options before --, "
		"hugepages, and that no other DPDK process uses the same "
		"--file-prefix)\n", stderr);
	return err == EINVAL || err == ENODEV ? APP_EXIT_USAGE : APP_EXIT_FAILED;
}

/* lib.telemetry's logtype id, for the stream below. */
static int telemetry_logtype = -1;

/*
 * EAL's log while rte_eal_init() runs with --log-level: out to stderr as
 * usual, but for the telemetry library's notices (the legacy socket,
 * which nothing of wirerate uses): start-up chatter, shown only when
 * --log-level names telemetry. Its errors still go out.
 */
static ssize_t
eal_log_write(void *cookie, const char *buf, size_t size)
{
	(void)cookie;
	if ((int)rte_log_cur_msg_logtype() == telemetry_logtype &&
			rte_log_cur_msg_loglevel() > (int)RTE_LOG_ERR)
		return (ssize_t)size;
	return (ssize_t)fwrite(buf, 1, size, stderr);
}

/* The stream EAL logs to while it starts, NULL for its own. */
static FILE *
start_log(int argc, char **argv, char **log, size_t *len)
{
	const char *level = eal_value(argc, argv, "--log-level");
	cookie_io_functions_t io = { .write = eal_log_write };

	if (level == NULL)
		return open_memstream(log, len);
	if (strstr(level, "telemetry") != NULL)
		return NULL;
	telemetry_logtype = rte_log_register("lib.telemetry");
	return fopencookie(NULL, "w", io);
}

int
app_eal_init(int argc, char **argv, int *exit_code)
{
	char *log = NULL;
	size_t len = 0;
	FILE *mem;
	int n;

	*exit_code = app_afpacket_check(argc, argv);
	if (*exit_code != APP_EXIT_OK)
		return -1;
	mem = start_log(argc, argv, &log, &len);
	if (mem != NULL)
		rte_openlog_stream(mem);
	n = rte_eal_init(argc, argv);
	if (mem != NULL) {
		rte_openlog_stream(NULL);
		fclose(mem);
	}
	*exit_code = APP_EXIT_OK;
	if (n < 0) {
		if (log != NULL)
			fputs(log, stderr);
		*exit_code = explain(argc, argv, rte_errno);
	}
	free(log);
	return n;
}
