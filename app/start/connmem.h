/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A connection run's pools against the memory EAL may take, before EAL
 * starts (connmem.c): --conn-concurrency too large for the machine is bad
 * input, refused with the bytes it needs, not a failed allocation later.
 */
#ifndef WR_APP_CONNMEM_H
#define WR_APP_CONNMEM_H

#include "config/config.h"

/*
 * Bytes of memory EAL may take on this machine: the hugepages
 * (/proc/meminfo HugePages_Total x Hugepagesize), or the machine's memory
 * (MemTotal) when the EAL options argv[1..dd-1] hold --no-huge. 0 when
 * /proc/meminfo cannot be read (nothing to check against).
 */
uint64_t app_connmem_avail_bytes(int dd, char **argv);

/*
 * For a connection run (cfg->conn.cfg.role != 0): the pools of the ports
 * named by --tx-ports (one port when none is named) against
 * app_connmem_avail_bytes. Returns APP_RUN, or the exit code of the error
 * said on stderr (2).
 */
int app_connmem_check(const struct wr_config *cfg, int dd, char **argv);

#endif /* WR_APP_CONNMEM_H */
