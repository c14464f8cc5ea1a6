/* SPDX-License-Identifier: BSD-3-Clause */
/* A connection run's pools against the machine's memory (connmem.h). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common/exitcode.h"
#include "config/opts_conn.h"
#include "connmem.h"
#include "parse.h"

/* The value of key ("HugePages_Total:") in /proc/meminfo, or 0. */
static uint64_t
meminfo(const char *key)
{
	char line[256];
	uint64_t v = 0;
	size_t n = strlen(key);
	FILE *f = fopen("/proc/meminfo", "r");

	if (f == NULL)
		return 0;
	while (fgets(line, sizeof(line), f) != NULL)
		if (strncmp(line, key, n) == 0 &&
				sscanf(line + n, "%" SCNu64, &v) == 1)
			break;
	fclose(f);
	return v;
}

uint64_t
app_connmem_avail_bytes(int dd, char **argv)
{
	int i;

	for (i = 1; i < dd; i++)
		if (strcmp(argv[i], "--no-huge") == 0)
			return meminfo("MemTotal:") * 1024;
	return meminfo("HugePages_Total:") * meminfo("Hugepagesize:") * 1024;
}

int
app_connmem_check(const struct wr_config *cfg, int dd, char **argv)
{
	struct wr_error err;
	uint64_t avail;
	unsigned int nb_ports = cfg->tx_ports_set ?
		(unsigned int)__builtin_popcountll(cfg->tx_port_mask) : 1;

	if (cfg->conn.cfg.role == 0)
		return APP_RUN;
	avail = app_connmem_avail_bytes(dd, argv);
	wr_err_clear(&err);
	if (avail != 0 && wr_opts_conn_mem_check(cfg, nb_ports, avail, &err) != 0)
		return app_error("wirerate", &err);
	return APP_RUN;
}
