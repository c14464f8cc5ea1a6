/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Parsers of option values shared by the option handlers of lib/config
 * (opts.c, opts_methods.c, opts_traffic.c). Each names the option (name,
 * without the leading --) and the value in its message, says what is
 * accepted, and returns 0 or -EINVAL with err filled (class usage).
 */
#ifndef WR_OPTS_VALUES_H
#define WR_OPTS_VALUES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_ether.h>

#include "base/error.h"

/* A whole number (k, M, G suffixes) within [min, max] into *out. */
int wr_optv_u64(const char *name, const char *val, uint64_t min, uint64_t max,
		uint64_t *out, struct wr_error *err);

/*
 * wr_optv_u64 into an unsigned integer of size bytes (2, 4 or 8) at out;
 * max must fit it. WR_OPTV_UINT passes the size of *out.
 */
int wr_optv_uint(const char *name, const char *val, uint64_t min, uint64_t max,
		void *out, size_t size, struct wr_error *err);
#define WR_OPTV_UINT(name, val, min, max, out, err) \
	wr_optv_uint((name), (val), (min), (max), (out), sizeof(*(out)), (err))

/* A duration (10, 2.5s, 500ms, 5m, 1h) of at least min_ms into *out (ms). */
int wr_optv_duration(const char *name, const char *val, uint64_t min_ms,
		uint64_t *out, struct wr_error *err);

/* A real number within [min, max] into *out. */
int wr_optv_real(const char *name, const char *v, double min, double max,
		double *out, struct wr_error *err);

/*
 * A port list (wr_opts_parse_portlist) into *mask; *set is false for
 * "all" (every port), true otherwise.
 */
int wr_optv_ports(const char *name, const char *val, uint64_t *mask, bool *set,
		struct wr_error *err);

/* A file path, not empty and shorter than size, copied into dst. */
int wr_optv_path(const char *name, const char *val, char *dst, size_t size,
		struct wr_error *err);

#endif /* WR_OPTS_VALUES_H */
