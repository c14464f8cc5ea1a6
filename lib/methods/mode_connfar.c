/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The far end's books of a connection mode's trials (--mode conn-rate
 * and conn-load with --peer; modes.h struct wr_mode_conn_far): the
 * methods call these around each trial; app/ asks the far end.
 */
#include "modes_int.h"

int
wr_mode_conn_far_begin(struct mode_ctx *m)
{
	const struct wr_mode_conn_far *f = m->h->conn_far;

	return f == NULL ? 0 : f->begin(f->arg, m->err);
}

int
wr_mode_conn_far_judge(struct mode_ctx *m, const struct wr_conn_books *d)
{
	const struct wr_mode_conn_far *f = m->h->conn_far;
	size_t n = json_array_size(m->trials);
	int rc;

	if (f == NULL || n == 0)
		return 0;
	rc = f->judge(d, json_array_get(m->trials, n - 1), f->arg, m->err);
	return rc < 0 ? rc : 0;
}
