/* SPDX-License-Identifier: BSD-3-Clause */
/* Small helpers for building result documents with jansson. */
#ifndef WR_JSONW_H
#define WR_JSONW_H

#include <stdint.h>

#include <jansson.h>

/* json_object_set_new that tolerates NULL values from failed allocations. */
static inline void
wr_json_set(json_t *o, const char *k, json_t *v)
{
	if (v != NULL)
		json_object_set_new(o, k, v);
}

/* A counter as a JSON integer (jansson's are signed 64-bit). */
static inline json_t *
wr_json_u64(uint64_t v)
{
	return json_integer((json_int_t)v);
}

#endif /* WR_JSONW_H */
