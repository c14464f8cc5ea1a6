/* SPDX-License-Identifier: BSD-3-Clause */
/* The TCP core's connection pool (pool.h). */
#include <errno.h>
#include <string.h>

#include "tcp/pool.h"

size_t
wr_tcp_pool_mem_bytes(uint32_t nb_conns)
{
	size_t conns = (size_t)nb_conns * sizeof(struct wr_tcp_conn);

	return conns + (size_t)nb_conns * sizeof(uint32_t);
}

int
wr_tcp_pool_init(struct wr_tcp_pool *p, void *mem, uint32_t nb_conns,
	struct wr_error *err)
{
	uint32_t i;

	if (nb_conns == 0 || nb_conns >= WR_TCP_NIL)
		return wr_err_usage(err, -EINVAL,
			"tcp pool: %u connections, want 1 to %u", nb_conns,
			WR_TCP_NIL - 1);
	p->conns = mem;
	p->free_idx = (uint32_t *)((char *)mem +
		(size_t)nb_conns * sizeof(struct wr_tcp_conn));
	p->nb_conns = nb_conns;
	p->nb_exhausted = 0;
	memset(p->conns, 0, (size_t)nb_conns * sizeof(struct wr_tcp_conn));
	/* lowest index on top: the first connections are 0, 1, 2... */
	for (i = 0; i < nb_conns; i++)
		p->free_idx[i] = nb_conns - 1 - i;
	p->nb_free = nb_conns;
	return 0;
}
