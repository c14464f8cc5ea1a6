/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <rte_devargs.h>

#include "common/exitcode.h"
#include "memifwait.h"

/* DPDK's memif defaults (rte_eth_memif.h, rte_eth_memif.c). */
#define MEMIF_DEFAULT_SOCKET "/run/memif.sock"
#define POLL_US 50000u

/* A memif client's socket: its path and whether it is abstract. */
struct memif_sock {
	char path[108];
	bool abstract;
};

/* Value of key= in a --vdev's argument string into out ("" absent). */
static void
devarg(const char *args, const char *key, char *out, size_t len)
{
	size_t klen = strlen(key), n;
	const char *s = args, *end;

	out[0] = '\0';
	while (s != NULL && *s != '\0') {
		end = strchr(s, ',');
		n = end != NULL ? (size_t)(end - s) : strlen(s);
		if (n > klen && strncmp(s, key, klen) == 0 && s[klen] == '=') {
			snprintf(out, len, "%.*s", (int)(n - klen - 1), s + klen + 1);
			return;
		}
		s = end != NULL ? end + 1 : NULL;
	}
}

/* True when da is a memif client; its socket in *ms. */
static bool
memif_client(const struct rte_devargs *da, struct memif_sock *ms)
{
	char v[16];

	if (strncmp(da->name, "net_memif", 9) != 0)
		return false;
	devarg(da->args != NULL ? da->args : "", "role", v, sizeof(v));
	if (v[0] != '\0' && strcmp(v, "client") != 0)
		return false;
	devarg(da->args != NULL ? da->args : "", "socket", ms->path, sizeof(ms->path));
	if (ms->path[0] == '\0')
		snprintf(ms->path, sizeof(ms->path), "%s", MEMIF_DEFAULT_SOCKET);
	devarg(da->args != NULL ? da->args : "", "socket-abstract", v, sizeof(v));
	ms->abstract = strcmp(v, "no") != 0;
	return true;
}

/* An abstract socket bound to path, as /proc/net/unix lists it ("@path"). */
static bool
abstract_bound(const char *path)
{
	char line[512];
	size_t plen = strlen(path), n;
	bool found = false;
	FILE *f = fopen("/proc/net/unix", "r");

	if (f == NULL)
		return true;    /* cannot tell: let the PMD try */
	while (!found && fgets(line, sizeof(line), f) != NULL) {
		n = strcspn(line, "\n");
		found = n > plen && line[n - plen - 1] == '@' &&
			strncmp(line + n - plen, path, plen) == 0;
	}
	fclose(f);
	return found;
}

static bool
sock_there(const struct memif_sock *ms)
{
	struct stat st;

	if (ms->abstract)
		return abstract_bound(ms->path);
	return stat(ms->path, &st) == 0 && S_ISSOCK(st.st_mode);
}

/* Wait for one client's server; 0, or APP_EXIT_FAILED after the timeout. */
static int
wait_one(const char *name, const struct memif_sock *ms, const volatile int *stop)
{
	unsigned int waited_us = 0;

	if (sock_there(ms))
		return 0;
	fprintf(stderr, "wirerate: %s: waiting for the memif server's socket %s%s "
		"(up to %u s)\n", name, ms->abstract ? "@" : "", ms->path,
		APP_MEMIF_WAIT_S);
	while (*stop == 0 && waited_us < APP_MEMIF_WAIT_S * 1000000u) {
		usleep(POLL_US);
		waited_us += POLL_US;
		if (sock_there(ms)) {
			fprintf(stderr, "wirerate: %s: the server's socket is there "
				"after %.1f s\n", name, waited_us / 1e6);
			return 0;
		}
	}
	if (*stop != 0)
		return 0;
	fprintf(stderr, "wirerate: error: %s: no memif server's socket %s%s after "
		"%u s: start the server first, or check socket= and "
		"socket-abstract=\n", name, ms->abstract ? "@" : "", ms->path,
		APP_MEMIF_WAIT_S);
	return APP_EXIT_FAILED;
}

int
app_memif_wait(const volatile int *stop)
{
	struct rte_devargs *da;
	struct memif_sock ms;
	int rc;

	RTE_EAL_DEVARGS_FOREACH("vdev", da) {
		if (!memif_client(da, &ms))
			continue;
		rc = wait_one(da->name, &ms, stop);
		if (rc != 0)
			return rc;
	}
	return 0;
}
