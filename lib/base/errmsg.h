/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/ never prints: a failing function writes what went wrong into the
 * caller's buffer and returns a negative errno. This is the one helper for
 * that.
 */
#ifndef WR_ERRMSG_H
#define WR_ERRMSG_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include <rte_common.h>

/* Format the message into err (errlen bytes) and return rc. */
static inline int __rte_format_printf(4, 5)
wr_err(int rc, char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return rc;
}

#endif /* WR_ERRMSG_H */
