/* SPDX-License-Identifier: BSD-3-Clause */
/* The bounded store of drained capture copies (capture_kept.h). */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "capture_kept.h"

/* First size of copies[]; it doubles as it fills. */
#define CAPKEPT_FIRST_SLOTS 1024u

void
wr_capkept_init(struct wr_capkept *k, uint32_t max_kept)
{
	memset(k, 0, sizeof(*k));
	k->max_kept = max_kept;
}

/* Room in copies[] for one more; false when memory ran out. */
static bool
room(struct wr_capkept *k)
{
	uint32_t n = k->nb_slots != 0 ? 2 * k->nb_slots : CAPKEPT_FIRST_SLOTS;
	struct cap_copy **c;

	if (k->nb_kept < k->nb_slots)
		return true;
	c = realloc(k->copies, (size_t)n * sizeof(c[0]));
	if (c == NULL)
		return false;
	k->copies = c;
	k->nb_slots = n;
	return true;
}

void *
wr_capkept_add(struct wr_capkept *k, const void *meta, uint32_t len)
{
	struct cap_copy *cp;

	if (k->nb_kept >= k->max_kept || !room(k) ||
			(cp = malloc(sizeof(*cp) + len)) == NULL) {
		k->nb_lost++;
		return NULL;
	}
	memcpy(&cp->meta, meta, sizeof(cp->meta));
	cp->len = len;
	k->copies[k->nb_kept++] = cp;
	return cp->data;
}

/* Order of the file: RX time, then port, queue and arrival on it. */
static int
cmp_tsc(const void *a, const void *b)
{
	const struct cap_meta *x = &(*(struct cap_copy *const *)a)->meta;
	const struct cap_meta *y = &(*(struct cap_copy *const *)b)->meta;

	if (x->tsc != y->tsc)
		return x->tsc < y->tsc ? -1 : 1;
	if (x->port != y->port)
		return x->port < y->port ? -1 : 1;
	if (x->queue != y->queue)
		return x->queue < y->queue ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

void
wr_capkept_sort(const struct wr_capkept *k)
{
	if (k->nb_kept > 1)
		qsort(k->copies, k->nb_kept, sizeof(k->copies[0]), cmp_tsc);
}

void
wr_capkept_free(struct wr_capkept *k)
{
	uint32_t i;

	for (i = 0; i < k->nb_kept; i++)
		free(k->copies[i]);
	free(k->copies);
	k->copies = NULL;
	k->nb_kept = 0;
	k->nb_slots = 0;
}
